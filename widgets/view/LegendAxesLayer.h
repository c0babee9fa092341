#pragma once
// What explains the picture: axes with numbers and feature names (one x and one y axis in 2D, the
// data box's outer edges in 3D), the colour bar (score or custom values) or a legend of labels /
// clusters and of the drawn layers, the projection note and the grid extent of the field.
#include "view/ViewLayer.h"

#include <vtkNew.h>

class vtkCubeAxesActor;
class vtkLegendBoxActor;
class vtkScalarBarActor;
class vtkTextActor;

namespace olens {

class LegendAxesLayer : public ViewLayer {
public:
    LegendAxesLayer();
    ~LegendAxesLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

    /// The colour bar is shown; the scene then leaves it a strip on the right.
    bool colourBarShown() const { return m_colourBar; }

private:
    void updateAxes(const ViewContext& ctx);
    void updateLegend(const ViewContext& ctx);

    vtkNew<vtkCubeAxesActor> m_axes;
    vtkNew<vtkLegendBoxActor> m_legend;
    vtkNew<vtkScalarBarActor> m_scalarBar;
    vtkNew<vtkTextActor> m_noteActor;
    vtkNew<vtkTextActor> m_gridActor;
    bool m_colourBar = false;
};

} // namespace olens
