#pragma once
// Help → Keyboard shortcuts (F1): the shortcuts of every menu action, generated from the actions, in
// a dialog that fits the screen (a scrolling page; before, a message box ran off a 1280×720 screen).
#include <QObject>

class QAction;
class QDialog;

namespace olens {

class MainWindow;

class ShortcutsReaction : public QObject {
    Q_OBJECT
public:
    ShortcutsReaction(QAction* action, MainWindow* window);
    /// Opens the dialog (non-modal, deleted on close; objectName "shortcutsDialog") at most 90 % of
    /// the available screen on each side, the table scrolling inside it; returns it.
    static QDialog* show(MainWindow* window);

private:
    MainWindow* m_window;
};

} // namespace olens
