#pragma once
// The one fit pipeline (Qt-free), used by the CLI, the GUI's training, sessions, data edits,
// re-cut clusterings and compare mode:
//   normalise → fit → [calibrate] → scores of the rows shown → threshold → decisions →
//   explanations → geometry,
// and the same for new rows after an edit or a model restore, without retraining.
#include "base/Params.h"
#include "base/Progress.h"
#include "data/Normalizer.h"
#include "detectors/Capabilities.h"
#include "detectors/Detector.h"
#include "detectors/Geometry.h"
#include "pipeline/FitDiagnostics.h"

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace olens {

/// A trained detector and everything derived from it for a set of rows (the data shown).
struct FitResult {
    std::shared_ptr<const Detector> detector; ///< fitted on normalizer.transform(training rows)
    Normalizer normalizer;                    ///< fitted on the training rows
    Eigen::VectorXd scores;                   ///< one per row shown (training scores when they are the training rows)
    Eigen::VectorXi outlier;                  ///< the detector's own decision on those rows
    std::vector<int> ranking;                 ///< rows by decreasing score (rankByScore) when FitOptions::ranking, else empty
    double threshold = 0.0;                   ///< the detector's decision threshold on the score
    double fitSeconds = 0.0;
    double scoreSeconds = 0.0;                ///< time spent scoring rows other than the training rows
    std::string detectorId;
    std::vector<std::string> explanations;    ///< per row, may be empty
    Geometry geometry;                        ///< in normalised coordinates
    std::optional<CalibrationReport> calibration;
    /// Label-free warnings about the fit (FitDiagnostics: inverted ranking, duplicates, singular fit).
    std::vector<FitWarning> warnings;
    /// The rows shown that the model was fitted on (sorted), when it was fitted on a part of them
    /// (FitOptions::trainingRows); empty = all rows shown (or unknown, for a model from elsewhere).
    std::vector<int> trainingRows;
    /// The recorded training step this result shows (resultAtStep: the detector's own step number,
    /// an epoch, iteration or merge), -1 = the trained model itself.
    int step = -1;
};

struct FitOptions {
    /// Labelled validation rows (feature coordinates, 1 = outlier) for the detector's Calibration
    /// capability (GODS eq. 24). Empty = no calibration; ParamError when the detector has none.
    Eigen::MatrixXd calibrationX;
    Eigen::VectorXi calibrationOutlier;
    /// Whether to compute per-row explanations (the CLI does not print them).
    bool explanations = true;
    /// Fit on a part, score all (data/FitSubset): the rows of the matrix given to fitPipeline the
    /// model is fitted on (sorted, distinct); the normaliser is fitted on them too. Every row is
    /// scored: these rows by the method's training scores, the others as new data. Empty = all.
    std::vector<int> trainingRows;
    /// Whether to rank the rows with the scores (FitResult::ranking): the GUI's ranking, sorted on the
    /// training worker; the CLI does not need it.
    bool ranking = false;
    /// Called (on the fitting thread) once the normaliser is fitted on the training rows, before the
    /// detector's fit: the GUI draws live geometry through it while the detector trains.
    std::function<void(const Normalizer&)> normalizerFitted;
    /// The features' names (empty: unnamed): warnings name a feature by its name, not its column.
    std::vector<std::string> featureNames;
};

/// Above this many rows the GUI does not compute every row's explanation with the fit: for knn it is
/// a second full neighbour search (a 1M-point fit took 8.8 s instead of 4.3 s); explainRow() gives
/// the one a user points at.
constexpr Eigen::Index kEagerExplanationRows = 200000;

/// The explanation of row `row` of X (feature coordinates) under the result's model, computed for
/// that row alone (empty when the model gives none or fails). Training rows are explained as the
/// detector explains a single point (knn still skips the point itself: it is at distance 0).
std::string explainRow(const FitResult& r, const Eigen::MatrixXd& X, Eigen::Index row);

/// Fits `detector` on `training` (normaliser fitted on it unless already fitted) and returns the
/// result for the training rows: the method's own training scores (kNN excludes each point itself),
/// the threshold, decisions, explanations and geometry. Throws what fit() throws (Cancelled included).
/// With options.trainingRows, `training` holds every row shown and only those rows are fitted on
/// (normaliser included, unless already fitted); the result covers every row.
std::shared_ptr<FitResult> fitPipeline(std::shared_ptr<Detector> detector, Normalizer normalizer,
                                       const Eigen::MatrixXd& training, const FitOptions& options = {},
                                       const ProgressCallback& progress = {});

/// The result of a fitted model for the rows X (feature coordinates): the stored training scores
/// when X is exactly the training data, the model's scores of X otherwise (data edited or another
/// file). Used for sessions and for `score --fit-input`. With `explanations` (the GUI's display),
/// also the explanations and, when X are the training rows, the fit's warnings. With `trainingRows` (a model fitted on a
/// part of X, e.g. from a session): the stored training scores for those rows when the model was
/// fitted on exactly them, the model's scores for the others; otherwise as without.
std::shared_ptr<FitResult> resultForRows(std::shared_ptr<const Detector> detector, Normalizer normalizer,
                                         const Eigen::MatrixXd& X, bool explanations = true,
                                         const std::vector<int>& trainingRows = {});

/// Same model, new rows after an edit: rows listed in `keep` (new row → old row, −1 for new or
/// moved rows) keep their score, the others are scored. Throws when the model cannot score them.
std::shared_ptr<FitResult> rescoreAfterEdit(const FitResult& r, const Eigen::MatrixXd& X, const std::vector<int>& keep);

/// A clustering result (ClusterCut capability) cut at L clusters for the rows X it was trained on:
/// flats, clusters, scores, threshold and explanations from the recorded history, no retraining.
/// Throws ParamError when the detector cannot be re-cut.
std::shared_ptr<FitResult> recutResult(const FitResult& r, const Eigen::MatrixXd& X, int L);

/// The result as it was at recorded step `index` of the training (Detector::history(), the
/// timeline): the model rebuilt from that step's state, its scores, threshold, decisions, ranking
/// (when `r` has one) and geometry for the rows X the result covers. Throws ParamError without a
/// recorded history, DataError when X are no longer the rows the model was trained on.
std::shared_ptr<FitResult> resultAtStep(const FitResult& r, const Eigen::MatrixXd& X, int index);
/// The training step `r` shows, as its detector numbers steps: FitResult::step for a recorded
/// step, the last recorded step for the trained model; -1 when the detector records none.
int stepShownBy(const FitResult& r);

/// The training rows as the model reconstructs them (Reconstruction capability), in feature
/// coordinates; empty when the detector has no reconstruction or X are not its training rows.
Eigen::MatrixXd reconstructedRows(const FitResult& r, const Eigen::MatrixXd& X);

/// `trainingRows` of `data` (empty = all) through the normaliser (as the model fitted on them saw
/// them); empty when a row is out of range or the normaliser has other columns.
std::optional<Eigen::MatrixXd> normalisedRows(const Normalizer& normalizer, const Eigen::MatrixXd& data,
                                              const std::vector<int>& trainingRows = {});
/// matrixFingerprint of `trainingRows` of `data` (empty = all) through the normaliser, computed
/// over blocks of rows without building that matrix (its memory is the point: 480 MB at 20 M 3-D
/// points, issue #54); empty when a row is out of range or the normaliser has other columns. With
/// Detector::trainedOn(rows, fingerprint): whether a model was fitted on exactly those rows.
std::optional<std::uint64_t> normalisedRowsFingerprint(const Normalizer& normalizer, const Eigen::MatrixXd& data,
                                                       const std::vector<int>& trainingRows = {});

/// The features that drive row `row` of X (feature coordinates): the FeatureAttribution
/// capability's contributions, one per feature, in the detector's normalised space (kNN leaves a
/// training row out of its neighbours when X are the training rows). Empty without the capability.
Eigen::VectorXd featureContributions(const FitResult& r, const Eigen::MatrixXd& X, int row);
/// The same when the caller knows whether X are the rows the model was fitted on (fittedOnRows):
/// the question streams every row (~0.5 s at 20 M rows), so a view that attributes one point per
/// click asks it once per result and data.
Eigen::VectorXd featureContributions(const FitResult& r, const Eigen::MatrixXd& X, int row, bool xAreTheTrainingRows);
/// Whether X are exactly the rows r's model was fitted on (normalisedRowsFingerprint, trainedOn).
bool fittedOnRows(const FitResult& r, const Eigen::MatrixXd& X);

/// Throws DataError naming the count, the first bad row, max |x| and the fix when any score is NaN
/// or infinite (X: the rows scored, for the message). Every path that hands scores out calls it.
void requireFiniteScores(const Eigen::VectorXd& scores, const std::string& id, const Eigen::MatrixXd& X);

} // namespace olens
