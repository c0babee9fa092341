#pragma once
// Train → Train detector (Ctrl+T) and Cancel training (Esc, Ctrl+.): the only owners of these keys
// (the Detector dock's buttons and the toolbar use the same actions or no shortcut), each with its
// enable state.
#include <QObject>

class QAction;

namespace olens {

class MainWindow;

/// Enabled with data and while no training runs; triggers DetectorPanel::train.
class TrainReaction : public QObject {
    Q_OBJECT
public:
    TrainReaction(QAction* action, MainWindow* window);

private:
    void updateEnabled();
    QAction* m_action;
    MainWindow* m_window;
};

/// Enabled while a training runs or a score field is being computed; cancels the training, or,
/// when none runs, the score field (then reads "Cancel score field").
class CancelTrainingReaction : public QObject {
    Q_OBJECT
public:
    CancelTrainingReaction(QAction* action, MainWindow* window);

private:
    void onTriggered();
    void updateState();
    QAction* m_action;
    MainWindow* m_window;
};

} // namespace olens
