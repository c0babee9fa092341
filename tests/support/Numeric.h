#pragma once
// Numeric comparisons shared by the tests (one definition each; issue #50).
#include <Eigen/Core>

#include <cmath>
#include <limits>

namespace olens::test {

/// |a − b| ≤ tol·(1 + |b|): relative to b, absolute near zero.
inline bool near(double a, double b, double tol = 1e-12)
{
    return std::fabs(a - b) <= tol * (1.0 + std::fabs(b));
}

/// |a − b| ≤ tol; infinities are near only to themselves.
inline bool nearAbs(double a, double b, double tol = 1e-12)
{
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= tol;
}

/// Largest absolute entry.
inline double maxAbs(const Eigen::MatrixXd& M)
{
    return M.cwiseAbs().maxCoeff();
}

/// Largest absolute difference of two matrices or vectors; infinity when their shapes differ.
inline double maxAbsDiff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return std::numeric_limits<double>::infinity();
    return (a - b).cwiseAbs().maxCoeff();
}

} // namespace olens::test
