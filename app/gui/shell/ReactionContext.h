#pragma once
// What a reaction works on: the shared document, the trainer, the central view, the Log, the
// window (the parent of its dialogs; its docks' state) and the window's few services (WindowShell).
// Reactions get this small context, plus any collaborator they need named in their constructor,
// instead of the MainWindow — whose accessors to every dock would let any reaction reach anything
// (a service locator) and hide what each one depends on.
class QMainWindow;

namespace olens {

class CloudView;
class DataDocument;
class LogPanel;
class TrainingController;
class WindowShell;

struct ReactionContext {
    DataDocument* document = nullptr;
    TrainingController* trainer = nullptr;
    CloudView* view = nullptr;
    LogPanel* log = nullptr;
    QMainWindow* window = nullptr;
    WindowShell* shell = nullptr;
};

} // namespace olens
