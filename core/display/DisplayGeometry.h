#pragma once
// Numbers the view draws with, as pure functions: where a flat's patch lies in display
// coordinates, the matrix that turns a unit disk / sphere into a point's uncertainty glyph, the
// colour range of the scores and the levels of the quantile contours.
#include "data/Normalizer.h"
#include "detectors/Geometry.h"
#include "linalg/Projection.h"

#include <Eigen/Core>
#include <utility>
#include <vector>

namespace olens {

/// Corners of a flat's extent in the detector's (normalised) space, one per row: for a 1-flat the
/// two ends, for a 2-flat the corner at (lower, lower) and its neighbours at (upper, lower) and
/// (lower, upper) — origin, point1 and point2 of the parallelogram. No rows when the flat has no
/// length or area to draw (dimension not 1 or 2, mismatched extent, a single point).
Eigen::MatrixXd flatCorners(const Flat& flat);

/// flatCorners mapped to feature space (inverse of the normaliser; `fill` supplies features the
/// normaliser dropped) and projected to display coordinates. No rows when nothing is drawable or
/// the normaliser cannot invert.
Eigen::MatrixX3d flatDisplayCorners(const Flat& flat, const Normalizer& normalizer, const Eigen::VectorXd& fill,
                                    const Projection& projection);

/// The shadow of an ellipsoid quadric (Quadric::ellipsoid, in the detector's normalised space) on the
/// view's display coordinates u = Bᵀ(x − origin), as a quadric in u (q = projection.displayDims()):
/// with x = centre + G z the inverse normalisation, the ellipsoid (z − c)ᵀS⁻¹(z − c) ≤ r² projects
/// onto (u − u_c)ᵀ(L S Lᵀ)⁻¹(u − u_c) ≤ r², L = BᵀG — the marginal ellipse of the shown coordinates
/// (for a Gaussian with covariance S: the same Mahalanobis radius in the marginal of u). For p ≤ 3
/// (identity projection) it is the ellipsoid itself. Empty A (0×0) when there is nothing to project:
/// not an ellipsoid, an l2 normaliser (not affine), a shadow without area, or mismatched sizes.
Quadric ellipsoidShadow(const Quadric& q, const Normalizer& normalizer, const Projection& projection);

/// Bᵀ diag(σ²) B: the covariance of N(x, diag(σ²)) seen in the coordinates of the basis B (p×q).
Eigen::MatrixXd projectedCovariance(const Eigen::VectorXd& sigma, const Eigen::MatrixXd& basis);

/// The symmetric M with M Mᵀ = scale² · (display covariance of the point, padded to 3×3): it maps
/// the unit disk / sphere onto the scale·σ ellipse / ellipsoid. For an identity projection simply
/// diag(scale·|σ|); otherwise the square root of the projected covariance. Symmetric, so the
/// row/column convention of whoever consumes it does not matter.
Eigen::Matrix3d glyphMatrix(const Eigen::VectorXd& sigma, const Projection& projection, double scale);

/// Colour-map range of the scores: [min, 99th percentile] so a few extreme outliers do not wash
/// out the rest; widened to [min, max] or [min, min + 1] when that is empty. Scores non-empty.
std::pair<double, double> scoreColourRange(const Eigen::VectorXd& scores);

/// The scores' order statistics at the quantiles q (index ⌊q (n − 1)⌋ of the sorted scores), for
/// contour levels. Empty without scores.
std::vector<double> quantileLevels(const Eigen::VectorXd& scores, const std::vector<double>& quantiles);

} // namespace olens
