#include "jobs/TrainingController.h"

#include "document/DataDocument.h"
#include "jobs/Worker.h"
#include "base/Errors.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace olens {

// Loss values and geometry snapshots arrive between the throttled progress signals; the worker's
// callback collects them here and the GUI thread drains them with each progress signal.
struct TrainingController::LiveState {
    std::mutex mutex;
    std::vector<double> newLosses;
    std::vector<StepMark> newSteps; // where each loss goes on the x axis (empty unit: no step named)
    int lossCount = 0;
    std::shared_ptr<const Geometry> snapshot;
    std::shared_ptr<const Normalizer> normalizer; // the one the pipeline fitted
};

TrainingController::TrainingController(DataDocument* document, QObject* parent)
    : QObject(parent), m_doc(document), m_worker(new Worker(Worker::Policy::Reject, this))
{
    connect(m_worker, &Worker::progress, this, &TrainingController::onProgress);
    connect(m_worker, &Worker::failed, this, [this](const QString& message) {
        onEnded();
        emit failed(message);
        emit runningChanged(false);
    });
    connect(m_worker, &Worker::cancelled, this, [this] {
        m_cancelWasRestart = m_stale;
        onEnded();
        emit cancelled();
        emit runningChanged(false);
    });
    // The user showed something else (a replay of the trained model, Live) while a step-by-step
    // training had the view: it waits at its next step until N or Shift+N.
    connect(m_doc, &DataDocument::shownStepChanged, this, [this] {
        // (Not between N and the step it asked for: a replay step still being built when N was
        // pressed lands then, and must not take N back.)
        if (m_running && m_claimView && !m_claimPending && !m_doc->showsTraining()
            && m_doc->shown().kind != DataDocument::Shown::Kind::Nothing)
            pauseAtNextStep();
    });
    // Results belong to the data they were trained on.
    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        if (m_running) {
            m_stale = true;
            cancel();
        }
    });
}

TrainingController::~TrainingController() = default; // the Worker child cancels and waits

void TrainingController::cancel()
{
    m_worker->cancel();
}

struct TrainingController::StepGate {
    std::mutex mutex;
    std::condition_variable wake;
    std::atomic<bool> stepwise{false};
    int allowed = 0;     // the job may pass reports of steps up to this one
    int waitingAt = -1;  // the step it waits after (-1: running)
    StepMark waitingMark; // that step as the detector named it (unit, of)
};

bool TrainingController::train(const TrainingSetup& setup, bool keepUserThreshold)
{
    return start(setup, keepUserThreshold, false);
}

bool TrainingController::trainStepwise(const TrainingSetup& setup)
{
    return start(setup, false, true);
}

bool TrainingController::isStepwise() const
{
    if (!m_running || !m_gate)
        return false;
    return m_gate->stepwise;
}

bool TrainingController::isPaused() const { return pausedStep() >= 0; }

int TrainingController::pausedStep() const
{
    if (!m_running || !m_gate)
        return -1;
    std::lock_guard<std::mutex> lock(m_gate->mutex);
    return m_gate->waitingAt;
}

void TrainingController::step()
{
    if (!m_gate)
        return;
    {
        std::lock_guard<std::mutex> lock(m_gate->mutex);
        m_gate->allowed = std::max(m_gate->allowed, m_gate->waitingAt); // the step it waits at may finish
    }
    claimView(m_stepwiseRun); // N after a replay: the view follows the training again
    m_gate->wake.notify_all();
}

void TrainingController::runToEnd()
{
    if (!m_gate)
        return;
    {
        std::lock_guard<std::mutex> lock(m_gate->mutex); // not lost between the job's test and its wait
        m_gate->stepwise = false;
    }
    claimView(m_stepwiseRun);
    m_gate->wake.notify_all();
}

bool TrainingController::start(const TrainingSetup& setup, bool keepUserThreshold, bool stepwise)
{
    if (m_running) {
        emit failed(tr("a training is already running; cancel it first"));
        return false;
    }
    if (m_doc->isEmpty()) {
        emit failed(tr("no data loaded"));
        return false;
    }
    std::shared_ptr<Detector> detector;
    FitOptions options;
    try {
        detector = Registry::instance().create(setup.detectorId, setup.params);
        detector->setRecordHistory(true); // the timeline under the view replays the fit
        // Which rows: resolved here (a selection or a label needs the document), fitted on by the
        // pipeline, which also fits the normaliser on them.
        if (!setup.fitOn.isAll()) {
            options.trainingRows = resolveFitSubset(setup.fitOn, m_doc->dataset());
            if (static_cast<Eigen::Index>(options.trainingRows.size()) == m_doc->dataset().rows())
                options.trainingRows.clear(); // every row: an ordinary fit
        }
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
        return false;
    }

    // The job shares the document's rows (immutable: an edit or new data installs new ones), so
    // the worker reads them while the GUI goes on; no copy (120 MB at 5 M points, issue #54).
    const std::shared_ptr<const Eigen::MatrixXd> data = m_doc->sharedRows();
    options.explanations = data->rows() <= kEagerExplanationRows; // above: on demand (explainRow)
    options.ranking = true; // sorted here, not on the GUI thread when the result is shown
    options.featureNames = m_doc->dataset().featureNames;
    auto live = std::make_shared<LiveState>();
    // The view draws live snapshots through the normaliser the pipeline fits, handed over as soon
    // as it is fitted (before the detector's first report).
    options.normalizerFitted = [live](const Normalizer& n) {
        std::lock_guard<std::mutex> lock(live->mutex);
        live->normalizer = std::make_shared<const Normalizer>(n);
    };
    m_live = live;
    m_liveNorm.reset();
    auto gate = std::make_shared<StepGate>();
    gate->stepwise = stepwise;
    m_gate = gate;
    m_running = true;
    m_stepwiseRun = stepwise;
    claimView(stepwise);
    m_stale = false;
    m_keepUserThreshold = keepUserThreshold;
    m_detectorId = QString::fromStdString(setup.detectorId);
    m_clock.start();
    emit started(m_detectorId);
    emit runningChanged(true);

    const Normalization normalization = setup.normalization;
    m_worker->run<std::shared_ptr<FitResult>>(
        [data, detector, normalization, live, options, gate](const ProgressCallback& progress) {
            return fitPipeline(detector, Normalizer(normalization), *data, options, [&](const ProgressInfo& info) {
                if (info.loss || info.snapshot) {
                    std::lock_guard<std::mutex> lock(live->mutex);
                    if (info.loss) {
                        live->newLosses.push_back(*info.loss);
                        live->newSteps.push_back(info.at.value_or(StepMark{}));
                    }
                    if (info.snapshot)
                        live->snapshot = info.snapshot;
                }
                // Step by step: after each whole epoch / iteration the detector reports (its StepMark,
                // never its message), wait for step() (polling the cancel flag, so Esc still stops
                // within ~50 ms). A quadrics report from inside an epoch has a fractional step.
                const bool stepEnds = gate->stepwise && info.endsStep()
                                      && (info.at->unit == "epoch" || info.at->unit == "iteration");
                const int k = stepEnds ? static_cast<int>(info.at->step) : 0;
                if (stepEnds) {
                    std::unique_lock<std::mutex> lock(gate->mutex);
                    while (gate->stepwise && k > gate->allowed) {
                        gate->waitingAt = k;
                        gate->waitingMark = *info.at;
                        lock.unlock();
                        if (progress(info))
                            return true; // cancelled while paused
                        lock.lock();
                        gate->wake.wait_for(lock, std::chrono::milliseconds(50));
                    }
                    gate->waitingAt = -1;
                }
                return progress(info);
            });
        },
        [this](std::shared_ptr<FitResult> result) { onDone(std::move(result)); });
    return true;
}

void TrainingController::drainLive()
{
    if (!m_live)
        return;
    std::vector<double> losses;
    std::vector<StepMark> stepsOf;
    std::shared_ptr<const Geometry> snapshot;
    int firstStep;
    {
        std::lock_guard<std::mutex> lock(m_live->mutex);
        losses.swap(m_live->newLosses);
        stepsOf.swap(m_live->newSteps);
        firstStep = m_live->lossCount;
        m_live->lossCount += static_cast<int>(losses.size());
        snapshot = std::move(m_live->snapshot);
        if (!m_liveNorm)
            m_liveNorm = m_live->normalizer;
    }
    if (!losses.empty()) {
        QVector<double> steps, values;
        for (std::size_t i = 0; i < losses.size(); ++i) {
            // The step the detector names (epoch, iteration, clusters) when its first loss report
            // names one; then reports naming no step (e.g. "converged after 7 epochs") are left
            // out. Otherwise the count of reports.
            const QString axis = i < stepsOf.size() ? QString::fromStdString(stepsOf[i].unit) : QString();
            if (firstStep + static_cast<int>(i) == 0)
                m_lossAxis = axis;
            if (!m_lossAxis.isEmpty()) {
                if (axis != m_lossAxis)
                    continue;
                steps << stepsOf[i].step;
            } else {
                steps << double(firstStep + static_cast<int>(i));
            }
            values << losses[i];
        }
        if (!steps.isEmpty())
            emit lossValues(steps, values);
    }
    if (snapshot && m_running && m_liveNorm)
        m_doc->setLiveGeometry(snapshot, m_liveNorm);
}

void TrainingController::onProgress(const ProgressInfo& info)
{
    if (!m_running)
        return;
    const double elapsed = m_clock.elapsed() / 1000.0;
    const double eta = secondsLeft(elapsed, info.fraction);
    emit progress(info.fraction, QString::fromStdString(info.message), eta);
    drainLive();
    followStep(info);
}

void TrainingController::followStep(const ProgressInfo& info)
{
    // A step-by-step training owns the shown step (DataDocument::Shown) from its first step on,
    // until the user replays the trained model's path (the document leaves the training view):
    // then it pauses at its next step, and N or Shift+N hand it the view again.
    if (!m_stepwiseRun || !m_running || !m_gate || !m_claimView)
        return;
    StepMark mark;
    {
        std::lock_guard<std::mutex> lock(m_gate->mutex);
        if (m_gate->waitingAt >= 0)
            mark = m_gate->waitingMark;
        else if (info.at && info.endsStep() && (info.at->unit == "epoch" || info.at->unit == "iteration"))
            mark = *info.at;
        else
            return;
    }
    m_claimPending = false;
    m_doc->showTrainingStep(static_cast<int>(mark.step), mark.of > 0 ? mark.of : -1, QString::fromStdString(mark.unit));
}

void TrainingController::claimView(bool on)
{
    // A step-by-step training asks for the shown step (started, N, Shift+N): it takes it at its
    // next step; a replay that plays stops now (N stops a replay).
    m_claimView = on;
    m_claimPending = on;
    if (on)
        emit claimingView();
}

void TrainingController::pauseAtNextStep()
{
    m_claimView = false;
    std::lock_guard<std::mutex> lock(m_gate->mutex); // paused, it stays where it is; run on, it stops at the next step
    m_gate->stepwise = true;
}

void TrainingController::onEnded(bool resultFollows)
{
    drainLive();
    m_running = false;
    m_stepwiseRun = false;
    m_claimView = false;
    m_claimPending = false;
    m_live.reset();
    m_doc->setLiveGeometry(nullptr);
    if (!resultFollows)
        m_doc->endTrainingView(); // cancelled or failed: the trained result comes back
}

void TrainingController::onDone(std::shared_ptr<FitResult> result)
{
    const bool stale = m_stale;
    onEnded(!stale); // a new result replaces the training view at once, without the old result between
    const double seconds = m_clock.elapsed() / 1000.0;
    if (stale) {
        m_cancelWasRestart = true;
        emit cancelled();
    } else {
        emit resultArrived(seconds);
        m_doc->setResult(std::move(result), m_keepUserThreshold ? DataDocument::ThresholdPolicy::KeepUserThreshold
                                                                : DataDocument::ThresholdPolicy::Detector);
        emit finished(seconds);
    }
    emit runningChanged(false);
}

} // namespace olens
