#include "display/PointSizing.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace olens {

double autoPointSize(std::int64_t n, double screenArea, double pixelRatio)
{
    const double lo = kMinAutoPointSize * pixelRatio, hi = kMaxAutoPointSize * pixelRatio;
    if (n <= 0 || !(screenArea > 0.0))
        return hi;
    // n·π(s/2)² = area/4  ⇔  s = √(area / (π n)).
    const double s = std::sqrt(screenArea / (M_PI * static_cast<double>(n)));
    return std::clamp(s, lo, hi);
}

double autoPointOpacity(double density, double spriteSize)
{
    if (!(density > 0.0) || !(spriteSize > 0.0))
        return 1.0;
    const double overdraw = density * M_PI * spriteSize * spriteSize / 4.0;
    return std::clamp(1.0 / overdraw, kMinPointOpacity, 1.0);
}

double autoPointOpacity(std::int64_t n, double screenArea, double spriteSize)
{
    if (n <= 0 || !(screenArea > 0.0))
        return 1.0;
    return autoPointOpacity(static_cast<double>(n) / screenArea, spriteSize);
}

double cloudOpacity(std::int64_t n, double boxArea, double density, double pixelRatio)
{
    const double lo = kMinAutoPointSize * pixelRatio;
    if (n <= 0 || !(boxArea > 0.0))
        return 1.0;
    // The size the automatic rule wants, unclamped: above the smallest sprite, it still works.
    const double wanted = std::sqrt(boxArea / (M_PI * static_cast<double>(n)));
    if (wanted >= lo)
        return 1.0;
    // Below, the sprites cover (lo / wanted)² times the pixels the rule wants: their opacity is
    // at least the inverse (1 at the switch — no jump for a concentrated cloud, whose density
    // alone would fade it at once), and the density rule takes over as n grows.
    return std::max((wanted / lo) * (wanted / lo), autoPointOpacity(density, lo));
}

double screenDensity(const Eigen::Ref<const Eigen::MatrixX2d>& screen, std::int64_t n, double cell)
{
    const Eigen::Index m = screen.rows();
    if (m < 2 || n <= 0 || !(cell > 0.0))
        return 0.0;
    std::unordered_map<std::uint64_t, std::int64_t> counts;
    counts.reserve(static_cast<std::size_t>(m));
    std::int64_t inside = 0;
    for (Eigen::Index i = 0; i < m; ++i) {
        const double x = std::floor(screen(i, 0) / cell), y = std::floor(screen(i, 1) / cell);
        if (!std::isfinite(x) || !std::isfinite(y) || std::abs(x) > 1e9 || std::abs(y) > 1e9)
            continue;
        const auto key = (static_cast<std::uint64_t>(static_cast<std::int64_t>(x) + (1LL << 31)) << 32)
                       | static_cast<std::uint64_t>(static_cast<std::int64_t>(y) + (1LL << 31));
        ++counts[key];
        ++inside;
    }
    double pairs = 0.0;
    for (const auto& kv : counts)
        pairs += double(kv.second) * double(kv.second - 1);
    if (inside < 2 || pairs <= 0.0)
        return 0.0;
    // Σ c(c − 1) / Σ c: the sample points around a typical sample point in its cell, unbiased;
    // times n / m for all the points, per pixel².
    return pairs / double(inside) * (double(n) / double(m)) / (cell * cell);
}

int lodStride(std::int64_t n, std::int64_t budget)
{
    if (budget <= 0 || n <= budget)
        return 1;
    return static_cast<int>((n + budget - 1) / budget);
}

int stillStride(std::int64_t n, bool quiet, std::int64_t quietBudget, std::int64_t pointBudget)
{
    return lodStride(n, quiet ? quietBudget : pointBudget);
}

} // namespace olens
