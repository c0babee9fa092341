// The KIC paper's baselines (sec. 4.1): ksp / KSP2 (Sugiyama & Borgwardt) against brute-force
// nearest neighbours, and inf (Lucic et al.'s influence) against its formula recomputed here
// from the fitted centres; seeds, k values, JSON round trips.
#include "RandomData.h"
#include "base/Errors.h"
#include "detectors/kic/InfDetector.h"
#include "detectors/kic/KspDetector.h"
#include "registry/Registry.h"
#include "base/Rng.h"

#include <nlohmann/json.hpp>
#include <QtTest>
#include <cmath>
#include <numeric>

using namespace olens;
using olens::test::gaussianRows;

namespace {

/// Distance from row i of X to the nearest row j ≠ i among `among` (all rows when empty).
double nearestOther(const Eigen::MatrixXd& X, Eigen::Index i, const std::vector<Eigen::Index>& among)
{
    double best = std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < X.rows(); ++j) {
        if (j == i || (!among.empty() && std::find(among.begin(), among.end(), j) == among.end()))
            continue;
        best = std::min(best, (X.row(i) - X.row(j)).norm());
    }
    return best;
}

double nearest(const Eigen::MatrixXd& S, const Eigen::RowVectorXd& x, const Eigen::RowVectorXd* exclude = nullptr)
{
    double best = std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < S.rows(); ++j) {
        if (exclude && S.row(j) == *exclude)
            continue;
        best = std::min(best, (S.row(j) - x).norm());
    }
    return best;
}

double fig(const Detector& d, const std::string& name)
{
    const auto f = d.figures();
    const auto it = f.find(name);
    return it == f.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

} // namespace

class TestKicBaselines : public QObject {
    Q_OBJECT

private slots:
    void kspWithWholeSampleIsOneNearestNeighbour()
    {
        Eigen::MatrixXd X = gaussianRows(80, 3, 1);
        X.row(7) = X.row(3); // a duplicate: distance 0 to its twin, not to itself
        const Eigen::MatrixXd Q = gaussianRows(10, 3, 2, 2.0);
        for (const char* size : {"80", "1000"}) {
            auto d = Registry::instance().create("ksp", {{"sample_size", size}, {"repeats", "3"}});
            d->fit(X);
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                QVERIFY(std::abs(d->trainingScores()(i) - nearestOther(X, i, {})) < 1e-12);
            const Eigen::VectorXd s = d->score(Q);
            for (Eigen::Index i = 0; i < Q.rows(); ++i)
                QVERIFY(std::abs(s(i) - nearest(X, Q.row(i))) < 1e-12);
        }
        auto knn = Registry::instance().create("knn", {{"k", "1"}});
        auto ksp = Registry::instance().create("ksp", {{"sample_size", "100"}});
        knn->fit(X);
        ksp->fit(X);
        QVERIFY((knn->trainingScores() - ksp->trainingScores()).cwiseAbs().maxCoeff() < 1e-12);
    }

    void kspScoreIsDistanceToItsSample()
    {
        const Eigen::MatrixXd X = gaussianRows(200, 2, 11);
        const Eigen::MatrixXd Q = gaussianRows(20, 2, 12);
        auto d = Registry::instance().create("ksp", {{"seed", "5"}, {"repeats", "4"}});
        d->fit(X);
        const auto& samples = static_cast<const KspDetector&>(*d).samples();
        QCOMPARE(samples.size(), std::size_t(4));
        for (const auto& S : samples) {
            QCOMPARE(S.rows(), Eigen::Index(20));
            for (Eigen::Index j = 0; j < S.rows(); ++j) { // every sampled point is a training point
                bool found = false;
                for (Eigen::Index i = 0; i < X.rows() && !found; ++i)
                    found = X.row(i) == S.row(j);
                QVERIFY(found);
            }
        }
        // Training point: nearest sampled point other than itself, averaged over the repeats.
        for (Eigen::Index i = 0; i < X.rows(); ++i) {
            double sum = 0;
            const Eigen::RowVectorXd xi = X.row(i);
            for (const auto& S : samples)
                sum += nearest(S, xi, &xi);
            QVERIFY(std::abs(d->trainingScores()(i) - sum / 4) < 1e-12);
        }
        const Eigen::VectorXd s = d->score(Q);
        for (Eigen::Index i = 0; i < Q.rows(); ++i) {
            double sum = 0;
            for (const auto& S : samples)
                sum += nearest(S, Q.row(i));
            QVERIFY(std::abs(s(i) - sum / 4) < 1e-12);
        }
        QCOMPARE(fig(*d, "sample_size"), 20.0);
        QCOMPARE(fig(*d, "repeats"), 4.0);
    }

    void kspSeedsAreReproducible()
    {
        const Eigen::MatrixXd X = gaussianRows(150, 4, 21);
        auto a = Registry::instance().create("ksp", {{"seed", "3"}, {"repeats", "2"}, {"filter_alpha", "0.5"}});
        auto b = Registry::instance().create("ksp", {{"seed", "3"}, {"repeats", "2"}, {"filter_alpha", "0.5"}});
        auto c = Registry::instance().create("ksp", {{"seed", "4"}, {"repeats", "2"}, {"filter_alpha", "0.5"}});
        a->fit(X);
        b->fit(X);
        c->fit(X);
        QCOMPARE(a->trainingScores(), b->trainingScores());
        QVERIFY(a->trainingScores() != c->trainingScores());
    }

    void ksp2FiltersToTheLowerHalf()
    {
        // sample_size ≥ n: the first pass is the 1-NN distance; X' = the ⌊0.5n⌋ points with the
        // lowest of it (ties by row order); the final score is the distance to the nearest other
        // point of X'.
        const Eigen::MatrixXd X = gaussianRows(61, 2, 31);
        auto d = Registry::instance().create("ksp", {{"sample_size", "1000"}, {"filter_alpha", "0.5"}});
        d->fit(X);
        QCOMPARE(fig(*d, "fit_points"), 30.0);
        std::vector<Eigen::Index> order(61);
        std::iota(order.begin(), order.end(), Eigen::Index(0));
        Eigen::VectorXd first(61);
        for (Eigen::Index i = 0; i < 61; ++i)
            first(i) = nearestOther(X, i, {});
        std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return first(a) < first(b); });
        order.resize(30);
        for (Eigen::Index i = 0; i < 61; ++i)
            QVERIFY(std::abs(d->trainingScores()(i) - nearestOther(X, i, order)) < 1e-12);
    }

    void infKValues()
    {
        // k = ⌊min(500, 0.8n)/i⌋, i = 1..15, distinct.
        const std::vector<int> wbc = {455, 227, 151, 113, 91, 75, 65, 56, 50, 45, 41, 37, 35, 32, 30};
        QCOMPARE(InfDetector::kValues(569, 500, 15), wbc); // 0.8·569 = 455.2
        const std::vector<int> spam = {500, 250, 166, 125, 100, 83, 71, 62, 55, 50, 45, 41, 38, 35, 33};
        QCOMPARE(InfDetector::kValues(4601, 500, 15), spam);
        const std::vector<int> small = {80, 40, 26, 20, 16, 13, 11, 10, 8, 7, 6, 5}; // 8 and 6, 5 repeat
        QCOMPARE(InfDetector::kValues(100, 500, 15), small);
        const std::vector<int> tiny = {1};
        QCOMPARE(InfDetector::kValues(2, 500, 15), tiny);
    }

    void infMatchesTheInfluenceFormula()
    {
        const Eigen::MatrixXd X = gaussianRows(120, 2, 41);
        const Eigen::MatrixXd Q = gaussianRows(15, 2, 42, 2.0);
        auto d = Registry::instance().create("inf", {{"seed", "9"}, {"num_k", "4"}});
        d->fit(X);
        const auto& cs = static_cast<const InfDetector&>(*d).clusterings();
        QCOMPARE(cs.size(), std::size_t(4)); // k = 96, 48, 32, 24
        QCOMPARE(cs[0].k, 96);
        QCOMPARE(cs[3].k, 24);
        QCOMPARE(fig(*d, "k_values"), 4.0);
        Eigen::VectorXd train = Eigen::VectorXd::Zero(120), query = Eigen::VectorXd::Zero(15);
        for (const auto& c : cs) {
            QCOMPARE(c.centers.rows(), Eigen::Index(c.k));
            // D² sampling picks distinct data points.
            for (Eigen::Index j = 0; j < c.k; ++j) {
                bool found = false;
                for (Eigen::Index i = 0; i < 120 && !found; ++i)
                    found = X.row(i) == c.centers.row(j);
                QVERIFY(found);
                for (Eigen::Index l = 0; l < j; ++l)
                    QVERIFY(c.centers.row(l) != c.centers.row(j));
            }
            // Recompute assignment, c_φ, cluster costs/sizes and s(x) (Lucic et al.).
            std::vector<Eigen::Index> a(120);
            Eigen::VectorXd d2(120), cost = Eigen::VectorXd::Zero(c.k), size = Eigen::VectorXd::Zero(c.k);
            for (Eigen::Index i = 0; i < 120; ++i) {
                d2(i) = (c.centers.rowwise() - X.row(i)).rowwise().squaredNorm().minCoeff(&a[static_cast<std::size_t>(i)]);
                cost(a[static_cast<std::size_t>(i)]) += d2(i);
                size(a[static_cast<std::size_t>(i)]) += 1;
            }
            const double cphi = d2.mean();
            QVERIFY(std::abs(cphi - c.cphi) < 1e-12 * cphi);
            const double alpha = 16 * (std::log(c.k) + 2);
            for (Eigen::Index i = 0; i < 120; ++i) {
                const auto b = a[static_cast<std::size_t>(i)];
                train(i) += alpha * d2(i) / cphi + 2 * alpha * cost(b) / (size(b) * cphi) + 4 * 120.0 / size(b);
            }
            for (Eigen::Index i = 0; i < 15; ++i) {
                Eigen::Index b = 0;
                const double dq = (c.centers.rowwise() - Q.row(i)).rowwise().squaredNorm().minCoeff(&b);
                query(i) += alpha * dq / cphi + 2 * alpha * cost(b) / (size(b) * cphi) + 4 * 120.0 / size(b);
            }
        }
        train /= 4;
        query /= 4;
        QVERIFY(((d->trainingScores() - train).array().abs() / train.array()).maxCoeff() < 1e-10);
        QVERIFY(((d->score(Q) - query).array().abs() / query.array()).maxCoeff() < 1e-10);
        QVERIFY(((d->score(X) - train).array().abs() / train.array()).maxCoeff() < 1e-10);
    }

    void infLloydNeverIncreasesTheCost()
    {
        const Eigen::MatrixXd X = gaussianRows(150, 3, 51);
        auto a = Registry::instance().create("inf", {{"seed", "2"}, {"num_k", "5"}});
        auto b = Registry::instance().create("inf", {{"seed", "2"}, {"num_k", "5"}, {"lloyd_iters", "5"}});
        a->fit(X);
        b->fit(X);
        const auto& ca = static_cast<const InfDetector&>(*a).clusterings();
        const auto& cb = static_cast<const InfDetector&>(*b).clusterings();
        QCOMPARE(ca.size(), cb.size());
        bool someLower = false;
        for (std::size_t i = 0; i < ca.size(); ++i) {
            QVERIFY(cb[i].cphi <= ca[i].cphi * (1 + 1e-12));
            someLower = someLower || cb[i].cphi < ca[i].cphi;
        }
        QVERIFY(someLower);
    }

    void infSeedsAndOutliers()
    {
        Eigen::MatrixXd X = gaussianRows(305, 2, 61);
        for (int i = 300; i < 305; ++i)
            X.row(i) << 10.0 * std::cos(i), 10.0 * std::sin(i);
        auto a = Registry::instance().create("inf", {{"seed", "1"}});
        auto b = Registry::instance().create("inf", {{"seed", "1"}});
        auto c = Registry::instance().create("inf", {{"seed", "2"}});
        a->fit(X);
        b->fit(X);
        c->fit(X);
        QCOMPARE(a->trainingScores(), b->trainingScores());
        QVERIFY(a->trainingScores() != c->trainingScores());
        // The far points have the largest influence.
        const Eigen::VectorXd s = a->trainingScores();
        QVERIFY(s.head(300).maxCoeff() < s.tail(5).minCoeff());
    }

    void jsonRoundTrip()
    {
        const Eigen::MatrixXd X = gaussianRows(90, 3, 71);
        const Eigen::MatrixXd Q = gaussianRows(12, 3, 72, 2.0);
        const std::vector<std::pair<std::string, ParamAssignments>> cases = {
            {"ksp", {{"repeats", "3"}, {"filter_alpha", "0.5"}}},
            {"inf", {{"seed", "4"}, {"lloyd_iters", "2"}}}};
        for (const auto& [id, params] : cases) {
            auto d = Registry::instance().create(id, params);
            d->fit(X);
            auto e = Registry::instance().load(nlohmann::json::parse(d->toJson().dump()));
            QCOMPARE(e->score(Q), d->score(Q));
            QCOMPARE(e->trainingScores(), d->trainingScores());
            QVERIFY(e->figures() == d->figures());
        }
        auto d = Registry::instance().create("inf");
        d->fit(X);
        nlohmann::json j = d->toJson();
        j["state"]["clusterings"][0]["centers"] = std::vector<double>{1.0};
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(j));
        auto k = Registry::instance().create("ksp");
        k->fit(X);
        j = k->toJson();
        j["state"]["samples"] = nlohmann::json::array();
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(j));
    }
};

QTEST_APPLESS_MAIN(TestKicBaselines)
#include "TestKicBaselines.moc"
