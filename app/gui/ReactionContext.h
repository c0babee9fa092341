#pragma once
// What a reaction works on: the shared document, the trainer, the central view, the Log and the
// window (the parent of its dialogs). Reactions get this small context, plus any one collaborator
// they need named in their constructor, instead of the MainWindow — whose accessors to every dock
// would let any reaction reach anything (a service locator) and hide what each one depends on.
class QWidget;

namespace olens {

class CloudView;
class DataDocument;
class LogPanel;
class TrainingController;

struct ReactionContext {
    DataDocument* document = nullptr;
    TrainingController* trainer = nullptr;
    CloudView* view = nullptr;
    LogPanel* log = nullptr;
    QWidget* window = nullptr;
};

} // namespace olens
