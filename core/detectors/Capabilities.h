#pragma once
// Optional capabilities: what only some detectors can do. A detector that has one returns itself
// from the matching accessor of Detector (clusterCut(), calibration(), reconstruction(),
// featureAttribution()); callers ask the accessor and never cast or compare ids (mlpack-style:
// the interface is the description).
#include <Eigen/Core>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace olens {

class Detector;

/// A clustering whose merge history can be cut at another number of clusters without retraining
/// (acdt: the dendrogram of the greedy merging).
class ClusterCut {
public:
    virtual ~ClusterCut() = default;
    virtual int clusterCount() const = 0;
    virtual int minClusterCount() const = 0;
    virtual int maxClusterCount() const = 0;
    /// A fitted detector equal to this one cut at L clusters (L clamped to the range); the
    /// merge history is replayed, nothing is retrained.
    virtual std::unique_ptr<Detector> cutAt(int L) const = 0;
};

/// The training points as the model reconstructs them (acdt: each point on its cluster's flat).
class Reconstruction {
public:
    virtual ~Reconstruction() = default;
    /// The training points reconstructed, in the detector's (normalised) input space.
    virtual Eigen::MatrixXd reconstructTraining() const = 0;
};

/// Per-feature drivers of one point's score: a contribution per input feature that adds up to a
/// known function of the score (pca: squared residual per feature, sum = score²; knn: squared
/// difference to the k-th neighbour per feature, sum = score²; mcd: (x−T)_j (S⁻¹(x−T))_j, sum =
/// score). Contributions can be negative where the method couples features (mcd).
class FeatureAttribution {
public:
    virtual ~FeatureAttribution() = default;
    /// What the contributions add up to, for labels ("score²", "score").
    virtual std::string attributionTotal() const = 0;
    /// The contributions for row x (the detector's normalised input space, length p).
    /// `trainingRow` is x's index among the training rows when x is one (kNN then leaves the point
    /// out of its own neighbours, as its training scores do), -1 otherwise.
    virtual Eigen::VectorXd attribute(const Eigen::VectorXd& x, int trainingRow = -1) const = 0;
};

/// A model whose state is its training rows (knn, lof: the points neighbours are looked up in). A
/// session can store it without them, as a reference to the data it was fitted on
/// (Detector::toJson's rowsByReference; core/session puts them back from the session's data and
/// checks them against the training fingerprint): a million-point knn autosave is then kilobytes
/// of state instead of 24 MB.
class MemorisedRows {
public:
    virtual ~MemorisedRows() = default;
    /// The state member that holds the rows, a p × n column-major array (each row contiguous).
    virtual std::string rowsKey() const = 0;
    /// saveState() without that member.
    virtual nlohmann::json stateWithoutRows() const = 0;
};

/// The neighbour whose distance is the label-free reference outlyingness (pipeline/FitDiagnostics:
/// the "ranking may be inverted" check compares a ranking with each row's distance to it).
/// 40: calibrated on the corpus with the statistic (issue #53; the 10th neighbour and Spearman over
/// all rows warned 11 % of the good runs).
constexpr int kReferenceNeighbour = 40;

/// Each training row's distance to its j-th nearest other training row, known from the fit's own
/// neighbour search (knn, lof). The "inverted" check reads its reference (j = kReferenceNeighbour)
/// from here instead of searching the rows a second time: about a tenth of knn's fit on Spambase on
/// two threads (docs/benchmarks.md, "Neighbour search").
class NeighbourDistances {
public:
    virtual ~NeighbourDistances() = default;
    /// The distances (one per training row, the row itself left out; equal points at distance 0),
    /// or an empty vector for a j the detector did not keep (knn: j = k, and kReferenceNeighbour
    /// when its fit searched that far; lof: kReferenceNeighbour and k_min … k).
    virtual Eigen::VectorXd trainingNeighbourDistance(int j) const = 0;
};

/// Outcome of a calibration on labelled validation data.
struct CalibrationReport {
    double thresholdBefore = 0.0;
    double thresholdAfter = 0.0;
    double f1Before = 0.0; ///< in-class F1 on the validation rows with the old threshold
    double f1After = 0.0;
    /// The detector's own words for what changed (e.g. "eq. 24 calibration: eta 0.1 -> 0.2").
    std::string summary;
};

/// Re-sets the decision rule from labelled validation rows V (1 = outlier) (GODS eq. 24). The
/// scores may change with it (GODS: the margin η enters the score), so the detector re-scores its
/// training rows (same normalised matrix it was fitted on) and trainingScores()/threshold() follow.
class Calibration {
public:
    virtual ~Calibration() = default;
    virtual CalibrationReport calibrate(const Eigen::MatrixXd& V, const Eigen::VectorXi& outlier,
                                        const Eigen::MatrixXd& trainingRows) = 0;
};

} // namespace olens
