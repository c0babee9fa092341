#include "reactions/AboutReaction.h"


#include <Eigen/Core>
#include <QAction>
#include <QApplication>
#include <QMessageBox>
#include <vtkVersionMacros.h>

namespace olens {

AboutReaction::AboutReaction(QAction* action, QWidget* window) : QObject(action), m_window(window)
{
    action->setObjectName("actionAbout");
    connect(action, &QAction::triggered, this, [this] {
        QMessageBox::about(m_window, tr("About OutlierLens"), text());
    });
}

QString AboutReaction::text()
{
    const QString eigen = QStringLiteral("%1.%2.%3").arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION);
    return tr("<b>OutlierLens %1</b><p>Explore geometric outlier detectors and manifold learners on point clouds.</p>"
              "<p>Qt %2 (built with %3), VTK %4, Eigen %5.</p>"
              "<p><b>Mouse</b>: left drag rotates (3D), middle drag pans, wheel zooms, click picks a point, "
              "double-click or R resets the camera, F flies to the selected point.</p>"
              "<p><b>Keys</b>: Ctrl+O open, Ctrl+T train, Esc cancel, E edit points, B / L select box / lasso "
              "(then Shift adds, Ctrl subtracts; Del deletes the selection), Ctrl+M compare, "
              "Ctrl+Shift+S screenshot, F1 all shortcuts.</p>")
        .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
             QStringLiteral(VTK_VERSION), eigen);
}

} // namespace olens
