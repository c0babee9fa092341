#include "TrainingController.h"

#include "DataDocument.h"
#include "base/Errors.h"
#include "registry/Registry.h"

#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>
#include <mutex>

namespace olens {

struct TrainingController::Shared {
    std::atomic<bool> cancel{false};
    std::atomic<bool> flushQueued{false};
    std::mutex mutex;
    double fraction = 0.0;
    std::string message;
    std::vector<double> newLosses;
    int lossCount = 0;
    std::shared_ptr<const Geometry> snapshot;
    bool snapshotFresh = false;
    std::chrono::steady_clock::time_point lastFlush{};
};

TrainingController::TrainingController(DataDocument* document, QObject* parent)
    : QObject(parent), m_doc(document)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &TrainingController::onWorkerDone);
    // Results belong to the data they were trained on.
    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        if (m_running) {
            m_stale = true;
            cancel();
        }
    });
}

TrainingController::~TrainingController()
{
    if (m_running) {
        m_shared->cancel = true;
        m_watcher.waitForFinished();
    }
}

void TrainingController::cancel()
{
    if (m_shared)
        m_shared->cancel = true;
}

bool TrainingController::train(const std::string& detectorId, const ParamAssignments& params,
                               Normalization normalization)
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
    try {
        detector = Registry::instance().create(detectorId, params);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
        return false;
    }

    const Eigen::MatrixXd X = m_doc->dataset().X; // the worker owns its copy
    auto norm = std::make_shared<Normalizer>(normalization);
    try {
        norm->fit(X); // cheap, and the view needs it to draw live snapshots
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
        return false;
    }
    m_liveNorm = norm;

    m_shared = std::make_shared<Shared>();
    m_running = true;
    m_stale = false;
    m_detectorId = QString::fromStdString(detectorId);
    m_clock.start();
    emit started(m_detectorId);
    emit runningChanged(true);

    auto shared = m_shared;
    QPointer<TrainingController> self(this);
    auto requestFlush = [shared, self]() {
        // At most one queued flush at a time, at most one per interval.
        bool expected = false;
        if (!shared->flushQueued.compare_exchange_strong(expected, true))
            return;
        QMetaObject::invokeMethod(self.data(), [self] { if (self) self->flush(); }, Qt::QueuedConnection);
    };

    m_watcher.setFuture(QtConcurrent::run(m_pool ? m_pool : QThreadPool::globalInstance(),
                                          [X, detector, norm, shared, requestFlush]() -> Outcome {
        Outcome out;
        try {
            auto result = fitPipeline(detector, *norm, X, FitOptions{}, [&](const ProgressInfo& info) {
                {
                    std::lock_guard<std::mutex> lock(shared->mutex);
                    shared->fraction = info.fraction;
                    shared->message = info.message;
                    if (info.loss)
                        shared->newLosses.push_back(*info.loss);
                    if (info.snapshot) {
                        shared->snapshot = info.snapshot;
                        shared->snapshotFresh = true;
                    }
                }
                const auto now = std::chrono::steady_clock::now();
                if (now - shared->lastFlush > std::chrono::milliseconds(kProgressIntervalMs)) {
                    shared->lastFlush = now;
                    requestFlush();
                }
                return shared->cancel.load();
            });
            if (shared->cancel)
                throw Cancelled();
            out.result = result;
        } catch (const Cancelled&) {
            out.cancelled = true;
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    }));
    return true;
}

void TrainingController::flush()
{
    if (!m_shared)
        return;
    m_shared->flushQueued = false;
    double fraction;
    QString message;
    std::vector<double> losses;
    std::shared_ptr<const Geometry> snapshot;
    int firstStep;
    {
        std::lock_guard<std::mutex> lock(m_shared->mutex);
        fraction = m_shared->fraction;
        message = QString::fromStdString(m_shared->message);
        losses.swap(m_shared->newLosses);
        firstStep = m_shared->lossCount;
        m_shared->lossCount += static_cast<int>(losses.size());
        if (m_shared->snapshotFresh) {
            snapshot = m_shared->snapshot;
            m_shared->snapshotFresh = false;
        }
    }
    if (!m_running)
        return;
    const double elapsed = m_clock.elapsed() / 1000.0;
    const double eta = fraction > 0.02 ? elapsed * (1.0 - fraction) / fraction : -1.0;
    emit progress(fraction, message, eta);
    if (!losses.empty()) {
        QVector<double> steps, values;
        for (std::size_t i = 0; i < losses.size(); ++i) {
            steps << firstStep + static_cast<int>(i);
            values << losses[i];
        }
        emit lossValues(steps, values);
    }
    if (snapshot)
        m_doc->setLiveGeometry(snapshot, m_liveNorm);
}

void TrainingController::onWorkerDone()
{
    flush();
    const Outcome out = m_watcher.result();
    m_running = false;
    m_shared.reset();
    m_doc->setLiveGeometry(nullptr);
    const double seconds = m_clock.elapsed() / 1000.0;
    if (out.cancelled || m_stale) {
        emit cancelled();
    } else if (!out.error.isEmpty()) {
        emit failed(out.error);
    } else {
        m_doc->setResult(out.result);
        emit finished(seconds);
    }
    emit runningChanged(false);
}

} // namespace olens
