#pragma once
// Edit menu and File → New data (reactions: the window stays thin).
#include "shell/Reaction.h"

#include <QObject>
#include <QTimer>

class QAction;
class QMenu;

namespace olens {

class DataEditor;
class DetectorPanel;
class UnsavedChanges;

/// Edit → Undo/Redo, Edit points (E), Delete selected points (Del), Auto-retrain after edits.
/// Auto-retrain is debounced: the detector retrains kRetrainDelayMs after the last edit.
class EditReaction : public QObject {
    Q_OBJECT
public:
    /// `detector`: retrains after edits (keeping a threshold the user set).
    EditReaction(QMenu* menu, const ReactionContext& context, DataEditor* editor, DetectorPanel* detector);
    QAction* editModeAction() const { return m_editMode; }
    static constexpr int kRetrainDelayMs = 400;

private:
    void onEdited();
    ReactionContext m_context;
    DataEditor* m_editor;
    DetectorPanel* m_detector;
    QAction* m_editMode;
    QAction* m_autoRetrain;
    QTimer m_retrain;
};

/// File → New data: the generator dialog; the generated data replace the current data.
class NewDataReaction : public Reaction {
    Q_OBJECT
public:
    /// `unsaved`: asks before generated data replace unsaved changes.
    NewDataReaction(QAction* action, const ReactionContext& context, UnsavedChanges* unsaved);

private:
    void onTriggered() override;
    UnsavedChanges* m_unsaved;
};

} // namespace olens
