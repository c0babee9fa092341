#pragma once
// The points as round sprites (shaders/points.*.glsl) coloured and sized per point, the top-k
// rings and the selection highlight. The sprites are the view's pick target.
#include "view/ViewLayer.h"

#include "view/SpriteShader.h"

#include <vtkNew.h>

class vtkActor;
class vtkFloatArray;
class vtkPolyData;

namespace olens {

class PointLayer : public ViewLayer {
public:
    /// sizeScale: the view's factor on every sprite size (shared with the selection halos).
    explicit PointLayer(std::shared_ptr<float> sizeScale);
    ~PointLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

    vtkActor* points() const { return m_points; }
    void setPointSize(float pixels);
    /// Level of detail: draw every k-th point (1 = all) until set back.
    void setLodStride(int k) { m_uniforms->lodStride = k; }

private:
    void updateTopK(const ViewContext& ctx);
    void updateSelection(const ViewContext& ctx);
    /// The colouring's sprite sizes, negated for the points to draw in front (3-D outliers).
    vtkFloatArray* frontSizes(const ViewContext& ctx);

    vtkNew<vtkPolyData> m_poly;
    vtkNew<vtkActor> m_points;
    vtkNew<vtkPolyData> m_selPoly;
    vtkNew<vtkActor> m_selection;
    vtkNew<vtkPolyData> m_topPoly;
    vtkNew<vtkActor> m_top;
    vtkNew<SpriteUniforms> m_uniforms;
    vtkNew<vtkFloatArray> m_sizes; // frontSizes' copy
};

} // namespace olens
