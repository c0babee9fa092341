#include "base/Stats.h"

#include "base/Rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace olens {

double quantile(const Eigen::VectorXd& values, double q)
{
    if (values.size() == 0)
        return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> v(values.data(), values.data() + values.size());
    std::sort(v.begin(), v.end());
    const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, v.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    return v[lo] + frac * (v[hi] - v[lo]);
}

std::vector<Eigen::Index> sampleRows(Eigen::Index n, Eigen::Index m, std::uint64_t seed)
{
    std::vector<Eigen::Index> all(static_cast<std::size_t>(std::max<Eigen::Index>(n, 0)));
    std::iota(all.begin(), all.end(), Eigen::Index(0));
    m = std::clamp<Eigen::Index>(m, 0, n);
    Rng rng(seed);
    for (Eigen::Index i = 0; i < m; ++i) {
        const auto j = i + static_cast<Eigen::Index>(rng.index(static_cast<std::uint64_t>(n - i)));
        std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
    }
    all.resize(static_cast<std::size_t>(m));
    std::sort(all.begin(), all.end());
    return all;
}

} // namespace olens
