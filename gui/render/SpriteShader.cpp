#include "render/SpriteShader.h"

#include <QFile>

#include <vtkActor.h>
#include <vtkDataObject.h>
#include <vtkPolyDataMapper.h>
#include <vtkShaderProgram.h>
#include <vtkShaderProperty.h>

namespace olens {

void SpriteUniforms::Execute(vtkObject*, unsigned long, void* program)
{
    if (auto* p = static_cast<vtkShaderProgram*>(program)) {
        p->SetUniformf("olensSizeScale", *sizeScale);
        p->SetUniformf("olensDepthBias", depthBias);
        p->SetUniformf("olensFront", front ? 1.0f : 0.0f);
        p->SetUniformf("olensLodStride", static_cast<float>(lodStride));
        p->SetUniformf("olensPass", static_cast<float>(pass));
        p->SetUniformf("olensMinSize", minSize);
        p->SetUniformf("olensOnTop", onTop ? 1.0f : 0.0f);
    }
}

std::string spriteShaderText(const char* name)
{
    QFile f(QStringLiteral(":/shaders/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("OutlierLens: shader resource %s missing", name);
    return f.readAll().toStdString();
}

void installSpriteVertexShader(vtkActor* actor, vtkPolyDataMapper* mapper, SpriteUniforms* uniforms)
{
    mapper->MapDataArrayToVertexAttribute("olensPointSize", "olensPointSize", vtkDataObject::FIELD_ASSOCIATION_POINTS, -1);
    vtkShaderProperty* sp = actor->GetShaderProperty();
    sp->AddVertexShaderReplacement("//VTK::PositionVC::Dec", true, spriteShaderText("points.vert.dec.glsl"), false);
    sp->AddVertexShaderReplacement("//VTK::PositionVC::Impl", true, spriteShaderText("points.vert.impl.glsl"), false);
    // Every render binds the program and fires this event: the uniforms are always current.
    mapper->AddObserver(vtkCommand::UpdateShaderEvent, uniforms);
}

} // namespace olens
