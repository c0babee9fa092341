#include "similarity/RobustSimilarity.h"

#include "base/Errors.h"

#include <algorithm>
#include <string>

namespace olens {

double robustSimilarity(double similarity, double scoreX, double scoreY, double threshold)
{
    // eq. 17: s_h(x, y) = s(x, y) if max(o(x), o(y)) < t, else 0.
    return std::max(scoreX, scoreY) < threshold ? similarity : 0.0;
}

Eigen::VectorXd robustSimilarity(const Eigen::VectorXd& similarity, const Eigen::VectorXd& scoreX,
                                 const Eigen::VectorXd& scoreY, double threshold)
{
    if (scoreX.size() != similarity.size() || scoreY.size() != similarity.size())
        throw DataError("robustSimilarity: " + std::to_string(similarity.size()) + " similarities but "
                        + std::to_string(scoreX.size()) + " and " + std::to_string(scoreY.size()) + " scores");
    Eigen::VectorXd out(similarity.size());
    for (Eigen::Index i = 0; i < similarity.size(); ++i)
        out(i) = robustSimilarity(similarity(i), scoreX(i), scoreY(i), threshold);
    return out;
}

} // namespace olens
