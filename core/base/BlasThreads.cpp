#include "base/BlasThreads.h"

#include "base/ParallelFor.h"

#include <algorithm>
#include <mutex>
#include <thread>

#ifdef OLENS_OPENBLAS
extern "C" {
void openblas_set_num_threads(int);
}
#endif

namespace olens {

namespace {
#ifdef OLENS_OPENBLAS
std::once_flag serialOnce;
std::mutex scopeMutex;
int openScopes = 0; // guarded by scopeMutex: the last scope to close restores one thread
#endif
} // namespace

void useSerialBlasByDefault()
{
#ifdef OLENS_OPENBLAS
    std::call_once(serialOnce, [] {
        const std::lock_guard<std::mutex> lock(scopeMutex);
        if (openScopes == 0)
            openblas_set_num_threads(1);
    });
#endif
}

ParallelBlasScope::ParallelBlasScope()
{
#ifdef OLENS_OPENBLAS
    useSerialBlasByDefault();
    const std::lock_guard<std::mutex> lock(scopeMutex);
    // The opening job's share of the thread budget (base/ParallelFor: every core for a job alone,
    // fewer while compare panels train side by side). OpenBLAS's count is process-wide, so the
    // first scope sets it for all that open while it lives.
    if (openScopes++ == 0)
        openblas_set_num_threads(jobThreads());
#endif
}

ParallelBlasScope::~ParallelBlasScope()
{
#ifdef OLENS_OPENBLAS
    const std::lock_guard<std::mutex> lock(scopeMutex);
    if (--openScopes == 0)
        openblas_set_num_threads(1);
#endif
}

} // namespace olens
