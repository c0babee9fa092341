#include "display/TraceAxis.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace olens {

bool spansDecades(const std::vector<double>& values, double decades)
{
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    for (double v : values) {
        if (!std::isfinite(v))
            continue;
        if (v <= 0.0)
            return false;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    return std::isfinite(lo) && hi > 0.0 && std::log10(hi / lo) >= decades - 1e-12;
}

TracePlot convergencePlot(const std::vector<double>& values)
{
    TracePlot p;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    bool positive = true;
    double lo = std::numeric_limits<double>::infinity();
    for (double v : values)
        if (std::isfinite(v)) {
            positive = positive && v > 0.0;
            lo = std::min(lo, v);
        }
    if (positive || !std::isfinite(lo)) {
        for (double v : values)
            p.y.push_back(std::isfinite(v) ? v : nan);
        p.logY = spansDecades(values, 1.0);
        return p;
    }
    p.aboveMinimum = true;
    for (double v : values)
        p.y.push_back(std::isfinite(v) && v > lo ? v - lo : nan);
    p.logY = std::any_of(p.y.begin(), p.y.end(), [](double v) { return std::isfinite(v); });
    return p;
}

} // namespace olens
