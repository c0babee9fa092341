#pragma once
// The colour bar's numbers, without a window: which value range the colour map spans (auto,
// data min–max, symmetric about 0, percentiles, or set by hand; linear or log), whether values
// fall outside it (the bar then shows an end marker), where a value sits along the bar, and the
// bar's tick values and labels.
#include "display/Ticks.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace olens {

enum class ColourRangeMode {
    Auto,       ///< [min, 99th percentile]: a few extreme outliers do not wash out the rest
    MinMax,     ///< [min, max] of the values
    Symmetric,  ///< [−m, m], m = max |value| (scores centred on 0, e.g. margins and similarities)
    Percentile, ///< [p_lo, p_hi] percentiles with p_lo = 100 − percentile, p_hi = percentile
    Manual      ///< [lo, hi] as set
};

/// The user's choice (sessions store it as colour_range, colour_percentile, colour_lo/hi, colour_log).
struct ColourRangeSpec {
    ColourRangeMode mode = ColourRangeMode::Auto;
    double percentile = 99.0; ///< Percentile mode: upper percentile in (50, 100]
    double lo = 0.0, hi = 1.0; ///< Manual mode
    bool log = false;          ///< log10 scale (only over positive values; see ColourScale::log)
};

/// The range a colour map spans, and the values it is drawn for.
struct ColourScale {
    double lo = 0.0, hi = 1.0;     ///< lo < hi; lo > 0 when log
    bool log = false;              ///< log scale in effect (requested and hi > 0)
    double dataMin = 0.0, dataMax = 1.0; ///< finite extremes of the values (lo/hi without values)
    bool counts = false;           ///< whole-number values over whole-number ends: ticks at whole numbers only
    bool clippedLow() const { return dataMin < lo; }
    bool clippedHigh() const { return dataMax > hi; }
};

/// The scale for these values (non-finite ones ignored). The range is never empty: a degenerate
/// one is widened. Log: the lower end is raised to the smallest positive value (or hi·10⁻⁶) when
/// it is not positive; without any positive value log is not applied.
ColourScale colourScale(const Eigen::VectorXd& values, const ColourRangeSpec& spec);

/// Position of a value along the bar, 0 at lo and 1 at hi (log-aware), clamped to [0, 1].
double colourPosition(const ColourScale& scale, double value);
/// The value at a position t ∈ [0, 1] along the bar (inverse of colourPosition).
double colourValueAt(const ColourScale& scale, double t);

/// Percentile ranks in [0, 1] of the values `at` within the finite `reference` values (mid-rank
/// empirical CDF, Hazen's plotting position): (#{r < x} + #{r ≤ x}) / (2 n). The i-th smallest of n
/// distinct reference values gets (i − ½)/n, ties share their mean rank, values below / above all
/// of them get 0 / 1. Compare mode colours by it: scores of different detectors live on
/// different scales, their ranks do not. NaN where `at` is NaN or the reference has no finite value.
Eigen::VectorXd percentileRanks(const Eigen::VectorXd& reference, const Eigen::VectorXd& at);

/// Tick values on the bar, within [lo, hi], about `target` of them (at least the two ends when
/// no nice value falls inside).
std::vector<double> colourBarTicks(const ColourScale& scale, int target);

} // namespace olens
