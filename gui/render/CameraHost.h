#pragma once
// What the camera tools (CameraRig, CameraFlight) need of a view, and nothing more: its scene
// renderer and interactor, whether it is 3-D, a frame on request, a refit of the camera, and the
// QObject that owns the tools. VtkView implements it, so the tools no longer include VtkView
// (which includes the rig to re-apply it on a mode change: the two sat in an include cycle).
class QObject;
class vtkRenderer;
class vtkRenderWindowInteractor;

namespace olens {

class CameraHost {
public:
    virtual ~CameraHost() = default;
    virtual vtkRenderer* renderer() const = 0;
    virtual vtkRenderWindowInteractor* cameraInteractor() const = 0;
    virtual bool isThreeD() const = 0;
    /// The scene changed: draw it at the next paint.
    virtual void scheduleRender() = 0;
    /// Fits the camera to the visible data.
    virtual void resetCamera() = 0;
    /// Parent of the view's rig and of running camera animations.
    virtual QObject* cameraOwner() = 0;
};

} // namespace olens
