#pragma once
// Axis ranges and tick values for charts: "nice" steps (1, 2 or 5 × 10^k) on linear axes,
// decades (with 2 and 5 between few of them) on log axes.
#include <functional>
#include <string>
#include <vector>

namespace olens {

/// Widens an empty, inverted or non-finite range so that hi − lo > 0 (non-finite → [0, 1]).
void widenDegenerate(double& lo, double& hi);

/// 1, 2 or 5 × 10^k closest above raw (1 for a non-positive or non-finite raw).
double niceStep(double raw);

/// Multiples of a nice step within [lo, hi], about `target` of them (at most 200); the step is
/// returned in `step`. Values within rounding of 0 are exactly 0.
std::vector<double> linearTicks(double lo, double hi, int target, double& step);

/// Ticks of a log axis whose range is [10^lo10, 10^hi10]; values in data space, ascending.
std::vector<double> logTicks(double lo10, double hi10, int target);

/// Labels for a set of ticks: one common number of decimals from their spacing ("0.25", "190",
/// "-1.5"), or a short exponent form ("1.2e+05", "3e-04") when they are very large or very small
/// or on a log scale spanning decades. No trailing "." and at most 8 characters.
std::vector<std::string> tickLabels(const std::vector<double>& ticks, bool log);

/// Ticks over [lo, hi] for an axis `pixels` long whose labels (tickLabels) never collide: the
/// densest nice set, at most `maxTarget` ticks, in which neighbouring labels — `extent(label)`
/// pixels each along the axis — keep `gap` pixels apart. At worst the single middle tick.
std::vector<double> fittingTicks(double lo, double hi, double pixels,
                                 const std::function<double(const std::string&)>& extent, double gap, int maxTarget);

} // namespace olens
