#pragma once
// The one worker abstraction of the GUI: runs a job off the GUI thread (QtConcurrent on the
// Executor's pool, with the job's share of the thread budget), delivers its result, error or cancellation on the GUI thread, forwards progress at most
// every kProgressIntervalMs, and cancels through a flag the job's ProgressCallback sees.
// Policy Reject refuses a second job while one runs (training); NewestWins cancels the running job
// and starts the newest request when it returns (score fields, similarity picks).
// No reference cycles: the job's closure owns only its inputs and the shared progress state; the
// watcher is a member, so a finished job leaves nothing alive behind it.
#include "base/Errors.h"
#include "base/Progress.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace olens {

class Worker : public QObject {
    Q_OBJECT
public:
    enum class Policy { Reject, NewestWins };
    /// 10 Hz, as tqdm's default: enough for a progress bar, an ETA and a live loss curve. Each
    /// report repaints widgets, and in a window with a GL view every repaint is a composition of
    /// the whole window (QOpenGLWidget); under software GL (llvmpipe) at 30 Hz that composition
    /// took a third of a core from the training (measured: 1M-point knn 2.9-3.2 s vs 2.5-2.8 s).
    static constexpr int kProgressIntervalMs = 100;

    explicit Worker(Policy policy, QObject* parent = nullptr);
    /// Cancels the running job and waits for it (bounded by the job's progress-report rate).
    ~Worker() override;

    /// Starts `job` (or, NewestWins and busy: queues it, cancelling the running one). The job gets a
    /// ProgressCallback that returns true when cancelled (throw Cancelled, or return early). On the
    /// GUI thread: `done(result)` on success, `failed(message)` on an exception, cancelled() on
    /// Cancelled or cancel(). Returns false when rejected (Policy::Reject and busy).
    template <class R>
    bool run(std::function<R(const ProgressCallback&)> job, std::function<void(R)> done)
    {
        auto slot = std::make_shared<std::optional<R>>();
        Task task;
        task.body = [job = std::move(job), slot](const ProgressCallback& progress) { *slot = job(progress); };
        task.deliver = [done = std::move(done), slot] {
            if (*slot)
                done(std::move(**slot));
        };
        return submit(std::move(task));
    }

    bool isBusy() const { return m_busy; }
    /// Jobs started (for tests: the number of live results stays bounded, see TestFieldComputer).
    static int liveTasks();
    /// Cancels every Worker's job and waits up to `ms` for all job bodies to return. False when one
    /// is still inside a phase without cancellation points (the app then exits without joining it,
    /// rather than hang with its instance lock held).
    static bool cancelAllAndWait(int ms);
    /// Job bodies running now, in every Worker.
    static int runningJobs();

public slots:
    void cancel();

signals:
    /// Latest progress of the running job (GUI thread, throttled).
    void progress(const olens::ProgressInfo& info);
    void failed(const QString& message);
    void cancelled();
    void busyChanged(bool busy);

private:
    struct Shared; // progress and cancel flag shared with the job
    struct Task {
        std::function<void(const ProgressCallback&)> body;
        std::function<void()> deliver;
    };
    bool submit(Task task);
    void start(Task task);
    void onFinished();
    // Invoked by name from the job's thread: the queued call is then built inside Qt. A lambda
    // would be built by our code on the job's thread and read on this one — synchronised by Qt's
    // event queue, which ThreadSanitizer cannot see (Qt is not instrumented) and reports as a race.
    Q_INVOKABLE void flush();

    Policy m_policy;
    bool m_busy = false;
    QFutureWatcher<void> m_watcher;
    std::shared_ptr<Shared> m_shared;
    std::function<void()> m_deliver;
    std::optional<Task> m_pending;
};

} // namespace olens

Q_DECLARE_METATYPE(olens::ProgressInfo)
