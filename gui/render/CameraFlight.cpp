#include "render/CameraFlight.h"

#include "render/CameraHost.h"

#include <QVariantAnimation>

#include <vtkCamera.h>
#include <vtkRenderer.h>

namespace olens {

void CameraFlight::fly(CameraHost* view, Eigen::Vector3d to, bool keepDepth)
{
    vtkRenderer* ren = view->renderer();
    vtkCamera* cam = ren->GetActiveCamera();
    double f0[3], p0[3];
    cam->GetFocalPoint(f0);
    cam->GetPosition(p0);
    const Eigen::Vector3d from(f0[0], f0[1], f0[2]);
    if (keepDepth)
        to.z() = from.z();
    auto* anim = new QVariantAnimation(view->cameraOwner());
    anim->setDuration(350);
    anim->setStartValue(0.0);
    anim->setEndValue(1.0);
    anim->setEasingCurve(QEasingCurve::InOutCubic);
    QObject::connect(anim, &QVariantAnimation::valueChanged, view->cameraOwner(), [=](const QVariant& v) {
        const double t = v.toDouble();
        const Eigen::Vector3d f = from + t * (to - from);
        const Eigen::Vector3d shift = f - from;
        cam->SetFocalPoint(f.x(), f.y(), f.z());
        cam->SetPosition(p0[0] + shift.x(), p0[1] + shift.y(), p0[2] + shift.z());
        ren->ResetCameraClippingRange();
        view->scheduleRender();
    });
    anim->start(QAbstractAnimation::DeleteWhenStopped);
}

} // namespace olens
