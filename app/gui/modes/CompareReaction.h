#pragma once
// View → Compare detectors (Ctrl+M): switches the central area between the main view and the
// compare page (small multiples of several detectors on the main document's data). While it shows,
// the docks are hidden so the panels get the window's width; leaving restores the dock layout
// exactly as it was (QMainWindow::saveState / restoreState).
#include <QByteArray>
#include <QObject>

#include <functional>

class QAction;
class QMainWindow;
class QStackedWidget;
class QWidget;

namespace olens {

class CompareView;
class DataDocument;

class CompareReaction : public QObject {
    Q_OBJECT
public:
    /// Makes the action checkable (Ctrl+M) and wraps the window's central widget in a stack; call
    /// before the window is shown (no GL widget is re-parented later). The compare page is created
    /// on first use.
    CompareReaction(QAction* action, QMainWindow* window, DataDocument* document);

    /// The compare page, or null before it was first shown.
    CompareView* view() const { return m_view; }
    /// Shows (true) or hides the compare page; the first time with data, every panel trains.
    void setActive(bool on);
    bool isActive() const;
    /// Runs `arrange` (the window's first layout of its docks) on the docks as they will come back:
    /// when compare mode was entered before that layout (--compare at start) or the window shrinks
    /// while comparing, the state to restore on leaving is arranged (and the docks as they are now
    /// are put back). Before, the state saved on entering came back unarranged: the Ranking 1.5
    /// rows high.
    void arrangeDocks(const std::function<void()>& arrange);

private:
    QMainWindow* m_window;
    DataDocument* m_document;
    QAction* m_action;
    QStackedWidget* m_stack;
    QWidget* m_main;
    CompareView* m_view = nullptr;
    QWidget* m_page = nullptr; // the scroll area holding m_view
    QByteArray m_dockState;    // the window's docks and toolbars before compare mode (empty: not in it)
};

} // namespace olens
