#pragma once
// Outlier-aware similarity (quadrics paper eq. 17): any detector's scores can gate any similarity.
#include <Eigen/Core>

namespace olens {

/// Similarity robustification, eq. 17: s_h = s when max(o(x), o(y)) < t, else 0 (outliers are
/// declared dissimilar to anything). `similarity` is s(x, y), scoreX/scoreY the outlier scores o.
double robustSimilarity(double similarity, double scoreX, double scoreY, double threshold);
/// Eq. 17 element-wise over pairs (all three vectors of one length; DataError otherwise).
Eigen::VectorXd robustSimilarity(const Eigen::VectorXd& similarity, const Eigen::VectorXd& scoreX,
                                 const Eigen::VectorXd& scoreY, double threshold);

} // namespace olens
