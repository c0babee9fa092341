#include "pipeline/DecisionsAt.h"

#include "pipeline/FitPipeline.h"

namespace olens {

DecisionsAt::DecisionsAt(const FitResult& r, double threshold)
    : m_r(&r), m_threshold(threshold), m_own(threshold == r.threshold && r.outlier.size() == r.scores.size())
{
}

bool DecisionsAt::operator()(Eigen::Index row) const
{
    if (!m_r)
        return false;
    return m_own ? m_r->outlier(row) != 0 : m_r->scores(row) > m_threshold;
}

} // namespace olens
