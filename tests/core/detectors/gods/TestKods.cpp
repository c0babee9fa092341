// kods (GODS paper sec. 4.4, eq. 18–23, Theorem 1–2): Euclidean gradients of eq. 18 against central
// finite differences for every kernel, Riemannian gradient tangent to the generalized Stiefel
// manifold and consistent with the retraction, fitted duals on the manifold, the ring of fig. 1d
// (empty centre rejected), a linear-kernel blob, eq. 21–22 (training points in-class), frame scores,
// JSON round trip, chunked scoring, errors.
#include "Numeric.h"
#include "RandomData.h"
#include "base/Errors.h"
#include "data/Generators.h"
#include "detectors/gods/KodsDetector.h"
#include "registry/Registry.h"
#include "optim/Riemannian.h"
#include "base/Rng.h"

#include "PaperSettings.h"

#include <nlohmann/json.hpp>
#include <QtTest>
#include <Eigen/Dense>

using namespace olens;
using olens::test::gaussianMatrix;

namespace {
using test::maxAbs;

KodsKernel makeKernel(const std::string& name, double sigma = 0.7, int degree = 3)
{
    KodsKernel k;
    k.kind = KodsKernel::parse(name);
    k.sigma = sigma;
    k.degree = degree;
    return k;
}
} // namespace

class TestKods : public QObject {
    Q_OBJECT

private slots:
    void largeDataFitsOnASeededSubsetAndScoresEveryRow()
    {
        // n = 2300 > 2000: fit_rows auto fits the duals on 2000 seeded rows; by eq. 21–22 each of
        // those is inside (s ≤ 0), and every row's training score is its score under the model.
        Rng rng(71);
        const Eigen::MatrixXd X = gaussianMatrix(2300, 2, rng);
        auto a = Registry::instance().create("kods", {{"max_iter", "8"}});
        auto b = Registry::instance().create("kods", {{"max_iter", "8"}});
        a->fit(X);
        b->fit(X);
        QCOMPARE(QString::fromStdString(a->params().resolvedText("fit_rows")), QString("2000"));
        const Eigen::VectorXd s = a->trainingScores();
        QCOMPARE(s.size(), Eigen::Index(2300));
        QCOMPARE(s, b->trainingScores());
        QVERIFY((s.array() <= 0.0).count() >= 2000);
        QVERIFY((s.array() > 0.0).count() > 0); // rows outside the subset may lie outside the frames
        QVERIFY((a->score(X) - s).cwiseAbs().maxCoeff() <= 1e-12 * (1.0 + s.cwiseAbs().maxCoeff()));
        auto c = Registry::instance().create("kods", {{"max_iter", "8"}, {"seed", "1"}});
        c->fit(X);
        QVERIFY(c->trainingScores() != s);
    }

    void kernelsMatchTheirFormulas()
    {
        // Hand-computed values for a = (1, 2), b = (3, 0.5).
        Eigen::MatrixXd a(1, 2), b(1, 2);
        a << 1.0, 2.0;
        b << 3.0, 0.5;
        const double dot = 4.0, d2 = 4.0 + 2.25;
        QVERIFY(std::abs(makeKernel("linear").cross(a, b)(0, 0) - dot) < 1e-15);
        QVERIFY(std::abs(makeKernel("poly", 1, 3).cross(a, b)(0, 0) - 125.0) < 1e-12);
        QVERIFY(std::abs(makeKernel("rbf", 0.7).cross(a, b)(0, 0) - std::exp(-d2 / (2 * 0.49))) < 1e-15);
        const double chi = 4.0 / 4.0 + 2.25 / 2.5;
        QVERIFY(std::abs(makeKernel("chi2", 0.7).cross(a, b)(0, 0) - std::exp(-chi / (2 * 0.49))) < 1e-15);
        QVERIFY(std::abs(makeKernel("hik").cross(a, b)(0, 0) - 1.5) < 1e-15);
        // 0/0 terms of χ² count as 0.
        Eigen::MatrixXd z(1, 2);
        z << 0.0, 2.0;
        QVERIFY(std::abs(makeKernel("chi2", 1.0).cross(z, a)(0, 0) - std::exp(-(1.0 / 1.0) / 2.0)) < 1e-15);
        QVERIFY_THROWS_EXCEPTION(ParamError, KodsKernel::parse("sigmoid"));
    }

    void gradientMatchesFiniteDifferences_data()
    {
        QTest::addColumn<QString>("kernel");
        for (const char* k : {"linear", "rbf", "poly", "chi2", "hik"})
            QTest::newRow(k) << QString(k);
    }
    void gradientMatchesFiniteDifferences()
    {
        QFETCH(QString, kernel);
        Rng rng(21);
        const int n = 12, p = 3, K = 2;
        const Eigen::MatrixXd X = gaussianMatrix(n, p, rng).cwiseAbs(); // non-negative for chi2 / hik
        const KodsKernel ker = makeKernel(kernel.toStdString(), 0.8, 2);
        const Eigen::MatrixXd Kmat = ker.cross(X, X);
        const Eigen::MatrixXd Y = gaussianMatrix(K, n, rng), Z = gaussianMatrix(K, n, rng);
        const double eta = 0.3, lambda = 1.7;
        Eigen::MatrixXd gY, gZ;
        KodsDetector::objective(Kmat, Y, Z, eta, lambda, &gY, &gZ);
        const double h = 1e-6;
        for (int which = 0; which < 2; ++which)
            for (Eigen::Index i = 0; i < Y.size(); ++i) {
                Eigen::MatrixXd Yp = Y, Ym = Y, Zp = Z, Zm = Z;
                (which == 0 ? Yp : Zp)(i) += h;
                (which == 0 ? Ym : Zm)(i) -= h;
                const double fd = (KodsDetector::objective(Kmat, Yp, Zp, eta, lambda)
                                   - KodsDetector::objective(Kmat, Ym, Zm, eta, lambda))
                                  / (2 * h);
                const double an = (which == 0 ? gY : gZ)(i);
                QVERIFY2(std::abs(fd - an) < 1e-6 * (1 + std::abs(fd)),
                         qPrintable(QString("%1 entry %2: fd %3 vs %4").arg(which ? "Z" : "Y").arg(i).arg(fd).arg(an)));
            }
    }

    void theorem2CrossTermDiffersFromEq18()
    {
        // Theorem 2 as printed (cross term Y∘Z²[2𝕂 − λE_n]) versus the exact gradient of eq. 18
        // (−2λE_n): they differ by λ Y∘(Z² E_n) — documented in KodsDetector.h.
        Rng rng(22);
        const int n = 6, K = 2;
        const Eigen::MatrixXd X = gaussianMatrix(n, 2, rng);
        const Eigen::MatrixXd Kmat = makeKernel("rbf", 1.0).cross(X, X);
        const Eigen::MatrixXd Y = gaussianMatrix(K, n, rng), Z = gaussianMatrix(K, n, rng);
        const double eta = 0.3, lambda = 1.0;
        Eigen::MatrixXd gY, gZ;
        KodsDetector::objective(Kmat, Y, Z, eta, lambda, &gY, &gZ);
        const Eigen::MatrixXd E = Eigen::MatrixXd::Ones(n, n);
        const Eigen::MatrixXd Y2 = Y.cwiseProduct(Y), Z2 = Z.cwiseProduct(Z);
        const Eigen::MatrixXd paperY = (2 + 2 * lambda) * Y.cwiseProduct(Y2 * E)
                                       + Y.cwiseProduct(Z2 * (2 * Kmat - lambda * E)) - 2 * eta * Y;
        const Eigen::MatrixXd exactY = (2 + 2 * lambda) * Y.cwiseProduct(Y2 * E)
                                       + Y.cwiseProduct(Z2 * (2 * Kmat - 2 * lambda * E)) - 2 * eta * Y;
        QVERIFY(maxAbs(gY - exactY) < 1e-12);
        QVERIFY(maxAbs(paperY - exactY - lambda * Y.cwiseProduct(Z2 * E)) < 1e-12);
        const Eigen::MatrixXd exactZ = 2 * lambda * Z.cwiseProduct(Z2 * E)
                                       + Z.cwiseProduct(Y2 * (2 * Kmat - 2 * lambda * E)) - 2 * eta * Z;
        QVERIFY(maxAbs(gZ - exactZ) < 1e-12);
    }

    void riemannianGradientIsTangentAndConsistent()
    {
        // Theorem 1 on the generalized Stiefel manifold {U : Uᵀ𝕂U = I} (U = Yᵀ): the Riemannian
        // gradient is tangent (Uᵀ𝕂ξ skew) and ⟨grad, ξ⟩ = d/dt 𝒦(R_U(tξ)) at t = 0.
        Rng rng(23);
        const int n = 15, K = 2;
        const Eigen::MatrixXd X = gaussianMatrix(n, 2, rng);
        Eigen::MatrixXd Kmat = makeKernel("rbf", 0.8).cross(X, X);
        Kmat.diagonal().array() += 1e-3;
        riemannian::ProductManifold M;
        M.addGeneralizedStiefel(Kmat, K, riemannian::StiefelMetric::Canonical);
        M.addGeneralizedStiefel(Kmat, K, riemannian::StiefelMetric::Canonical);
        const riemannian::Point x = {riemannian::generalizedPolar(gaussianMatrix(n, K, rng), Kmat),
                                     riemannian::generalizedPolar(gaussianMatrix(n, K, rng), Kmat)};
        QVERIFY(M.feasibilityError(x) < 1e-12);
        const double eta = 0.3, lambda = 1.0;
        auto F = [&](const riemannian::Point& p) {
            return KodsDetector::objective(Kmat, p[0].transpose(), p[1].transpose(), eta, lambda);
        };
        Eigen::MatrixXd gY, gZ;
        KodsDetector::objective(Kmat, x[0].transpose(), x[1].transpose(), eta, lambda, &gY, &gZ);
        const riemannian::Tangent rg = M.egradToRgrad(x, {gY.transpose(), gZ.transpose()});
        for (int c = 0; c < 2; ++c) {
            const Eigen::MatrixXd S = x[c].transpose() * Kmat * rg[c];
            QVERIFY2(maxAbs(S + S.transpose()) < 1e-10 * (1 + maxAbs(rg[c])), qPrintable(QString::number(maxAbs(S + S.transpose()))));
        }
        for (int trial = 0; trial < 4; ++trial) {
            const riemannian::Tangent xi = M.projectTangent(x, {gaussianMatrix(n, K, rng), gaussianMatrix(n, K, rng)});
            const double t = 1e-6;
            const double fd = (F(M.retract(x, xi, t)) - F(M.retract(x, xi, -t))) / (2 * t);
            const double an = M.inner(x, rg, xi);
            QVERIFY2(std::abs(fd - an) < 1e-6 * (1 + std::abs(an)), qPrintable(QString("%1 vs %2").arg(fd).arg(an)));
        }
    }

    void fittedDualsStayOnTheManifold_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("init");
        QTest::newRow("rbf uniform") << "rbf" << "uniform";
        QTest::newRow("rbf random") << "rbf" << "random";
        QTest::newRow("rbf uniform b-metric") << "rbf b" << "uniform";
        QTest::newRow("linear uniform") << "linear" << "uniform";
        QTest::newRow("poly uniform") << "poly" << "uniform";
        QTest::newRow("chi2 uniform") << "chi2" << "uniform";
        QTest::newRow("hik uniform") << "hik" << "uniform";
    }
    void fittedDualsStayOnTheManifold()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, init);
        Rng rng(24);
        const Eigen::MatrixXd X = gaussianMatrix(60, 3, rng).cwiseAbs();
        const bool bMetric = kernel.endsWith(" b");
        if (bMetric)
            kernel.chop(2);
        auto det = createPaper("kods", {{"kernel", kernel.toStdString()}, {"init", init.toStdString()},
                                                        {"sigma", "0"}, {"max_iter", "60"},
                                                        {"metric", bMetric ? "b" : "canonical"}});
        det->fit(X);
        const auto& k = dynamic_cast<const KodsDetector&>(*det);
        const Eigen::MatrixXd G = k.regularizedGram();
        const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(3, 3);
        QCOMPARE(k.Y().rows(), Eigen::Index(3));
        QCOMPARE(k.Y().cols(), X.rows());
        QVERIFY2(maxAbs(k.Y() * G * k.Y().transpose() - I) < 1e-10, qPrintable(QString::number(maxAbs(k.Y() * G * k.Y().transpose() - I))));
        QVERIFY(maxAbs(k.Z() * G * k.Z().transpose() - I) < 1e-10);
        QVERIFY(k.figures().at("feasibility_error") < 1e-10);
        QVERIFY(k.lossHistory().back() < k.lossHistory().front()); // CG decreased eq. 18
        if (kernel == "rbf" || kernel == "chi2") // sigma = 0: median pairwise distance
            QCOMPARE(k.sigma(), KodsKernel::medianDistance(KodsKernel::parse(kernel.toStdString()), X));
    }

    void trainingPointsAreInClassByEq21And22()
    {
        // b1 = rowmax(η − B𝕂), b2 = rowmin(−η + A𝕂): every training point meets eq. 23, with equality
        // for each row's extreme point; so the training scores are ≤ 0 with maximum exactly 0.
        Rng rng(25);
        const Eigen::MatrixXd X = gaussianMatrix(80, 2, rng);
        // The paper's η = 0.3 and decision rule eq. 23 (the defaults are data-adapted, issue #17).
        auto det = createPaper("kods", {{"sigma", "0.5"}, {"max_iter", "40"}, {"eta", "0.3"}, {"decision", "eq23"}});
        det->fit(X);
        const auto& k = dynamic_cast<const KodsDetector&>(*det);
        const Eigen::VectorXd& s = det->trainingScores();
        QCOMPARE(s.maxCoeff(), 0.0);
        QCOMPARE(det->threshold(), 0.0);
        QCOMPARE(det->isOutlier(X).sum(), 0);
        QCOMPARE(det->score(X), s);
        // b1, b2 against eq. 21–22 computed from the plain kernel matrix (rbf: translation invariant).
        const Eigen::MatrixXd Kp = makeKernel("rbf", 0.5).cross(X, X);
        const Eigen::MatrixXd A = k.Y().cwiseProduct(k.Y()), B = k.Z().cwiseProduct(k.Z());
        const double eta = 0.3;
        const Eigen::VectorXd b1 = (eta - (B * Kp).array()).rowwise().maxCoeff();
        const Eigen::VectorXd b2 = (-eta + (A * Kp).array()).rowwise().minCoeff();
        QVERIFY(maxAbs(k.b1() - b1) < 1e-12);
        QVERIFY(maxAbs(k.b2() - b2) < 1e-12);
        // Score = max of the two frames, each the eq. 23 margin violation with W1 = B k(x), W2 = −A k(x).
        const Eigen::MatrixXd Q = 2.0 * gaussianMatrix(50, 2, rng);
        const Eigen::MatrixXd Kq = makeKernel("rbf", 0.5).cross(X, Q); // n×m
        const Eigen::VectorXd f1 = k.frameScore(Q, 1), f2 = k.frameScore(Q, 2), sq = det->score(Q);
        for (Eigen::Index i = 0; i < Q.rows(); ++i) {
            const double e1 = eta - (B * Kq.col(i) + k.b1()).minCoeff(); // eq. 19, 21
            const double e2 = eta + (-A * Kq.col(i) + k.b2()).maxCoeff(); // eq. 20, 22
            QVERIFY(std::abs(f1(i) - e1) < 1e-12);
            QVERIFY(std::abs(f2(i) - e2) < 1e-12);
            QCOMPARE(sq(i), std::max(f1(i), f2(i)));
        }
        QVERIFY_THROWS_EXCEPTION(ParamError, k.frameScore(Q, 3));
        QVERIFY_THROWS_EXCEPTION(DataError, k.frameScore(gaussianMatrix(2, 3, rng), 1));
    }

    void ringCentreIsOutlying()
    {
        // Fig. 1d: ring-shaped data (raw coordinates), RBF kernel, σ = 0.1 (sec. 7.5).
        const Dataset train = generate("ring", 200, 31);
        const Dataset test = generate("ring", 200, 32);
        auto det = createPaper("kods", {{"max_iter", "100"}, {"sigma", "0.1"}, {"eta", "0.3"}, {"decision", "eq23"}});
        det->fit(train.X);
        const auto& k = dynamic_cast<const KodsDetector&>(*det);
        const Eigen::MatrixXd origin = Eigen::MatrixXd::Zero(1, 2);
        const double s0 = det->score(origin)(0);
        const Eigen::VectorXd st = det->score(test.X);
        QVERIFY2(s0 > det->threshold(), qPrintable(QString::number(s0)));
        QVERIFY2(s0 > st.maxCoeff(), qPrintable(QString("%1 vs %2").arg(s0).arg(st.maxCoeff())));
        QCOMPARE(det->isOutlier(origin)(0), 1);
        const double inside = (st.array() <= 0.0).cast<double>().mean();
        QVERIFY2(inside >= 0.85, qPrintable(QString::number(inside)));
        // Each frame alone (fig. 1e–f) also rejects the empty centre.
        QVERIFY(k.frameScore(origin, 1)(0) > 0.0);
        QVERIFY(k.frameScore(origin, 2)(0) > 0.0);
    }

    void linearKernelOnABlob()
    {
        // Linear kernel: W1 = Xᵀ(Z∘Z)ᵀ and W2 = −Xᵀ(Y∘Y)ᵀ are explicit primal frames (eq. 19–20), so the
        // scores are those of eq. 23 with hyperplanes in input space. The frames are non-negative
        // combinations of the data, so points towards the origin and beyond are rejected.
        Rng rng(26);
        const Eigen::MatrixXd X = (0.5 * gaussianMatrix(150, 2, rng)).array() + 3.0;
        const Eigen::MatrixXd fresh = (0.5 * gaussianMatrix(100, 2, rng)).array() + 3.0;
        auto det = createPaper("kods", {{"kernel", "linear"}, {"max_iter", "80"}});
        det->fit(X);
        const auto& k = dynamic_cast<const KodsDetector&>(*det);
        const Eigen::MatrixXd W1 = X.transpose() * k.Z().cwiseProduct(k.Z()).transpose(); // p×K
        const Eigen::MatrixXd W2 = -X.transpose() * k.Y().cwiseProduct(k.Y()).transpose();
        const double eta = 0.3;
        const Eigen::VectorXd s = det->score(fresh);
        for (Eigen::Index i = 0; i < fresh.rows(); ++i) {
            const Eigen::VectorXd x = fresh.row(i).transpose();
            const double e = std::max(eta - (W1.transpose() * x + k.b1()).minCoeff(),
                                      eta + (W2.transpose() * x + k.b2()).maxCoeff());
            QVERIFY(std::abs(s(i) - e) < 1e-10);
        }
        Eigen::MatrixXd far(2, 2);
        far << 0.0, 0.0, -3.0, -3.0;
        const Eigen::VectorXd sf = det->score(far);
        QVERIFY(sf(0) > 0.0 && sf(1) > sf(0));
        QVERIFY(sf(0) > s.maxCoeff());
        QVERIFY((s.array() <= 0.0).cast<double>().mean() >= 0.8);
    }

    void jsonRoundTripReproducesScores()
    {
        Rng rng(27);
        const Eigen::MatrixXd X = gaussianMatrix(70, 3, rng).cwiseAbs();
        const Eigen::MatrixXd Q = gaussianMatrix(40, 3, rng).cwiseAbs();
        for (const std::string kernel : {"rbf", "poly", "hik"}) {
            auto det = createPaper("kods", {{"kernel", kernel}, {"max_iter", "30"}});
            det->fit(X);
            const nlohmann::json j = nlohmann::json::parse(det->toJson().dump());
            auto back = Registry::instance().load(j);
            QCOMPARE(back->id(), std::string("kods"));
            QVERIFY((back->score(Q) - det->score(Q)).cwiseAbs().maxCoeff() == 0.0);
            QCOMPARE(back->isOutlier(Q), det->isOutlier(Q));
            QCOMPARE(dynamic_cast<const KodsDetector&>(*back).frameScore(Q, 2),
                     dynamic_cast<const KodsDetector&>(*det).frameScore(Q, 2));
            nlohmann::json bad = j;
            bad["state"]["Z"].erase(0);
            QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
            bad = j;
            bad["state"]["kernel"] = "sigmoid";
            QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
        }
    }

    void largeQuerySetsAreScoredInChunks()
    {
        // 512² grid-sized queries go through several kernel blocks; the result must not depend on
        // how the rows are grouped.
        Rng rng(28);
        const Eigen::MatrixXd X = gaussianMatrix(300, 2, rng);
        auto det = createPaper("kods", {{"sigma", "0.5"}, {"max_iter", "10"}});
        det->fit(X);
        const Eigen::MatrixXd Q = 3.0 * gaussianMatrix(40000, 2, rng); // 2^18/300 = 873 rows per chunk
        const Eigen::VectorXd all = det->score(Q);
        QCOMPARE(all.size(), Q.rows());
        for (Eigen::Index start : {Eigen::Index(0), Eigen::Index(868), Eigen::Index(39990)}) {
            const Eigen::VectorXd part = det->score(Q.middleRows(start, 10));
            QVERIFY(maxAbs(part - all.segment(start, 10)) < 1e-12);
        }
    }

    void unfittedUseThrows()
    {
        auto det = createPaper("kods");
        const Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(3, 2);
        QVERIFY_THROWS_EXCEPTION(NotFittedError, det->score(Q));
        QVERIFY_THROWS_EXCEPTION(NotFittedError, det->isOutlier(Q));
        QVERIFY_THROWS_EXCEPTION(NotFittedError, det->threshold());
        QVERIFY_THROWS_EXCEPTION(NotFittedError, dynamic_cast<const KodsDetector&>(*det).frameScore(Q, 1));
        QVERIFY_THROWS_EXCEPTION(NotFittedError, dynamic_cast<const KodsDetector&>(*det).regularizedGram());
        QVERIFY_THROWS_EXCEPTION(NotFittedError, det->explain(Q));
    }

    void badInputAndParameters()
    {
        Rng rng(29);
        // K > n: the generalized Stiefel manifold needs K ≤ n.
        auto det = createPaper("kods", {{"K", "5"}});
        QVERIFY_THROWS_EXCEPTION(ParamError, det->fit(gaussianMatrix(4, 2, rng)));
        QVERIFY(!det->isFitted());
        QVERIFY_THROWS_EXCEPTION(DataError, det->fit(gaussianMatrix(1, 2, rng))); // fewer than minSamples
        // Histogram kernels need non-negative features.
        auto chi = createPaper("kods", {{"kernel", "chi2"}});
        QVERIFY_THROWS_EXCEPTION(DataError, chi->fit(gaussianMatrix(30, 2, rng)));
        // Histogram kernels score queries clamped to the non-negative orthant.
        for (const std::string kernel : {"chi2", "hik"}) {
            auto h = createPaper("kods", {{"kernel", kernel}, {"max_iter", "10"}});
            h->fit(gaussianMatrix(30, 2, rng).cwiseAbs());
            Eigen::MatrixXd q(2, 2), qc(2, 2);
            q << -0.5, 0.3, 0.2, -2.0;
            qc << 0.0, 0.3, 0.2, 0.0;
            QCOMPARE(h->score(q), h->score(qc));
        }
        // sigma = 0 (median) on identical points.
        auto med = createPaper("kods", {{"sigma", "0"}});
        QVERIFY_THROWS_EXCEPTION(DataError, med->fit(Eigen::MatrixXd::Ones(20, 2)));
        // Overflowing kernel values.
        auto lin = createPaper("kods", {{"kernel", "poly"}});
        QVERIFY_THROWS_EXCEPTION(DataError, lin->fit(1e150 * gaussianMatrix(20, 2, rng)));
        // Too many fit rows for the n×n Gram matrix: refused by the schema, naming fit_rows.
        try {
            createPaper("kods", {{"fit_rows", std::to_string(KodsDetector::kMaxTrainingRows + 1)}});
            QFAIL("expected ParamError");
        } catch (const ParamError& e) {
            QVERIFY(QString(e.what()).contains("fit_rows"));
        }
        // Parameter values and names.
        QVERIFY_THROWS_EXCEPTION(ParamError, createPaper("kods", {{"kernel", "sigmoid"}}));
        QVERIFY_THROWS_EXCEPTION(ParamError, createPaper("kods", {{"eta", "-1"}}));
        QVERIFY_THROWS_EXCEPTION(ParamError, createPaper("kods", {{"K", "0"}}));
        QVERIFY_THROWS_EXCEPTION(ParamError, createPaper("kods", {{"nu", "1"}})); // eq. 18 has no ν
        // Scoring with the wrong number of columns.
        auto ok = createPaper("kods", {{"max_iter", "5"}});
        ok->fit(gaussianMatrix(20, 2, rng));
        QVERIFY_THROWS_EXCEPTION(DataError, ok->score(gaussianMatrix(3, 3, rng)));
    }

    void cancellationKeepsPreviousModel()
    {
        Rng rng(30);
        const Eigen::MatrixXd X = gaussianMatrix(60, 2, rng);
        auto det = createPaper("kods", {{"sigma", "0.5"}, {"max_iter", "20"}});
        det->fit(X);
        const auto& k = dynamic_cast<const KodsDetector&>(*det);
        const Eigen::MatrixXd Z = k.Z();
        const Eigen::VectorXd s = det->score(X);
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, det->fit(gaussianMatrix(50, 2, rng), [&](const ProgressInfo&) { return ++calls > 6; }));
        QVERIFY(det->isFitted());
        QCOMPARE(k.Z(), Z);
        QCOMPARE(det->score(X), s);
    }

    void progressReportsTheObjectiveAndSeedsReproduce()
    {
        Rng rng(31);
        const Eigen::MatrixXd X = gaussianMatrix(50, 2, rng);
        int losses = 0, history = 0;
        auto fit = [&](const std::string& init, const std::string& seed, int* lossCount) {
            auto det = createPaper("kods", {{"init", init}, {"seed", seed}, {"max_iter", "25"}});
            det->fit(X, [&](const ProgressInfo& p) {
                if (lossCount && p.loss)
                    ++*lossCount;
                return false;
            });
            history = static_cast<int>(dynamic_cast<const KodsDetector&>(*det).lossHistory().size());
            return Eigen::MatrixXd(dynamic_cast<const KodsDetector&>(*det).Y());
        };
        const Eigen::MatrixXd a = fit("uniform", "3", &losses);
        QVERIFY(losses > 1);
        QCOMPARE(losses, history); // one objective per CG iteration (and the start)
        {
            auto det = createPaper("kods", {{"max_iter", "5"}});
            det->fit(X);
            QVERIFY(det->geometry().empty());
            QCOMPARE(det->explain(X.topRows(4)).size(), std::size_t(4));
        }
        QCOMPARE(fit("uniform", "3", nullptr), a);
        QCOMPARE(fit("random", "4", nullptr), fit("random", "4", nullptr));
        QVERIFY((fit("random", "4", nullptr) - fit("random", "5", nullptr)).norm() > 1e-6);
        // The schema: the paper's settings one step away (issue #17: data-adapted defaults).
        const DetectorInfo& info = Registry::instance().info("kods");
        QCOMPARE(info.normalization, std::string("zscore")); // z-scores on user data; l2 is the paper's
        const ParamSet d = Registry::instance().defaultParams("kods");
        QVERIFY(d.isAuto("sigma"));
        QCOMPARE(d.getReal("eta"), 0.01);
        QCOMPARE(d.getChoice("decision"), std::string("contamination"));
        ParamSet p = d;
        for (const auto& s : info.params)
            p.set(s.name, paperSetting(s));
        QCOMPARE(p.getReal("eta"), 0.3);
        QCOMPARE(p.getReal("lambda"), 1.0);
        QCOMPARE(p.getReal("sigma"), 0.1);
        QCOMPARE(p.getChoice("decision"), std::string("eq23"));
        QCOMPARE(p.getInt("degree"), 3);
        QCOMPARE(p.getChoice("kernel"), std::string("rbf"));
        QVERIFY(p.has("contamination") && p.has("K") && p.has("max_iter") && p.has("seed") && p.has("init"));
    }
};

QTEST_APPLESS_MAIN(TestKods)
#include "TestKods.moc"
