#pragma once
// Trains a detector on the document's data through the shared Worker (fit pipeline off the GUI thread).
// The GUI thread never blocks: progress, loss values and geometry snapshots arrive as queued,
// throttled signals; cancel is a flag the detector's progress callback sees within its next report.
// On success the result is installed in the document; on failure or cancel the previous result stays.
#include "base/Params.h"
#include "base/Progress.h"
#include "data/Normalizer.h"
#include "pipeline/TrainingSetup.h"

#include <QElapsedTimer>
#include <QObject>
#include <atomic>
#include <memory>

namespace olens {

class DataDocument;
class Worker;
struct FitResult;
struct Geometry;

class TrainingController : public QObject {
    Q_OBJECT
public:
    explicit TrainingController(DataDocument* document, QObject* parent = nullptr);
    /// Cancels a running training and waits for the worker (bounded by the detector's report rate).
    ~TrainingController() override;

    bool isRunning() const { return m_running; }
    /// During/after cancelled(): true when the training was dropped because the data changed
    /// (an internal restart, e.g. auto-retrain after an edit), false when the user cancelled.
    bool lastCancelWasRestart() const { return m_cancelWasRestart; }
    /// Starts training `setup` (usually the document's trainingSetup()). Returns false (with failed()
    /// emitted) when already running or without data, or when the detector id / parameters / rows to
    /// fit on are invalid for the data. keepUserThreshold: the new result keeps a threshold the user
    /// set (auto-retrain after edits). Every row is scored; the result's trainingRows name the rows
    /// fitted on (setup.fitOn; Rows must list them).
    bool train(const TrainingSetup& setup, bool keepUserThreshold = false);
    /// The same, step by step: the training pauses after each epoch or iteration the detector
    /// reports (quadrics, the GODS family) until step() — the live geometry and loss show where
    /// it is — or runs on after runToEnd(). Detectors that report no such steps run through.
    bool trainStepwise(const TrainingSetup& setup);
    /// True while a step-by-step training waits for step() (pausedStep(): the step reached).
    bool isPaused() const;
    int pausedStep() const;
    bool isStepwise() const;

    /// What the loss steps count in this run: "epoch", "iteration", "clusters", or empty (reports).
    QString lossAxis() const { return m_lossAxis; }

public slots:
    void cancel();
    /// One more epoch / iteration of a step-by-step training.
    void step();
    /// A step-by-step training runs on to its end.
    void runToEnd();

signals:
    void started(const QString& detectorId);
    /// fraction 0..1, message, estimated seconds left (negative when unknown).
    void progress(double fraction, const QString& message, double etaSeconds);
    /// New loss values since the last signal, at their steps: the epoch, iteration or cluster
    /// count the detector reports (lossAxis() names it), else the count of reports with a loss.
    void lossValues(const QVector<double>& steps, const QVector<double>& losses);
    /// The worker's result arrived (before it is installed in the document and views update).
    void resultArrived(double seconds);
    void finished(double seconds);
    void failed(const QString& message);
    void cancelled();
    void runningChanged(bool running);
    /// A step-by-step training is about to take the shown step (started, N, Shift+N): a replay
    /// that plays stops (the timeline pauses).
    void claimingView();

private:
    struct LiveState; // losses and snapshots collected from the worker (mutex-protected)
    void onProgress(const ProgressInfo& info);
    void followStep(const ProgressInfo& info);
    void pauseAtNextStep();
    void claimView(bool on);
    void drainLive();
    void onDone(std::shared_ptr<FitResult> result);
    void onEnded(bool resultFollows = false); // cancelled or failed, or done (a result follows)

    DataDocument* m_doc;
    Worker* m_worker;
    QString m_lossAxis;
    std::shared_ptr<LiveState> m_live;
    QElapsedTimer m_clock;
    bool m_running = false;
    bool m_stepwiseRun = false; // started by trainStepwise (also after runToEnd)
    bool m_claimView = false;   // its steps are what the document shows
    bool m_claimPending = false; // N (or the start) asked for the view; its next step takes it
    bool m_stale = false; // data changed while training: drop the result
    bool m_cancelWasRestart = false;
    bool m_keepUserThreshold = false;
    struct StepGate; // shared with the training job: where it waits and how far it may go
    std::shared_ptr<StepGate> m_gate;
    bool start(const TrainingSetup& setup, bool keepUserThreshold, bool stepwise);
    QString m_detectorId;
    std::shared_ptr<const Normalizer> m_liveNorm;
};

} // namespace olens
