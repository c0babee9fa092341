#pragma once
// View → Classroom (F11): only what a lecture hall needs — full screen with the view, the
// lesson's caption and the training timeline; the docks, toolbars, menu bar, status bar and the
// view's control strip are hidden, and come back as they were when F11 is pressed again.
#include <QByteArray>
#include <QObject>

class QAction;

namespace olens {

class MainWindow;

class ClassroomReaction : public QObject {
    Q_OBJECT
public:
    ClassroomReaction(QAction* action, MainWindow* window);
    bool isActive() const { return m_active; }
    /// Leaves classroom mode (before the window saves its layout).
    void leave() { setActive(false); }

private:
    void setActive(bool on);
    QAction* m_action;
    MainWindow* m_window;
    bool m_active = false;
    bool m_wasFullScreen = false;
    QByteArray m_state; // the window's docks and toolbars before
};

} // namespace olens
