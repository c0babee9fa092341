#pragma once
// The timeline under the view: replays a training from its recorded path (Detector::history()).
// Play / pause, step back / forward, a slider to scrub, the step counter with the loss, a speed,
// and Live (the trained model). Each position shows the model as it was at that step: the
// document shows resultAtStep() in place of the trained result, so the view's geometry and score
// field, the threshold, the Ranking and the Evaluation all follow. Results are built off the GUI
// thread (newest request wins); hidden while the result has no recorded path.
#include <Eigen/Core>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

class QAbstractButton;

namespace olens {

class DataDocument;
class Worker;
struct FitResult;
struct TrainingHistory;

class TimelineBar : public QWidget {
    Q_OBJECT
public:
    /// A play button's look while playing (pause icon) or not (play icon), with its tooltip: the
    /// timeline's and compare mode's replay bar look and read alike.
    static void showPlaying(QAbstractButton* button, bool playing, const QString& playTip, const QString& pauseTip);
    explicit TimelineBar(DataDocument* document, QWidget* parent = nullptr);

    /// Recorded steps of the trained result (0 = none, the bar is hidden).
    int stepCount() const;
    /// The recorded step shown (index into the history), or the last one when the trained
    /// result is shown (it equals the last recorded step).
    int currentIndex() const;
    bool isPlaying() const;
    /// The step its counter names (the detector's step number), -1 when hidden.
    int labelledStep() const;
    /// No minimum width of its own: the timeline never widens the window (it clips at the right
    /// in a very narrow one, as a toolbar does).
    QSize minimumSizeHint() const override;
    /// The counter as shown: "epoch 40 / 100 · loss 0.039 (trained)", or a shorter form where the
    /// bar has no room for it (the loss goes first, then "(trained)"; the tooltip has it all).
    QString counterText() const;
    /// Whether the slider can be scrubbed: not while a step-by-step training (N) is shown, which
    /// is no point of the recorded path (the slider stood at the recorded step it had left).
    bool sliderEnabled() const;
    /// Frames per second while playing.
    int speed() const;
    /// Off: the bar stays hidden and serves only as the engine of another control (compare mode's
    /// one replay slider drives each panel's bar). On by default: shown while there is a path.
    void setAutoShow(bool on);
    /// The recorded path replayed (null without one).
    std::shared_ptr<const TrainingHistory> history() const { return m_history; }

public slots:
    /// Shows recorded step `index` (clamped); the last index is the trained result (Live).
    void showIndex(int index);
    void stepForward();
    void stepBack();
    void togglePlay();
    void pause();
    void goLive();
    /// The first recorded step (the starting point of the fit).
    void goFirst();

signals:
    /// The document now shows recorded step `index` (the last index: the trained result).
    void stepShown(int index);
    /// The trained result changed: a new recorded path, or none (stepCount()).
    void historyChanged();
    /// A step could not be built (message for the log).
    void failed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onResultChanged();
    void onShownStepChanged(int index);
    void updateLabel();
    void tick();

    DataDocument* m_doc;
    Worker* m_worker;
    QTimer* m_timer;
    QToolButton* m_back;
    QToolButton* m_play;
    QToolButton* m_forward;
    QToolButton* m_live;
    QSlider* m_slider;
    QLabel* m_label;
    QComboBox* m_speed;
    std::shared_ptr<const FitResult> m_trained;      // whose history the bar replays
    std::shared_ptr<const TrainingHistory> m_history;
    std::shared_ptr<const Eigen::MatrixXd> m_rows; // the rows the trained result covers (one copy per result)
    int m_requested = -1; // the index last asked for (the slider's position)
    bool m_autoShow = true;
};

} // namespace olens
