#pragma once
// Euclidean norms of a matrix's rows that neither overflow nor underflow.
#include <Eigen/Core>

namespace olens {

/// ‖row_i‖₂ for every row. `rowwise().norm()` squares first: a row with entries near 1e155 gives
/// +inf and one with entries near 1e-165 gives 0. Those rows (and only those: the fast path stays
/// the plain sum of squares) are recomputed with Eigen's scaled `stableNorm`.
Eigen::VectorXd rowNorms(const Eigen::Ref<const Eigen::MatrixXd>& M);

} // namespace olens
