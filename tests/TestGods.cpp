// gods / bods (GODS paper eq. 10 / eq. 4): gradients against finite differences (Euclidean, then
// Riemannian along tangent directions), orthonormal fitted frames, near-origin outliers of a blob
// ranked first, the eq. 23 decision rule, JSON round trip, cancellation, seeds, progress.
#include "Errors.h"
#include "GodsDetector.h"
#include "Registry.h"
#include "Riemannian.h"
#include "Rng.h"

#include <QtTest>

using namespace olens;

namespace {
Eigen::MatrixXd gaussian(Eigen::Index r, Eigen::Index c, Rng& rng)
{
    Eigen::MatrixXd M(r, c);
    for (Eigen::Index j = 0; j < c; ++j)
        for (Eigen::Index i = 0; i < r; ++i)
            M(i, j) = rng.normal();
    return M;
}

Eigen::MatrixXd l2rows(Eigen::MatrixXd X)
{
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        X.row(i).normalize();
    return X;
}

// n points of N((3,…,3), 0.5²), L2-normalised (the paper's preprocessing, sec. 7.3).
Eigen::MatrixXd blob(int n, int d, Rng& rng)
{
    return l2rows((0.5 * gaussian(n, d, rng)).array() + 3.0);
}

// m points of norm ≤ 0.3 in directions at more than 60° from the blob's direction, L2-normalised.
Eigen::MatrixXd nearOrigin(int m, int d, Rng& rng)
{
    const Eigen::VectorXd u = Eigen::VectorXd::Ones(d).normalized();
    Eigen::MatrixXd O(m, d);
    for (int i = 0; i < m;) {
        Eigen::VectorXd v = gaussian(d, 1, rng).col(0);
        v *= 0.3 * rng.uniform() / v.norm();
        if (v.normalized().dot(u) < 0.5)
            O.row(i++) = v.transpose();
    }
    return l2rows(O);
}

double maxAbs(const Eigen::MatrixXd& M) { return M.cwiseAbs().maxCoeff(); }
} // namespace

class TestGods : public QObject {
    Q_OBJECT

private slots:
    void gradientMatchesFiniteDifferences_data()
    {
        QTest::addColumn<bool>("bods");
        QTest::newRow("gods eq. 10") << false;
        QTest::newRow("bods eq. 4") << true;
    }
    void gradientMatchesFiniteDifferences()
    {
        QFETCH(bool, bods);
        Rng rng(11);
        const int n = 40, d = 4, K = bods ? 1 : 3;
        const double nu = 1.7, eta = 0.3;
        const Eigen::MatrixXd X = gaussian(n, d, rng).array() + 0.5;
        riemannian::ProductManifold M;
        M.addStiefel(d, K);
        M.addStiefel(d, K);
        M.addEuclidean(K, 1);
        M.addEuclidean(K, 1);
        riemannian::Point x = {riemannian::qf(gaussian(d, K, rng)), riemannian::qf(gaussian(d, K, rng)),
                               0.3 * gaussian(K, 1, rng), 0.3 * gaussian(K, 1, rng)};
        auto F = [&](const riemannian::Point& p) {
            return GodsDetector::objective(bods, X, p[0], p[1], p[2].col(0), p[3].col(0), nu, eta);
        };
        Eigen::MatrixXd gW1, gW2;
        Eigen::VectorXd gb1, gb2;
        GodsDetector::objective(bods, X, x[0], x[1], x[2].col(0), x[3].col(0), nu, eta, &gW1, &gW2, &gb1, &gb2);
        const riemannian::Tangent g = {gW1, gW2, gb1, gb2};
        // Euclidean gradient, entry by entry (the hinge is squared, hence C¹; min/max ties have
        // probability zero at a random point).
        const double h = 1e-6;
        for (std::size_t c = 0; c < 4; ++c)
            for (Eigen::Index i = 0; i < x[c].size(); ++i) {
                riemannian::Point xp = x, xm = x;
                xp[c](i) += h;
                xm[c](i) -= h;
                const double fd = (F(xp) - F(xm)) / (2 * h);
                QVERIFY2(std::abs(fd - g[c](i)) < 1e-7 * (1 + std::abs(fd)),
                         qPrintable(QString("component %1 entry %2: fd %3 vs %4").arg(c).arg(i).arg(fd).arg(g[c](i))));
            }
        // Riemannian gradient: tangent, and ⟨grad F, ξ⟩ = d/dt F(R_x(tξ)) at t = 0.
        const riemannian::Tangent rg = M.egradToRgrad(x, g);
        for (std::size_t c = 0; c < 2; ++c)
            QVERIFY(maxAbs(x[c].transpose() * rg[c] + rg[c].transpose() * x[c]) < 1e-12);
        for (int trial = 0; trial < 4; ++trial) {
            const riemannian::Tangent xi = M.projectTangent(
                x, {gaussian(d, K, rng), gaussian(d, K, rng), gaussian(K, 1, rng), gaussian(K, 1, rng)});
            const double t = 1e-6;
            const double fd = (F(M.retract(x, xi, t)) - F(M.retract(x, xi, -t))) / (2 * t);
            const double an = M.inner(x, rg, xi);
            QVERIFY2(std::abs(fd - an) < 1e-6 * (1 + std::abs(an)), qPrintable(QString("%1 vs %2").arg(fd).arg(an)));
        }
    }

    void fittedFramesAreOrthonormal()
    {
        Rng rng(12);
        const Eigen::MatrixXd X = blob(150, 5, rng);
        for (const std::string id : {"gods", "bods"}) {
            for (const std::string init : {"svd", "random"}) {
                auto d = Registry::instance().create(id, {{"init", init}});
                d->fit(X);
                const auto& g = dynamic_cast<const GodsDetector&>(*d);
                const Eigen::Index K = id == "gods" ? 3 : 1;
                QCOMPARE(g.W1().cols(), K);
                const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(K, K);
                QVERIFY(maxAbs(g.W1().transpose() * g.W1() - I) < 1e-10);
                QVERIFY(maxAbs(g.W2().transpose() * g.W2() - I) < 1e-10);
                // The optimiser decreased the objective.
                QVERIFY(g.lossHistory().back() < g.lossHistory().front());
            }
        }
    }

    void nearOriginOutliersRankFirst()
    {
        // One-class protocol (sec. 7.7): train on the blob, score the blob plus outliers.
        Rng rng(13);
        const int n = 200, m = 8, d = 3;
        const Eigen::MatrixXd train = blob(n, d, rng);
        const Eigen::MatrixXd test = blob(100, d, rng);
        const Eigen::MatrixXd out = nearOrigin(m, d, rng);
        Eigen::MatrixXd all(100 + m, d);
        all << test, out;
        for (const std::string id : {"gods", "bods"}) {
            for (const std::string K : {"1", "2", "3"}) {
                if (id == "bods" && K != "1")
                    continue;
                ParamAssignments pa;
                if (id == "gods")
                    pa.push_back({"K", K});
                auto det = Registry::instance().create(id, pa);
                det->fit(train);
                const Eigen::VectorXd s = det->score(all);
                const double worstOutlier = s.tail(m).minCoeff();
                const double bestInlier = s.head(100).maxCoeff();
                QVERIFY2(worstOutlier > bestInlier,
                         qPrintable(QString("%1 K=%2: outlier %3 <= inlier %4").arg(id.c_str(), K.c_str())
                                        .arg(worstOutlier).arg(bestInlier)));
                // Eq. 23 rejects every outlier.
                QCOMPARE(det->isOutlier(out).sum(), m);
            }
        }
    }

    void decisionRuleIsEq23()
    {
        Rng rng(14);
        const Eigen::MatrixXd X = blob(120, 3, rng);
        for (const std::string eta : {"0.3", "0"}) {
            auto det = Registry::instance().create("gods", {{"K", "2"}, {"eta", eta}});
            det->fit(X);
            const auto& g = dynamic_cast<const GodsDetector&>(*det);
            QCOMPARE(det->threshold(), 0.0);
            Eigen::MatrixXd P(220, 3);
            P << X, l2rows(gaussian(100, 3, rng));
            const Eigen::VectorXi flag = det->isOutlier(P);
            const Eigen::VectorXd s = det->score(P);
            const double e = std::stod(eta);
            int inside = 0;
            for (Eigen::Index i = 0; i < P.rows(); ++i) {
                const double lo = (g.W1().transpose() * P.row(i).transpose() + g.b1()).minCoeff();
                const double hi = (g.W2().transpose() * P.row(i).transpose() + g.b2()).maxCoeff();
                const bool in = lo >= e && hi <= -e;
                inside += in;
                QCOMPARE(flag(i), in ? 0 : 1);
                QVERIFY(std::abs(s(i) - std::max(e - lo, e + hi)) < 1e-12);
            }
            if (eta == "0") // with no margin most training points lie inside the sandwich
                QVERIFY2(inside > 0 && inside < P.rows(), qPrintable(QString::number(inside)));
        }
        // decision=contamination: the default quantile rule.
        auto det = Registry::instance().create("gods", {{"decision", "contamination"}, {"contamination", "0.2"}});
        det->fit(X);
        QVERIFY(std::abs(det->threshold() - quantile(det->trainingScores(), 0.8)) < 1e-15);
    }

    void jsonRoundTripReproducesScores()
    {
        Rng rng(15);
        const Eigen::MatrixXd X = blob(80, 4, rng);
        const Eigen::MatrixXd Y = l2rows(gaussian(30, 4, rng));
        for (const std::string id : {"gods", "bods"}) {
            auto det = Registry::instance().create(id);
            det->fit(X);
            const nlohmann::json j = nlohmann::json::parse(det->toJson().dump());
            auto back = Registry::instance().load(j);
            QCOMPARE(back->id(), id);
            QVERIFY((back->score(Y) - det->score(Y)).cwiseAbs().maxCoeff() == 0.0);
            QCOMPARE(back->isOutlier(Y), det->isOutlier(Y));
            QCOMPARE(back->geometry().frames.size(), std::size_t(2));
            // Garbled state is a DataError.
            nlohmann::json bad = j;
            bad["state"]["W1"].erase(0);
            QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
        }
    }

    void cancellationKeepsPreviousModel()
    {
        Rng rng(16);
        const Eigen::MatrixXd X = blob(100, 3, rng);
        const Eigen::MatrixXd Y = blob(100, 3, rng) * -1.0;
        auto det = Registry::instance().create("gods");
        det->fit(X);
        const auto& g = dynamic_cast<const GodsDetector&>(*det);
        const Eigen::MatrixXd W1 = g.W1();
        const Eigen::VectorXd s = det->score(X);
        int calls = 0;
        auto cancelLater = [&](const ProgressInfo&) { return ++calls > 5; };
        QVERIFY_THROWS_EXCEPTION(Cancelled, det->fit(Y, cancelLater));
        QVERIFY(det->isFitted());
        QCOMPARE(g.W1(), W1);
        QCOMPARE(det->score(X), s);
    }

    void seedsAreReproducible()
    {
        Rng rng(17);
        const Eigen::MatrixXd X = blob(100, 4, rng);
        auto fitW1 = [&](const std::string& init, const std::string& seed) {
            auto det = Registry::instance().create("gods", {{"init", init}, {"seed", seed}});
            det->fit(X);
            return Eigen::MatrixXd(dynamic_cast<const GodsDetector&>(*det).W1());
        };
        for (const std::string init : {"svd", "random"}) {
            QCOMPARE(fitW1(init, "5"), fitW1(init, "5"));
        }
        QVERIFY((fitW1("random", "5") - fitW1("random", "6")).norm() > 1e-6);
    }

    void progressReportsLossAndFrames()
    {
        Rng rng(18);
        const Eigen::MatrixXd X = blob(60, 3, rng);
        auto det = Registry::instance().create("gods", {{"K", "2"}, {"max_iter", "30"}});
        int losses = 0, snapshots = 0;
        det->fit(X, [&](const ProgressInfo& p) {
            losses += p.loss.has_value();
            if (p.snapshot) {
                ++snapshots;
                if (p.snapshot->frames.size() != 2 || p.snapshot->frames[0].name != "W1"
                    || p.snapshot->frames[1].planes.size() != 2)
                    return true; // cancel → the test fails below
            }
            return false;
        });
        const auto& g = dynamic_cast<const GodsDetector&>(*det);
        QCOMPARE(losses, static_cast<int>(g.lossHistory().size()));
        QVERIFY(snapshots >= 1);
        const Geometry geo = det->geometry();
        QCOMPARE(geo.frames.size(), std::size_t(2));
        QCOMPARE(geo.frames[1].name, std::string("W2"));
        QCOMPARE(geo.frames[0].planes[1].w, Eigen::VectorXd(g.W1().col(1)));
        QCOMPARE(geo.frames[0].planes[1].bias, g.b1()(1));
        QCOMPARE(det->explain(X.topRows(3)).size(), std::size_t(3));
    }

    void tooManyHyperplanesIsParamError()
    {
        Rng rng(19);
        auto det = Registry::instance().create("gods", {{"K", "3"}});
        QVERIFY_THROWS_EXCEPTION(ParamError, det->fit(blob(20, 2, rng)));
        QVERIFY(!det->isFitted());
        QCOMPARE(Registry::instance().info("gods").normalization, std::string("l2"));
    }
};

QTEST_APPLESS_MAIN(TestGods)
#include "TestGods.moc"
