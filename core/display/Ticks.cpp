#include "display/Ticks.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace olens {

void widenDegenerate(double& lo, double& hi)
{
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = 0.0;
        hi = 1.0;
        return;
    }
    if (lo > hi)
        std::swap(lo, hi);
    const double scale = std::max({std::fabs(lo), std::fabs(hi), 1e-300});
    if (hi - lo <= scale * 1e-12) {
        const double half = lo == 0.0 ? 0.5 : std::fabs(lo) * 0.1;
        lo -= half;
        hi += half;
    }
}

double niceStep(double raw)
{
    if (!(raw > 0.0) || !std::isfinite(raw))
        return 1.0;
    const double e = std::floor(std::log10(raw));
    const double base = std::pow(10.0, e);
    const double f = raw / base;
    const double m = f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0;
    return m * base;
}

std::vector<double> linearTicks(double lo, double hi, int target, double& step)
{
    step = niceStep((hi - lo) / std::max(1, target));
    std::vector<double> ticks;
    const double first = std::ceil(lo / step - 1e-9) * step;
    for (int k = 0; k < 200; ++k) {
        double v = first + k * step;
        if (v > hi + step * 1e-9)
            break;
        if (std::fabs(v) < step * 1e-9)
            v = 0.0;
        ticks.push_back(v);
    }
    return ticks;
}

std::vector<double> logTicks(double lo10, double hi10, int target)
{
    std::vector<double> ticks;
    const int d0 = static_cast<int>(std::ceil(lo10 - 1e-9));
    const int d1 = static_cast<int>(std::floor(hi10 + 1e-9));
    const int decades = d1 - d0 + 1;
    if (decades >= 2) {
        const int every = std::max(1, (decades + target - 1) / std::max(1, target));
        for (int d = d0; d <= d1; d += every)
            ticks.push_back(std::pow(10.0, d));
        if (decades * 3 <= target) { // few decades: add 2 and 5 between them
            std::vector<double> more;
            for (int d = d0 - 1; d <= d1; ++d)
                for (double m : {2.0, 5.0}) {
                    const double v = m * std::pow(10.0, d);
                    const double l = std::log10(v);
                    if (l >= lo10 - 1e-9 && l <= hi10 + 1e-9)
                        more.push_back(v);
                }
            ticks.insert(ticks.end(), more.begin(), more.end());
            std::sort(ticks.begin(), ticks.end());
        }
        return ticks;
    }
    for (int d = static_cast<int>(std::floor(lo10)) - 1; d <= static_cast<int>(std::ceil(hi10)); ++d)
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, d);
            const double l = std::log10(v);
            if (l >= lo10 - 1e-9 && l <= hi10 + 1e-9)
                ticks.push_back(v);
        }
    if (ticks.size() >= 2)
        return ticks;
    // Less than a factor 2 of range: ordinary nice ticks on the values.
    double step = 0.0;
    ticks = linearTicks(std::pow(10.0, lo10), std::pow(10.0, hi10), target, step);
    ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [](double v) { return v <= 0.0; }), ticks.end());
    return ticks;
}

} // namespace olens
