#pragma once
// Uncertainty-aware probabilistic PCA (UA-PPCA), uncertainty-joint-bayesian.txt sec. 3:
//   x̃ = μ + W x + ε̃,  x ~ N(0, I),  ε̃ ~ N(0, S̃)  with a per-sample diagonal S̃ (eq. 1),
// fitted by EM with the closed-form M-step of eq. 8–11, initialised from PCA (sec. 3.2), and the
// projection of a sample's whole distribution into the latent space, N(μ_x, S_x) (eq. 2–4).
// The ablation of Table 3 is available: W, μ from plain PCA instead of EM (Training::Pca), and
// the linear projection (pseudo-inverse of W applied to x̃ and S̃) instead of eq. 3–4.
//
// Uncertainty is given as standard deviations σ (n×D, like Dataset::sigma); the model's S̃_i is
// diag(σ_i²) + r·I, where r is a small residual variance (see UaPpcaParams::residualVariance):
// with σ = 0 the likelihood of eq. 1 is degenerate (any deviation of x̃ off the span of W has
// zero probability), r is what PPCA would estimate as its isotropic noise (Tipping & Bishop).
#include "base/Progress.h"

#include <Eigen/Core>
#include <vector>

namespace olens {

struct UaPpcaParams {
    /// Latent dimension m (sec. 5.1 uses 100 on 784-pixel MNIST). Must be in [1, D].
    int dim = 100;
    enum class Training {
        UaPpca, ///< EM of sec. 3.2 (eq. 8–11), initialised from PCA
        Pca     ///< Table 3 ablation: μ = mean, W = leading eigenvectors · sqrt(eigenvalues), no EM
    };
    Training training = Training::UaPpca;
    /// EM stops after this many M-steps ...
    int maxIter = 100;
    /// ... or when the log-likelihood rose by less than tol·|log-likelihood| in one iteration.
    double tol = 1e-6;
    /// Residual variance r added to every diagonal entry of S̃. Negative = automatic: the mean
    /// of the D−m discarded eigenvalues of the training covariance minus the mean uncertainty
    /// diag(mean σ²) (the ML isotropic noise of PPCA, Tipping & Bishop 1999, net of the known
    /// noise), floored at 1e-6 of the mean feature variance.
    double residualVariance = -1.0;
};

/// How a sample (x̃, S̃) is carried into the latent space (not olens::Projection, the views' display map).
enum class LatentProjection {
    Probabilistic, ///< mean and covariance of P(x | x̃, S̃, W, μ), eq. 2–4
    Linear         ///< Table 3 ablation: P(x̃ − μ) and P diag(σ²) Pᵀ with P = (WᵀW)⁻¹Wᵀ
};

/// Latent distributions of n samples: means n×m (rows), covariances m×m each.
struct LatentSamples {
    Eigen::MatrixXd means;
    std::vector<Eigen::MatrixXd> covs;
};

class UaPpca {
public:
    explicit UaPpca(UaPpcaParams params = {}) : m_params(params) {}

    /// X: n×D training features; sigma: n×D standard deviations, or empty for none.
    /// Throws DataError (sizes, non-finite values, negative σ, n < 2) and ParamError (dim out of
    /// [1, D], maxIter < 0, tol < 0), Cancelled when the progress callback asks. Strong guarantee.
    void fit(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma = {}, const ProgressCallback& progress = {});

    bool isFitted() const { return m_fitted; }
    const Eigen::VectorXd& mean() const;     ///< μ (D)
    const Eigen::MatrixXd& loadings() const; ///< W (D×m)
    double residualVariance() const;         ///< r actually used
    /// Log-likelihood Σ_i log N(x̃_i; μ, WWᵀ + S̃_i) of the training data after each EM
    /// iteration; entry 0 is the PCA initialisation, the last one the returned parameters.
    const std::vector<double>& logLikelihoodHistory() const;
    int iterations() const; ///< M-steps performed
    bool converged() const; ///< stopped on tol (false: maxIter reached or Training::Pca)

    /// Projects rows of X (with their σ, or none) into the latent space. Throws NotFittedError,
    /// DataError on sizes.
    LatentSamples project(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma = {},
                          LatentProjection kind = LatentProjection::Probabilistic) const;
    /// Σ_i log N(x̃_i; μ, WWᵀ + S̃_i) under the fitted model.
    double logLikelihood(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma = {}) const;

    // ---- the EM steps, exposed for tests and re-use (no state) --------------------------------
    /// E-step (eq. 2–4) for every row: latent means/covariances given μ, W and the full S̃
    /// variances (n×D, strictly positive). Returns the log-likelihood of the data under (μ, W).
    static double eStep(const Eigen::MatrixXd& X, const Eigen::MatrixXd& variances, const Eigen::VectorXd& mu,
                        const Eigen::MatrixXd& W, LatentSamples& out);
    /// M-step, the closed form of eq. 8–11 row by row.
    static void mStep(const Eigen::MatrixXd& X, const Eigen::MatrixXd& variances, const LatentSamples& post,
                      Eigen::VectorXd& mu, Eigen::MatrixXd& W);

private:
    void requireFitted(const char* what) const;
    Eigen::MatrixXd fullVariances(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma, const char* who) const;

    UaPpcaParams m_params;
    bool m_fitted = false;
    Eigen::VectorXd m_mu;
    Eigen::MatrixXd m_W;
    double m_residual = 0.0;
    std::vector<double> m_history;
    int m_iterations = 0;
    bool m_converged = false;
};

/// Validates an n×D σ matrix against X (empty allowed): sizes, finite, non-negative. DataError.
void checkSigma(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma, const char* who);

} // namespace olens
