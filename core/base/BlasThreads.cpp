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
    // Every core, whatever the job's share (n_jobs, compare panels side by side): OpenBLAS's
    // factorisations round differently with one thread than with two (kic's training scores
    // differed by 6e-13 between n_jobs=1 and 2, #53), so the count is fixed by the machine alone
    // and a result does not depend on n_jobs — as in scikit-learn, where n_jobs does not govern
    // the BLAS either. OpenBLAS's count is process-wide: the first scope sets it for all that
    // open while it lives.
    if (openScopes++ == 0)
        openblas_set_num_threads(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
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
