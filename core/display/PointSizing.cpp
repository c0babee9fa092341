#include "display/PointSizing.h"

#include <algorithm>
#include <cmath>

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

int lodStride(std::int64_t n, std::int64_t budget)
{
    if (budget <= 0 || n <= budget)
        return 1;
    return static_cast<int>((n + budget - 1) / budget);
}

} // namespace olens
