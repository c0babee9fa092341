// UA-PPCA (uncertainty-joint-bayesian.txt sec. 3): E-step against brute-force Gaussian conditioning,
// the closed-form M-step (eq. 8–11) against the stationarity conditions eq. 6–7, monotone EM,
// the PPCA special case (Tipping & Bishop's closed form), projections and errors.
#include "base/Stats.h"
#include "base/Errors.h"
#include "linalg/Pca.h"
#include "base/Rng.h"
#include "similarity/UaPpca.h"

#include <QtTest>

#include <cmath>
#include <Eigen/Dense>

using namespace olens;

namespace {


Eigen::MatrixXd randn(Eigen::Index r, Eigen::Index c, Rng& rng)
{
    Eigen::MatrixXd M(r, c);
    for (Eigen::Index i = 0; i < r; ++i)
        for (Eigen::Index j = 0; j < c; ++j)
            M(i, j) = rng.normal();
    return M;
}

double logNormal(const Eigen::VectorXd& x, const Eigen::MatrixXd& C)
{
    const Eigen::LLT<Eigen::MatrixXd> llt(C);
    double logdet = 0;
    for (Eigen::Index k = 0; k < C.rows(); ++k)
        logdet += 2 * std::log(llt.matrixL()(k, k));
    return -0.5 * (x.size() * kLog2Pi + logdet + x.dot(llt.solve(x)));
}

/// Data from the UA-PPCA model itself: x̃ = μ + W x + ε̃ with heteroscedastic per-cell σ.
struct Sample {
    Eigen::MatrixXd X, sigma;
};
Sample modelData(Eigen::Index n, Eigen::Index D, Eigen::Index m, std::uint64_t seed)
{
    Rng rng(seed);
    const Eigen::MatrixXd W = 2.0 * randn(D, m, rng);
    const Eigen::VectorXd mu = randn(D, 1, rng);
    Sample s;
    s.X.resize(n, D);
    s.sigma.resize(n, D);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::VectorXd z = randn(m, 1, rng);
        for (Eigen::Index j = 0; j < D; ++j) {
            s.sigma(i, j) = rng.uniform(0.05, 1.5);
            s.X(i, j) = mu(j) + W.row(j).dot(z) + s.sigma(i, j) * rng.normal();
        }
    }
    return s;
}

} // namespace

class TestUaPpca : public QObject {
    Q_OBJECT

private slots:
    void eStepMatchesGaussianConditioning()
    {
        // Joint (x, x̃) is Gaussian with Cov(x̃) = WWᵀ + S̃, Cov(x, x̃) = Wᵀ: condition explicitly.
        Rng rng(11);
        const int D = 5, m = 2, n = 4;
        const Eigen::MatrixXd W = randn(D, m, rng);
        const Eigen::VectorXd mu = randn(D, 1, rng);
        const Eigen::MatrixXd X = randn(n, D, rng);
        Eigen::MatrixXd V(n, D);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < D; ++j)
                V(i, j) = rng.uniform(0.1, 2.0);
        LatentSamples post;
        const double ll = UaPpca::eStep(X, V, mu, W, post);
        double llBrute = 0;
        for (int i = 0; i < n; ++i) {
            const Eigen::MatrixXd C = W * W.transpose() + Eigen::MatrixXd(V.row(i).asDiagonal());
            const Eigen::VectorXd r = X.row(i).transpose() - mu;
            const Eigen::VectorXd meanBrute = W.transpose() * C.ldlt().solve(r);
            const Eigen::MatrixXd covBrute = Eigen::MatrixXd::Identity(m, m) - W.transpose() * C.ldlt().solve(W);
            QVERIFY((post.means.row(i).transpose() - meanBrute).norm() < 1e-12);
            QVERIFY((post.covs[i] - covBrute).norm() < 1e-12);
            llBrute += logNormal(r, C);
        }
        QVERIFY(std::abs(ll - llBrute) < 1e-10 * std::abs(llBrute));
    }

    void mStepSolvesStationarityConditions()
    {
        // eq. 8–11 must zero the gradients eq. 6 (μ) and eq. 7 (W) for the given posteriors.
        const Sample s = modelData(60, 6, 2, 3);
        Rng rng(5);
        const Eigen::MatrixXd W0 = randn(6, 2, rng);
        const Eigen::VectorXd mu0 = randn(6, 1, rng);
        const Eigen::MatrixXd V = s.sigma.cwiseAbs2();
        LatentSamples post;
        UaPpca::eStep(s.X, V, mu0, W0, post);
        Eigen::VectorXd mu;
        Eigen::MatrixXd W;
        UaPpca::mStep(s.X, V, post, mu, W);
        Eigen::VectorXd gMu = Eigen::VectorXd::Zero(6);
        Eigen::MatrixXd gW = Eigen::MatrixXd::Zero(6, 2);
        double scale = 0;
        for (Eigen::Index i = 0; i < s.X.rows(); ++i) {
            const Eigen::VectorXd w = V.row(i).transpose().cwiseInverse();
            const Eigen::VectorXd mx = post.means.row(i).transpose();
            const Eigen::VectorXd r = s.X.row(i).transpose() - mu;
            gMu += w.asDiagonal() * (r - W * mx);                                                      // eq. 6
            gW += w.asDiagonal() * (r * mx.transpose() - W * (post.covs[i] + mx * mx.transpose()));  // eq. 7
            scale += w.sum() * (1 + r.norm());
        }
        QVERIFY2(gMu.norm() < 1e-10 * scale, qPrintable(QString::number(gMu.norm())));
        QVERIFY2(gW.norm() < 1e-10 * scale, qPrintable(QString::number(gW.norm())));
    }

    void emLogLikelihoodNeverDecreases()
    {
        const Sample s = modelData(300, 10, 3, 21);
        UaPpcaParams p;
        p.dim = 3;
        p.maxIter = 60;
        p.tol = 0; // run all iterations
        UaPpca model(p);
        model.fit(s.X, s.sigma);
        const auto& h = model.logLikelihoodHistory();
        QCOMPARE(int(h.size()), 61);
        QCOMPARE(model.iterations(), 60);
        for (std::size_t k = 1; k < h.size(); ++k)
            QVERIFY2(h[k] >= h[k - 1] - 1e-9 * std::abs(h[k - 1]),
                     qPrintable(QString("iteration %1: %2 < %3").arg(k).arg(h[k], 0, 'g', 17).arg(h[k - 1], 0, 'g', 17)));
        QVERIFY(h.back() > h.front());
        // The recorded value is the likelihood of the returned parameters.
        QVERIFY(std::abs(model.logLikelihood(s.X, s.sigma) - h.back()) < 1e-9 * std::abs(h.back()));

        // Also from a poor start (few iterations of an ill-fitting dimension) and with zero σ cells.
        Sample t = s;
        for (Eigen::Index i = 0; i < t.X.rows(); i += 3)
            t.sigma.row(i).setZero();
        p.dim = 1;
        p.maxIter = 30;
        UaPpca m1(p);
        m1.fit(t.X, t.sigma);
        const auto& h1 = m1.logLikelihoodHistory();
        for (std::size_t k = 1; k < h1.size(); ++k)
            QVERIFY(h1[k] >= h1[k - 1] - 1e-9 * std::abs(h1[k - 1]));
    }

    void homoscedasticCaseIsPpca()
    {
        // With S̃ = r·I for every sample the model is PPCA with fixed noise r; its ML solution is
        // W = U_m (Λ_m − r I)^{1/2} R (Tipping & Bishop 1999): span(W) = top-m principal subspace,
        // eigenvalues of WᵀW = λ_k − r, μ = sample mean.
        Rng rng(8);
        const int n = 400, D = 5, m = 2;
        Eigen::MatrixXd X = randn(n, D, rng) * Eigen::VectorXd((Eigen::VectorXd(D) << 3, 2, 1, 0.6, 0.5).finished()).asDiagonal();
        X = X * Eigen::HouseholderQR<Eigen::MatrixXd>(randn(D, D, rng)).householderQ();
        UaPpcaParams p;
        p.dim = m;
        p.residualVariance = 0.2;
        p.maxIter = 5000;
        p.tol = 0; // run all iterations: EM converges linearly
        UaPpca model(p);
        model.fit(X);
        QCOMPARE(model.residualVariance(), 0.2);
        const PcaResult pc = pca(X);
        QVERIFY((model.mean() - pc.mean).norm() < 1e-8);
        const Eigen::MatrixXd& W = model.loadings();
        const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(W.transpose() * W).eigenvalues();
        QVERIFY2(std::abs(ev(1) - (pc.variances(0) - 0.2)) < 1e-6 * pc.variances(0),
                 qPrintable(QString("%1 vs %2").arg(ev(1), 0, 'g', 15).arg(pc.variances(0) - 0.2, 0, 'g', 15)));
        QVERIFY(std::abs(ev(0) - (pc.variances(1) - 0.2)) < 1e-6 * pc.variances(0));
        // Subspace: the projection of W onto the discarded directions vanishes.
        QVERIFY((pc.components.rightCols(D - m).transpose() * W).norm() < 1e-5 * W.norm());
    }

    void pcaTrainingAndProjections()
    {
        const Sample s = modelData(200, 6, 2, 4);
        UaPpcaParams p;
        p.dim = 2;
        p.training = UaPpcaParams::Training::Pca;
        UaPpca model(p);
        model.fit(s.X, s.sigma);
        QCOMPARE(int(model.logLikelihoodHistory().size()), 1);
        QCOMPARE(model.iterations(), 0);
        const PcaResult pc = pca(s.X);
        const Eigen::MatrixXd Wexp = pc.components.leftCols(2) * pc.variances.head(2).cwiseSqrt().asDiagonal();
        QVERIFY((model.loadings() - Wexp).norm() < 1e-12 * Wexp.norm());

        // Linear projection recovers the coordinates of a point in μ + span(W), and carries σ linearly.
        const Eigen::Vector2d z(0.7, -1.3);
        const Eigen::RowVectorXd x = (model.mean() + model.loadings() * z).transpose();
        Eigen::MatrixXd sig = Eigen::MatrixXd::Constant(1, 6, 0.5);
        const LatentSamples lin = model.project(x, sig, LatentProjection::Linear);
        QVERIFY((lin.means.row(0).transpose() - z).norm() < 1e-10);
        const Eigen::MatrixXd P = (model.loadings().transpose() * model.loadings()).inverse() * model.loadings().transpose();
        QVERIFY((lin.covs[0] - 0.25 * P * P.transpose()).norm() < 1e-12);
        // Without σ the linear projection has zero uncertainty.
        QVERIFY(model.project(x, {}, LatentProjection::Linear).covs[0].isZero(0));

        // Probabilistic projection: a huge σ on every feature gives back the prior N(0, I).
        sig.setConstant(1e6);
        const LatentSamples prob = model.project(x, sig, LatentProjection::Probabilistic);
        QVERIFY(prob.means.row(0).norm() < 1e-6);
        QVERIFY((prob.covs[0] - Eigen::MatrixXd::Identity(2, 2)).norm() < 1e-6);
        // A very uncertain feature has almost no influence on the projection (eq. 3–4 weighting).
        Eigen::MatrixXd x2 = x, sig2 = Eigen::MatrixXd::Constant(1, 6, 0.1);
        sig2(0, 3) = 1e5;
        x2(0, 3) += 50.0;
        const LatentSamples a = model.project(x, sig2), b = model.project(x2, sig2);
        QVERIFY((a.means - b.means).norm() < 1e-6);
    }

    void errorsAndUnfittedUse()
    {
        UaPpca model;
        QVERIFY_THROWS_EXCEPTION(NotFittedError, model.loadings());
        QVERIFY_THROWS_EXCEPTION(NotFittedError, model.project(Eigen::MatrixXd::Zero(1, 3)));
        const Sample s = modelData(50, 4, 1, 2);
        UaPpcaParams p;
        p.dim = 5;
        QVERIFY_THROWS_EXCEPTION(ParamError, UaPpca(p).fit(s.X));
        p.dim = 2;
        QVERIFY_THROWS_EXCEPTION(DataError, UaPpca(p).fit(s.X, Eigen::MatrixXd::Ones(3, 4)));
        Eigen::MatrixXd neg = s.sigma;
        neg(3, 1) = -1;
        QVERIFY_THROWS_EXCEPTION(DataError, UaPpca(p).fit(s.X, neg));
        Eigen::MatrixXd nan = s.X;
        nan(0, 0) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(DataError, UaPpca(p).fit(nan));
        // Cancellation leaves the model unfitted.
        UaPpca c(p);
        QVERIFY_THROWS_EXCEPTION(Cancelled, c.fit(s.X, s.sigma, [](const ProgressInfo&) { return true; }));
        QVERIFY(!c.isFitted());
        UaPpca ok(p);
        int calls = 0;
        ok.fit(s.X, s.sigma, [&](const ProgressInfo& info) {
            ++calls;
            return !(info.loss && std::isfinite(*info.loss));
        });
        QVERIFY(calls > 0);
        QVERIFY_THROWS_EXCEPTION(DataError, ok.project(Eigen::MatrixXd::Zero(1, 3)));
    }
};

QTEST_APPLESS_MAIN(TestUaPpca)
#include "TestUaPpca.moc"
