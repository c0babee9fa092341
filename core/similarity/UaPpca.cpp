#include "base/Stats.h"
#include "similarity/UaPpca.h"

#include "base/Errors.h"
#include "linalg/Pca.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <Eigen/Dense>

namespace olens {


void checkSigma(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma, const char* who)
{
    if (sigma.size() == 0)
        return;
    if (sigma.rows() != X.rows() || sigma.cols() != X.cols())
        throw DataError(std::string(who) + ": sigma is " + std::to_string(sigma.rows()) + "x"
                        + std::to_string(sigma.cols()) + " but the data are " + std::to_string(X.rows()) + "x"
                        + std::to_string(X.cols()));
    for (Eigen::Index i = 0; i < sigma.rows(); ++i)
        for (Eigen::Index j = 0; j < sigma.cols(); ++j)
            if (!std::isfinite(sigma(i, j)) || sigma(i, j) < 0.0)
                throw DataError(std::string(who) + ": sigma(" + std::to_string(i) + ", " + std::to_string(j)
                                + ") = " + std::to_string(sigma(i, j)) + " is not a finite non-negative number");
}

// ---- EM steps -------------------------------------------------------------------------------

double UaPpca::eStep(const Eigen::MatrixXd& X, const Eigen::MatrixXd& V, const Eigen::VectorXd& mu,
                     const Eigen::MatrixXd& W, LatentSamples& out)
{
    const Eigen::Index n = X.rows(), D = X.cols(), m = W.cols();
    out.means.resize(n, m);
    out.covs.assign(static_cast<std::size_t>(n), Eigen::MatrixXd());
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(m, m);
    double ll = 0.0;
    Eigen::MatrixXd Ww(D, m);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::VectorXd w = V.row(i).transpose().cwiseInverse(); // S̃_i⁻¹ (diagonal)
        const Eigen::VectorXd r = X.row(i).transpose() - mu;
        Ww = w.asDiagonal() * W;                                        // S̃⁻¹ W
        const Eigen::MatrixXd M = W.transpose() * Ww + I;               // Wᵀ S̃⁻¹ W + I
        const Eigen::LLT<Eigen::MatrixXd> llt(M);
        const Eigen::VectorXd q = Ww.transpose() * r;                    // Wᵀ S̃⁻¹ (x̃ − μ)
        Eigen::MatrixXd Sx = llt.solve(I);                               // eq. 3
        Sx = 0.5 * (Sx + Sx.transpose());
        const Eigen::VectorXd mx = Sx * q;                               // eq. 4
        // Marginal x̃ ~ N(μ, C) with C = WWᵀ + S̃ (eq. 1); by the determinant lemma and Woodbury
        // log|C| = log|S̃| + log|M| and (x̃−μ)ᵀC⁻¹(x̃−μ) = rᵀS̃⁻¹r − qᵀ S_x q.
        const Eigen::MatrixXd& L = llt.matrixLLT();
        double logdetM = 0.0;
        for (Eigen::Index k = 0; k < m; ++k)
            logdetM += 2.0 * std::log(L(k, k));
        const double quad = (w.array() * r.array().square()).sum() - q.dot(mx);
        const double logdetC = V.row(i).array().log().sum() + logdetM;
        ll += -0.5 * (static_cast<double>(D) * kLog2Pi + logdetC + quad);
        out.means.row(i) = mx.transpose();
        out.covs[static_cast<std::size_t>(i)] = std::move(Sx);
    }
    return ll;
}

void UaPpca::mStep(const Eigen::MatrixXd& X, const Eigen::MatrixXd& V, const LatentSamples& post,
                   Eigen::VectorXd& mu, Eigen::MatrixXd& W)
{
    const Eigen::Index n = X.rows(), D = X.cols(), m = post.means.cols();
    const Eigen::MatrixXd Wt = V.cwiseInverse();   // 1 / S̃_i^(j,j), n×D
    const Eigen::MatrixXd WX = Wt.cwiseProduct(X); // x̃_i^(j) / S̃_i^(j,j)
    // E_i = S_{x_i} + μ_{x_i} μ_{x_i}ᵀ flattened into row i, so that Σ_i E_i / S̃_i^(j,j) for all
    // j is one product (D×n)(n×m²).
    Eigen::MatrixXd E(n, m * m);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::VectorXd mx = post.means.row(i).transpose();
        const Eigen::MatrixXd Ei = post.covs[static_cast<std::size_t>(i)] + mx * mx.transpose();
        E.row(i) = Eigen::Map<const Eigen::RowVectorXd>(Ei.data(), m * m);
    }
    const Eigen::MatrixXd Ainv = Wt.transpose() * E;            // rows: A_j⁻¹ (eq. 10), flattened
    const Eigen::MatrixXd a = Wt.transpose() * post.means;      // rows: a_j (eq. 11)
    const Eigen::MatrixXd b = WX.transpose() * post.means;      // rows: Σ_i x̃_i^(j)/S̃_i^(j,j) μ_{x_i}
    const Eigen::VectorXd sw = Wt.colwise().sum().transpose();  // Σ_i 1/S̃_i^(j,j)
    const Eigen::VectorXd swx = WX.colwise().sum().transpose(); // Σ_i x̃_i^(j)/S̃_i^(j,j)
    mu.resize(D);
    W.resize(D, m);
    Eigen::RowVectorXd row(m * m);
    for (Eigen::Index j = 0; j < D; ++j) {
        row = Ainv.row(j);
        const Eigen::Map<const Eigen::MatrixXd> Aj(row.data(), m, m);
        const Eigen::LDLT<Eigen::MatrixXd> ldlt(Aj);
        const Eigen::VectorXd aj = a.row(j).transpose(), bj = b.row(j).transpose();
        const Eigen::VectorXd Aa = ldlt.solve(aj), Ab = ldlt.solve(bj);
        // eq. 8: μ^(j) = (bᵀ A a − Σ x̃/S̃) / (aᵀ A a − Σ 1/S̃)
        mu(j) = (bj.dot(Aa) - swx(j)) / (aj.dot(Aa) - sw(j));
        // eq. 9: W^(j,·) = (b − μ^(j) a)ᵀ A
        W.row(j) = (Ab - mu(j) * Aa).transpose();
    }
}

// ---- model ----------------------------------------------------------------------------------

void UaPpca::requireFitted(const char* what) const
{
    if (!m_fitted)
        throw NotFittedError(std::string("UaPpca::") + what + ": the model is not fitted");
}

const Eigen::VectorXd& UaPpca::mean() const { requireFitted("mean"); return m_mu; }
const Eigen::MatrixXd& UaPpca::loadings() const { requireFitted("loadings"); return m_W; }
double UaPpca::residualVariance() const { requireFitted("residualVariance"); return m_residual; }
const std::vector<double>& UaPpca::logLikelihoodHistory() const { requireFitted("logLikelihoodHistory"); return m_history; }
int UaPpca::iterations() const { requireFitted("iterations"); return m_iterations; }
bool UaPpca::converged() const { requireFitted("converged"); return m_converged; }

Eigen::MatrixXd UaPpca::fullVariances(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma, const char* who) const
{
    checkSigma(X, sigma, who);
    if (!X.allFinite())
        throw DataError(std::string(who) + ": the data contain NaN or infinite values (impute missing cells first)");
    Eigen::MatrixXd V = Eigen::MatrixXd::Constant(X.rows(), X.cols(), m_residual);
    if (sigma.size() > 0)
        V += sigma.cwiseAbs2();
    return V;
}

void UaPpca::fit(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma, const ProgressCallback& progress)
{
    const Eigen::Index n = X.rows(), D = X.cols();
    if (n < 2 || D < 1)
        throw DataError("UA-PPCA needs at least 2 samples and 1 feature (got " + std::to_string(n) + "x"
                        + std::to_string(D) + ")");
    if (!X.allFinite())
        throw DataError("UA-PPCA: the data contain NaN or infinite values (impute missing cells first)");
    checkSigma(X, sigma, "UA-PPCA");
    const int m = m_params.dim;
    if (m < 1 || m > D)
        throw ParamError("UA-PPCA: latent dimension " + std::to_string(m) + " is outside [1, " + std::to_string(D)
                         + "] (the number of features)");
    if (m_params.maxIter < 0 || !(m_params.tol >= 0.0))
        throw ParamError("UA-PPCA: maxIter and tol must be non-negative");

    // Initialisation (sec. 3.2): μ = empirical mean, W = leading eigenvectors · sqrt(eigenvalues).
    const PcaResult pc = pca(X);
    Eigen::VectorXd mu = pc.mean;
    Eigen::MatrixXd W = pc.components.leftCols(m) * pc.variances.head(m).cwiseSqrt().asDiagonal();

    double r = m_params.residualVariance;
    if (r < 0.0) {
        // Tipping & Bishop's ML noise of PPCA, net of the known noise: eigenvalues of
        // cov(X) − diag(mean σ²), mean of the D−m smallest.
        const double meanVar = pc.variances.sum() / static_cast<double>(D);
        Eigen::MatrixXd C = X.rowwise() - mu.transpose();
        C = (C.transpose() * C) / static_cast<double>(n);
        if (sigma.size() > 0)
            C.diagonal() -= sigma.cwiseAbs2().colwise().mean().transpose();
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(C, Eigen::EigenvaluesOnly);
        r = D > m ? es.eigenvalues().head(D - m).mean() : 0.0; // increasing order
        r = std::max(r, 1e-6 * meanVar);
        if (!(r > 0.0))
            r = 1e-12;
    }
    UaPpca next(m_params);
    next.m_residual = r;
    const Eigen::MatrixXd V = next.fullVariances(X, sigma, "UA-PPCA");

    std::vector<double> history;
    LatentSamples post;
    int iterations = 0;
    bool converged = false;
    const int maxIter = m_params.training == UaPpcaParams::Training::Pca ? 0 : m_params.maxIter;
    for (int it = 0;; ++it) {
        const double ll = eStep(X, V, mu, W, post);
        if (!std::isfinite(ll))
            throw DataError("UA-PPCA: the log-likelihood is not finite (degenerate data or uncertainty)");
        history.push_back(ll);
        ProgressReporter(progress).report(maxIter > 0 ? static_cast<double>(it) / maxIter : 1.0,
               "UA-PPCA EM iteration " + std::to_string(it), -ll / static_cast<double>(n));
        if (it > 0 && std::abs(ll - history[history.size() - 2]) <= m_params.tol * std::abs(ll)) {
            converged = true;
            break;
        }
        if (it >= maxIter)
            break;
        mStep(X, V, post, mu, W);
        ++iterations;
    }

    m_mu = std::move(mu);
    m_W = std::move(W);
    m_residual = r;
    m_history = std::move(history);
    m_iterations = iterations;
    m_converged = converged;
    m_fitted = true;
}

LatentSamples UaPpca::project(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma, LatentProjection kind) const
{
    requireFitted("project");
    if (X.cols() != m_W.rows())
        throw DataError("UaPpca::project: " + std::to_string(X.cols()) + " features, the model has "
                        + std::to_string(m_W.rows()));
    LatentSamples out;
    if (kind == LatentProjection::Probabilistic) {
        eStep(X, fullVariances(X, sigma, "UaPpca::project"), m_mu, m_W, out); // eq. 2–4
        return out;
    }
    checkSigma(X, sigma, "UaPpca::project");
    // Linear projection (Table 3): P = W⁺ maps x̃ − μ to the coordinates of its orthogonal
    // projection onto span(W); the uncertainty follows linearly, P diag(σ²) Pᵀ.
    const Eigen::MatrixXd P = m_W.completeOrthogonalDecomposition().pseudoInverse();
    out.means = (X.rowwise() - m_mu.transpose()) * P.transpose();
    const Eigen::Index m = m_W.cols();
    out.covs.assign(static_cast<std::size_t>(X.rows()), Eigen::MatrixXd::Zero(m, m));
    if (sigma.size() > 0)
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            out.covs[static_cast<std::size_t>(i)] = P * sigma.row(i).cwiseAbs2().asDiagonal() * P.transpose();
    return out;
}

double UaPpca::logLikelihood(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma) const
{
    requireFitted("logLikelihood");
    if (X.cols() != m_W.rows())
        throw DataError("UaPpca::logLikelihood: " + std::to_string(X.cols()) + " features, the model has "
                        + std::to_string(m_W.rows()));
    LatentSamples post;
    return eStep(X, fullVariances(X, sigma, "UaPpca::logLikelihood"), m_mu, m_W, post);
}

} // namespace olens
