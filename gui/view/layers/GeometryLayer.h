#pragma once
// The detector's geometry: quadric zero sets (curves in 2D, translucent surfaces in 3D) and GODS /
// KODS hyperplanes, both contoured from the sampled field and coloured by component / frame, and
// flats (ACDT clusters, the PCA subspace) drawn directly as segments or patches over their extent
// (corners from display/DisplayGeometry.h).
#include "view/layers/ViewLayer.h"

#include <vector>
#include <vtkSmartPointer.h>

class vtkActor;

namespace olens {

class GeometryLayer : public ViewLayer {
public:
    GeometryLayer();
    ~GeometryLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

private:
    void drawImplicit(const ViewContext& ctx);
    void drawFlats(const ViewContext& ctx);
    void applyVisibility(const ViewContext& ctx);

    vtkRenderer* m_scene = nullptr;
    std::vector<vtkSmartPointer<vtkActor>> m_quadrics, m_planes, m_flats;
    std::vector<int> m_planeFrame; // frame of each entry of m_planes
};

} // namespace olens
