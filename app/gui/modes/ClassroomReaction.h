#pragma once
// View → Classroom (F11): only what a lecture hall needs — full screen with the view, the
// lesson's caption and the training timeline; the docks, toolbars, menu bar, status bar and the
// view's control strip are hidden, and come back as they were when F11 is pressed again. View →
// Keep in classroom chooses docks that stay (the Ranking, the loss plot in the Detector dock);
// the choice is remembered and saved with a session, as is the mode itself.
#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>

class QAction;
class QMainWindow;
class QMenu;

namespace olens {

class ClassroomReaction : public QObject {
    Q_OBJECT
public:
    /// `keep`: the submenu that lists the docks with a check box each (filled here).
    ClassroomReaction(QAction* action, QMenu* keep, QMainWindow* window);
    bool isActive() const { return m_active; }
    void setActive(bool on);
    /// Leaves classroom mode (before the window saves its layout).
    void leave() { setActive(false); }
    /// The docks (object names) kept visible in classroom mode.
    QStringList panels() const { return m_panels; }
    void setPanels(const QStringList& objectNames);
    /// Runs `arrange` (the window's first layout of its docks, or the tabbing of a window made
    /// short) on the docks as they will come back on leaving, when classroom mode was entered
    /// before (a session saved in classroom mode, opened at start): before, leaving restored the
    /// unarranged docks (the Ranking 4 rows high at 1280×720). As CompareReaction::arrangeDocks.
    void arrangeDocks(const std::function<void()>& arrange);

private:
    void showChosenDocks();
    QAction* m_action;
    QMainWindow* m_window;
    QMenu* m_keep;
    QStringList m_panels;
    bool m_active = false;
    bool m_wasFullScreen = false;
    QByteArray m_state; // the window's docks and toolbars before (empty out of classroom mode)
    QList<QPointer<QAction>> m_lent; // menu actions with a key, added to the window while the menu bar is hidden
};

} // namespace olens
