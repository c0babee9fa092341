#include "reactions/TrainReactions.h"

#include "files/BackgroundOpen.h"
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "jobs/TrainingController.h"

#include <QAction>
#include <QFileInfo>

namespace olens {

TrainReaction::TrainReaction(QAction* action, const ReactionContext& context, DetectorPanel* detector)
    : Reaction(action, context), m_detector(detector)
{
    describe("actionTrain", QKeySequence(tr("Ctrl+T")), tr("Train the selected detector on the loaded data (Ctrl+T)"));
    trackEnabled();
}

void TrainReaction::onTriggered()
{
    m_detector->train();
}

bool TrainReaction::isEnabledNow() const
{
    return !m_context.document->isEmpty() && !m_context.trainer->isRunning();
}

StepTrainingReaction::StepTrainingReaction(QAction* step, QAction* runToEnd, const ReactionContext& context, DetectorPanel* detector)
    : Reaction(step, context), m_run(runToEnd), m_detector(detector)
{
    describe("actionStepTraining", QKeySequence(tr("N")),
             tr("Train one epoch / iteration at a time: N starts and pauses after the first, each N takes "
                "one more (quadrics, gods, bods, kods and variants)"));
    runToEnd->setObjectName("actionRunToEnd");
    runToEnd->setShortcut(QKeySequence(tr("Shift+N")));
    runToEnd->setToolTip(tr("Let a step-by-step training run on to its end (Shift+N)"));
    connect(runToEnd, &QAction::triggered, context.trainer, &TrainingController::runToEnd);
    connect(context.trainer, &TrainingController::runningChanged, this, &StepTrainingReaction::updateRunToEnd);
    trackEnabled();
    updateRunToEnd();
}

void StepTrainingReaction::onTriggered()
{
    TrainingController* t = m_context.trainer;
    if (!t->isRunning())
        m_detector->trainStepwise();
    else if (t->isStepwise())
        t->step();
    updateEnabled();
    updateRunToEnd();
}

bool StepTrainingReaction::isEnabledNow() const
{
    const TrainingController* t = m_context.trainer;
    return !m_context.document->isEmpty() && (!t->isRunning() || t->isStepwise());
}

void StepTrainingReaction::updateRunToEnd()
{
    m_run->setEnabled(m_context.trainer->isRunning() && m_context.trainer->isStepwise());
}

CancelTrainingReaction::CancelTrainingReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener)
    : Reaction(action, context), m_opener(opener)
{
    action->setObjectName("actionCancelTraining");
    action->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(tr("Ctrl+."))});
    connect(context.trainer, &TrainingController::runningChanged, this, &CancelTrainingReaction::updateState);
    connect(context.view, &CloudView::fieldBusyChanged, this, &CancelTrainingReaction::updateState);
    connect(context.view, &VtkView::selectionToolChanged, this, &CancelTrainingReaction::updateState);
    connect(opener, &BackgroundOpen::busyChanged, this, &CancelTrainingReaction::updateState);
    updateState();
}

void CancelTrainingReaction::onTriggered()
{
    // Esc stops what is going on: the training first (its result is what a field would show), then
    // the box / lasso tool (before, Esc left it on and the next rotate drag drew a box and replaced
    // the selection), then a file being read, then a score field being computed.
    if (m_context.trainer->isRunning())
        m_context.trainer->cancel();
    else if (m_context.view->selectionTool() != VtkView::SelectionTool::None)
        m_context.view->setSelectionTool(VtkView::SelectionTool::None);
    else if (m_opener->isBusy())
        m_opener->cancel();
    else
        m_context.view->cancelField();
}

void CancelTrainingReaction::updateState()
{
    const bool training = m_context.trainer->isRunning();
    const bool field = m_context.view->isFieldBusy();
    const bool tool = m_context.view->selectionTool() != VtkView::SelectionTool::None;
    const bool loading = m_opener->isBusy();
    m_action->setEnabled(training || field || tool || loading);
    if (!training && tool) {
        m_action->setText(tr("&Leave box / lasso selection"));
        m_action->setToolTip(tr("Put the box / lasso tool away (Esc): the left mouse rotates again"));
    } else if (!training && loading) {
        m_action->setText(tr("&Cancel loading"));
        m_action->setToolTip(tr("Stop reading %1 (Esc); the current data are kept")
                                 .arg(QFileInfo(m_opener->loadingPath()).fileName()));
    } else if (!training && field) {
        m_action->setText(tr("&Cancel score field"));
        m_action->setToolTip(tr("Stop computing the score field (Esc); the view keeps what it shows"));
    } else {
        m_action->setText(tr("&Cancel training"));
        m_action->setToolTip(tr("Stop the running training within a fraction of a second (Esc)"));
    }
}

} // namespace olens
