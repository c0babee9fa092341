#include "display/Ticks.h"

#include "base/Format.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <cmath>
#include <utility>

namespace olens {

namespace {

// "1.0e+05" → "1e+05"; "2.50e-04" → "2.5e-04".
std::string trimMantissa(std::string s)
{
    const auto e = s.find('e');
    if (e == std::string::npos)
        return s;
    std::string mant = s.substr(0, e);
    if (mant.find('.') != std::string::npos) {
        while (!mant.empty() && mant.back() == '0')
            mant.pop_back();
        if (!mant.empty() && mant.back() == '.')
            mant.pop_back();
    }
    return mant + s.substr(e);
}

} // namespace


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

std::vector<std::string> tickLabels(const std::vector<double>& ticks, bool log)
{
    std::vector<std::string> out;
    if (ticks.empty())
        return out;
    double maxAbs = 0.0, minStep = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        maxAbs = std::max(maxAbs, std::fabs(ticks[i]));
        if (i > 0)
            minStep = std::min(minStep, std::fabs(ticks[i] - ticks[i - 1]));
    }
    if (!std::isfinite(minStep) || minStep <= 0.0)
        minStep = maxAbs > 0.0 ? maxAbs : 1.0;
    bool exponent = maxAbs >= 1e5 || (maxAbs > 0.0 && maxAbs < 1e-3);
    if (log) {
        double minAbs = std::numeric_limits<double>::infinity();
        for (double v : ticks)
            if (v > 0.0)
                minAbs = std::min(minAbs, v);
        exponent = exponent || (std::isfinite(minAbs) && maxAbs / minAbs >= 1e3 && (minAbs < 1e-2 || maxAbs >= 1e4));
    }
    for (double v : ticks) {
        std::string s;
        if (exponent) {
            s = trimMantissa(formatNumber("%.2e", v));
        } else if (log) {
            s = formatNumber("%.3g", v); // 0.02, 0.5, 10, 200: each its own precision
        } else {
            const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(minStep) - 1e-9)), 0, 6);
            s = formatNumber(("%." + std::to_string(decimals) + "f").c_str(), v);
            if (s == "-0" || s.rfind("-0.", 0) == 0) { // "-0.00" → "0.00"
                bool zero = s.find_first_not_of("-0.") == std::string::npos;
                if (zero)
                    s.erase(0, 1);
            }
        }
        out.push_back(s);
    }
    return out;
}

std::vector<double> fittingTicks(double lo, double hi, double pixels,
                                 const std::function<double(const std::string&)>& extent, double gap, int maxTarget)
{
    widenDegenerate(lo, hi);
    for (int target = std::max(1, maxTarget); target >= 1; --target) {
        double step = 0.0;
        std::vector<double> t = linearTicks(lo, hi, target, step);
        if (t.empty())
            continue;
        const std::vector<std::string> labels = tickLabels(t, false);
        bool fits = true;
        for (std::size_t i = 1; i < t.size() && fits; ++i) {
            const double apart = (t[i] - t[i - 1]) / (hi - lo) * pixels;
            fits = apart >= 0.5 * (extent(labels[i - 1]) + extent(labels[i])) + gap;
        }
        if (fits)
            return t;
    }
    double step = 0.0;
    std::vector<double> t = linearTicks(lo, hi, 1, step);
    if (t.size() > 1)
        t = {t[t.size() / 2]};
    return t;
}

} // namespace olens
