#pragma once
// Picking in a VtkView's scene (split from VtkView and CloudView): the point under the cursor
// (vtkPointPicker restricted to the pick target, its tolerance a radius in pixels) and the points
// inside a drawn region (box or lasso, projected with the camera's own matrices through
// display/SelectionGeometry, so what is inside on screen is inside the selection).
#include <Eigen/Core>
#include <vtkNew.h>

#include <vector>

class QPointF;
class QPolygonF;
class vtkPointPicker;
class vtkProp3D;
class vtkRenderer;

namespace olens {

class ScenePicker {
public:
    ScenePicker();
    ~ScenePicker();

    /// The picker (also the interactor's).
    vtkPointPicker* picker() const;
    /// The actor whose points can be picked: its mapper input's point ids are the rows, or, when it
    /// holds some rows only, its int point array kRowArray says which row each point is.
    void setTarget(vtkProp3D* prop);
    static constexpr const char* kRowArray = "olensRow";
    vtkProp3D* target() const { return m_target; }
    /// Id of the target's point within `radius` device pixels of the device pixel (x, y) (y down)
    /// of a window `width` × `height` device pixels, or -1.
    int pick(vtkRenderer* renderer, int width, int height, int x, int y, double radius);

    /// Device-pixel positions (y up, VTK's display coordinates) of world points under the
    /// renderer's camera and viewport, in a window `width` × `height` device pixels.
    static Eigen::MatrixX2d toScreen(vtkRenderer* renderer, int width, int height, const Eigen::Ref<const Eigen::MatrixX3d>& world);
    /// Rows of `display` (world coordinates) whose projection lies inside `widgetPolygon` (widget
    /// logical pixels, y down; device pixel ratio `dpr`) in a window `width` × `height` device pixels.
    static std::vector<int> pointsInRegion(vtkRenderer* renderer, int width, int height, const Eigen::Ref<const Eigen::MatrixX3d>& display,
                                           const QPolygonF& widgetPolygon, double dpr);

private:
    vtkNew<vtkPointPicker> m_picker;
    vtkProp3D* m_target = nullptr;
};

} // namespace olens
