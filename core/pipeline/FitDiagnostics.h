#pragma once
// Label-free checks of a fit (issue #33): what a user without labels should know before trusting a
// ranking. Computed by fitPipeline on the training rows; the CLI prints them ("warnings" in --json),
// Python has them as warnings_, the GUI shows a badge on the result and on compare panels.
#include "detectors/Detector.h"

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

namespace olens {

struct FitWarning {
    std::string code;    ///< "inverted", "duplicates", "singular", "members" (consensus members left out)
    std::string message; ///< one sentence: what was seen (with the numbers) and what to do
};

/// A warning's code in a few plain words for a badge ("may be inverted", "not converged"); the code
/// itself for one without words (issue #52: compare headers showed raw codes like not_converged).
std::string warningLabel(const std::string& code);

/// Agreement of a ranking with a reference on the reference's clear outliers (issue #53): the rows
/// with reference > median + spread·1.4826·MAD (at least the top row, at most ⌈cap·m⌉ rows, the
/// largest; ties by lower row), and the mean of the scores' mid-rank percentiles (rank − ½)/m over
/// them. 1: the detector ranks them all on top; 0.5: as chance; below: under its median. NaN scores
/// rank lowest; NaN for empty or mismatched input.
double tailAgreement(const Eigen::VectorXd& scores, const Eigen::VectorXd& reference, double spread = 3.0,
                     double cap = 0.1);

/// The statistic behind the "inverted" warning: tailAgreement of the scores of a sample of the rows
/// with a reference outlyingness of the same rows (the distance to the k-th nearest other row of the
/// data, k = kReferenceNeighbour = 40, among at most 10⁶ rows, fewer for wide data). `sample`
/// receives the rows used (at most `maxRows`, evenly spaced, deterministic). `known`: every row's
/// distance to its 40th nearest other row, when the fit has them (NeighbourDistances); the search is
/// skipped when it would look among all rows too. NaN below 2 rows.
double referenceAgreement(const Eigen::MatrixXd& Xn, const Eigen::VectorXd& scores, int maxRows = 2000,
                          std::vector<Eigen::Index>* sample = nullptr, const Eigen::VectorXd& known = Eigen::VectorXd());

/// Below this agreement the ranking is reported as possibly inverted. Chosen leave-one-set-out on
/// 21 real sets and 16 toys (899 runs; any level in 0.50–0.59 warns the same runs there): 28 of 30
/// runs inverted on their own warned, none of 581 runs above AUROC 0.7 and none of 236 toy runs above
/// 0.9 (docs/benchmarks.md, "A calibrated 'may be inverted' check"). Spearman with the 10th-neighbour
/// distance (< 0.3) before it warned 11 % of the good runs and quadrics on 9 of 10 seam-curve runs.
constexpr double kInvertedAgreement = 0.54;
/// At or above this share of rows that repeat another row, "duplicates" is reported.
constexpr double kDuplicateShare = 0.10;

/// Fewer rows than this give no label-free diagnosis: a neighbour reference needs some others (the
/// 40th neighbour is clamped to the rows there are).
constexpr Eigen::Index kMinDiagnosedRows = 12;

/// NaN below kMinDiagnosedRows rows (no evidence either way); otherwise referenceAgreement with the
/// sample size diagnoseFit uses (at most 2000 rows, fewer for wide data)
/// and the neighbour distances `d` already has: the number behind the "inverted" warning, also what
/// consensus uses to leave a member out.
double rankingAgreement(const Detector& d, const Eigen::MatrixXd& Xn, const Eigen::VectorXd& scores);

/// Above this ratio of the widest to the narrowest feature spread (standard deviation, constant
/// features left out) a fit on raw features (normalize none) is warned "scale" (issue #53): the
/// widest feature decides the distances (Pima without normalising: PC1 is insulin).
constexpr double kScaleRatio = 100.0;
/// The "scale" warning for raw rows X fitted without normalisation, or none.
/// `names`: the features' names (used when there is one per column).
std::optional<FitWarning> scaleWarning(const Eigen::MatrixXd& X, const std::vector<std::string>& names = {});

/// The warnings for detector `d` fitted on the normalised rows Xn with training scores `scores`.
std::vector<FitWarning> diagnoseFit(const Detector& d, const Eigen::MatrixXd& Xn, const Eigen::VectorXd& scores);

} // namespace olens
