#pragma once
// Principal component analysis of the rows of a matrix (mean + orthonormal directions by
// decreasing variance), used by the pca detector and for p>3 projections in the views.
#include <Eigen/Dense>

namespace olens {

struct PcaResult {
    Eigen::VectorXd mean;       ///< p
    Eigen::MatrixXd components; ///< p×p, columns = principal directions, decreasing variance
    Eigen::VectorXd variances;  ///< p, eigenvalues of the (population) covariance, decreasing
};

/// Thin SVD of the centred data; deterministic signs (largest |entry| of each direction positive).
PcaResult pca(const Eigen::MatrixXd& X);


} // namespace olens
