#include "render/CameraRig.h"

#include "render/CameraHost.h"

#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkOrientationMarkerWidget.h>
#include <vtkRenderWindowInteractor.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>

namespace olens {

CameraRig* CameraRig::of(CameraHost* view)
{
    if (auto* rig = view->cameraOwner()->findChild<CameraRig*>(QString(), Qt::FindDirectChildrenOnly))
        return rig;
    return new CameraRig(view);
}

CameraRig::CameraRig(CameraHost* view) : QObject(view->cameraOwner()), m_view(view)
{
    // A small renderer in the scene's bottom-left corner that follows the camera's orientation;
    // not interactive, so it never takes the mouse from the camera.
    vtkNew<vtkAxesActor> axes;
    axes->SetShaftTypeToCylinder();
    axes->SetCylinderRadius(0.03);
    axes->SetConeRadius(0.25);
    m_triad = vtkSmartPointer<vtkOrientationMarkerWidget>::New();
    m_triad->SetOrientationMarker(axes);
    m_triad->SetInteractor(view->cameraInteractor());
    m_triad->SetDefaultRenderer(view->renderer());
    m_triad->SetViewport(0.0, 0.05, 0.17, 0.25); // above the grid note in the bottom-left corner
    m_triad->SetZoom(1.3);
    applyMode();
}

CameraRig::~CameraRig()
{
    if (m_triad->GetEnabled())
        m_triad->SetEnabled(0);
    m_triad->SetInteractor(nullptr);
}

bool CameraRig::isThreeD() const
{
    return m_view->isThreeD();
}

void CameraRig::applyMode()
{
    const bool threeD = isThreeD();
    if (threeD)
        m_view->renderer()->GetActiveCamera()->SetParallelProjection(m_parallel);
    const bool triad = m_triadWanted && threeD;
    if (bool(m_triad->GetEnabled()) != triad) {
        m_triad->SetEnabled(triad ? 1 : 0);
        if (triad)
            m_triad->InteractiveOff();
    }
    m_view->scheduleRender();
    emit modeChanged();
}

void CameraRig::setParallelProjection(bool on)
{
    if (m_parallel == on)
        return;
    m_parallel = on;
    if (isThreeD()) {
        vtkCamera* cam = m_view->renderer()->GetActiveCamera();
        // Same apparent size: the parallel scale is the half height of the perspective frustum at
        // the focal point.
        if (on)
            cam->SetParallelScale(std::max(1e-12, cam->GetDistance() * std::tan(cam->GetViewAngle() * M_PI / 360.0)));
        cam->SetParallelProjection(on);
        m_view->renderer()->ResetCameraClippingRange();
        m_view->scheduleRender();
    }
    emit projectionChanged(on);
}

void CameraRig::viewFrom(ViewPreset preset)
{
    if (!isThreeD())
        return;
    vtkRenderer* ren = m_view->renderer();
    vtkCamera* cam = ren->GetActiveCamera();
    std::array<double, 3> focus;
    double b[6];
    ren->ComputeVisiblePropBounds(b);
    if (b[0] <= b[1])
        focus = {0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5])};
    else
        cam->GetFocalPoint(focus.data());
    const ViewOrientation o = viewOrientation(preset);
    const std::array<double, 3> pos = presetPosition(preset, focus, std::max(1e-9, cam->GetDistance()));
    cam->SetFocalPoint(focus.data());
    cam->SetPosition(pos.data());
    cam->SetViewUp(o.viewUp.data());
    m_view->resetCamera(); // fits the data along the new direction, emits cameraChanged
}

void CameraRig::setOrientationTriadVisible(bool on)
{
    m_triadWanted = on;
    applyMode();
}

bool CameraRig::orientationTriadShown() const
{
    return m_triad->GetEnabled() != 0;
}

} // namespace olens
