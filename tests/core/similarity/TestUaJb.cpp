// UA-JB / JB (uncertainty-joint-bayesian.txt sec. 4), missing-data imputation (sec. 5.2.2), the
// noise protocol (sec. 5.1), the `classes` generator and verification pairs: E-step against brute-
// force Gaussian conditioning, LR against the explicit Gaussian log-ratio and Chen et al.'s closed
// form, monotone EM, zero uncertainty = JB, symmetry, imputation against the precision-matrix form.
#include "base/Stats.h"
#include "base/Errors.h"
#include "data/Generators.h"
#include "similarity/Imputation.h"
#include "similarity/JointBayesian.h"
#include "metrics/Metrics.h"
#include "data/NoiseProtocol.h"
#include "base/Rng.h"
#include "similarity/Verification.h"

#include <QtTest>

#include <cmath>
#include <set>
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

Eigen::MatrixXd randSpd(Eigen::Index d, Rng& rng, double ridge = 0.2)
{
    const Eigen::MatrixXd B = randn(d, d, rng);
    return B * B.transpose() / double(d) + ridge * Eigen::MatrixXd::Identity(d, d);
}

double logNormal(const Eigen::VectorXd& x, const Eigen::MatrixXd& C)
{
    const Eigen::LLT<Eigen::MatrixXd> llt(C);
    double logdet = 0;
    for (Eigen::Index k = 0; k < C.rows(); ++k)
        logdet += 2 * std::log(llt.matrixL()(k, k));
    return -0.5 * (x.size() * kLog2Pi + logdet + x.dot(llt.solve(x)));
}

/// Brute-force LR: log N([xi; xj]; 0, Σ_sim) − log N(xi; 0, A_i) − log N(xj; 0, A_j).
double bruteLr(const Eigen::VectorXd& xi, const Eigen::MatrixXd& Si, const Eigen::VectorXd& xj,
               const Eigen::MatrixXd& Sj, const Eigen::MatrixXd& Smu, const Eigen::MatrixXd& Sw)
{
    const Eigen::Index d = xi.size();
    Eigen::MatrixXd J(2 * d, 2 * d);
    J << Smu + Sw + Si, Smu, Smu, Smu + Sw + Sj;
    Eigen::VectorXd z(2 * d);
    z << xi, xj;
    return logNormal(z, J) - logNormal(xi, Smu + Sw + Si) - logNormal(xj, Smu + Sw + Sj);
}

/// Labelled classes with heteroscedastic uncertainty drawn by the sec. 5.1 protocol.
Dataset noisyClasses(int n, int k, int dim, double t, std::uint64_t seed)
{
    return generate("classes", n, seed,
                    {{"classes", std::to_string(k)}, {"dim", std::to_string(dim)}, {"t", std::to_string(t)},
                     {"std", "0.6"}, {"spread", "2"}});
}

} // namespace

class TestUaJb : public QObject {
    Q_OBJECT

private slots:
    void eStepMatchesGaussianConditioning_data()
    {
        QTest::addColumn<bool>("singularSmu");
        QTest::newRow("S_mu full rank") << false;
        QTest::newRow("S_mu rank 1") << true;
    }

    void eStepMatchesGaussianConditioning()
    {
        // Latent z = (μ_c, w_1..w_m) ~ N(0, blockdiag(S_μ, S_w, .., S_w)); x_i = μ_c + w_i + ε_i.
        // Build Cov(x), Cov(z, x) explicitly and condition: posterior mean and covariance of z.
        QFETCH(bool, singularSmu);
        Rng rng(7);
        const int d = 3, m = 3;
        Eigen::MatrixXd Smu = randSpd(d, rng);
        if (singularSmu) {
            const Eigen::VectorXd v = randn(d, 1, rng);
            Smu = v * v.transpose();
        }
        const Eigen::MatrixXd Sw = randSpd(d, rng);
        std::vector<Eigen::MatrixXd> S = {randSpd(d, rng, 0.05), Eigen::MatrixXd::Zero(d, d),
                                          Eigen::MatrixXd(Eigen::Vector3d(0.3, 2.0, 0.01).asDiagonal())};
        const Eigen::MatrixXd Xc = randn(m, d, rng);

        const int nz = d * (m + 1), nx = d * m;
        Eigen::MatrixXd Czz = Eigen::MatrixXd::Zero(nz, nz), Czx = Eigen::MatrixXd::Zero(nz, nx),
                        Cxx = Eigen::MatrixXd::Zero(nx, nx);
        Czz.block(0, 0, d, d) = Smu;
        for (int i = 0; i < m; ++i) {
            Czz.block(d * (i + 1), d * (i + 1), d, d) = Sw;
            Czx.block(0, d * i, d, d) = Smu;
            Czx.block(d * (i + 1), d * i, d, d) = Sw;
            for (int j = 0; j < m; ++j)
                Cxx.block(d * i, d * j, d, d) = Smu + (i == j ? Eigen::MatrixXd(Sw + S[i]) : Eigen::MatrixXd::Zero(d, d));
        }
        Eigen::VectorXd x(nx);
        for (int i = 0; i < m; ++i)
            x.segment(d * i, d) = Xc.row(i).transpose();
        const Eigen::VectorXd zMean = Czx * Cxx.ldlt().solve(x);
        const Eigen::MatrixXd zCov = Czz - Czx * Cxx.ldlt().solve(Czx.transpose());

        const JbClassPosterior post = jbClassPosterior(Xc, S, Smu, Sw);
        QVERIFY((post.bMu - zMean.head(d)).norm() < 1e-10);
        QVERIFY((post.TMu - zCov.block(0, 0, d, d)).norm() < 1e-10);
        for (int i = 0; i < m; ++i) {
            QVERIFY2((post.bW[i] - zMean.segment(d * (i + 1), d)).norm() < 1e-10, qPrintable(QString::number(i)));
            QVERIFY((post.TW[i] - zCov.block(d * (i + 1), d * (i + 1), d, d)).norm() < 1e-10);
        }
        // The class log-likelihood is log N(vec X_c; 0, Cov(x)).
        QVERIFY(std::abs(post.logLikelihood - logNormal(x, Cxx)) < 1e-10 * std::abs(post.logLikelihood));
    }

    void lrIsTheExactLogLikelihoodRatio()
    {
        Rng rng(3);
        const int d = 4;
        const Eigen::MatrixXd Smu = randSpd(d, rng), Sw = randSpd(d, rng);
        for (int trial = 0; trial < 5; ++trial) {
            const Eigen::VectorXd xi = randn(d, 1, rng), xj = randn(d, 1, rng);
            const Eigen::MatrixXd Si = randSpd(d, rng, 0.01), Sj = trial == 0 ? Eigen::MatrixXd::Zero(d, d) : randSpd(d, rng, 0.01);
            const double lr = jbLogLikelihoodRatio(xi, Si, xj, Sj, Smu, Sw);
            const double brute = bruteLr(xi, Si, xj, Sj, Smu, Sw);
            QVERIFY2(std::abs(lr - brute) < 1e-10 * (1 + std::abs(brute)),
                     qPrintable(QString("%1 vs %2").arg(lr, 0, 'g', 17).arg(brute, 0, 'g', 17)));
            // P(x_i, x_j) is symmetric in the two samples (with their own uncertainties).
            QVERIFY(std::abs(jbLogLikelihoodRatio(xj, Sj, xi, Si, Smu, Sw) - lr) < 1e-10 * (1 + std::abs(lr)));
        }
    }

    void lrSymmetricWhenUncertaintiesEqual()
    {
        const Dataset d = noisyClasses(150, 5, 3, 1.0, 12);
        JointBayesian jb;
        jb.fit(d.X, d.labels, d.sigma);
        const LatentSamples& L = jb.trainingLatent();
        Rng rng(2);
        for (int k = 0; k < 20; ++k) {
            const auto i = static_cast<Eigen::Index>(rng.index(150)), j = static_cast<Eigen::Index>(rng.index(150));
            const Eigen::MatrixXd& S = L.covs[i];
            const double a = jb.similarity(L.means.row(i).transpose(), S, L.means.row(j).transpose(), S);
            const double b = jb.similarity(L.means.row(j).transpose(), S, L.means.row(i).transpose(), S);
            QVERIFY2(std::abs(a - b) < 1e-10 * (1 + std::abs(a)), qPrintable(QString("%1 vs %2").arg(a).arg(b)));
        }
    }

    void jbMatchesChenClosedForm()
    {
        // With S_i = S_j = 0 the LR is Chen et al.'s r(x1, x2) = ½(x1ᵀAx1 + x2ᵀAx2 − 2x1ᵀGx2) plus
        // a constant, A = (S_μ+S_w)⁻¹ − (F+G), F = S_w⁻¹, G = −(2S_μ+S_w)⁻¹ S_μ S_w⁻¹.
        Rng rng(5);
        const int d = 3;
        const Eigen::MatrixXd Smu = randSpd(d, rng), Sw = randSpd(d, rng);
        const Eigen::MatrixXd F = Sw.inverse();
        const Eigen::MatrixXd G = -(2 * Smu + Sw).inverse() * Smu * F;
        const Eigen::MatrixXd A = (Smu + Sw).inverse() - (F + G);
        Eigen::MatrixXd SI(2 * d, 2 * d);
        SI << Smu + Sw, Smu, Smu, Smu + Sw;
        const double cst = 0.5 * (2 * std::log((Smu + Sw).determinant()) - std::log(SI.determinant()));
        const Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(d, d);
        for (int k = 0; k < 10; ++k) {
            const Eigen::VectorXd x1 = randn(d, 1, rng), x2 = randn(d, 1, rng);
            const double chen = 0.5 * (x1.dot(A * x1) + x2.dot(A * x2) - 2 * x1.dot(G * x2)) + cst;
            QVERIFY(std::abs(jbLogLikelihoodRatio(x1, Z, x2, Z, Smu, Sw) - chen) < 1e-10 * (1 + std::abs(chen)));
        }
    }

    void emLogLikelihoodNeverDecreases_data()
    {
        QTest::addColumn<bool>("uncertainty");
        QTest::addColumn<int>("dim");
        QTest::newRow("UA-JB, no reduction") << true << 0;
        QTest::newRow("JB, no reduction") << false << 0;
        QTest::newRow("UA-JB after UA-PPCA") << true << 3;
    }

    void emLogLikelihoodNeverDecreases()
    {
        QFETCH(bool, uncertainty);
        QFETCH(int, dim);
        const Dataset d = noisyClasses(240, 8, 5, 1.5, 31);
        JointBayesianParams p;
        p.method = uncertainty ? JointBayesianParams::Method::UaJb : JointBayesianParams::Method::Jb;
        p.dim = dim;
        p.maxIter = 40;
        p.tol = 0;
        JointBayesian jb(p);
        jb.fit(d.X, d.labels, d.sigma);
        const auto& h = jb.logLikelihoodHistory();
        QCOMPARE(int(h.size()), 41);
        for (std::size_t k = 1; k < h.size(); ++k)
            QVERIFY2(h[k] >= h[k - 1] - 1e-10 * std::abs(h[k - 1]),
                     qPrintable(QString("iteration %1: %2 < %3").arg(k).arg(h[k], 0, 'g', 17).arg(h[k - 1], 0, 'g', 17)));
        QVERIFY(h.back() > h.front());
        if (dim > 0) {
            QCOMPARE(jb.latentDim(), dim);
            QVERIFY(jb.reduction() == JointBayesianParams::Reduction::UaPpca);
            QVERIFY(jb.projection() == LatentProjection::Probabilistic);
        } else {
            QVERIFY(jb.reduction() == JointBayesianParams::Reduction::None);
        }
    }

    void zeroUncertaintyEqualsJb()
    {
        const Dataset d = noisyClasses(200, 6, 4, 1.0, 17);
        JointBayesianParams pj;
        pj.method = JointBayesianParams::Method::Jb;
        JointBayesian jb(pj);
        jb.fit(d.X, d.labels, d.sigma); // σ ignored
        for (double s : {0.0, 1e-7}) {
            JointBayesian ua; // UA-JB, no reduction for 4 features
            ua.fit(d.X, d.labels, Eigen::MatrixXd::Constant(d.rows(), d.cols(), s));
            QVERIFY((ua.Smu() - jb.Smu()).norm() <= 1e-10 * jb.Smu().norm());
            QVERIFY((ua.Sw() - jb.Sw()).norm() <= 1e-10 * jb.Sw().norm());
            QCOMPARE(ua.iterations(), jb.iterations());
            for (Eigen::Index i : {0, 5, 77}) {
                const Eigen::VectorXd a = ua.similarityToAll(i), b = jb.similarityToAll(i);
                QVERIFY2((a - b).cwiseAbs().maxCoeff() <= 1e-10 * (1 + b.cwiseAbs().maxCoeff()),
                         qPrintable(QString::number((a - b).cwiseAbs().maxCoeff())));
            }
        }
        // Same with a PCA reduction and linear projection (the Table 3 "PCA / linear" pipeline).
        const Dataset e = noisyClasses(200, 6, 6, 1.0, 19);
        pj.dim = 3;
        JointBayesian jb3(pj);
        jb3.fit(e.X, e.labels, e.sigma);
        JointBayesianParams pu;
        pu.dim = 3;
        pu.reduction = JointBayesianParams::Reduction::Pca;
        pu.projection = LatentProjection::Linear;
        JointBayesian ua3(pu);
        ua3.fit(e.X, e.labels, Eigen::MatrixXd::Zero(e.rows(), e.cols()));
        QVERIFY((ua3.Sw() - jb3.Sw()).norm() <= 1e-10 * jb3.Sw().norm());
        const Eigen::VectorXd a = ua3.similarityToAll(3), b = jb3.similarityToAll(3);
        QVERIFY((a - b).cwiseAbs().maxCoeff() <= 1e-10 * (1 + b.cwiseAbs().maxCoeff()));
    }

    void similarityPathsAgree()
    {
        const Dataset d = noisyClasses(90, 3, 2, 0.8, 23);
        JointBayesian jb;
        jb.fit(d.X, d.labels, d.sigma);
        const LatentSamples& L = jb.trainingLatent();
        const Eigen::VectorXd all = jb.similarityToAll(4);
        const Eigen::VectorXd fromRaw = jb.similarityToAll(Eigen::VectorXd(d.X.row(4).transpose()),
                                                           Eigen::VectorXd(d.sigma.row(4).transpose()));
        QVERIFY((all - fromRaw).norm() < 1e-10 * (1 + all.norm()));
        IndexPairs pairs;
        for (Eigen::Index j = 0; j < 90; ++j)
            pairs.emplace_back(4, j);
        const Eigen::VectorXd batch = jb.pairSimilarities(d.X, d.sigma, pairs);
        QVERIFY((all - batch).norm() < 1e-10 * (1 + all.norm()));
        const double one = jb.similarity(L.means.row(4).transpose(), L.covs[4], L.means.row(9).transpose(), L.covs[9]);
        QVERIFY(std::abs(one - all(9)) < 1e-10 * (1 + std::abs(one)));
        QVERIFY(std::abs(jb.similarityFeatures(d.X.row(4).transpose(), d.sigma.row(4).transpose(),
                                               d.X.row(9).transpose(), d.sigma.row(9).transpose()) - one) < 1e-10 * (1 + std::abs(one)));
        // Same-class pairs are on average more similar than different-class pairs.
        double same = 0, diff = 0;
        int ns = 0, nd = 0;
        for (Eigen::Index j = 0; j < 90; ++j) {
            if (j == 4) continue;
            if (d.labels(j) == d.labels(4)) { same += all(j); ++ns; } else { diff += all(j); ++nd; }
        }
        QVERIFY(same / ns > diff / nd);
    }

    void uncertaintyHelpsOnNoisyData()
    {
        // Heavy heteroscedastic noise (t = 3 on classes of std 0.6): UA-JB must verify better.
        const Dataset train = noisyClasses(400, 10, 4, 3.0, 41), test = noisyClasses(300, 10, 4, 3.0, 42);
        VerificationOptions vo;
        const VerificationResult ua = runVerification(train, test, vo);
        vo.model.method = JointBayesianParams::Method::Jb;
        const VerificationResult jb = runVerification(train, test, vo);
        QVERIFY2(ua.eer < jb.eer - 0.01, qPrintable(QString("UA-JB %1, JB %2").arg(ua.eer).arg(jb.eer)));
        QCOMPARE(ua.pairs.size(), std::size_t(300 * 299 / 2));
    }

    void errorsAndCancellation()
    {
        JointBayesian jb;
        QVERIFY_THROWS_EXCEPTION(NotFittedError, jb.similarityToAll(0));
        QVERIFY_THROWS_EXCEPTION(NotFittedError, jb.Smu());
        const Dataset d = noisyClasses(60, 3, 2, 0.5, 1);
        QVERIFY_THROWS_EXCEPTION(DataError, jb.fit(d.X, Eigen::VectorXd::Zero(60), d.sigma)); // one class
        QVERIFY_THROWS_EXCEPTION(DataError, jb.fit(d.X, Eigen::VectorXd::LinSpaced(60, 0, 59), d.sigma)); // singletons
        QVERIFY_THROWS_EXCEPTION(DataError, jb.fit(d.X, d.labels.head(10), d.sigma));
        QVERIFY_THROWS_EXCEPTION(Cancelled, jb.fit(d.X, d.labels, d.sigma, [](const ProgressInfo&) { return true; }));
        QVERIFY(!jb.isFitted());
        jb.fit(d.X, d.labels, d.sigma);
        QVERIFY_THROWS_EXCEPTION(DataError, jb.similarityToAll(60));
        QVERIFY_THROWS_EXCEPTION(DataError, jb.transform(Eigen::MatrixXd::Zero(1, 3)));
    }

    void imputationMatchesClosedForm()
    {
        // Conditional of N(μ, C) through the precision matrix Λ = C⁻¹ (an independent form):
        // cov(o|v) = Λ_oo⁻¹, mean = μ_o − Λ_oo⁻¹ Λ_ov (a − μ_v).
        Rng rng(9);
        const int p = 5, n = 400;
        const Eigen::MatrixXd L = randn(p, p, rng);
        const Eigen::MatrixXd X = randn(n, p, rng) * L.transpose() + Eigen::MatrixXd::Ones(n, p);
        GaussianImputer imp(0.0);
        imp.fit(X);
        const Eigen::MatrixXd C = imp.covariance();
        const Eigen::MatrixXd Lam = C.inverse();
        Eigen::MatrixXd Y = randn(3, p, rng);
        MissingMask mask = MissingMask::Constant(3, p, false);
        mask(0, 1) = mask(0, 3) = true;                  // two missing
        mask(1, 0) = true;                               // one missing
        mask.row(2).setConstant(true);                   // all missing: the prior
        const Eigen::MatrixXd sig = Eigen::MatrixXd::Constant(3, p, 0.25);
        const ImputationResult r = imp.impute(Y, mask, sig);
        QCOMPARE(r.cells, Eigen::Index(8));
        QCOMPARE(r.rows, Eigen::Index(3));
        for (int i = 0; i < 2; ++i) {
            std::vector<int> o, v;
            for (int j = 0; j < p; ++j)
                (mask(i, j) ? o : v).push_back(j);
            Eigen::MatrixXd Loo(o.size(), o.size()), Lov(o.size(), v.size());
            for (std::size_t a = 0; a < o.size(); ++a) {
                for (std::size_t b = 0; b < o.size(); ++b) Loo(a, b) = Lam(o[a], o[b]);
                for (std::size_t b = 0; b < v.size(); ++b) Lov(a, b) = Lam(o[a], v[b]);
            }
            Eigen::VectorXd dv(v.size()), muO(o.size());
            for (std::size_t b = 0; b < v.size(); ++b) dv(b) = Y(i, v[b]) - imp.mean()(v[b]);
            for (std::size_t a = 0; a < o.size(); ++a) muO(a) = imp.mean()(o[a]);
            const Eigen::MatrixXd cov = Loo.inverse();
            const Eigen::VectorXd mean = muO - cov * Lov * dv;
            for (std::size_t a = 0; a < o.size(); ++a) {
                QVERIFY(std::abs(r.X(i, o[a]) - mean(a)) < 1e-10);
                QVERIFY(std::abs(r.sigma(i, o[a]) - std::sqrt(cov(a, a))) < 1e-10);
            }
            for (int j : v) {
                QCOMPARE(r.X(i, j), Y(i, j));
                QCOMPARE(r.sigma(i, j), 0.25);
            }
        }
        for (int j = 0; j < p; ++j) {
            QVERIFY(std::abs(r.X(2, j) - imp.mean()(j)) < 1e-12);
            QVERIFY(std::abs(r.sigma(2, j) - std::sqrt(C(j, j))) < 1e-12);
        }
        // NaN cells are the default mask; complete rows only are used for fitting.
        Eigen::MatrixXd Z = Y;
        Z(0, 1) = Z(0, 3) = std::numeric_limits<double>::quiet_NaN();
        const ImputationResult q = imp.impute(Z);
        QVERIFY(std::abs(q.X(0, 1) - r.X(0, 1)) < 1e-12);
        QCOMPARE(q.cells, Eigen::Index(2));
        Eigen::MatrixXd T = X;
        T(0, 0) = std::numeric_limits<double>::quiet_NaN();
        GaussianImputer imp2(0.0);
        imp2.fit(T);
        QVERIFY((imp2.mean() - X.bottomRows(n - 1).colwise().mean().transpose()).norm() < 1e-12);
        QVERIFY_THROWS_EXCEPTION(DataError, GaussianImputer().fit(Eigen::MatrixXd::Constant(3, 2, std::nan(""))));
    }

    void noiseProtocol()
    {
        Rng rng(4);
        const Eigen::MatrixXd X0 = randn(400, 50, rng);
        Eigen::MatrixXd X = X0, sigma;
        Rng r1(77);
        applyNoiseProtocol(X, sigma, 2.0, r1);
        QCOMPARE(sigma.rows(), X.rows());
        QVERIFY(sigma.minCoeff() >= 0 && sigma.maxCoeff() < 2.0);
        QVERIFY(std::abs(sigma.mean() - 1.0) < 0.02); // U[0, 2]
        // Standardised noise is N(0, 1).
        const Eigen::ArrayXXd z = (X - X0).array() / sigma.array();
        QVERIFY(std::abs(z.mean()) < 0.02);
        QVERIFY(std::abs((z - z.mean()).square().mean() - 1.0) < 0.03);
        // Seeded; t = 0 leaves the data alone; existing σ combine in quadrature.
        Eigen::MatrixXd X2 = X0, s2;
        Rng r2(77);
        applyNoiseProtocol(X2, s2, 2.0, r2);
        QVERIFY(X2 == X && s2 == sigma);
        Eigen::MatrixXd X3 = X0, s3 = Eigen::MatrixXd::Constant(400, 50, 3.0);
        Rng r3(1);
        applyNoiseProtocol(X3, s3, 0.0, r3);
        QVERIFY(X3 == X0 && s3 == Eigen::MatrixXd::Constant(400, 50, 3.0));
        Eigen::MatrixXd X4 = X0, s4 = Eigen::MatrixXd::Constant(400, 50, 3.0);
        Rng r4(77);
        applyNoiseProtocol(X4, s4, 2.0, r4);
        QVERIFY((s4.array().square() - (sigma.array().square() + 9.0)).abs().maxCoeff() < 1e-12);
        Rng r5(1);
        QVERIFY_THROWS_EXCEPTION(ParamError, applyNoiseProtocol(X4, s4, -1.0, r5));
    }

    void classesGenerator()
    {
        const Dataset d = generate("classes", 50, 3, {{"classes", "4"}, {"dim", "3"}, {"t", "0.7"}});
        QCOMPARE(d.cols(), Eigen::Index(3));
        QVERIFY(d.hasSigma());
        QCOMPARE(d.sigma.rows(), Eigen::Index(50));
        QVERIFY(d.sigma.minCoeff() >= 0 && d.sigma.maxCoeff() < 0.7);
        for (Eigen::Index i = 0; i < 50; ++i)
            QCOMPARE(d.labels(i), double(i % 4));
        const Dataset e = generate("classes", 50, 3, {{"classes", "4"}, {"dim", "3"}, {"t", "0.7"}});
        QVERIFY(d.X == e.X && d.sigma == e.sigma);
        // Without noise (t = 0) each class is an isotropic Gaussian around its centre; σ = 0.
        const Dataset f = generate("classes", 40, 5, {{"t", "0"}, {"std", "0"}});
        QVERIFY(f.sigma.isZero(0));
        for (Eigen::Index i = 3; i < 40; ++i)
            QVERIFY(f.X.row(i) == f.X.row(i % 3));
        // Background points are singleton classes after the real ones.
        const Dataset g = generate("classes", 20, 5, {{"outliers", "0.2"}});
        std::set<double> bg;
        for (Eigen::Index i = 16; i < 20; ++i)
            bg.insert(g.labels(i));
        QCOMPARE(bg, (std::set<double>{3, 4, 5, 6}));
    }

    void verificationPairsAndEer()
    {
        IndexPairs all = verificationPairs(5, 100, 1);
        QCOMPARE(all.size(), std::size_t(10));
        QCOMPARE(all.front(), (std::pair<Eigen::Index, Eigen::Index>(0, 1)));
        QCOMPARE(all.back(), (std::pair<Eigen::Index, Eigen::Index>(3, 4)));
        const IndexPairs s = verificationPairs(100, 500, 9);
        QCOMPARE(s.size(), std::size_t(500));
        std::set<std::pair<Eigen::Index, Eigen::Index>> uniq(s.begin(), s.end());
        QCOMPARE(uniq.size(), std::size_t(500));
        for (const auto& [i, j] : s)
            QVERIFY(0 <= i && i < j && j < 100);
        QVERIFY(s == verificationPairs(100, 500, 9));
        QVERIFY(s != verificationPairs(100, 500, 10));
        // Hand-computed EER: genuine scores {4, 2}, impostor {3, 1}: at threshold 3 FPR = FNR = 1/2;
        // genuine {4, 3.5}: separable, EER 0. FNR at FPR 0.1 %: accept only the score 4, FNR 1/2.
        Eigen::VectorXi gen(4);
        gen << 1, 1, 0, 0;
        QCOMPARE(equalErrorRate(Eigen::Vector4d(4, 2, 3, 1), gen), 0.5);
        QCOMPARE(equalErrorRate(Eigen::Vector4d(4, 3.5, 3, 1), gen), 0.0);
        QCOMPARE(fnrAtFpr(Eigen::Vector4d(4, 2, 3, 1), gen, 0.001), 0.5);
    }
};

QTEST_APPLESS_MAIN(TestUaJb)
#include "TestUaJb.moc"
