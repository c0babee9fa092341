#pragma once
// Principal component analysis of the rows of a matrix (mean + orthonormal directions by
// decreasing variance), used by the pca detector and for p>3 projections in the views.
#include <Eigen/Core>

namespace olens {

struct PcaResult {
    Eigen::VectorXd mean;       ///< p
    Eigen::MatrixXd components; ///< p×p, columns = principal directions, decreasing variance
    Eigen::VectorXd variances;  ///< p, eigenvalues of the (population) covariance, decreasing
    double totalVariance = 0.0; ///< trace of the covariance (= variances.sum() for the full pca)
};

/// The sign convention of every principal direction here: the entry of largest magnitude is positive.
void fixDirectionSign(Eigen::Ref<Eigen::VectorXd> v);

/// Thin SVD of the centred data; deterministic signs (largest |entry| of each direction positive).
PcaResult pca(const Eigen::MatrixXd& X);

/// The first k principal directions only (components p×k, variances k), for the view's projection
/// of wide tables: never forms a p×p matrix when p is large. Exact through the p×p covariance for
/// p ≤ kExactColumns, exact through the n×n Gram matrix C Cᵀ when there are few rows (n ≤
/// kExactColumns < p; a 40 × 10 000 table costs 40² × 10 000 flops instead of 10 000³), else a
/// randomised subspace iteration (Halko, Martinsson & Tropp 2011, Alg. 4.4) with a fixed seed, so
/// the same data always give the same axes. Same sign convention as pca().
PcaResult pcaLeading(const Eigen::MatrixXd& X, int k);
inline constexpr Eigen::Index kExactColumns = 512;


} // namespace olens
