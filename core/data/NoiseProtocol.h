#pragma once
// The noise protocol of uncertainty-joint-bayesian.txt sec. 5.1: for each sample and each feature
// a standard deviation σ is drawn uniformly in [0, t], then Gaussian noise N(0, σ²) is added to the
// value; σ is kept as the sample's uncertainty (sigma_<feature> columns, standard deviations; the
// models use diag(σ²)).
#include "data/Dataset.h"
#include "base/Rng.h"

#include <cstdint>

namespace olens {

/// Applies the protocol in place, row by row and feature by feature (σ then noise, one fixed
/// order of draws). sigma: empty (created, n×p) or n×p existing standard deviations, combined with
/// the new ones in quadrature (independent noises add variances). NaN cells stay NaN (missing).
/// Throws ParamError when t is negative or not finite, DataError on size mismatch.
void applyNoiseProtocol(Eigen::MatrixXd& X, Eigen::MatrixXd& sigma, double t, Rng& rng);

/// Copy of `data` perturbed with the protocol (seeded; same seed → same output).
Dataset perturbDataset(const Dataset& data, double t, std::uint64_t seed);

} // namespace olens
