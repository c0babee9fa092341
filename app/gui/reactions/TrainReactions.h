#pragma once
// Train → Train detector (Ctrl+T) and Cancel training (Esc, Ctrl+.): the only owners of these keys
// (the Detector dock's buttons and the toolbar use the same actions or no shortcut), each with its
// enable state.
#include "shell/Reaction.h"

#include <QObject>

class QAction;

namespace olens {

class BackgroundOpen;
class DetectorPanel;

/// Enabled with data and while no training runs; triggers DetectorPanel::train.
class TrainReaction : public Reaction {
    Q_OBJECT
public:
    TrainReaction(QAction* action, const ReactionContext& context, DetectorPanel* detector);

private:
    void onTriggered() override;
    bool isEnabledNow() const override;
    DetectorPanel* m_detector;
};

/// Enabled while a training runs or a score field is being computed; cancels the training, or,
/// when none runs, the score field (then reads "Cancel score field").
class CancelTrainingReaction : public Reaction {
    Q_OBJECT
public:
    /// `opener`: the background file open Esc also cancels.
    CancelTrainingReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener);

private:
    void onTriggered() override;
    void updateState();
    BackgroundOpen* m_opener;
};

/// Train → Step training (N) and Run to the end (Shift+N): a training a class follows one epoch or
/// iteration at a time. N starts a step-by-step training when none runs (it pauses after the
/// first step), then each N lets it take one more; Shift+N lets it run on. The live geometry and
/// loss show where it is; afterwards the timeline replays it.
class StepTrainingReaction : public Reaction {
    Q_OBJECT
public:
    StepTrainingReaction(QAction* step, QAction* runToEnd, const ReactionContext& context, DetectorPanel* detector);

private:
    void onTriggered() override;
    bool isEnabledNow() const override;
    void updateRunToEnd();
    QAction* m_run;
    DetectorPanel* m_detector;
};

} // namespace olens
