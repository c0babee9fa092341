#pragma once
// Help → About OutlierLens: what it is, the versions of Qt, VTK and Eigen it was built with, mouse
// and key summary.
#include <QObject>

class QAction;
class QWidget;

namespace olens {

class AboutReaction : public QObject {
    Q_OBJECT
public:
    /// `window`: the parent of the About box.
    AboutReaction(QAction* action, QWidget* window);
    /// The About text (rich text), e.g. "... Qt 6.4.2 (built with 6.4.2), VTK 9.1.0, Eigen 3.4.0 ...".
    static QString text();

private:
    QWidget* m_window;
};

} // namespace olens
