#include "base/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace olens {

namespace {
std::atomic<int> overrideThreads{0};

int environmentThreads()
{
    static const int value = [] {
        const char* s = std::getenv("OLENS_THREADS");
        const int fromEnv = s ? std::atoi(s) : 0;
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        return fromEnv >= 1 ? std::min(fromEnv, 4 * cores) : cores; // a typo like 100000 must not spawn that many
    }();
    return value;
}
} // namespace

int workerThreads()
{
    const int o = overrideThreads.load(std::memory_order_relaxed);
    return o >= 1 ? o : environmentThreads();
}

void setWorkerThreads(int threads)
{
    overrideThreads.store(std::max(0, threads), std::memory_order_relaxed);
}

namespace {
std::atomic<int> jobsRunning{0};
thread_local int jobDepth = 0; // > 0 while a JobThreads lives on this thread
} // namespace

JobThreads::JobThreads()
{
    if (jobDepth++ == 0)
        jobsRunning.fetch_add(1, std::memory_order_relaxed);
}

JobThreads::~JobThreads()
{
    if (--jobDepth == 0)
        jobsRunning.fetch_sub(1, std::memory_order_relaxed);
}

namespace {
thread_local int threadCap = 0; // 0 = no ThreadLimit on this thread
} // namespace

ThreadLimit::ThreadLimit(int threads) : m_previous(threadCap)
{
    threadCap = std::max(0, threads);
}

ThreadLimit::~ThreadLimit()
{
    threadCap = m_previous;
}

int jobThreads()
{
    const int all = workerThreads();
    const int share = jobDepth == 0 ? all : std::max(1, all / std::max(1, jobsRunning.load(std::memory_order_relaxed)));
    return threadCap > 0 ? std::min(share, threadCap) : share;
}

int runningJobs()
{
    return jobsRunning.load(std::memory_order_relaxed);
}

namespace {

/// job(0) … job(parts − 1) on parts threads, job(0) on the caller's; the first exception rethrown.
void onThreads(int parts, const std::function<void(int)>& job)
{
    std::exception_ptr error;
    std::mutex errorMutex;
    auto run = [&](int i) {
        try {
            job(i);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(errorMutex);
            if (!error)
                error = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(parts - 1));
    try {
        for (int i = 1; i < parts; ++i)
            threads.emplace_back(run, i);
    } catch (...) { // no thread available: the caller does the remaining jobs itself
    }
    run(0);
    for (int i = static_cast<int>(threads.size()) + 1; i < parts; ++i)
        run(i);
    for (std::thread& t : threads)
        t.join();
    if (error)
        std::rethrow_exception(error);
}

} // namespace

void parallelFor(std::int64_t n, std::int64_t minPerPart,
                 const std::function<void(std::int64_t, std::int64_t)>& part)
{
    if (n <= 0)
        return;
    const std::int64_t byWork = std::max<std::int64_t>(1, n / std::max<std::int64_t>(1, minPerPart));
    const auto parts = static_cast<int>(std::min<std::int64_t>(jobThreads(), byWork));
    if (parts <= 1) {
        part(0, n);
        return;
    }
    // Range i is [n·i/parts, n·(i+1)/parts): balanced to within one item.
    auto begin = [&](int i) { return n * i / parts; };
    onThreads(parts, [&](int i) { part(begin(i), begin(i + 1)); });
}

void parallelChunks(std::int64_t n, std::int64_t chunk,
                    const std::function<void(std::int64_t, std::int64_t)>& part)
{
    if (n <= 0)
        return;
    chunk = std::max<std::int64_t>(1, chunk);
    const std::int64_t chunks = (n + chunk - 1) / chunk;
    const auto threads = static_cast<int>(std::min<std::int64_t>(jobThreads(), chunks));
    std::atomic<std::int64_t> next{0};
    std::atomic<bool> failed{false};
    auto work = [&](int) {
        while (!failed.load(std::memory_order_relaxed)) {
            const std::int64_t c = next.fetch_add(1, std::memory_order_relaxed);
            if (c >= chunks)
                return;
            try {
                part(c * chunk, std::min(n, (c + 1) * chunk));
            } catch (...) {
                failed = true;
                throw;
            }
        }
    };
    if (threads <= 1)
        work(0);
    else
        onThreads(threads, work);
}

} // namespace olens
