#include "TrainReactions.h"

#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "MainWindow.h"
#include "jobs/TrainingController.h"

#include <QAction>

namespace olens {

TrainReaction::TrainReaction(QAction* action, MainWindow* window) : QObject(action), m_action(action), m_window(window)
{
    action->setObjectName("actionTrain");
    action->setShortcut(QKeySequence(tr("Ctrl+T")));
    action->setToolTip(tr("Train the selected detector on the loaded data (Ctrl+T)"));
    connect(action, &QAction::triggered, window->detectorPanel(), &DetectorPanel::train);
    connect(window->document(), &DataDocument::datasetChanged, this, &TrainReaction::updateEnabled);
    connect(window->trainer(), &TrainingController::runningChanged, this, &TrainReaction::updateEnabled);
    updateEnabled();
}

void TrainReaction::updateEnabled()
{
    m_action->setEnabled(!m_window->document()->isEmpty() && !m_window->trainer()->isRunning());
}

CancelTrainingReaction::CancelTrainingReaction(QAction* action, MainWindow* window)
    : QObject(action), m_action(action), m_window(window)
{
    action->setObjectName("actionCancelTraining");
    action->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(tr("Ctrl+."))});
    connect(action, &QAction::triggered, this, &CancelTrainingReaction::onTriggered);
    connect(window->trainer(), &TrainingController::runningChanged, this, &CancelTrainingReaction::updateState);
    connect(window->view(), &CloudView::fieldBusyChanged, this, &CancelTrainingReaction::updateState);
    updateState();
}

void CancelTrainingReaction::onTriggered()
{
    // The training first (its result is what a field would show); else the score field.
    if (m_window->trainer()->isRunning())
        m_window->trainer()->cancel();
    else
        m_window->view()->cancelField();
}

void CancelTrainingReaction::updateState()
{
    const bool training = m_window->trainer()->isRunning();
    const bool field = m_window->view()->isFieldBusy();
    m_action->setEnabled(training || field);
    m_action->setText(!training && field ? tr("&Cancel score field") : tr("&Cancel training"));
    m_action->setToolTip(!training && field
                             ? tr("Stop computing the score field (Esc); the view keeps what it shows")
                             : tr("Stop the running training within a fraction of a second (Esc)"));
}

} // namespace olens
