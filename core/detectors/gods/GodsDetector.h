#pragma once
// gods / bods: Generalized One-class Discriminative Subspaces (Cherian & Wang, GODS paper).
//   gods (eq. 10): two orthonormal frames W1, W2 ∈ St(d, K) with biases b1, b2 ∈ ℝ^K that sandwich
//     the data: min_k(W1ᵀx + b1) ≥ η and max_k(W2ᵀx + b2) ≤ −η (squared hinge, weight ν), while
//     pulling both frames towards the data (first term of eq. 10).
//   bods (eq. 4): one hyperplane pair (w1, b1), (w2, b2) on the unit sphere, coupling −w1ᵀw2 and
//     α(b1, b2) = (b1 − b2)² − 2(b1 − b2).
// Both are trained by Riemannian conjugate gradient (sec. 6.1, core/Riemannian.h) on
// St(d,K)² × ℝ^K × ℝ^K (bods: K = 1, St(d,1) = the unit sphere; other gods variants below).
//
// Decision rule (eq. 23): x is in-class iff min(W1ᵀx + b1) ≥ η and max(W2ᵀx + b2) ≤ −η.
// Continuous score (our choice, for rankings and contours): the larger of the two margin
// violations, s(x) = max(η − min_k(W1ᵀx + b1)_k, η + max_k(W2ᵀx + b2)_k). s ≤ 0 exactly when
// eq. 23 holds, so isOutlier = (s > 0) and threshold() = 0; higher s = further outside the sandwich.
// The paper works on L2-normalised inputs (sec. 4.1.1, 7.3): parameter normalize = l2 (default)
// normalises every row inside fit/score (idempotent with an external l2 normaliser, which the GUI
// preselects through DetectorInfo::normalization = "l2"); normalize = none uses the raw rows (the
// "≠ℓ2" rows of Tables I and V).
//
// Variants of gods (sec. 4.3, parameter manifold); F is the eq. 10 objective, λ = lambda:
//   stiefel     W_j ∈ St(d,K)                                        F            (eq. 10)
//   noncompact  W_j = Q_j diag(r_j), (Q_j, r_j) ∈ St(d,K) × ℝ^K       F + λ/2 Σ_j ‖r_j‖_p  (eq. 11)
//   oblique     W_j ∈ OB(d,K) (unit columns)                         F + λ/2 Σ_j ‖W_jᵀW_j − I‖²_F (eq. 12)
//   euclidean   W_j ∈ ℝ^{d×K}                                        F + λ/2 Σ_j ‖W_jᵀW_j − I‖²_F (eq. 13)
// ‖r‖_p (p = p_norm, default 1: sec. 4.3.1 suggests p = 1 to switch hyperplanes off) is not
// differentiable at r_k = 0; we use the smooth surrogate (Σ_k (r_k² + ε²)^{p/2})^{1/p}, ε = 1e-4,
// which differs from ‖r‖_p by at most K^{1/p}·ε and keeps conjugate gradient well defined.
// Caveat (a property of eq. 11, not of this code): over unconstrained W, eq. 10's F is minimised by
// W = 0 with b = the mean response (the data term Σ‖z_i‖² ≥ n‖z̄‖², the squared hinges are convex in
// the responses: Jensen). Eq. 11 leaves r free and penalises it, so its global minimiser is r = 0 for
// every λ ≥ 0; fits drift towards W ≈ 0 and the scores towards constants (tests: noncompactDegenerates).
// The oblique (unit columns) and euclidean (soft orthogonality) variants do not have this problem.
//
// Why eq. 23 with the training η rejects most training points (not an implementation bug): at any
// stationary point of eq. 10-13 the bias gradient vanishes, ∂F/∂b1 = (1/n)Σ_i[(W1ᵀx_i + b1) −
// ν h1_i e_{k_i}] = 0 with h1_i = [η − min(W1ᵀx_i + b1)]₊, so Σ_i Σ_k (W1ᵀx_i + b1)_k = ν Σ_i h1_i. If
// every training point met min(W1ᵀx_i + b1) ≥ η > 0, the left side would be ≥ nKη > 0 while the right
// side is 0: a contradiction. The squared hinge of eq. 10 is a soft penalty balanced against the
// first term (for K = 1 every response settles near νη/(1+ν)), so with η > 0 some, and typically
// most, training points violate eq. 23 at the training η. The paper's remedy is the recalibrated η'
// of eq. 24 (calibrate()); the decision = contamination rule is eq. 23 with η' = η − τ, τ the
// (1 − contamination) quantile of the training scores (s ≤ τ ⇔ min(W1ᵀx+b1) ≥ η − τ ∧
// max(W2ᵀx+b2) ≤ −(η − τ)), so contamination = 0 accepts every training point. Eq. 24 as printed
// usually raises η instead (Δη > 0 whenever the lower v_l cluster, typically the outliers, falls
// further below η than the lower v_u cluster rises above −η), which rejects even more training
// points; on the 2D blob test Δη ≈ 2.4 (raw coordinates) and no validation in-class point is accepted.
#include "detectors/Detector.h"
#include "optim/Riemannian.h"

namespace olens {

struct DetectorInfo;

enum class GodsManifold { Stiefel, NonCompact, Oblique, Euclidean };
GodsManifold parseGodsManifold(const std::string& name); ///< throws ParamError

/// Centroids (c1 ≤ c2) of the optimal 2-means clustering of the values v (1-D k-means is solved
/// exactly by the best split of the sorted values; deterministic). One distinct value: c1 = c2.
/// Throws DataError when v is empty.
std::pair<double, double> twoMeans1d(const Eigen::VectorXd& v);

/// Eq. 24: Δη = ½([η − min(c_l1, c_l2)]₊ − [η + min(c_u1, c_u2)]₊), where c_l1, c_l2 are the 2-means
/// centroids of v_l = {min_k(W1ᵀx + b1)_k} and c_u1, c_u2 those of v_u = {max_k(W2ᵀx + b2)_k} over the
/// validation points. min(c_l·) is the cluster of the lowest W1 responses (the points W1 rejects) and
/// min(c_u·) the cluster of the lowest W2 responses (the points W2 accepts); the formula is
/// implemented as printed. η' = η + Δη. Eq. 24 itself does not use labels.
double calibrateEta(const Eigen::VectorXd& vl, const Eigen::VectorXd& vu, double eta);

struct GodsCalibration {
    double etaBefore = 0.0, deltaEta = 0.0, etaAfter = 0.0;
    double f1Before = 0.0, f1After = 0.0; ///< in-class F1 on the validation set (label 0 = positive)
};

class GodsDetector : public Detector, public Calibration {
public:
    static DetectorInfo info();
    std::string historyUnit() const override { return "iteration"; }
    explicit GodsDetector(ParamSet params) : Detector(std::move(params)) {}

    Geometry geometry() const override;
    std::map<std::string, double> figures() const override;
    /// "W1 plane k short of η by v" / "inside the sandwich (margin m)".
    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;

    /// Effective frames (noncompact: Q diag(r)) and biases.
    const Eigen::MatrixXd& W1() const { return m_W1; }
    const Eigen::MatrixXd& W2() const { return m_W2; }
    const Eigen::VectorXd& b1() const { return m_b1; }
    const Eigen::VectorXd& b2() const { return m_b2; }
    /// Objective per iteration of the last fit (index 0 = the initial point).
    const std::vector<double>& lossHistory() const { return m_lossHistory; }
    /// The objective and the Riemannian gradient norm per CG iteration (plotted after training).
    std::vector<Trace> traces() const override;
    /// "frame 1 (W1)", "frame 2 (W2)": η − min_k(W1ᵀx + b1)_k and η + max_k(W2ᵀx + b2)_k; the score
    /// is their maximum, each is ≤ 0 where its frame accepts x.
    std::vector<std::string> scoreComponents() const override;
    Eigen::VectorXd scoreComponent(const Eigen::MatrixXd& X, int k) const override;
    /// The optimisation variables of the last fit (or load) on their manifold: {W1, W2, b1, b2}, or
    /// {Q1, Q2, b1, b2, r1, r2} for noncompact (biases and radii as K×1 matrices).
    const riemannian::Point& parameters() const { return m_point; }
    GodsManifold manifold() const { return m_manifold; }
    /// η used by eq. 23 and score(): the training η, or η' = η + Δη after calibrate().
    double decisionEta() const { return m_eta; }

    /// Eq. 24 on a labelled validation set (labels 0 = in-class, 1 = outlier; the labels only feed
    /// the F1 figures, eq. 24 does not use them): sets η' = η + Δη for eq. 23, score() and explain()
    /// (scores shift by Δη; trainingScores() keep their fit-time values). Requires fit; DataError on
    /// size or label mismatch.
    GodsCalibration calibrate(const Eigen::MatrixXd& Xval, const Eigen::VectorXi& yval);
    /// Calibration capability: eq. 24 as above, then the training rows re-scored with η' so that
    /// trainingScores() and threshold() follow the calibrated rule.
    Calibration* calibration() override { return this; }
    CalibrationReport calibrate(const Eigen::MatrixXd& V, const Eigen::VectorXi& outlier,
                                const Eigen::MatrixXd& trainingRows) override;
    /// v_l = min_k(W1ᵀx + b1)_k and v_u = max_k(W2ᵀx + b2)_k per row (after the normalize option).
    void responses(const Eigen::MatrixXd& X, Eigen::VectorXd& vl, Eigen::VectorXd& vu) const;

    /// Objective of a gods variant (eq. 10-13) at the point x laid out as parameters() describes,
    /// with its Euclidean gradient (same layout) when egrad is non-null.
    static double variantObjective(GodsManifold manifold, const Eigen::MatrixXd& X, const riemannian::Point& x,
                                   double nu, double eta, double lambda, double pNorm,
                                   riemannian::Tangent* egrad = nullptr);
    /// The product manifold of a variant for d features and K hyperplanes.
    static riemannian::ProductManifold variantManifold(GodsManifold manifold, Eigen::Index d, Eigen::Index K);

    /// Objective (eq. 10, or eq. 4 for bods) and its Euclidean gradients at (W1, W2, b1, b2) on
    /// the rows of X; gradients are written when the pointers are non-null.
    static double objective(bool bods, const Eigen::MatrixXd& X, const Eigen::MatrixXd& W1,
                            const Eigen::MatrixXd& W2, const Eigen::VectorXd& b1, const Eigen::VectorXd& b2,
                            double nu, double eta, Eigen::MatrixXd* gW1 = nullptr, Eigen::MatrixXd* gW2 = nullptr,
                            Eigen::VectorXd* gb1 = nullptr, Eigen::VectorXd* gb2 = nullptr);

protected:
    /// bods = true: the eq. 4 objective with K = 1.
    GodsDetector(ParamSet params, bool bods) : Detector(std::move(params)), m_bods(bods) {}

    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    Eigen::VectorXi doIsOutlier(const Eigen::MatrixXd& X) const override;
    double doThreshold(const Eigen::VectorXd& trainingScores) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

    int hyperplanes() const;
    static Eigen::VectorXd scoreWith(const Eigen::MatrixXd& X, const Eigen::MatrixXd& W1, const Eigen::MatrixXd& W2,
                                     const Eigen::VectorXd& b1, const Eigen::VectorXd& b2, double eta);
    Eigen::MatrixXd prepare(const Eigen::MatrixXd& X) const; ///< the normalize option

private:
    /// The part of saveState() that a point on the manifold determines (a recorded step's state).
    static nlohmann::json pointState(GodsManifold manifold, const riemannian::Point& x, double eta);

    bool m_bods = false;
    GodsManifold m_manifold = GodsManifold::Stiefel;
    riemannian::Point m_point;
    Eigen::MatrixXd m_W1, m_W2; // d×K effective frames
    Eigen::VectorXd m_b1, m_b2; // K
    double m_eta = 0.0;         // decision η (η' after calibrate())
    double m_trainEta = 0.0;    // η of the objective
    double m_objective = 0.0, m_gradNorm = 0.0;
    int m_iterations = 0;
    std::string m_stopReason;
    std::vector<double> m_lossHistory, m_gradHistory;
};

/// bods: the basic pair of hyperplanes on the unit sphere (eq. 4).
class BodsDetector : public GodsDetector {
public:
    static DetectorInfo info();
    explicit BodsDetector(ParamSet params) : GodsDetector(std::move(params), true) {}
};

} // namespace olens
