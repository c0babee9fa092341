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

/// Enabled while a training runs; cancels it.
class CancelTrainingReaction : public QObject {
    Q_OBJECT
public:
    CancelTrainingReaction(QAction* action, MainWindow* window);
};

} // namespace olens
