#pragma once
// Small statistics shared by detectors, metrics and the similarity models (defined once).
#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace olens {

/// log(2π), the constant of Gaussian log-densities (UA-PPCA eq. 5, JB eq. 13).
constexpr double kLog2Pi = 1.8378770664093454835606594728112353;

/// Quantile with linear interpolation (NumPy's default), q in [0,1]; NaN for an empty vector.
double quantile(const Eigen::VectorXd& values, double q);

/// m of the rows 0..n−1 drawn uniformly without replacement (partial Fisher–Yates driven by Rng
/// with this seed: same seed, same rows), in increasing order; all rows when m ≥ n.
std::vector<Eigen::Index> sampleRows(Eigen::Index n, Eigen::Index m, std::uint64_t seed);

/// The rows by decreasing score, ties by row index, NaN scores last: the outlier ranking. Sorts
/// contiguous (score, row) pairs, in two halves on two threads merged at the end (a million
/// scores: ~50 ms instead of ~100 ms); the order is total, so it does not depend on the threads.
std::vector<int> rankByScore(const Eigen::VectorXd& scores);

} // namespace olens
