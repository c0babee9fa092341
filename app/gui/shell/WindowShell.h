#pragma once
// What reactions may ask of the window itself, beyond the ReactionContext: whether a person is
// watching (message boxes) and the two ends of every data open. MainWindow implements it; the
// reactions include this header and not MainWindow.h, so the window sits above everything it owns
// and none of them can reach into its docks (the accessors a service locator would offer).
#include <QString>

class QAction;

namespace olens {

struct Dataset;

class WindowShell {
public:
    /// Interactive use: failures are also shown in a message box, questions are asked.
    virtual bool isInteractive() const = 0;
    /// A menu/toolbar action by object name, or null.
    virtual QAction* action(const QString& objectName) const = 0;
    /// Puts loaded data into the document (warnings to the Log, recent files).
    virtual void adoptDataset(Dataset&& data, const QString& path) = 0;
    /// A failed open: the Log, and a message box when interactive (the previous data are kept).
    virtual void reportOpenFailure(const QString& message) = 0;

protected:
    ~WindowShell() = default;
};

} // namespace olens
