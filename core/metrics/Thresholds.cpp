#include "metrics/Thresholds.h"

#include "base/Errors.h"
#include "base/Stats.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace olens {

namespace {
double otsu(const std::vector<double>& s)
{
    const double lo = s.front(), hi = s.back();
    if (!(hi > lo))
        return hi;
    constexpr int kBins = 256;
    std::vector<double> count(kBins, 0.0), sum(kBins, 0.0);
    const double width = (hi - lo) / kBins;
    for (double v : s) {
        const int b = std::min(kBins - 1, static_cast<int>((v - lo) / width));
        count[static_cast<std::size_t>(b)] += 1.0;
        sum[static_cast<std::size_t>(b)] += v;
    }
    const double n = static_cast<double>(s.size());
    double total = 0;
    for (double v : sum)
        total += v;
    double w0 = 0, s0 = 0, best = -1.0;
    int cut = 0;
    for (int b = 0; b + 1 < kBins; ++b) {
        w0 += count[static_cast<std::size_t>(b)];
        s0 += sum[static_cast<std::size_t>(b)];
        const double w1 = n - w0;
        if (w0 == 0 || w1 == 0)
            continue;
        const double m0 = s0 / w0, m1 = (total - s0) / w1;
        const double between = w0 * w1 * (m0 - m1) * (m0 - m1);
        if (between > best) {
            best = between;
            cut = b;
        }
    }
    return lo + width * (cut + 1); // the upper edge of the lower class: scores above it are flagged
}
} // namespace

Eigen::Index topCount(Eigen::Index rows)
{
    return std::max<Eigen::Index>(1, std::min<Eigen::Index>(1000, rows / 100));
}

const std::vector<std::string>& thresholdRuleNames()
{
    static const std::vector<std::string> names = {"detector", "mad", "iqr", "otsu", "top"};
    return names;
}

std::string toString(ThresholdRule rule)
{
    return thresholdRuleNames()[static_cast<std::size_t>(rule)];
}

ThresholdRule parseThresholdRule(const std::string& name)
{
    const auto& names = thresholdRuleNames();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
        throw ParamError("threshold rule '" + name + "' is not one of detector, mad, iqr, otsu, top");
    return static_cast<ThresholdRule>(it - names.begin());
}

std::string describe(ThresholdRule rule)
{
    switch (rule) {
    case ThresholdRule::Detector:
        return "the detector's own threshold (the (1 - contamination) quantile of the training scores, or its rule)";
    case ThresholdRule::Mad:
        return "median + 3 x 1.4826 x MAD of the training scores (Hampel identifier)";
    case ThresholdRule::Iqr:
        return "Q3 + 1.5 x IQR of the training scores (Tukey's fence)";
    case ThresholdRule::Otsu:
        return "Otsu's cut of the training-score histogram (two classes, largest between-class variance)";
    case ThresholdRule::Top:
        return "the 1000 highest training scores, at most 1 % of the rows (the default for clouds of 200 000 "
               "rows or more)";
    }
    return {};
}

double labelFreeThreshold(const Eigen::VectorXd& scores, ThresholdRule rule, double detectorThreshold)
{
    if (rule == ThresholdRule::Detector)
        return detectorThreshold;
    if (scores.size() == 0 || !scores.allFinite())
        throw DataError("threshold rule " + toString(rule) + ": the scores must be finite and non-empty");
    if (rule == ThresholdRule::Top) {
        // Scores above the (N+1)-th highest: the N highest (fewer when it ties with them).
        const Eigen::Index n = scores.size(), N = topCount(n);
        if (N >= n)
            return -std::numeric_limits<double>::infinity();
        std::vector<double> s(scores.data(), scores.data() + n);
        std::nth_element(s.begin(), s.begin() + N, s.end(), std::greater<double>());
        return s[static_cast<std::size_t>(N)];
    }
    if (rule == ThresholdRule::Otsu) {
        std::vector<double> s(scores.data(), scores.data() + scores.size());
        std::sort(s.begin(), s.end());
        return otsu(s);
    }
    const double median = quantile(scores, 0.5); // base/Stats: numpy.quantile's interpolation
    if (rule == ThresholdRule::Mad)
        return median + 3.0 * 1.4826 * quantile((scores.array() - median).abs().matrix(), 0.5);
    const double q1 = quantile(scores, 0.25), q3 = quantile(scores, 0.75);
    return q3 + 1.5 * (q3 - q1);
}

} // namespace olens
