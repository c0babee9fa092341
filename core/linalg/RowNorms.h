#pragma once
// Euclidean norms of a matrix's rows that neither overflow nor underflow.
#include <Eigen/Core>

namespace olens {

/// ‖row_i‖₂ for every row. `rowwise().norm()` squares first: a row with entries near 1e155 gives
/// +inf, one with entries near 1e-160 loses digits and one near 1e-165 gives 0. Rows whose plain
/// norm is infinite or below √DBL_MIN (and only those: the fast path stays the plain sum of
/// squares) are recomputed with Eigen's scaled `stableNorm`.
Eigen::VectorXd rowNorms(const Eigen::Ref<const Eigen::MatrixXd>& M);

} // namespace olens
