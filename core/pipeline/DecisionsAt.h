#pragma once
// Which rows a result flags at a threshold (small header: the Ranking's model keeps one).
#include <Eigen/Core>

namespace olens {

struct FitResult;

/// Which rows a result flags at a threshold: at the detector's own threshold its own decisions
/// (FitResult::outlier), at any other score > threshold. The one rule of the Ranking, its filter
/// and the point export (each had written it out).
class DecisionsAt {
public:
    DecisionsAt() = default;
    DecisionsAt(const FitResult& r, double threshold);
    bool operator()(Eigen::Index row) const;

private:
    const FitResult* m_r = nullptr;
    double m_threshold = 0.0;
    bool m_own = false;
};

} // namespace olens
