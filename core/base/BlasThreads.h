#pragma once
// How many threads the BLAS behind Eigen may use (OLENS_BLAS: OpenBLAS).
//
// One by default: the iterative methods (kods, gods, quadrics) make thousands of small and medium
// products whose thread hand-offs cost more than they gain, and on a busy machine they collapse
// (kods on WBC, 2 cores with other work running: 15.7 s wall with two BLAS threads, 3.3 s with
// one). The O(n³) factorisations (kic, ic) are where both cores pay off: they open a
// ParallelBlasScope around that phase. Without OpenBLAS these are no-ops.
namespace olens {

/// Sets the process-wide default (one BLAS thread); idempotent, called by Detector::fit.
void useSerialBlasByDefault();

/// Lets the BLAS use every core while it lives, whatever the job's thread cap (n_jobs), so that a
/// result does not depend on the cap (process-wide: other threads' BLAS calls in that time may use
/// them too, which only affects speed).
class ParallelBlasScope {
public:
    ParallelBlasScope();
    ~ParallelBlasScope();
    ParallelBlasScope(const ParallelBlasScope&) = delete;
    ParallelBlasScope& operator=(const ParallelBlasScope&) = delete;
};

} // namespace olens
