#pragma once
// A Cholesky factorisation that can be interrupted: right-looking and blocked, so the O(n³) work
// is a sequence of BLAS-3 steps with a progress call (which may throw Cancelled) between them. A
// library LLT of a 10 000 × 10 000 kernel matrix is tens of seconds without a single cancellation
// point; here the longest step is one panel's trailing update (≈ 20 ms at n = 10 000).
#include <Eigen/Core>

#include <functional>

namespace olens {

/// Fraction of the factorisation done, in [0, 1]; may throw to stop the work.
using FactorTick = std::function<void(double)>;

/// A = LLᵀ in place: the lower triangle of A becomes L (the strict upper triangle is left as it
/// was). Returns false when a pivot is not positive (A not numerically positive definite).
bool choleskyInPlace(Eigen::MatrixXd& A, const FactorTick& tick = {});

} // namespace olens
