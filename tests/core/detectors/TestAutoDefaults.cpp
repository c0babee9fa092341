// Issue #17: defaults that adapt to the data (`auto` parameters resolved at fit time and stored in
// the model), the rules that replaced defaults at chance level, and numerical honesty on
// rank-deficient moments. Expected values are analytic (stated per test) or measured on data
// generated here with a fixed seed; the real-data figures are in bench/realdata.py / the README.
#include "RandomData.h"
#include "base/Errors.h"
#include "base/Rng.h"
#include "data/Generators.h"
#include "detectors/quadrics/QuadricsDetector.h"
#include "metrics/Metrics.h"
#include "detectors/kic/IcDetector.h"
#include "registry/Registry.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace olens;
using olens::test::gaussianRows;

namespace {

double flaggedShare(const Detector& d)
{
    const Eigen::VectorXd& s = d.trainingScores();
    return static_cast<double>((s.array() > d.threshold()).count()) / static_cast<double>(s.size());
}

} // namespace

class TestAutoDefaults : public QObject {
    Q_OBJECT
private slots:
    void autoIsAcceptedOnlyWhereTheSchemaSaysSo()
    {
        ParamSpec k = makeParamSpec("K", ParamType::Int, "auto", 1, 10, "h", "r");
        k.autoRule = "ceil(p/2)";
        ParamSpec c = makeParamSpec("solver", ParamType::Choice, "auto", 0, 0, "h", "r", {"auto", "direct"});
        ParamSpec m = makeParamSpec("m", ParamType::Int, "2", 1, 10, "h", "r");
        ParamSet ps({k, c, m}, "test");
        QVERIFY(ps.isAuto("K"));
        QCOMPARE(ps.text("K"), std::string("auto"));
        // Before a fit resolves it, reading the number is an error that says why.
        try {
            ps.getInt("K");
            QFAIL("getInt on an unresolved auto parameter must throw");
        } catch (const ParamError& e) {
            QVERIFY(std::string(e.what()).find("fitted") != std::string::npos);
        }
        // A choice that lists "auto" as a value is an ordinary choice (kic's solver).
        QVERIFY(!ps.isAuto("solver"));
        QCOMPARE(ps.getChoice("solver"), std::string("auto"));
        // "auto" where the schema has no rule is rejected, naming the parameter.
        QVERIFY_THROWS_EXCEPTION(ParamError, ps.set("m", "auto"));
        // Resolution is validated against the range and read back; text() keeps the user's "auto".
        QVERIFY_THROWS_EXCEPTION(ParamError, ps.resolve("K", "11"));
        ps.resolve("K", "4");
        QCOMPARE(ps.getInt("K"), 4);
        QCOMPARE(ps.text("K"), std::string("auto"));
        QCOMPARE(ps.toJson()["K"].get<std::string>(), std::string("auto"));
        QCOMPARE(ps.resolvedJson()["K"].get<int>(), 4);
        // Setting the value again forgets the resolution.
        ps.set("K", "AUTO");
        QVERIFY(ps.resolvedText("K").empty());
        ps.set("K", "3");
        QCOMPARE(ps.getInt("K"), 3);
        QVERIFY_THROWS_EXCEPTION(ParamError, ps.resolve("K", "2")); // not auto any more
    }

    void godsDefaultsFitTwoDimensionalData()
    {
        // Paper K = 3 is > p = 2 (St(2, 3) is empty): the old default refused every 2-D file.
        const Dataset moons = generate("moons", 300, 1, {{"outliers", "0.05"}});
        for (const char* id : {"gods", "bods"}) {
            auto d = Registry::instance().create(id);
            d->fit(moons.X);
            if (std::string(id) == "gods")
                QCOMPARE(d->params().getInt("K"), 2); // K = p
            // normalize auto → none on data with negative coordinates; η auto = RMS radius.
            QCOMPARE(d->params().getChoice("normalize"), std::string("none"));
            const Eigen::RowVectorXd mean = moons.X.colwise().mean();
            const double rms = std::sqrt((moons.X.rowwise() - mean).rowwise().squaredNorm().mean());
            QCOMPARE(d->params().getReal("eta"), rms);
            const double share = flaggedShare(*d);
            QVERIFY2(share >= 0.01 && share <= 0.4, id);
        }
    }

    void godsAutoFramesBoxTheDataInEveryDirection()
    {
        // One 8-D Gaussian with 5 % uniform outliers: the outliers stick out along every direction,
        // so K = p slabs see them all; the former rule ceil(p/2) = 4 saw the minor half only
        // (CLI on z-scores of this draw: 0.73 at K = 4, 0.96 at K = 8).
        const Dataset g = generate("blobs", 600, 3, {{"centers", "1"}, {"dim", "8"}, {"outliers", "0.05"}});
        auto d = Registry::instance().create("gods");
        d->fit(g.X);
        QCOMPARE(d->params().getInt("K"), 8);
        auto half = Registry::instance().create("gods", {{"K", "4"}});
        half->fit(g.X);
        const double a = auroc(d->trainingScores(), g.outlierFlags());
        const double b = auroc(half->trainingScores(), g.outlierFlags());
        QVERIFY2(a >= 0.9 && b < 0.85, qPrintable(QString("K = 8: %1, K = 4: %2").arg(a).arg(b)));
    }

    void godsNormalizeAutoFollowsTheSignOfTheFeatures()
    {
        Eigen::MatrixXd X = gaussianRows(200, 4, 7).cwiseAbs(); // histogram-like: non-negative
        auto d = Registry::instance().create("gods");
        d->fit(X);
        QCOMPARE(d->params().getChoice("normalize"), std::string("l2"));
        QCOMPARE(d->params().getInt("K"), 4);
    }

    void resolutionIsPartOfTheModelAndSurvivesAFailedFit()
    {
        auto d = Registry::instance().create("gods");
        d->fit(gaussianRows(200, 6, 3));
        QCOMPARE(d->params().getInt("K"), 6);
        const nlohmann::json model = d->toJson();
        QCOMPARE(model["params"]["K"].get<std::string>(), std::string("auto"));
        QCOMPARE(model["resolved"]["K"].get<int>(), 6);
        auto loaded = Registry::instance().load(model);
        QCOMPARE(loaded->params().getInt("K"), 6);
        const Eigen::MatrixXd probe = gaussianRows(20, 6, 4);
        QVERIFY(loaded->score(probe).isApprox(d->score(probe), 1e-12));
        // A fit that throws (NaN) keeps the previous resolution and model.
        Eigen::MatrixXd bad = gaussianRows(50, 2, 5);
        bad(3, 1) = std::nan("");
        QVERIFY_THROWS_EXCEPTION(DataError, d->fit(bad));
        QCOMPARE(d->params().getInt("K"), 6);
        QVERIFY(d->score(probe).isApprox(loaded->score(probe), 1e-12));
    }

    void godsMinorInitStartsOnTheThinDirections()
    {
        // Data thin along e3 (σ = 0.05) and wide along e1, e2: the K = 1 slab must be normal to e3,
        // the analytic minimiser of eq. 10's first term; a point off the thin direction scores
        // higher than one equally far along a wide direction.
        Eigen::MatrixXd X = gaussianRows(400, 3, 11);
        X.col(2) *= 0.05;
        auto d = Registry::instance().create("gods", {{"K", "1"}});
        d->fit(X);
        const Geometry g = d->geometry();
        QVERIFY(!g.frames.empty());
        QVERIFY(std::abs(g.frames[0].planes[0].w(2)) > 0.99);
        Eigen::MatrixXd probe(2, 3);
        probe << 0, 0, 1.0, 1.0, 0, 0;
        const Eigen::VectorXd s = d->score(probe);
        QVERIFY(s(0) > s(1));
    }

    void kodsDefaultsFlagASensibleShare()
    {
        // Old defaults: σ = 0.1 on standardised data and the eq. 23 decision flagged 0 points.
        const Dataset ring = generate("ring", 300, 2, {{"outliers", "0.05"}, {"noise", "0.02"}});
        auto d = Registry::instance().create("kods");
        d->fit(ring.X);
        QVERIFY(d->params().isAuto("sigma"));
        // σ = median distance to the 5th nearest neighbour, computed here independently (all 300 rows).
        std::vector<double> fifth;
        for (Eigen::Index i = 0; i < ring.X.rows(); ++i) {
            std::vector<double> r;
            for (Eigen::Index j = 0; j < ring.X.rows(); ++j)
                if (j != i)
                    r.push_back((ring.X.row(i) - ring.X.row(j)).norm());
            std::sort(r.begin(), r.end());
            fifth.push_back(r[4]);
        }
        std::sort(fifth.begin(), fifth.end());
        QVERIFY(std::abs(d->params().getReal("sigma") - fifth[fifth.size() / 2]) < 1e-12);
        const double share = flaggedShare(*d);
        QVERIFY2(share >= 0.01 && share <= 0.4, std::to_string(share).c_str());
    }

    void acdtTangentScoreIsTheResidualFromTheTangentFlats()
    {
        // Points on the plane z = 0 (a 2-D grid): every tangent flat is that plane, so the score of
        // (x, y, h) is exactly |h| for any query above the grid's interior.
        Eigen::MatrixXd X(400, 3);
        for (int i = 0; i < 20; ++i)
            for (int j = 0; j < 20; ++j)
                X.row(i * 20 + j) << i * 0.1, j * 0.1, 0.0;
        auto d = Registry::instance().create("acdt");
        d->fit(X);
        QCOMPARE(d->params().getInt("d"), 2); // auto: min(2, p - 1)
        Eigen::MatrixXd q(3, 3);
        q << 0.95, 0.95, 0.3, 0.52, 1.31, -0.7, 1.0, 1.0, 0.0;
        const Eigen::VectorXd s = d->score(q);
        QVERIFY(std::abs(s(0) - 0.3) < 1e-9);
        QVERIFY(std::abs(s(1) - 0.7) < 1e-9);
        QVERIFY(std::abs(s(2)) < 1e-9);
    }

    void acdtDefaultsRankSwissRollOutliers()
    {
        // The case: 2 % uniform outliers around a Swiss roll; the patch rule at L = 12 gave
        // AUROC 0.62–0.65, the tangent rule (default) must reach 0.9.
        const Dataset roll = generate("swissroll", 2000, 1, {{"outliers", "0.02"}});
        auto d = Registry::instance().create("acdt");
        d->fit(roll.X);
        const double a = auroc(d->trainingScores(), roll.outlierFlags());
        QVERIFY2(a >= 0.9, std::to_string(a).c_str());
        auto patch = Registry::instance().create("acdt", {{"score_rule", "patch"}});
        patch->fit(roll.X);
        QVERIFY(auroc(patch->trainingScores(), roll.outlierFlags()) < a);
    }

    void acdtAutoNeighbourCountGrowsWithTheDimension()
    {
        // Three 8-D Gaussian blobs with 5 % uniform outliers: 15 neighbours (the slides' 3-D value)
        // leave an 8-D tangent estimate to noise (AUROC 0.66 measured with the CLI on this draw);
        // auto resolves k = 4p = 32 and ranks them (0.99). In 3-D auto keeps the slides' 15.
        const Dataset b8 = generate("blobs", 600, 4, {{"dim", "8"}, {"outliers", "0.05"}});
        auto a = Registry::instance().create("acdt");
        a->fit(b8.X);
        QCOMPARE(a->params().getInt("k"), 32);
        auto paper = Registry::instance().create("acdt", {{"k", "15"}});
        paper->fit(b8.X);
        const double autoAuroc = auroc(a->trainingScores(), b8.outlierFlags());
        const double paperAuroc = auroc(paper->trainingScores(), b8.outlierFlags());
        QVERIFY2(autoAuroc >= 0.9 && paperAuroc < 0.8,
                 qPrintable(QString("auto %1, k = 15 %2").arg(autoAuroc).arg(paperAuroc)));
        auto a3 = Registry::instance().create("acdt");
        a3->fit(generate("swissroll", 300, 1, {}).X);
        QCOMPARE(a3->params().getInt("k"), 15);
        auto small = Registry::instance().create("acdt", {{"L", "2"}});
        small->fit(gaussianRows(20, 8, 3)); // n − 1 bounds k
        QCOMPARE(small->params().getInt("k"), 19);
    }

    void quadricsAutoBatchGrowsWithTheRows()
    {
        // clamp(n/16, 64, 256): small sets keep the former 64, large ones take the authors' 256.
        for (const auto& [n, batch] : {std::pair<Eigen::Index, int>{500, 64}, {2400, 150}, {5000, 256}}) {
            auto q = Registry::instance().create("quadrics", {{"epochs", "1"}});
            q->fit(gaussianRows(n, 3, 11));
            QCOMPARE(q->params().getInt("batch"), batch);
            QCOMPARE(q->toJson()["resolved"]["batch"].get<int>(), batch);
        }
    }

    void icAutoDegreeFallsBackToOneWhenEq9CannotHold()
    {
        // p = 8: the degree-2 moment matrix is 45×45 (C(10, 2)), more than the 30 rows can make definite.
        const Eigen::MatrixXd X = gaussianRows(30, 8, 9);
        auto a = Registry::instance().create("ic");
        a->fit(X);
        QCOMPARE(a->params().getInt("degree"), 1);
        auto one = Registry::instance().create("ic", {{"degree", "1"}});
        one->fit(X);
        QVERIFY(a->trainingScores().isApprox(one->trainingScores(), 1e-12));
        // Explicit degree 2 still refuses with the reason.
        auto two = Registry::instance().create("ic", {{"degree", "2"}});
        QVERIFY_THROWS_EXCEPTION(DataError, two->fit(X));
        // Enough rows: the paper's degree 2.
        auto b = Registry::instance().create("ic");
        b->fit(gaussianRows(200, 3, 10));
        QCOMPARE(b->params().getInt("degree"), 2);
    }

    void icAutoDegreeFallsBackToOneOnWideData()
    {
        // #53: p = 134 gives a degree-2 basis of C(136, 2) = 9180 monomials, over the 5000 limit:
        // `auto` refused every such set ("basis over the 5000 limit") instead of taking degree 1.
        // At p = 98 (C(100, 2) = 4950) degree 2 still fits the limit; p = 99 (5050) does not.
        const Eigen::MatrixXd X = gaussianRows(400, 134, 12);
        auto a = Registry::instance().create("ic");
        a->fit(X);
        QCOMPARE(a->params().getInt("degree"), 1);
        QCOMPARE(a->toJson()["resolved"]["degree"].get<int>(), 1);
        auto one = Registry::instance().create("ic", {{"degree", "1"}});
        one->fit(X);
        QVERIFY(a->trainingScores() == one->trainingScores());
        QVERIFY_THROWS_EXCEPTION(ParamError, Registry::instance().create("ic", {{"degree", "2"}})->fit(X));
        QCOMPARE(MonomialBasis::count(98, 2), 4950.0);
        QCOMPARE(MonomialBasis::count(99, 2), 5050.0);
    }

    void quadricsBaseRefusesWhenTheRowsCannotDetermineTheQuadrics()
    {
        // n = 6 generic points in 3-D, D = 10 monomials: the moment matrix has rank 6, so 4
        // quadrics pass through every point; the old fit returned their rounding-level residuals as
        // scores. Now refused, naming D and the way out.
        const Eigen::MatrixXd X = gaussianRows(6, 3, 12);
        auto d = Registry::instance().create("quadrics-base", {{"m", "2"}, {"dims", "0"}});
        try {
            d->fit(X);
            QFAIL("n < D must be refused");
        } catch (const DataError& e) {
            const std::string msg = e.what();
            QVERIFY(msg.find("D = (p+1)(p+2)/2 = 10") != std::string::npos);
            QVERIFY(msg.find("'quadrics'") != std::string::npos);
        }
        // Points exactly on a sphere (n ≥ D): the null space is the answer and is reported.
        Eigen::MatrixXd S = gaussianRows(40, 3, 13);
        S = S.array().colwise() / S.rowwise().norm().array();
        auto q = Registry::instance().create("quadrics-base", {{"m", "1"}, {"dims", "0"}});
        q->fit(S);
        QCOMPARE(q->figures().at("moment_null_space"), 1.0);
        QVERIFY(q->trainingScores().maxCoeff() < 1e-8);
    }

    void quadricsBaseDefaultsResistMaskingAndKeepTenRowsPerMonomial()
    {
        // The rule: largest k ≤ p with (k+1)(k+2)/2 ≤ n/10 (checked by hand: WBC 569 × 30 → 9, D = 55;
        // Ionosphere 351 × 33 → 6, D = 28; 100 × 3 → 3, D = 10, no projection; 29 × 3 → 1).
        QCOMPARE(QuadricsBaseDetector::autoDims(569, 30), 9);
        QCOMPARE(QuadricsBaseDetector::autoDims(351, 33), 6);
        QCOMPARE(QuadricsBaseDetector::autoDims(100, 3), 3);
        QCOMPARE(QuadricsBaseDetector::autoDims(29, 3), 1);
        QCOMPARE(QuadricsBaseDetector::autoDims(58000, 9), 9);
        // 12-D Gaussian inliers (n = 300: D = 91 monomials, 3.3 rows each) and 15 points 6σ out along
        // random directions. The paper's setting (all features, plain sum of eq. 7) ranks them as the
        // most normal points: their degree-4 moments dominate the moment matrix, so its smallest
        // eigenvectors pass through them (AUROC 0.00 with numpy on a similar draw). The defaults: unit
        // row weights and k = 6 principal axes (D = 28).
        Eigen::MatrixXd X = gaussianRows(315, 12, 21);
        for (Eigen::Index i = 300; i < 315; ++i)
            X.row(i) *= 6.0 / X.row(i).norm() * std::sqrt(12.0);
        Eigen::VectorXi y = Eigen::VectorXi::Zero(315);
        y.tail(15).setOnes();
        auto d = Registry::instance().create("quadrics-base");
        d->fit(X);
        QCOMPARE(d->params().getInt("dims"), 6);
        QCOMPARE(d->params().text("dims"), std::string("auto"));
        const double a = auroc(d->trainingScores(), y);
        auto paper = Registry::instance().create("quadrics-base", {{"dims", "0"}, {"weights", "none"}});
        paper->fit(X);
        const double b = auroc(paper->trainingScores(), y);
        QVERIFY2(a >= 0.9 && b < 0.5, qPrintable(QString("defaults AUROC %1, paper setting %2").arg(a).arg(b)));
        // The quadrics drawn are those scored: score² = Σ_k f_k(x)² with f_k mapped back to input
        // coordinates (f(Pᵀ(x − μ)) expanded) — an independent evaluation of the same model.
        const auto qs = d->geometry().quadrics;
        QCOMPARE(qs.size(), std::size_t(5)); // m = auto = k − 1
        for (Eigen::Index i = 0; i < 20; ++i) {
            const Eigen::VectorXd x = X.row(i).transpose();
            double sum = 0.0;
            for (const Quadric& q : qs) {
                const double f = x.dot(q.A * x) + q.b.dot(x) + q.c;
                sum += f * f;
            }
            QVERIFY(std::abs(std::sqrt(sum) - d->trainingScores()(i)) <= 1e-9 * (1.0 + d->trainingScores()(i)));
        }
        // A saved model scores the same (mean and axes are part of the state).
        auto back = Registry::instance().load(nlohmann::json::parse(d->toJson().dump()));
        QVERIFY((back->score(X) - d->trainingScores()).cwiseAbs().maxCoeff() < 1e-12);
    }

    void paperSettingsAreOneStepAway()
    {
        // Every auto parameter names the paper's setting, and that setting is a valid value.
        for (const auto& info : Registry::instance().detectors()) {
            ParamSet ps(info.params, info.id);
            for (const auto& s : info.params) {
                if (!s.autoRule.empty())
                    QVERIFY2(!s.paperValue.empty() || s.defaultValue != "auto", (info.id + "." + s.name).c_str());
                ps.set(s.name, paperSetting(s)); // throws on an invalid paper value
                QVERIFY2(!ps.isAuto(s.name), (info.id + "." + s.name).c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestAutoDefaults)
#include "TestAutoDefaults.moc"
