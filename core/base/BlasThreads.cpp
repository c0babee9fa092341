#include "base/BlasThreads.h"

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
