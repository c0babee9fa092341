#include "data/Dataset.h"

namespace olens {

Eigen::VectorXi Dataset::outlierFlags() const
{
    Eigen::VectorXi flags(labels.size());
    for (Eigen::Index i = 0; i < labels.size(); ++i)
        flags(i) = labels(i) != 0.0 ? 1 : 0;
    return flags;
}

} // namespace olens
