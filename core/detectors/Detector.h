#pragma once
// The one estimator shape of OutlierLens (scikit-learn's fit/score_samples, mlpack's
// "the constructor does no training"): parameters → fit → score (higher = more outlying)
// → isOutlier → geometry.
#include "base/Params.h"
#include "base/Progress.h"
#include "base/Stats.h"
#include "detectors/Capabilities.h"
#include "detectors/Geometry.h"

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace olens {

class HistoryRecorder;
struct TrainingHistory;

/// Thread safety: a fitted detector's const methods (score, isOutlier, explain, geometry,
/// scoreComponent, capability queries …) may be called from several threads at once; they do not
/// modify the detector (tested on every registered detector under ThreadSanitizer). fit(),
/// calibration and loading are not concurrent with anything else on the same detector.
class Detector {
public:
    virtual ~Detector() = default;
    Detector(const Detector&) = delete;
    Detector& operator=(const Detector&) = delete;

    /// The registry id ("knn"), taken from the parameter set the registry built (DetectorInfo::id).
    const std::string& id() const { return m_params.owner(); }
    const ParamSet& params() const { return m_params; }
    /// The settings the last fit could not use as given and limited (limitInt): one sentence each,
    /// naming the parameter, the value set, the value used and why. Empty after a load (the model's
    /// resolvedJson() still says what was used).
    const std::vector<std::string>& adjustments() const { return m_adjustments; }
    /// For a fit whose training scores are all equal although the rows differ: the parameter to
    /// change and which way (iforest: "raise psi"). Empty: the default advice.
    virtual std::string constantScoresAdvice() const { return {}; }
    /// Sentences about the last fit the user should read with its result (consensus: the members it
    /// used and those it left out, with the reason); shown as "members" warnings.
    virtual std::vector<std::string> fitNotes() const { return {}; }
    /// True for a method whose ranking does not change when a feature is rescaled (mcd's and ic's
    /// affine invariance, iforest's axis-wise splits): no "scale" warning on raw features for it.
    virtual bool scaleInvariant() const { return false; }

    /// Trains on the rows of X. Validates X (non-empty, finite, enough rows); throws DataError
    /// on bad input, ParamError when parameters do not fit the data, Cancelled when the callback
    /// asks. On any exception the detector keeps its previous fitted state.
    void fit(const Eigen::MatrixXd& X, const ProgressCallback& progress = {});

    /// One value per row; higher = more outlying. Throws NotFittedError / DataError (wrong p).
    Eigen::VectorXd score(const Eigen::MatrixXd& X) const;
    /// The detector's own decision rule; by default score > threshold().
    Eigen::VectorXi isOutlier(const Eigen::MatrixXd& X) const;
    /// Scores of the training rows as the method defines them (e.g. kNN excludes the point itself).
    const Eigen::VectorXd& trainingScores() const;
    /// Decision threshold on the score (default: the (1 - contamination) quantile of training scores).
    double threshold() const;

    virtual Geometry geometry() const { return {}; }
    /// Method-specific figures for `evaluate --json` (e.g. msre, clusters).
    virtual std::map<std::string, double> figures() const { return {}; }
    /// Per-iteration convergence traces of the last fit (e.g. GODS: the objective and the
    /// Riemannian gradient norm), plotted after training. Empty when the method has none.
    struct Trace {
        std::string name;
        std::vector<double> values;
    };
    virtual std::vector<Trace> traces() const { return {}; }
    /// Named parts of the score that can be drawn as separate fields (GODS/KODS: the violation of
    /// each frame's margin condition; the score is their maximum). Empty when the score has none.
    virtual std::vector<std::string> scoreComponents() const { return {}; }
    /// Component k of the score for each row of X (requires fit; k < scoreComponents().size()).
    virtual Eigen::VectorXd scoreComponent(const Eigen::MatrixXd& X, int k) const
    {
        (void)k;
        return score(X);
    }
    /// One short human-readable reason per row of X for the ranking table (e.g. "quadric 3
    /// violated most", "nearest flat 2"). Empty when the method has nothing to add. Requires fit.
    virtual std::vector<std::string> explain(const Eigen::MatrixXd& X) const
    {
        (void)X;
        return {};
    }

    // ---- optional capabilities (null when the detector has none; see Capabilities.h) ----
    virtual const ClusterCut* clusterCut() const { return nullptr; }
    virtual const Reconstruction* reconstruction() const { return nullptr; }
    virtual Calibration* calibration() { return nullptr; }
    virtual const FeatureAttribution* featureAttribution() const { return nullptr; }
    virtual const MemorisedRows* memorisedRows() const { return nullptr; }
    virtual const NeighbourDistances* neighbourDistances() const { return nullptr; }

    /// True when X is exactly the matrix the detector was fitted on (same shape and values), so
    /// that trainingScores() are the scores of its rows; false after any edit of the data.
    bool trainedOn(const Eigen::MatrixXd& X) const;
    /// The same from a matrix's shape and matrixFingerprint (MatrixFingerprint of rows never copied).
    bool trainedOn(Eigen::Index rows, std::uint64_t fingerprint) const;

    bool isFitted() const { return m_fitted; }
    int inputDimension() const { return m_dim; }

    // ---- recorded training history (the timeline; iterative methods only) ----
    /// Whether the next fit records its path (off by default: the CLI and Python do not pay for
    /// it; the GUI turns it on). Methods without steps record nothing either way.
    void setRecordHistory(bool on) { m_recordHistory = on; }
    /// The recorded path of the last fit (or of a loaded model that kept one), or null.
    std::shared_ptr<const TrainingHistory> history() const { return m_history; }
    /// The unit of one recorded step ("epoch", "iteration"); empty = the method records nothing.
    virtual std::string historyUnit() const { return {}; }
    /// This model as it was at recorded step `index` (0 ≤ index < history()->size()): the same
    /// parameters with the state of that step, fitted on `trainingRows` (the rows it was trained
    /// on, in its input space: its training scores and threshold are those of that state). The
    /// last index gives a model equal to this one. Throws ParamError without a history or for a
    /// detector that was not built by the registry.
    std::unique_ptr<Detector> modelAtStep(int index, const Eigen::MatrixXd& trainingRows) const;

    /// Fitted model as JSON: {"detector", "params", "dimension", "threshold", "training_scores",
    /// "state"}, plus "history" (TrainingHistory::toJson) with `withHistory` when there is one.
    /// `rowsByReference` (a detector with MemorisedRows only): the state leaves the training rows
    /// out and "rows_by_reference" names the member they belong in; Registry::load refuses such a
    /// model until core/session's modelWithTrainingRows() has put them back. `packed`: long arrays
    /// of doubles as base/Json.h's packArrays writes them, the training scores built packed (what a
    /// session stores; a 20 M-row model's scores never exist as 320 MB of JSON numbers, #54).
    nlohmann::json toJson(bool withHistory = false, bool rowsByReference = false, bool packed = false) const;

protected:
    explicit Detector(ParamSet params) : m_params(std::move(params)) {}

    /// Helper for doFit: reports progress, throws Cancelled when asked.
    using Progress = ProgressReporter;

    /// Train; return the training scores. State must only be committed at the end (strong guarantee
    /// is provided by fit() only if doFit writes members after all throwing work).
    virtual Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) = 0;
    virtual Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const = 0;
    virtual Eigen::VectorXi doIsOutlier(const Eigen::MatrixXd& X) const;
    virtual double doThreshold(const Eigen::VectorXd& trainingScores) const;
    /// The method's own cut-off on its score, where it has one (Isolation Forest's s = 0.5, LOF's
    /// 1.5, the one-class SVM's 0, MCD's χ²_p(0.975)): used instead of the contamination quantile
    /// when `contamination` is auto (only a contaminationParam given a natural rule accepts auto).
    /// Called after the dimension is known.
    virtual std::optional<double> naturalThreshold() const { return std::nullopt; }
    /// Fewest training rows the method accepts.
    virtual int minSamples() const { return 2; }
    virtual nlohmann::json saveState() const = 0;
    virtual void loadState(const nlohmann::json& state) = 0;

    void requireFitted(const char* what) const;
    /// For doFit: the value of a parameter, resolving `auto` to `value` (the data-driven rule the
    /// spec's autoRule describes); an explicit setting is returned unchanged. The resolution is part
    /// of the fitted model (toJson "resolved") and is undone if the fit throws.
    int autoInt(const std::string& name, int value);
    /// For doFit: `value` (the parameter's value, auto resolved) limited to `most`, what these data
    /// allow (lof's k to n − 1). A smaller value is returned unchanged; a larger one is recorded as
    /// an adjustment (ParamSet::adjust: the model reports the value used) with `why` ("n − 1 for
    /// these 200 rows") for the fit's "clamped" warning (#51: clamps were silent).
    int limitInt(const std::string& name, int value, int most, const std::string& why);
    double autoReal(const std::string& name, double value);
    std::string autoChoice(const std::string& name, const std::string& value);
    /// Installs a fitted state built without fit() (a re-cut clustering, a recalibrated model):
    /// dimension, training scores (threshold from doThreshold) and the training-data fingerprint.
    void commitFit(int dimension, Eigen::VectorXd trainingScores, std::uint64_t fingerprint);
    std::uint64_t trainingFingerprint() const { return m_fingerprint; }
    /// For doFit of an iterative method: the recorder of this fit (give it the saveState()-format
    /// state at the steps it wants()), or null when the fit does not record.
    HistoryRecorder* recorder() const { return m_recorder.get(); }
    /// For a method whose recorded steps are not loadState() states: the fitted model at a
    /// recorded step's state, for the rows it was trained on (acdt: the dendrogram cut at that
    /// step's cluster count; kods: the primal recovery from the step's duals). Null: the default,
    /// a sibling given the state by loadState() and its training scores by doScore().
    virtual std::unique_ptr<Detector> replayStep(const nlohmann::json& state, const Eigen::MatrixXd& trainingRows) const
    {
        (void)state;
        (void)trainingRows;
        return nullptr;
    }

private:
    friend class Registry;
    void restore(const nlohmann::json& j);
    using Remake = std::function<std::unique_ptr<Detector>(ParamSet)>;

    ParamSet m_params;
    bool m_fitted = false;
    int m_dim = 0;
    double m_threshold = 0.0;
    Eigen::VectorXd m_trainingScores;
    std::uint64_t m_fingerprint = 0; // FNV-1a of the training matrix (0 = unknown, e.g. old models)
    bool m_recordHistory = false;
    std::vector<std::string> m_adjustments;
    std::shared_ptr<HistoryRecorder> m_recorder;     // during doFit only
    std::shared_ptr<const TrainingHistory> m_history; // of the last fit
    Remake m_remake; // the registry's constructor of this class (modelAtStep builds a sibling)
};

/// FNV-1a hash of a matrix's shape and values (never 0).
std::uint64_t matrixFingerprint(const Eigen::MatrixXd& X);

/// matrixFingerprint fed in pieces, for a matrix that is never built whole (a session's check of
/// a big cloud's normalised training rows): the shape first, then every value in column-major order.
class MatrixFingerprint {
public:
    MatrixFingerprint(Eigen::Index rows, Eigen::Index cols);
    void add(const double* values, std::size_t count);
    std::uint64_t value() const { return m_h == 0 ? 1 : m_h; }

private:
    void mix(const void* data, std::size_t bytes);
    std::uint64_t m_h = 1469598103934665603ULL;
};

/// The "contamination" parameter every detector has (default 0.1) for the default decision rule.
/// With a `naturalRule` (the detector has a naturalThreshold()) it also accepts auto: scikit-learn's
/// contamination="auto", the method's own cut-off, described by that text in the help.
ParamSpec contaminationParam(const std::string& naturalRule = {});
/// The "seed" parameter of randomised detectors (int, default 0): same seed, same data → same scores.
ParamSpec seedParam(const std::string& help);
/// "tol" of the Riemannian fits (gods, bods, kods): stop when the objective fell by at most tol ×
/// its whole decrease so far over the last 10 iterations (riemannian::CgOptions::progressTolerance);
/// the paper's value is 0 (run to max_iter).
ParamSpec objectiveTolParam(const std::string& defaultValue);
} // namespace olens
