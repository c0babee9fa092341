#include "jobs/Worker.h"

#include "base/ParallelFor.h"
#include "jobs/Executor.h"

#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <condition_variable>
#include <mutex>
#include <set>

namespace olens {

namespace {
std::atomic<int> g_liveTasks{0};

// Every Worker (GUI thread only) and the job bodies running on pool threads.
std::set<Worker*>& allWorkers()
{
    static std::set<Worker*> workers;
    return workers;
}
std::mutex g_runMutex;
std::condition_variable g_runDone;
int g_running = 0;

/// Counts a job body while it runs (also when it throws).
struct RunningJob {
    RunningJob()
    {
        std::lock_guard<std::mutex> lock(g_runMutex);
        ++g_running;
    }
    ~RunningJob()
    {
        {
            std::lock_guard<std::mutex> lock(g_runMutex);
            --g_running;
        }
        g_runDone.notify_all();
    }
    RunningJob(const RunningJob&) = delete;
    RunningJob& operator=(const RunningJob&) = delete;
};

/// Counts the shared states alive (a leak of finished jobs shows up as a growing count).
struct LiveCounter {
    LiveCounter() { ++g_liveTasks; }
    ~LiveCounter() { --g_liveTasks; }
    LiveCounter(const LiveCounter&) = delete;
    LiveCounter& operator=(const LiveCounter&) = delete;
};
} // namespace

struct Worker::Shared {
    LiveCounter counter;
    std::atomic<bool> cancel{false};
    std::atomic<bool> flushQueued{false};
    std::mutex mutex;
    std::optional<ProgressInfo> latest;
    std::chrono::steady_clock::time_point lastFlush{};
    bool cancelledByJob = false;
    QString error;
};

int Worker::liveTasks()
{
    return g_liveTasks.load();
}

int Worker::runningJobs()
{
    std::lock_guard<std::mutex> lock(g_runMutex);
    return g_running;
}

bool Worker::cancelAllAndWait(int ms)
{
    for (Worker* w : allWorkers())
        w->cancel();
    std::unique_lock<std::mutex> lock(g_runMutex);
    return g_runDone.wait_for(lock, std::chrono::milliseconds(ms), [] { return g_running == 0; });
}

Worker::Worker(Policy policy, QObject* parent) : QObject(parent), m_policy(policy)
{
    qRegisterMetaType<olens::ProgressInfo>();
    connect(&m_watcher, &QFutureWatcher<void>::finished, this, &Worker::onFinished);
    allWorkers().insert(this);
}

Worker::~Worker()
{
    allWorkers().erase(this);
    m_pending.reset();
    if (m_shared)
        m_shared->cancel = true;
    m_watcher.waitForFinished();
}

void Worker::cancel()
{
    m_pending.reset();
    if (m_shared)
        m_shared->cancel = true;
}

bool Worker::submit(Task task)
{
    if (!m_busy) {
        start(std::move(task));
        return true;
    }
    if (m_policy == Policy::Reject)
        return false;
    m_pending = std::move(task); // newest wins: replaces any older pending request
    m_shared->cancel = true;
    return true;
}

void Worker::start(Task task)
{
    auto shared = std::make_shared<Shared>();
    m_shared = shared;
    m_deliver = std::move(task.deliver);
    const bool wasBusy = m_busy;
    m_busy = true;
    QPointer<Worker> self(this);
    ProgressCallback progress = [shared, self](const ProgressInfo& info) {
        {
            std::lock_guard<std::mutex> lock(shared->mutex);
            shared->latest = info;
        }
        const auto now = std::chrono::steady_clock::now();
        bool due = false;
        {
            std::lock_guard<std::mutex> lock(shared->mutex);
            if (now - shared->lastFlush > std::chrono::milliseconds(kProgressIntervalMs)) {
                shared->lastFlush = now;
                due = true;
            }
        }
        bool expected = false;
        if (due && shared->flushQueued.compare_exchange_strong(expected, true))
            QMetaObject::invokeMethod(self.data(), "flush", Qt::QueuedConnection); // dropped if self is gone
        return shared->cancel.load();
    };
    auto body = std::move(task.body);
    m_watcher.setFuture(QtConcurrent::run(Executor::pool(), [body = std::move(body), progress = std::move(progress), shared]() {
        const RunningJob running;
        const JobThreads budget; // its parallel loops and BLAS use this job's share of the cores
        try {
            body(progress);
        } catch (const Cancelled&) {
            shared->cancelledByJob = true;
        } catch (const std::exception& e) {
            shared->error = QString::fromUtf8(e.what());
        }
    }));
    if (!wasBusy)
        emit busyChanged(true);
}

void Worker::flush()
{
    if (!m_shared)
        return;
    m_shared->flushQueued = false;
    std::optional<ProgressInfo> info;
    {
        std::lock_guard<std::mutex> lock(m_shared->mutex);
        info.swap(m_shared->latest);
    }
    if (info && !m_shared->cancel)
        emit progress(*info);
}

void Worker::onFinished()
{
    std::shared_ptr<Shared> shared = std::move(m_shared);
    std::function<void()> deliver = std::move(m_deliver);
    m_deliver = nullptr;
    if (m_pending) { // superseded: drop this outcome, start the newest request
        Task next = std::move(*m_pending);
        m_pending.reset();
        start(std::move(next));
        return;
    }
    m_busy = false;
    if (shared && (shared->cancel || shared->cancelledByJob))
        emit cancelled();
    else if (shared && !shared->error.isEmpty())
        emit failed(shared->error);
    else if (deliver)
        deliver();
    emit busyChanged(false);
}

} // namespace olens
