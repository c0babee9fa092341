#include "view/layers/SelectionLayer.h"

#include "document/DataDocument.h"
#include "view/layers/PointColouring.h"
#include "render/SpriteShader.h"
#include "render/VtkSupport.h"

#include <vtkActor.h>
#include <cmath>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkShaderProperty.h>
#include <vtkUnsignedCharArray.h>

namespace olens {

SelectionLayer::SelectionLayer(std::shared_ptr<float> sizeScale, Marks marks) : m_marks(marks)
{
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(m_poly);
    mapper->SetScalarModeToUsePointData();
    mapper->SetColorModeToDirectScalars();
    m_actor->SetMapper(mapper);
    m_actor->GetProperty()->SetRepresentationToPoints();
    m_actor->GetProperty()->LightingOff();
    // The point sprites' vertex shader, with its per-point size and the view's size factor.
    m_uniforms->sizeScale = sizeScale;
    installSpriteVertexShader(m_actor, mapper, m_uniforms);
    vtkShaderProperty* sp = m_actor->GetShaderProperty();
    // Anti-aliased rings without the points' dark rim. The selection's are drawn in front of every
    // point with a smallest size (negative sprite sizes, SpriteUniforms::front and minSize): in a
    // dense cloud of a million points a halo behind its point was covered by its neighbours and
    // the picked point could not be found (issue #54); the hole leaves the point itself in sight.
    // Training marks are thinner rings behind the points.
    const double hole = marks == Marks::Training ? 0.7 : kHole;
    const std::string h = std::to_string(hole);
    const std::string inner = "    if (olensR < " + h + " - olensAa) discard;\n"
                              "    gl_FragData[0].a *= smoothstep(" + h + " - olensAa, " + h + " + olensAa, olensR);\n";
    if (marks == Marks::Selection) {
        m_uniforms->front = true;
        m_uniforms->onTop = true;
    }
    sp->AddFragmentShaderReplacement("//VTK::Light::Impl", true,
                                     "//VTK::Light::Impl\n"
                                     "  {\n"
                                     "    float olensR = length(gl_PointCoord * 2.0 - 1.0);\n"
                                     "    float olensAa = max(fwidth(olensR), 1e-3);\n"
                                     "    if (olensR > 1.0 + olensAa) discard;\n"
                                     "    gl_FragData[0].a *= 1.0 - smoothstep(1.0 - olensAa, 1.0 + olensAa, olensR);\n"
                                     + inner + "  }\n",
                                     false);
    m_actor->PickableOff();
    m_actor->VisibilityOff();
}

SelectionLayer::~SelectionLayer() = default;

void SelectionLayer::attach(vtkRenderer* scene, vtkRenderer*)
{
    scene->AddActor(m_actor);
}

long SelectionLayer::haloCount() const
{
    return m_actor->GetVisibility() ? static_cast<long>(m_poly->GetNumberOfPoints()) : 0;
}

void SelectionLayer::update(const ViewContext& ctx, unsigned changes)
{
    if (!(changes & (Points | Positions | Colours | Selection)))
        return;
    const auto& display = *ctx.display;
    static const std::vector<int> none;
    const auto result = ctx.doc->result();
    const std::vector<int>& sel = m_marks == Marks::Selection ? ctx.doc->pointSelection()
                                  : result                    ? result->trainingRows
                                                              : none;
    std::vector<int> rows;
    rows.reserve(sel.size());
    for (int i : sel)
        if (i >= 0 && i < display.rows())
            rows.push_back(i);
    if (rows.empty()) {
        m_actor->VisibilityOff();
        return;
    }
    Eigen::MatrixX3d P(static_cast<Eigen::Index>(rows.size()), 3);
    for (std::size_t r = 0; r < rows.size(); ++r)
        P.row(static_cast<Eigen::Index>(r)) = display.row(rows[r]);
    m_poly->ShallowCopy(vertexCloud(P));
    vtkNew<vtkUnsignedCharArray> colours;
    colours->SetName("colours");
    colours->SetNumberOfComponents(3);
    colours->SetNumberOfTuples(static_cast<vtkIdType>(rows.size()));
    vtkNew<vtkFloatArray> sizes;
    sizes->SetName("olensPointSize");
    sizes->SetNumberOfTuples(static_cast<vtkIdType>(rows.size()));
    vtkFloatArray* pointSizes = ctx.colouring ? ctx.colouring->sizes() : nullptr;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const auto id = static_cast<vtkIdType>(r);
        const bool training = m_marks == Marks::Training;
        colours->SetTypedTuple(id, training ? kTrainingColour : kColour);
        const float base = pointSizes && rows[r] < pointSizes->GetNumberOfTuples() ? pointSizes->GetValue(rows[r]) : 9.0f;
        const float size = std::abs(base) * (training ? kTrainingScale : kScale);
        sizes->SetValue(id, training ? size : -size); // negative: drawn in front (SpriteUniforms::front)
    }
    if (m_marks == Marks::Selection)
        m_uniforms->minSize = static_cast<float>(fontPx(kMinHaloPx)); // device pixels, with the text size
    m_poly->GetPointData()->SetScalars(colours);
    m_poly->GetPointData()->AddArray(sizes);
    m_poly->Modified();
    m_actor->VisibilityOn();
}

} // namespace olens
