#include "base/Stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

} // namespace olens
