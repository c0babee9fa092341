#include "TrainReactions.h"

#include "DataDocument.h"
#include "DetectorPanel.h"
#include "MainWindow.h"
#include "TrainingController.h"

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

CancelTrainingReaction::CancelTrainingReaction(QAction* action, MainWindow* window) : QObject(action)
{
    action->setObjectName("actionCancelTraining");
    action->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(tr("Ctrl+."))});
    action->setToolTip(tr("Stop the running training within a fraction of a second (Esc)"));
    connect(action, &QAction::triggered, window->trainer(), &TrainingController::cancel);
    connect(window->trainer(), &TrainingController::runningChanged, action, &QAction::setEnabled);
    action->setEnabled(window->trainer()->isRunning());
}

} // namespace olens
