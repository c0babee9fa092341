#include "linalg/RowNorms.h"

#include <cmath>
#include <limits>

namespace olens {

Eigen::VectorXd rowNorms(const Eigen::Ref<const Eigen::MatrixXd>& M)
{
    // Below √DBL_MIN (~1.5e-154) the sum of squares has lost digits to gradual underflow (entries
    // of 1e-160 give a relative error of ~1e-4) or become 0.
    static const double tiny = std::sqrt(std::numeric_limits<double>::min());
    Eigen::VectorXd out = M.rowwise().norm();
    for (Eigen::Index i = 0; i < out.size(); ++i) {
        const double v = out(i);
        if ((std::isinf(v) || v < tiny) && M.row(i).allFinite())
            out(i) = M.row(i).stableNorm();
    }
    return out;
}

} // namespace olens
