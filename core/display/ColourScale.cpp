#include "display/ColourScale.h"

#include "display/Ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace olens {

namespace {

/// The element at rank ⌊q·(n − 1)⌋ of s in ascending order (what sorting s and indexing would
/// give), by selection: O(n) instead of a sort of every score (a million at a time in the GUI).
/// Reorders s.
double quantileOfUnsorted(std::vector<double>& s, double q)
{
    q = std::clamp(q, 0.0, 1.0);
    const auto k = static_cast<std::ptrdiff_t>(q * double(s.size() - 1) + 1e-9); // 0.1·100 is 9.999…
    std::nth_element(s.begin(), s.begin() + k, s.end());
    return s[static_cast<std::size_t>(k)];
}

} // namespace

ColourScale colourScale(const Eigen::VectorXd& values, const ColourRangeSpec& spec)
{
    std::vector<double> s;
    s.reserve(static_cast<std::size_t>(values.size()));
    for (Eigen::Index i = 0; i < values.size(); ++i)
        if (std::isfinite(values(i)))
            s.push_back(values(i));
    ColourScale c;
    const bool any = !s.empty();
    const auto [minIt, maxIt] = std::minmax_element(s.begin(), s.end());
    c.dataMin = any ? *minIt : spec.lo;
    c.dataMax = any ? *maxIt : spec.hi;
    double lo = c.dataMin, hi = c.dataMax;
    switch (spec.mode) {
    case ColourRangeMode::Auto:
        if (any) {
            hi = quantileOfUnsorted(s, 0.99);
            if (!(hi > lo))
                hi = c.dataMax;
        }
        break;
    case ColourRangeMode::MinMax:
        break;
    case ColourRangeMode::Symmetric: {
        const double m = std::max(std::fabs(c.dataMin), std::fabs(c.dataMax));
        lo = -m;
        hi = m;
        break;
    }
    case ColourRangeMode::Percentile:
        if (any) {
            const double p = std::clamp(spec.percentile, 50.0, 100.0) / 100.0;
            lo = quantileOfUnsorted(s, 1.0 - p);
            hi = quantileOfUnsorted(s, p);
        }
        break;
    case ColourRangeMode::Manual:
        lo = spec.lo;
        hi = spec.hi;
        break;
    }
    widenDegenerate(lo, hi);
    c.log = false;
    if (spec.log && hi > 0.0) {
        if (!(lo > 0.0)) {
            double smallest = std::numeric_limits<double>::infinity();
            for (double v : s)
                if (v > 0.0) {
                    smallest = v;
                    break;
                }
            lo = std::isfinite(smallest) && smallest < hi ? smallest : hi * 1e-6;
        }
        if (hi / lo < 1.0 + 1e-9)
            hi = lo * 10.0;
        c.log = true;
    }
    c.lo = lo;
    c.hi = hi;
    if (!any) {
        c.dataMin = lo;
        c.dataMax = hi;
    }
    return c;
}

double colourPosition(const ColourScale& c, double v)
{
    double t;
    if (c.log)
        t = v > 0.0 ? (std::log10(v) - std::log10(c.lo)) / (std::log10(c.hi) - std::log10(c.lo)) : 0.0;
    else
        t = (v - c.lo) / (c.hi - c.lo);
    return std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
}

double colourValueAt(const ColourScale& c, double t)
{
    if (c.log)
        return std::pow(10.0, std::log10(c.lo) + t * (std::log10(c.hi) - std::log10(c.lo)));
    return c.lo + t * (c.hi - c.lo);
}

std::vector<double> colourBarTicks(const ColourScale& c, int target)
{
    target = std::max(2, target);
    std::vector<double> t;
    if (c.log) {
        t = logTicks(std::log10(c.lo), std::log10(c.hi), target);
        // Too many (1, 2, 5 per decade on a short bar): keep every k-th.
        if (static_cast<int>(t.size()) > target + 1) {
            const std::size_t every = (t.size() + static_cast<std::size_t>(target) - 1) / static_cast<std::size_t>(target);
            std::vector<double> kept;
            for (std::size_t i = 0; i < t.size(); i += every)
                kept.push_back(t[i]);
            t = kept;
        }
    } else {
        double step = 0.0;
        t = linearTicks(c.lo, c.hi, target, step);
        if (c.counts && step < 1.0) // "flagged by 0 … 3 detectors": 0, 1, 2, 3, not 0.5 steps
            t = linearTicks(c.lo, c.hi, std::max(1, static_cast<int>(c.hi - c.lo)), step);
    }
    if (t.size() < 2)
        t = {c.lo, c.hi};
    return t;
}

Eigen::VectorXd percentileRanks(const Eigen::VectorXd& reference, const Eigen::VectorXd& at)
{
    std::vector<double> s;
    s.reserve(static_cast<std::size_t>(reference.size()));
    for (Eigen::Index i = 0; i < reference.size(); ++i)
        if (std::isfinite(reference(i)))
            s.push_back(reference(i));
    std::sort(s.begin(), s.end());
    Eigen::VectorXd out(at.size());
    const double n = double(s.size());
    for (Eigen::Index i = 0; i < at.size(); ++i) {
        if (s.empty() || std::isnan(at(i))) {
            out(i) = std::numeric_limits<double>::quiet_NaN();
            continue;
        }
        const double below = double(std::lower_bound(s.begin(), s.end(), at(i)) - s.begin());
        const double upTo = double(std::upper_bound(s.begin(), s.end(), at(i)) - s.begin());
        out(i) = (below + upTo) / (2.0 * n);
    }
    return out;
}

} // namespace olens
