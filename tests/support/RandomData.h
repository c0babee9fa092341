#pragma once
// Random test matrices shared by the core tests. Two draw orders exist because each test's
// assertions were written against its own draws: gaussianMatrix fills in storage (column-major)
// order from a given generator, gaussianRows fills row by row from a fresh Rng(seed).
#include "base/Rng.h"

#include <Eigen/Core>
#include <cstdint>

namespace olens::test {

/// rows × cols entries sd·N(0, 1), drawn in storage (column-major) order from rng.
inline Eigen::MatrixXd gaussianMatrix(Eigen::Index rows, Eigen::Index cols, Rng& rng, double sd = 1.0)
{
    Eigen::MatrixXd M(rows, cols);
    for (Eigen::Index i = 0; i < M.size(); ++i)
        M.data()[i] = sd * rng.normal();
    return M;
}

/// The same from a fresh Rng(seed).
inline Eigen::MatrixXd gaussianMatrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed)
{
    Rng rng(seed);
    return gaussianMatrix(rows, cols, rng);
}

/// n rows of p entries scale·N(0, 1), drawn row by row from a fresh Rng(seed).
inline Eigen::MatrixXd gaussianRows(Eigen::Index n, Eigen::Index p, std::uint64_t seed, double scale = 1.0)
{
    Rng rng(seed);
    Eigen::MatrixXd X(n, p);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < p; ++j)
            X(i, j) = scale * rng.normal();
    return X;
}

} // namespace olens::test
