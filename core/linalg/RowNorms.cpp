#include "linalg/RowNorms.h"

#include <cmath>

namespace olens {

Eigen::VectorXd rowNorms(const Eigen::Ref<const Eigen::MatrixXd>& M)
{
    Eigen::VectorXd out = M.rowwise().norm();
    for (Eigen::Index i = 0; i < out.size(); ++i) {
        const double v = out(i);
        if ((std::isinf(v) || v == 0.0) && M.row(i).allFinite())
            out(i) = M.row(i).stableNorm();
    }
    return out;
}

} // namespace olens
