#pragma once
// Thresholds without guessing the contamination (issue #33): rules on the distribution of the
// training scores alone. The detector's own threshold (the (1 − contamination) quantile) needs the
// share of outliers in advance; these need nothing but the scores.
#include <Eigen/Core>
#include <string>
#include <vector>

namespace olens {

enum class ThresholdRule {
    Detector, ///< the detector's own threshold (contamination quantile or the method's rule)
    Mad,      ///< median + 3 · 1.4826 · MAD (the Hampel identifier; 1.4826 MAD = σ for normal scores)
    Iqr,      ///< Q3 + 1.5 · (Q3 − Q1) (Tukey's fence; quartiles interpolated as numpy.quantile)
    Otsu,     ///< the cut of a 256-bin histogram that maximises the between-class variance (Otsu 1979)
    Top,      ///< the topCount(n) highest scores: what a user of a big cloud inspects (issue #54)
};

/// How many rows the Top rule flags: 1 000, at most 1 % of the rows (at least 1).
Eigen::Index topCount(Eigen::Index rows);

/// From this many rows on, the GUI's default threshold is the Top rule and the points it does not
/// flag are drawn small and faded (issue #54: a 0.1 contamination flagged 100 000 points of a
/// 1 M-point torus and the cloud disappeared under them).
constexpr Eigen::Index kBigCloudRows = 200000;
/// The one test of "a big cloud" (the Ranking's default rule, the faded points and their legend
/// entry, the iso-surface's default, the autosave's model) so that they agree.
constexpr bool isBigCloud(Eigen::Index rows) { return rows >= kBigCloudRows; }

/// "detector", "mad", "iqr", "otsu", "top".
const std::vector<std::string>& thresholdRuleNames();
std::string toString(ThresholdRule rule);
/// Throws ParamError naming the choices.
ThresholdRule parseThresholdRule(const std::string& name);
/// One line for tooltips and --help.
std::string describe(ThresholdRule rule);

/// The threshold the rule puts on these scores (finite, non-empty); for Detector, `detectorThreshold`.
double labelFreeThreshold(const Eigen::VectorXd& scores, ThresholdRule rule, double detectorThreshold = 0.0);

} // namespace olens
