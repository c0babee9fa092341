#pragma once
// The point-sprite vertex shader (shaders/points.vert.*.glsl) shared by the points and the
// selection halos: a per-point size attribute and two uniforms, set each time VTK binds the
// program — a view-wide size factor (the automatic point size, shared by every sprite actor of one
// view so halos keep hugging their points), a depth bias per pixel of size (2-D only) and whether
// sprites with a negative size (3-D: the flagged outliers) are drawn in front of all others.
#include <vtkCommand.h>

#include <memory>
#include <string>

class vtkActor;
class vtkPolyDataMapper;

namespace olens {

class SpriteUniforms : public vtkCommand {
public:
    static SpriteUniforms* New() { return new SpriteUniforms; }
    void Execute(vtkObject*, unsigned long, void* program) override;

    std::shared_ptr<float> sizeScale = std::make_shared<float>(1.0f);
    float depthBias = 0.0f;
    bool front = false; ///< sprites with a negative size are drawn in front of all others
    int lodStride = 1;  ///< while the camera moves: draw every k-th point
    /// Which sprites this actor draws: all, only those with a negative size (the flagged points,
    /// the opaque pass of a translucent cloud) or only the others (its translucent pass).
    enum class Pass { All, FrontOnly, BackOnly };
    Pass pass = Pass::All;
    float minSize = 0.0f; ///< the smallest sprite in pixels (0: none)
    bool onTop = false;   ///< every sprite of the actor in front of all others (the selection's rings)
};

/// A shader file from the resources (qt_add_resources of shaders/).
std::string spriteShaderText(const char* name);

/// Sizes the actor's points from the "olensPointSize" attribute times the uniforms' scale.
void installSpriteVertexShader(vtkActor* actor, vtkPolyDataMapper* mapper, SpriteUniforms* uniforms);

} // namespace olens
