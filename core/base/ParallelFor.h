#pragma once
// Both cores for work that splits into independent parts (issue #16 item 1).
//
// Plain std::threads, started per call and joined before it returns: meant for parts of at least a
// millisecond (a thread start costs ~20–50 µs). Results must not depend on the number of threads:
// the parts are contiguous ranges and callers write disjoint outputs and reduce in a fixed order.
#include <cstdint>
#include <functional>

namespace olens {

/// Threads parallelFor may use: OLENS_THREADS from the environment when set (≥ 1), else the
/// hardware's concurrency; setWorkerThreads overrides both (0 restores them).
int workerThreads();
void setWorkerThreads(int threads);

/// The thread budget shared by concurrent jobs (issue #32): a job — a GUI worker job, a compare
/// panel's training — holds a JobThreads for as long as it runs on its thread; parallelFor,
/// parallelChunks and the BLAS (ParallelBlasScope) inside it then use its share, workerThreads()
/// divided by the jobs running at that moment (at least 1), instead of every core each: nine
/// compare panels on two cores start nine threads, not eighteen.
class JobThreads {
public:
    JobThreads();
    ~JobThreads();
    JobThreads(const JobThreads&) = delete;
    JobThreads& operator=(const JobThreads&) = delete;
};

/// A cap on the threads of the work started on this thread while it lives (Python's n_jobs):
/// jobThreads() is at most `threads` (≥ 1; 0 = no cap). Nested limits: the innermost applies.
class ThreadLimit {
public:
    explicit ThreadLimit(int threads);
    ~ThreadLimit();
    ThreadLimit(const ThreadLimit&) = delete;
    ThreadLimit& operator=(const ThreadLimit&) = delete;

private:
    int m_previous;
};

/// The threads this thread may use now: its job's share while a JobThreads lives on it, else
/// workerThreads(); never more than a ThreadLimit on this thread allows.
int jobThreads();
/// Jobs holding a JobThreads now (for tests and logs).
int runningJobs();

/// Calls part(begin, end) on contiguous ranges covering [0, n), each of at least minPerPart items
/// (fewer ranges than threads when n is small), on up to jobThreads() threads, the caller's
/// included. Returns when every part has returned; the first exception thrown by a part is rethrown.
void parallelFor(std::int64_t n, std::int64_t minPerPart,
                 const std::function<void(std::int64_t begin, std::int64_t end)>& part);

/// Calls part(begin, end) on the chunks [0, chunk), [chunk, 2·chunk), … covering [0, n) (the last
/// may be shorter), handed out one at a time to up to jobThreads() threads, the caller's
/// included, each taking the next chunk when it has finished its last: a thread slowed by other
/// work (the GUI drawing, another process) does fewer chunks instead of holding the others up at
/// the end, as an equal split would. Chunks run in any order on any of those threads. The first
/// exception thrown by a part stops the handing out and is rethrown once every running part returned.
void parallelChunks(std::int64_t n, std::int64_t chunk,
                    const std::function<void(std::int64_t begin, std::int64_t end)>& part);

} // namespace olens
