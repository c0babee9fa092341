#pragma once
// Uncertainty-aware Joint Bayesian (UA-JB) similarity, uncertainty-joint-bayesian.txt sec. 4, and
// plain Joint Bayesian (Chen et al. 2012) as the same code with zero uncertainty (S_i = 0).
//
//   x = μ_c + w + ε_x,  μ_c ~ N(0, S_μ), w ~ N(0, S_w), ε_x ~ N(0, S_x)          (eq. 12)
//
// S_μ, S_w are learnt by EM (eq. 19–27, factorisation eq. 18, initialisation sec. 4.3.3, stop when
// the relative Frobenius changes of both are below tol). The similarity is the log-likelihood
// ratio LR(x_i, x_j | S_i, S_j) = log P(x_i, x_j | H_sim) / P(x_i, x_j | H_dis) of eq. 13–16,
// computed exactly (no dropped constant): higher = more likely the same class, 0 = no evidence.
//
// Pipeline: optional dimension reduction of the raw features (UA-PPCA + probabilistic projection for
// uajb, PCA + linear projection for jb, as in sec. 5.1; any combination for the Table 3 ablation),
// then centring on the training mean of the latent vectors, then the JB model. Per-sample
// uncertainty of a raw sample is diag(σ²) from the data's sigma_ columns (standard deviations).
#include "base/Progress.h"
#include "similarity/UaPpca.h"

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <vector>

namespace olens {

struct JointBayesianParams {
    enum class Method {
        UaJb, ///< uncertainty-aware (sec. 4): σ used in the reduction, the EM and the similarity
        Jb    ///< plain Joint Bayesian: σ ignored everywhere (S_i = 0)
    };
    enum class Reduction {
        Auto,   ///< UA-PPCA for UaJb, PCA for Jb (sec. 5.1); none when dim >= number of features
        None,   ///< JB directly on the features (sec. 4: "bypass the dimensionality reduction")
        Pca,    ///< W, μ from PCA (Table 3 row "PCA")
        UaPpca  ///< W, μ from the EM of sec. 3.2 (Table 3 row "UA-PPCA")
    };
    Method method = Method::UaJb;
    /// Latent dimension K after reduction. 0 = automatic: min(100, D, numerical rank of the
    /// training data) — 100 is the paper's choice for MNIST (sec. 5.1). K >= D means no reduction.
    int dim = 0;
    Reduction reduction = Reduction::Auto;
    /// Projection into the latent space; unset = Probabilistic (eq. 2–4) for UaJb, Linear for Jb.
    std::optional<LatentProjection> projection;
    /// JB EM (sec. 4.3.3): at most maxIter M-steps; stop when ‖ΔS_μ‖_F ≤ tol·‖S_μ‖_F and
    /// ‖ΔS_w‖_F ≤ tol·‖S_w‖_F.
    int maxIter = 200;
    double tol = 1e-5;
    /// UA-PPCA EM (sec. 3.2) when used: see UaPpcaParams.
    int ppcaMaxIter = 100;
    double ppcaTol = 1e-6;
    double residualVariance = -1.0; ///< UaPpcaParams::residualVariance (negative = automatic)
};

/// Posterior of one class's latent variables given its samples (E-step, eq. 18–20, 23–25), and
/// the class's contribution to the log-likelihood log N(X_c; 0, Σ_c).
struct JbClassPosterior {
    Eigen::VectorXd bMu;              ///< b_{μ_c} (eq. 20)
    Eigen::MatrixXd TMu;              ///< T_{μ_c} (eq. 19)
    std::vector<Eigen::VectorXd> bW;  ///< b_{w_{c,i}} (eq. 24)
    std::vector<Eigen::MatrixXd> TW;  ///< T_{w_{c,i}} (eq. 23)
    double logLikelihood = 0.0;
};

/// E-step for one class: Xc m_c×d (rows = samples, centred), S[i] = uncertainty of row i (d×d,
/// may be zero). S_μ may be singular; S_w + S_i must be positive definite (DataError otherwise).
JbClassPosterior jbClassPosterior(const Eigen::MatrixXd& Xc, const std::vector<Eigen::MatrixXd>& S,
                                  const Eigen::MatrixXd& Smu, const Eigen::MatrixXd& Sw);

/// LR(x_i, x_j | S_i, S_j) of eq. 13–16 (exact log-likelihood ratio) for given S_μ, S_w.
double jbLogLikelihoodRatio(const Eigen::VectorXd& xi, const Eigen::MatrixXd& Si, const Eigen::VectorXd& xj,
                            const Eigen::MatrixXd& Sj, const Eigen::MatrixXd& Smu, const Eigen::MatrixXd& Sw);

class JointBayesian {
public:
    explicit JointBayesian(JointBayesianParams params = {}) : m_params(params) {}

    /// X: n×D features; classes: n class ids (any values, e.g. Dataset::labels); sigma: n×D
    /// standard deviations or empty (= no uncertainty). Needs >= 2 classes and some class with
    /// >= 2 samples. DataError / ParamError on bad input, Cancelled from progress. Strong guarantee.
    void fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& classes, const Eigen::MatrixXd& sigma = {},
             const ProgressCallback& progress = {});
    bool isFitted() const { return m_fitted; }

    // ---- similarity ------------------------------------------------------------------------
    /// LR of eq. 13–16 between two samples already in the model's (centred, latent) space.
    double similarity(const Eigen::VectorXd& xi, const Eigen::MatrixXd& Si, const Eigen::VectorXd& xj,
                      const Eigen::MatrixXd& Sj) const;
    /// Same for raw feature vectors with their σ (empty σ = none; ignored by Jb).
    double similarityFeatures(const Eigen::VectorXd& xi, const Eigen::VectorXd& sigmai, const Eigen::VectorXd& xj,
                              const Eigen::VectorXd& sigmaj) const;
    /// LR of training sample i against every training sample (entry i included): the GUI's
    /// "colour all points by similarity to the picked one".
    Eigen::VectorXd similarityToAll(Eigen::Index i) const;
    /// LR of a raw sample (x, σ) against every training sample.
    Eigen::VectorXd similarityToAll(const Eigen::VectorXd& x, const Eigen::VectorXd& sigma = {}) const;
    /// LR for the given row pairs of (X, sigma) (raw features), e.g. verification trials. Projects
    /// every row once and caches the per-sample factors: O(n K³ + pairs·K³/3), O(pairs K²) for Jb.
    Eigen::VectorXd pairSimilarities(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma,
                                     const std::vector<std::pair<Eigen::Index, Eigen::Index>>& pairs,
                                     const ProgressCallback& progress = {}) const;

    // ---- latent space ------------------------------------------------------------------------
    /// Raw rows → centred latent means and uncertainty covariances (what the similarity sees).
    LatentSamples transform(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma = {}) const;
    const LatentSamples& trainingLatent() const; ///< transform() of the training data
    int latentDim() const;                       ///< K (= D without reduction)
    JointBayesianParams::Reduction reduction() const; ///< what Auto resolved to
    LatentProjection projection() const;         ///< what the unset projection resolved to
    const UaPpca* reducer() const;               ///< nullptr without reduction

    // ---- model -----------------------------------------------------------------------------
    const Eigen::MatrixXd& Smu() const; ///< between-class covariance S_μ
    const Eigen::MatrixXd& Sw() const;  ///< within-class covariance S_w
    /// Log-likelihood Σ_c log N(X_c; 0, Σ_c) of the (latent) training data: entry 0 for the
    /// initialisation of sec. 4.3.3, one entry per EM iteration, the last for the final S_μ, S_w.
    const std::vector<double>& logLikelihoodHistory() const;
    int iterations() const;
    bool converged() const;
    double fitSeconds() const;

private:
    void requireFitted(const char* what) const;

    JointBayesianParams m_params;
    bool m_fitted = false;
    bool m_useSigma = true;
    JointBayesianParams::Reduction m_reduction = JointBayesianParams::Reduction::None;
    LatentProjection m_projection = LatentProjection::Linear;
    std::optional<UaPpca> m_reducer;
    int m_inputDim = 0;
    Eigen::VectorXd m_center;
    Eigen::MatrixXd m_Smu, m_Sw;
    LatentSamples m_train;
    /// Per-training-sample factorisations (eq. 14-16), computed once per fit so that picks
    /// (similarityToAll) do no Cholesky per training point. Shared: copies of a model reuse them.
    struct TrainFactors;
    std::shared_ptr<const TrainFactors> m_trainFactors;
    std::vector<double> m_history;
    int m_iterations = 0;
    bool m_converged = false;
    double m_fitSeconds = 0.0;
};

} // namespace olens
