#include "shell/SavedDocks.h"

#include <QMainWindow>

namespace olens {

void arrangeSavedDocks(QMainWindow* window, QByteArray& saved, const std::function<void()>& arrange)
{
    if (saved.isEmpty()) {
        arrange();
        return;
    }
    // The docks as they are now (hidden, some the user opened meanwhile, the classroom's kept
    // panels) are put back afterwards: only the state to come back to changes.
    const QByteArray now = window->saveState();
    window->restoreState(saved);
    arrange();
    saved = window->saveState();
    window->restoreState(now);
}

} // namespace olens
