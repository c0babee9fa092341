#pragma once
// Help → Keyboard shortcuts (F1): the shortcuts of every menu action, generated from the actions, in
// a dialog that fits the screen (a scrolling page; before, a message box ran off a 1280×720 screen).
#include <QObject>

class QAction;
class QDialog;
class QMainWindow;
class QString;

namespace olens {

class ShortcutsReaction : public QObject {
    Q_OBJECT
public:
    ShortcutsReaction(QAction* action, QMainWindow* window);
    /// Opens the dialog (non-modal, deleted on close; objectName "shortcutsDialog") at most 90 % of
    /// the available screen on each side, the table scrolling inside it; returns it.
    static QDialog* show(QMainWindow* window);
    /// The page: every menu action with a shortcut, generated from the window's menus (so it never
    /// drifts from them), and the mouse.
    static QString html(const QMainWindow* window);

private:
    QMainWindow* m_window;
};

} // namespace olens
