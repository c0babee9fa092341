#include "base/Stats.h"

#include "base/ParallelFor.h"
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

std::vector<int> rankByScore(const Eigen::VectorXd& scores)
{
    using Key = std::pair<double, int>;
    const auto n = static_cast<std::size_t>(scores.size());
    std::vector<Key> keyed(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = scores(static_cast<Eigen::Index>(i));
        keyed[i] = {std::isnan(v) ? -std::numeric_limits<double>::infinity() : v, static_cast<int>(i)};
    }
    // NaN as −∞ keeps the order strict-weak; equal keys are ordered by row.
    const auto before = [](const Key& a, const Key& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; };
    constexpr std::size_t kMinPerThread = 100000;
    const std::size_t half = n / 2;
    if (n >= 2 * kMinPerThread && workerThreads() > 1) {
        const auto mid = keyed.begin() + static_cast<std::ptrdiff_t>(half);
        parallelFor(2, 1, [&](std::int64_t p0, std::int64_t p1) {
            for (std::int64_t p = p0; p < p1; ++p)
                std::sort(p == 0 ? keyed.begin() : mid, p == 0 ? mid : keyed.end(), before);
        });
        std::inplace_merge(keyed.begin(), mid, keyed.end(), before);
    } else {
        std::sort(keyed.begin(), keyed.end(), before);
    }
    std::vector<int> order(n);
    for (std::size_t r = 0; r < n; ++r)
        order[r] = keyed[r].second;
    return order;
}

} // namespace olens
