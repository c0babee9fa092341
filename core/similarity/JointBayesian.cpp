#include "base/Stats.h"
#include "similarity/JointBayesian.h"

#include "base/Errors.h"
#include "linalg/Pca.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <Eigen/Dense>

namespace olens {

namespace {

using Clock = std::chrono::steady_clock;


Eigen::MatrixXd symmetrized(const Eigen::MatrixXd& M) { return 0.5 * (M + M.transpose()); }

double logdetLLT(const Eigen::LLT<Eigen::MatrixXd>& llt)
{
    double s = 0.0;
    const Eigen::MatrixXd& L = llt.matrixLLT();
    for (Eigen::Index k = 0; k < L.rows(); ++k)
        s += 2.0 * std::log(L(k, k));
    return s;
}

/// Cholesky that reports failure (LLT::info() misses some semi-definite cases: check the diagonal).
bool choleskyOk(const Eigen::LLT<Eigen::MatrixXd>& llt)
{
    if (llt.info() != Eigen::Success)
        return false;
    const Eigen::MatrixXd& L = llt.matrixLLT();
    for (Eigen::Index k = 0; k < L.rows(); ++k)
        if (!(L(k, k) > 0.0) || !std::isfinite(L(k, k)))
            return false;
    return true;
}

/// Per-sample factors of the LR (eq. 13–16): with A = S_μ + S_w + S,
///   B = S_μ A⁻¹ S_μ,  u = S_μ A⁻¹ x,  q = xᵀ A⁻¹ x,  log|A|.
/// Then, with N = A_i − B_j = M1⁻¹ (eq. 14) and M2, M3 of eq. 15–16,
///   x_iᵀM1x_i + 2x_iᵀM2x_j + x_jᵀM3x_j − x_jᵀA_j⁻¹x_j = (x_i − u_j)ᵀ N⁻¹ (x_i − u_j)
/// (M2 x_j = −M1 u_j and M3 = A_j⁻¹ + A_j⁻¹S_μ M1 S_μ A_j⁻¹), and the exact log ratio is
///   LR = ½ (log|A_i| − log|N|) − ½ ((x_i − u_j)ᵀ N⁻¹ (x_i − u_j) − q_i).
/// Eq. 13 as printed is −2·LR up to a constant (the log 2π terms cancel exactly).
struct Factors {
    Eigen::VectorXd x;
    Eigen::MatrixXd A, B;
    Eigen::VectorXd u;
    double q = 0.0, logdetA = 0.0;
    bool zero = false; ///< S = 0: A, B identical for all such samples
};

Factors makeFactors(const Eigen::VectorXd& x, const Eigen::MatrixXd& S, const Eigen::MatrixXd& Smu,
                    const Eigen::MatrixXd& Sw)
{
    Factors f;
    f.x = x;
    f.zero = S.size() == 0 || S.isZero(0.0);
    f.A = Smu + Sw;
    if (!f.zero)
        f.A += S;
    const Eigen::LLT<Eigen::MatrixXd> llt(f.A);
    if (!choleskyOk(llt))
        throw DataError("Joint Bayesian: S_mu + S_w + S_i is not positive definite");
    const Eigen::VectorXd Ax = llt.solve(x);
    const Eigen::MatrixXd ASmu = llt.solve(Smu);
    f.B = symmetrized(Smu * ASmu);
    f.u = Smu * Ax;
    f.q = x.dot(Ax);
    f.logdetA = logdetLLT(llt);
    return f;
}

double lrFromFactors(const Factors& fi, const Factors& fj, const Eigen::LLT<Eigen::MatrixXd>* shared,
                     double sharedLogdet)
{
    const Eigen::VectorXd v = fi.x - fj.u;
    if (shared)
        return 0.5 * (fi.logdetA - sharedLogdet) - 0.5 * (v.dot(shared->solve(v)) - fi.q);
    const Eigen::LLT<Eigen::MatrixXd> llt(fi.A - fj.B);
    if (!choleskyOk(llt))
        throw DataError("Joint Bayesian: the joint covariance of a pair is not positive definite");
    return 0.5 * (fi.logdetA - logdetLLT(llt)) - 0.5 * (v.dot(llt.solve(v)) - fi.q);
}

/// LR of fi against each of fs, reusing one Cholesky when both sides have zero uncertainty.
class PairEvaluator {
public:
    double operator()(const Factors& fi, const Factors& fj)
    {
        if (fi.zero && fj.zero) {
            if (!m_shared) {
                m_shared.emplace(fi.A - fj.B);
                if (!choleskyOk(*m_shared))
                    throw DataError("Joint Bayesian: the joint covariance of a pair is not positive definite");
                m_sharedLogdet = logdetLLT(*m_shared);
            }
            return lrFromFactors(fi, fj, &*m_shared, m_sharedLogdet);
        }
        return lrFromFactors(fi, fj, nullptr, 0.0);
    }

private:
    std::optional<Eigen::LLT<Eigen::MatrixXd>> m_shared;
    double m_sharedLogdet = 0.0;
};

} // namespace

struct JointBayesian::TrainFactors {
    std::vector<Factors> f;
};

// ---- E-step ---------------------------------------------------------------------------------

JbClassPosterior jbClassPosterior(const Eigen::MatrixXd& Xc, const std::vector<Eigen::MatrixXd>& S,
                                  const Eigen::MatrixXd& Smu, const Eigen::MatrixXd& Sw)
{
    const Eigen::Index m = Xc.rows(), d = Xc.cols();
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(d, d);
    // P_i = (S_w + S_i)⁻¹. Samples without uncertainty share one factorisation.
    std::vector<Eigen::MatrixXd> P(static_cast<std::size_t>(m));
    std::vector<bool> zero(static_cast<std::size_t>(m));
    Eigen::MatrixXd P0;
    double logdet0 = 0.0;
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(d, d); // Σ_i (S_w + S_i)⁻¹
    Eigen::VectorXd h = Eigen::VectorXd::Zero(d);    // Σ_i (S_w + S_i)⁻¹ x_i
    double sumLogdet = 0.0, sumQuad = 0.0;
    for (Eigen::Index i = 0; i < m; ++i) {
        const auto k = static_cast<std::size_t>(i);
        zero[k] = S[k].size() == 0 || S[k].isZero(0.0);
        double logdet = 0.0;
        if (zero[k] && P0.size() > 0) {
            P[k] = P0;
            logdet = logdet0;
        } else {
            const Eigen::LLT<Eigen::MatrixXd> llt(zero[k] ? Sw : Eigen::MatrixXd(Sw + S[k]));
            if (!choleskyOk(llt))
                throw DataError("UA-JB: S_w + S_i is not positive definite (a direction without within-class "
                                "variance: reduce the dimension)");
            P[k] = symmetrized(llt.solve(I));
            logdet = logdetLLT(llt);
            if (zero[k]) {
                P0 = P[k];
                logdet0 = logdet;
            }
        }
        const Eigen::VectorXd x = Xc.row(i).transpose();
        const Eigen::VectorXd Px = P[k] * x;
        G += P[k];
        h += Px;
        sumQuad += x.dot(Px);
        sumLogdet += logdet;
    }
    JbClassPosterior post;
    // eq. 19 without S_μ⁻¹ (S_μ may be singular): T = (S_μ⁻¹ + G)⁻¹ = (I + S_μ G)⁻¹ S_μ.
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(I + Smu * G);
    post.TMu = symmetrized(lu.solve(Smu));
    post.bMu = post.TMu * h; // eq. 20
    // log N(X_c; 0, Σ_c), Σ_c = 11ᵀ⊗S_μ + blockdiag(S_w + S_i): determinant lemma and Woodbury,
    // log|Σ_c| = Σ log|S_w + S_i| + log|I + S_μ G|, X_cᵀΣ_c⁻¹X_c = Σ x_iᵀP_i x_i − hᵀ T h.
    double logdetIG = 0.0;
    const Eigen::MatrixXd& LU = lu.matrixLU();
    for (Eigen::Index k = 0; k < d; ++k)
        logdetIG += std::log(std::abs(LU(k, k)));
    post.logLikelihood = -0.5 * (static_cast<double>(m * d) * kLog2Pi + sumLogdet + logdetIG + sumQuad
                                 - h.dot(post.bMu));
    // eq. 23–25 written without S_i⁻¹ (S_i may be zero): K = R S_i⁻¹ = S_w (S_w + S_i)⁻¹,
    // R = (S_i⁻¹ + S_w⁻¹)⁻¹ = S_w − K S_w, T_w = K T_μ Kᵀ + R, b_w = K (x_i − b_μ).
    post.bW.resize(static_cast<std::size_t>(m));
    post.TW.resize(static_cast<std::size_t>(m));
    for (Eigen::Index i = 0; i < m; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const Eigen::VectorXd r = Xc.row(i).transpose() - post.bMu;
        if (zero[k]) { // K = I, R = 0
            post.TW[k] = post.TMu;
            post.bW[k] = r;
            continue;
        }
        const Eigen::MatrixXd K = Sw * P[k];
        const Eigen::MatrixXd R = Sw - K * Sw;
        post.TW[k] = symmetrized(K * post.TMu * K.transpose() + R);
        post.bW[k] = K * r;
    }
    return post;
}

double jbLogLikelihoodRatio(const Eigen::VectorXd& xi, const Eigen::MatrixXd& Si, const Eigen::VectorXd& xj,
                            const Eigen::MatrixXd& Sj, const Eigen::MatrixXd& Smu, const Eigen::MatrixXd& Sw)
{
    const Factors fi = makeFactors(xi, Si, Smu, Sw);
    const Factors fj = makeFactors(xj, Sj, Smu, Sw);
    return lrFromFactors(fi, fj, nullptr, 0.0);
}

// ---- model ----------------------------------------------------------------------------------

void JointBayesian::requireFitted(const char* what) const
{
    if (!m_fitted)
        throw NotFittedError(std::string("JointBayesian::") + what + ": the model is not fitted");
}

const LatentSamples& JointBayesian::trainingLatent() const { requireFitted("trainingLatent"); return m_train; }
int JointBayesian::latentDim() const { requireFitted("latentDim"); return static_cast<int>(m_Sw.rows()); }
JointBayesianParams::Reduction JointBayesian::reduction() const { requireFitted("reduction"); return m_reduction; }
LatentProjection JointBayesian::projection() const { requireFitted("projection"); return m_projection; }
const UaPpca* JointBayesian::reducer() const { requireFitted("reducer"); return m_reducer ? &*m_reducer : nullptr; }
const Eigen::MatrixXd& JointBayesian::Smu() const { requireFitted("Smu"); return m_Smu; }
const Eigen::MatrixXd& JointBayesian::Sw() const { requireFitted("Sw"); return m_Sw; }
const std::vector<double>& JointBayesian::logLikelihoodHistory() const { requireFitted("logLikelihoodHistory"); return m_history; }
int JointBayesian::iterations() const { requireFitted("iterations"); return m_iterations; }
bool JointBayesian::converged() const { requireFitted("converged"); return m_converged; }
double JointBayesian::fitSeconds() const { requireFitted("fitSeconds"); return m_fitSeconds; }

void JointBayesian::fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& classes, const Eigen::MatrixXd& sigma,
                        const ProgressCallback& progress)
{
    using P = JointBayesianParams;
    const auto t0 = Clock::now();
    const Eigen::Index n = X.rows(), D = X.cols();
    if (n < 3 || D < 1)
        throw DataError("Joint Bayesian needs at least 3 samples and 1 feature (got " + std::to_string(n) + "x"
                        + std::to_string(D) + ")");
    if (!X.allFinite())
        throw DataError("Joint Bayesian: the data contain NaN or infinite values (impute missing cells first)");
    if (classes.size() != n)
        throw DataError("Joint Bayesian: " + std::to_string(classes.size()) + " class ids for " + std::to_string(n)
                        + " samples");
    if (!classes.allFinite())
        throw DataError("Joint Bayesian: class ids must be finite");
    checkSigma(X, sigma, "Joint Bayesian");
    if (m_params.dim < 0)
        throw ParamError("Joint Bayesian: dim must be >= 0 (0 = automatic)");
    if (m_params.maxIter < 0 || !(m_params.tol >= 0.0))
        throw ParamError("Joint Bayesian: maxIter and tol must be non-negative");

    const bool useSigma = m_params.method == P::Method::UaJb && sigma.size() > 0;
    const Eigen::MatrixXd noSigma;
    const Eigen::MatrixXd& sig = useSigma ? sigma : noSigma;
    const ProgressReporter rep(progress, 0.0, 1.0, std::chrono::milliseconds(50));

    // ---- classes ----------------------------------------------------------------------------
    std::map<double, std::vector<Eigen::Index>> groups;
    for (Eigen::Index i = 0; i < n; ++i)
        groups[classes(i)].push_back(i);
    const auto C = static_cast<Eigen::Index>(groups.size());
    if (C < 2)
        throw DataError("Joint Bayesian needs at least 2 classes (got " + std::to_string(C) + ")");
    if (C == n)
        throw DataError("Joint Bayesian needs a class with at least 2 samples (every class has 1)");

    // ---- dimension reduction ----------------------------------------------------------------
    int K = m_params.dim;
    if (K == 0) {
        const PcaResult pc = pca(X);
        const double top = pc.variances.size() ? pc.variances(0) : 0.0;
        int rank = 0;
        for (Eigen::Index k = 0; k < pc.variances.size(); ++k)
            rank += pc.variances(k) > 1e-10 * top ? 1 : 0;
        K = std::max(1, std::min<int>({100, static_cast<int>(D), rank}));
    }
    K = std::min<int>(K, static_cast<int>(D));
    P::Reduction red = m_params.reduction;
    if (red == P::Reduction::Auto)
        red = K >= D ? P::Reduction::None
                     : (m_params.method == P::Method::UaJb ? P::Reduction::UaPpca : P::Reduction::Pca);
    const LatentProjection proj = m_params.projection.value_or(
        m_params.method == P::Method::UaJb ? LatentProjection::Probabilistic : LatentProjection::Linear);

    std::optional<UaPpca> reducer;
    LatentSamples lat;
    if (red == P::Reduction::None) {
        lat.means = X;
        lat.covs.assign(static_cast<std::size_t>(n), Eigen::MatrixXd::Zero(D, D));
        if (useSigma)
            for (Eigen::Index i = 0; i < n; ++i)
                lat.covs[static_cast<std::size_t>(i)] = sig.row(i).cwiseAbs2().asDiagonal();
    } else {
        UaPpcaParams pp;
        pp.dim = K;
        pp.training = red == P::Reduction::Pca ? UaPpcaParams::Training::Pca : UaPpcaParams::Training::UaPpca;
        pp.maxIter = m_params.ppcaMaxIter;
        pp.tol = m_params.ppcaTol;
        pp.residualVariance = m_params.residualVariance;
        reducer.emplace(pp);
        reducer->fit(X, sig, ProgressReporter(progress).sub(0.0, 0.3));
        lat = reducer->project(X, sig, proj);
    }
    const Eigen::Index d = lat.means.cols();
    const Eigen::VectorXd center = lat.means.colwise().mean().transpose();
    lat.means.rowwise() -= center.transpose();

    // Per-class blocks of the latent data.
    std::vector<Eigen::MatrixXd> Xc;
    std::vector<std::vector<Eigen::MatrixXd>> Sc;
    for (const auto& [id, rows] : groups) {
        Eigen::MatrixXd M(static_cast<Eigen::Index>(rows.size()), d);
        std::vector<Eigen::MatrixXd> S;
        for (std::size_t k = 0; k < rows.size(); ++k) {
            M.row(static_cast<Eigen::Index>(k)) = lat.means.row(rows[k]);
            S.push_back(lat.covs[static_cast<std::size_t>(rows[k])]);
        }
        Xc.push_back(std::move(M));
        Sc.push_back(std::move(S));
    }

    // ---- initialisation (sec. 4.3.3) ---------------------------------------------------------
    // S_μ = covariance of the class means, S_w = covariance of the deviations from the class mean.
    Eigen::MatrixXd means(C, d);
    Eigen::MatrixXd Sw = Eigen::MatrixXd::Zero(d, d);
    for (Eigen::Index c = 0; c < C; ++c) {
        const Eigen::MatrixXd& M = Xc[static_cast<std::size_t>(c)];
        means.row(c) = M.colwise().mean();
        const Eigen::MatrixXd Dev = M.rowwise() - means.row(c);
        Sw += Dev.transpose() * Dev;
    }
    Sw /= static_cast<double>(n);
    const Eigen::MatrixXd Mc = means.rowwise() - means.colwise().mean();
    Eigen::MatrixXd Smu = (Mc.transpose() * Mc) / static_cast<double>(C);
    // A tiny ridge keeps S_w invertible when a direction has no within-class spread at all.
    const double scale = std::max(Sw.trace(), Smu.trace()) / static_cast<double>(d);
    Sw.diagonal().array() += 1e-9 * (scale > 0.0 ? scale : 1.0);

    // ---- EM (sec. 4.3.3) --------------------------------------------------------------------
    std::vector<double> history;
    int iterations = 0;
    bool converged = false;
    const int maxIter = m_params.maxIter;
    for (int it = 0;; ++it) {
        double ll = 0.0;
        Eigen::MatrixXd SmuNew = Eigen::MatrixXd::Zero(d, d), SwNew = Eigen::MatrixXd::Zero(d, d);
        for (Eigen::Index c = 0; c < C; ++c) {
            const auto k = static_cast<std::size_t>(c);
            const JbClassPosterior post = jbClassPosterior(Xc[k], Sc[k], Smu, Sw); // E-step, eq. 18–20, 23–25
            ll += post.logLikelihood;
            SmuNew += post.TMu + post.bMu * post.bMu.transpose();
            for (std::size_t i = 0; i < post.bW.size(); ++i)
                SwNew += post.TW[i] + post.bW[i] * post.bW[i].transpose();
            rep(0.3 + 0.7 * (it + static_cast<double>(c + 1) / C) / std::max(1, maxIter + 1),
                "Joint Bayesian EM iteration " + std::to_string(it));
        }
        if (!std::isfinite(ll))
            throw DataError("Joint Bayesian: the log-likelihood is not finite (degenerate data)");
        history.push_back(ll);
        rep(0.3 + 0.7 * (it + 1.0) / std::max(1, maxIter + 1), "Joint Bayesian EM iteration " + std::to_string(it),
            -ll / static_cast<double>(n), true);
        if (converged || it >= maxIter)
            break;
        SmuNew = symmetrized(SmuNew / static_cast<double>(C)); // eq. 22
        SwNew = symmetrized(SwNew / static_cast<double>(n));   // eq. 27
        const double dMu = (SmuNew - Smu).norm(), dW = (SwNew - Sw).norm();
        const double nMu = Smu.norm(), nW = Sw.norm();
        converged = dMu <= m_params.tol * nMu && dW <= m_params.tol * nW;
        Smu = std::move(SmuNew);
        Sw = std::move(SwNew);
        ++iterations;
    }

    auto factors = std::make_shared<TrainFactors>();
    factors->f.reserve(static_cast<std::size_t>(lat.means.rows()));
    for (Eigen::Index i = 0; i < lat.means.rows(); ++i)
        factors->f.push_back(makeFactors(lat.means.row(i).transpose(), lat.covs[static_cast<std::size_t>(i)], Smu, Sw));

    // Commit (strong guarantee: nothing above touched members).
    m_trainFactors = std::move(factors);
    m_useSigma = useSigma;
    m_reduction = red;
    m_projection = red == P::Reduction::None ? LatentProjection::Linear : proj;
    m_reducer = std::move(reducer);
    m_inputDim = static_cast<int>(D);
    m_center = center;
    m_Smu = std::move(Smu);
    m_Sw = std::move(Sw);
    m_train = std::move(lat);
    m_history = std::move(history);
    m_iterations = iterations;
    m_converged = converged;
    m_fitted = true;
    m_fitSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
}

LatentSamples JointBayesian::transform(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma) const
{
    requireFitted("transform");
    if (X.cols() != m_inputDim)
        throw DataError("Joint Bayesian: " + std::to_string(X.cols()) + " features, the model was fitted on "
                        + std::to_string(m_inputDim));
    if (!X.allFinite())
        throw DataError("Joint Bayesian: the data contain NaN or infinite values (impute missing cells first)");
    checkSigma(X, sigma, "Joint Bayesian");
    const Eigen::MatrixXd noSigma;
    const Eigen::MatrixXd& sig = m_useSigma ? sigma : noSigma;
    LatentSamples lat;
    if (m_reducer) {
        lat = m_reducer->project(X, sig, m_projection);
    } else {
        const Eigen::Index D = X.cols();
        lat.means = X;
        lat.covs.assign(static_cast<std::size_t>(X.rows()), Eigen::MatrixXd::Zero(D, D));
        if (sig.size() > 0)
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                lat.covs[static_cast<std::size_t>(i)] = sig.row(i).cwiseAbs2().asDiagonal();
    }
    lat.means.rowwise() -= m_center.transpose();
    return lat;
}

double JointBayesian::similarity(const Eigen::VectorXd& xi, const Eigen::MatrixXd& Si, const Eigen::VectorXd& xj,
                                 const Eigen::MatrixXd& Sj) const
{
    requireFitted("similarity");
    const Eigen::Index d = m_Sw.rows();
    auto okS = [&](const Eigen::MatrixXd& S) { return S.size() == 0 || (S.rows() == d && S.cols() == d); };
    if (xi.size() != d || xj.size() != d || !okS(Si) || !okS(Sj))
        throw DataError("Joint Bayesian: similarity needs vectors of size " + std::to_string(d)
                        + " and " + std::to_string(d) + "x" + std::to_string(d) + " covariances (or empty)");
    return jbLogLikelihoodRatio(xi, Si, xj, Sj, m_Smu, m_Sw);
}

double JointBayesian::similarityFeatures(const Eigen::VectorXd& xi, const Eigen::VectorXd& sigmai,
                                         const Eigen::VectorXd& xj, const Eigen::VectorXd& sigmaj) const
{
    requireFitted("similarityFeatures");
    const Eigen::MatrixXd si = sigmai.size() ? Eigen::MatrixXd(sigmai.transpose()) : Eigen::MatrixXd();
    const Eigen::MatrixXd sj = sigmaj.size() ? Eigen::MatrixXd(sigmaj.transpose()) : Eigen::MatrixXd();
    const LatentSamples a = transform(xi.transpose(), si);
    const LatentSamples b = transform(xj.transpose(), sj);
    return jbLogLikelihoodRatio(a.means.row(0).transpose(), a.covs[0], b.means.row(0).transpose(), b.covs[0], m_Smu,
                                m_Sw);
}

Eigen::VectorXd JointBayesian::similarityToAll(Eigen::Index i) const
{
    requireFitted("similarityToAll");
    const Eigen::Index n = m_train.means.rows();
    if (i < 0 || i >= n)
        throw DataError("Joint Bayesian: sample " + std::to_string(i) + " is outside [0, " + std::to_string(n) + ")");
    const std::vector<Factors>& f = m_trainFactors->f;
    PairEvaluator eval;
    Eigen::VectorXd out(n);
    for (Eigen::Index j = 0; j < n; ++j)
        out(j) = eval(f[static_cast<std::size_t>(i)], f[static_cast<std::size_t>(j)]);
    return out;
}

Eigen::VectorXd JointBayesian::similarityToAll(const Eigen::VectorXd& x, const Eigen::VectorXd& sigma) const
{
    requireFitted("similarityToAll");
    const Eigen::MatrixXd s = sigma.size() ? Eigen::MatrixXd(sigma.transpose()) : Eigen::MatrixXd();
    const LatentSamples a = transform(x.transpose(), s);
    const Factors fi = makeFactors(a.means.row(0).transpose(), a.covs[0], m_Smu, m_Sw);
    const Eigen::Index n = m_train.means.rows();
    PairEvaluator eval;
    Eigen::VectorXd out(n);
    for (Eigen::Index j = 0; j < n; ++j)
        out(j) = eval(fi, m_trainFactors->f[static_cast<std::size_t>(j)]);
    return out;
}

Eigen::VectorXd JointBayesian::pairSimilarities(const Eigen::MatrixXd& X, const Eigen::MatrixXd& sigma,
                                                const std::vector<std::pair<Eigen::Index, Eigen::Index>>& pairs,
                                                const ProgressCallback& progress) const
{
    requireFitted("pairSimilarities");
    const Eigen::Index n = X.rows();
    for (const auto& [a, b] : pairs)
        if (a < 0 || b < 0 || a >= n || b >= n)
            throw DataError("Joint Bayesian: pair (" + std::to_string(a) + ", " + std::to_string(b)
                            + ") is outside the " + std::to_string(n) + " rows");
    const ProgressReporter rep(progress, 0.0, 1.0, std::chrono::milliseconds(50));
    const LatentSamples lat = transform(X, sigma);
    std::vector<Factors> f(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        f[static_cast<std::size_t>(i)] = makeFactors(lat.means.row(i).transpose(), lat.covs[static_cast<std::size_t>(i)],
                                                     m_Smu, m_Sw);
        rep(0.2 * static_cast<double>(i + 1) / static_cast<double>(n), "projecting samples");
    }
    PairEvaluator eval;
    Eigen::VectorXd out(static_cast<Eigen::Index>(pairs.size()));
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        out(static_cast<Eigen::Index>(k)) =
            eval(f[static_cast<std::size_t>(pairs[k].first)], f[static_cast<std::size_t>(pairs[k].second)]);
        if ((k & 1023) == 0)
            rep(0.2 + 0.8 * static_cast<double>(k) / static_cast<double>(pairs.size()), "scoring pairs");
    }
    return out;
}

} // namespace olens
