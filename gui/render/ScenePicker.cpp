#include "render/ScenePicker.h"

#include "display/SelectionGeometry.h"

#include <QPolygonF>

#include <vtkCamera.h>
#include <vtkDataSet.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkMatrix4x4.h>
#include <vtkPointPicker.h>
#include <vtkProp3D.h>
#include <vtkRenderer.h>

#include <cmath>

namespace olens {

ScenePicker::ScenePicker()
{
    m_picker->SetTolerance(0.01);
}

ScenePicker::~ScenePicker() = default;

vtkPointPicker* ScenePicker::picker() const
{
    return m_picker;
}

void ScenePicker::setTarget(vtkProp3D* prop)
{
    m_target = prop;
    m_picker->InitializePickList();
    if (prop) {
        m_picker->AddPickList(prop);
        m_picker->PickFromListOn();
    }
}

int ScenePicker::pick(vtkRenderer* renderer, int width, int height, int x, int y, double radius)
{
    if (!m_target || width <= 0 || height <= 0)
        return -1;
    // The picker's tolerance is a fraction of the window diagonal.
    const double diag = std::hypot(double(width), double(height));
    m_picker->SetTolerance(radius / diag);
    if (!m_picker->Pick(x, height - 1 - y, 0.0, renderer))
        return -1;
    const vtkIdType id = m_picker->GetPointId();
    // A target that holds some rows only (a big cloud's still frame) says which row each point is.
    vtkDataSet* data = m_picker->GetDataSet();
    if (auto* rows = data ? vtkIntArray::SafeDownCast(data->GetPointData()->GetArray(kRowArray)) : nullptr)
        return id >= 0 && id < rows->GetNumberOfTuples() ? rows->GetValue(id) : -1;
    return static_cast<int>(id);
}

Eigen::MatrixX2d ScenePicker::toScreen(vtkRenderer* ren, int width, int height, const Eigen::Ref<const Eigen::MatrixX3d>& world)
{
    // The camera's world → normalised view matrix, then the scene viewport in display pixels.
    double vp[4];
    ren->GetViewport(vp);
    vtkMatrix4x4* m = ren->GetActiveCamera()->GetCompositeProjectionTransformMatrix(ren->GetTiledAspectRatio(), -1, 1);
    Eigen::Matrix4d composite;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            composite(r, c) = m->GetElement(r, c);
    const DisplayViewport viewport{vp[0] * width, vp[1] * height, (vp[2] - vp[0]) * width, (vp[3] - vp[1]) * height};
    return projectToDisplay(world, composite, viewport);
}

std::vector<int> ScenePicker::pointsInRegion(vtkRenderer* ren, int width, int height, const Eigen::Ref<const Eigen::MatrixX3d>& display,
                                             const QPolygonF& widgetPolygon, double dpr)
{
    if (display.rows() == 0 || widgetPolygon.size() < 3 || width <= 0 || height <= 0)
        return {};
    const Eigen::MatrixX2d screen = toScreen(ren, width, height, display);
    // Widget (logical, y down) → display (device pixels, y up), as VtkView::worldToWidget inverts.
    std::vector<Eigen::Vector2d> polygon;
    polygon.reserve(static_cast<std::size_t>(widgetPolygon.size()));
    for (const QPointF& q : widgetPolygon)
        polygon.emplace_back(q.x() * dpr, height - 1 - q.y() * dpr);
    return pointsInPolygon(screen, polygon);
}

} // namespace olens
