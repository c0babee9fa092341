#pragma once
// Private to core/detectors/quadrics/: what the files of the folder share. Not installed, not
// included from outside the folder. The folder's files, one concern each:
//   QuadricMaths.cpp          one quadric: distances (sec. 4.1–4.2), HS inner product, isometries
//   QuadricsObjective.cpp     the Q-FULL objective: θ ↔ quadrics, data term and gradient in double
//                             and mixed precision (eq. 8, 14), orthonormality penalty (eq. 15)
//   QuadricsTraining.cpp      Q-FULL training: minibatch SGD/Adam, progress, convergence
//   QuadricsDetector.cpp      Q-FULL detector glue: parameters, scores, geometry, figures, state
//   QuadricsBaseDetector.cpp  Q-BASE: the moment matrix and its eigen-decomposition (App. A.1–A.2)
#include "detectors/quadrics/QuadricsDetector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace olens {

namespace quadrics_detail {

/// Rows per block when scoring / accumulating moments.
inline constexpr Eigen::Index kChunk = 1024;

/// Memory the quadrics detectors may allocate for their dense D×D / D×m matrices.
inline constexpr std::uint64_t kMemoryBudget = std::uint64_t(1) << 30;

/// T = p(p+1)/2 and D = T + p + 1 in 64-bit arithmetic (an int overflows from p = 46341 on).
inline std::int64_t hsSize64(std::int64_t p) { return p * (p + 1) / 2; }
inline std::int64_t blockSize64(std::int64_t p) { return hsSize64(p) + p + 1; }

/// The parameter m shared by both detectors (QuadricsDetector.cpp).
ParamSpec quadricsCountParam();

/// App. B.4: m from the eigenvalue decay of the data's PCA (shown beside the quadrics forms);
/// DetectorInfo::guidance of both detectors (QuadricsDetector.cpp).
std::string quadricsGuidance(const Eigen::MatrixXd& X);

/// The entries of M in column-major order, for the saved state (QuadricsDetector.cpp).
std::vector<double> flat(const Eigen::MatrixXd& M);

/// Quadrics of θ (normalised coordinates y = (x − μ)/s) in the original coordinates, multiplied by s²
/// so that A is unchanged: s² f((x − μ)/s) has A' = A, b' = s b − 2Aμ, c' = μᵀAμ − s bᵀμ + s² c
/// (QuadricsDetector.cpp; also the live snapshots of QuadricsTraining.cpp).
std::vector<Quadric> toOriginal(const QuadricsObjective& obj, const Eigen::VectorXd& theta, const Eigen::VectorXd& mu,
                                double s);

} // namespace quadrics_detail

} // namespace olens
