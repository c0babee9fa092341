// knn and pca on exact small cases, the detector contract (unfitted use, wrong dimension,
// cancellation keeps the previous model, JSON round trip).
#include "base/Errors.h"
#include "base/Progress.h"
#include "detectors/knn/KnnDetector.h"
#include "detectors/pca/PcaDetector.h"
#include "registry/Registry.h"
#include "base/Rng.h"

#include <nlohmann/json.hpp>
#include <QtTest>
#include <cmath>
#include <vector>
#include <Eigen/Dense>

using namespace olens;

namespace {
Eigen::MatrixXd column(std::initializer_list<double> v)
{
    Eigen::MatrixXd m(static_cast<Eigen::Index>(v.size()), 1);
    Eigen::Index i = 0;
    for (double x : v)
        m(i++, 0) = x;
    return m;
}
} // namespace

class TestDetectors : public QObject {
    Q_OBJECT

private slots:
    void iterativeDetectorsNameTheirStepsAsData()
    {
        // Step training and the loss plot read where a report stands (base/Progress's StepMark),
        // never its words: each iterative detector names its history unit, the steps it closes
        // count 1, 2, … without a gap (quadrics: every epoch of `of`, reports inside an epoch
        // fractional and between its neighbours), acdt the clusters left (falling: its reports
        // are throttled, so by one or more).
        Rng rng(7);
        Eigen::MatrixXd X(60, 3);
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            for (Eigen::Index j = 0; j < X.cols(); ++j)
                X(i, j) = rng.normal();
        struct Case {
            const char* id;
            ParamAssignments params;
            const char* unit;
        };
        const std::vector<Case> cases = {
            {"quadrics", {{"epochs", "6"}, {"batch", "8"}}, "epoch"},
            {"gods", {{"max_iter", "15"}}, "iteration"},
            {"kods", {{"max_iter", "15"}}, "iteration"},
            {"acdt", {{"k", "8"}}, "clusters"},
        };
        for (const Case& c : cases) {
            auto det = Registry::instance().create(c.id, c.params);
            if (std::string(c.unit) != "clusters")
                QCOMPARE(QString::fromStdString(det->historyUnit()), QString(c.unit));
            std::vector<StepMark> ends, inside;
            det->fit(X, [&](const ProgressInfo& info) {
                if (info.at && info.endsStep())
                    ends.push_back(*info.at);
                else if (info.at)
                    inside.push_back(*info.at);
                return false;
            });
            // acdt reports at most every 50 ms (a fit this small may say nothing); the others
            // report every step.
            if (std::string(c.unit) != "clusters")
                QVERIFY2(!ends.empty(), c.id);
            for (std::size_t i = 0; i < ends.size(); ++i) {
                QCOMPARE(QString::fromStdString(ends[i].unit), QString(c.unit));
                if (i == 0)
                    continue;
                if (std::string(c.unit) == "clusters") {
                    QVERIFY(ends[i].step < ends[i - 1].step);
                    continue;
                }
                const double expected = ends[i - 1].step + 1;
                // kods' line searches name the iteration in progress: a repeat, never a gap
                QVERIFY2(ends[i].step == expected || (std::string(c.id) == "kods" && ends[i].step == ends[i - 1].step),
                         qPrintable(QString("%1: step %2 after %3").arg(c.id).arg(ends[i].step).arg(ends[i - 1].step)));
            }
            if (std::string(c.id) == "quadrics") {
                QCOMPARE(static_cast<int>(ends.size()), 6);
                QCOMPARE(ends.front().step, 1.0);
                for (const StepMark& m : ends)
                    QCOMPARE(m.of, 6);
                for (const StepMark& m : inside)
                    QVERIFY(m.step > 0.0 && m.step < 6.0 && m.step != std::floor(m.step));
            }
        }
    }

    void knnTrainingScoresExcludeSelf()
    {
        // Points 0,1,3,6,10 on a line. k=1: nearest other point: 1,1,2,3,4.
        auto d = Registry::instance().create("knn", {{"k", "1"}});
        const Eigen::MatrixXd X = column({0, 1, 3, 6, 10});
        d->fit(X);
        const Eigen::VectorXd s = d->trainingScores();
        const Eigen::VectorXd want = (Eigen::VectorXd(5) << 1, 1, 2, 3, 4).finished();
        QVERIFY(s.isApprox(want));
        // k=2: second nearest other point: 0→3, 1→2, 3→3 (1 at 2, 0 and 6 at 3), 6→4, 10→7.
        auto d2 = Registry::instance().create("knn", {{"k", "2"}});
        d2->fit(X);
        const Eigen::VectorXd want2 = (Eigen::VectorXd(5) << 3, 2, 3, 4, 7).finished();
        QVERIFY(d2->trainingScores().isApprox(want2));
    }

    void knnScoresNewPoints()
    {
        auto d = Registry::instance().create("knn", {{"k", "2"}});
        d->fit(column({0, 1, 3, 6, 10}));
        // New point 4.5: neighbours 3 (1.5) and 6 (1.5) → 1.5. New point 20: 10 and 6 → 14.
        const Eigen::VectorXd s = d->score(column({4.5, 20}));
        QCOMPARE(s(0), 1.5);
        QCOMPARE(s(1), 14.0);
        // A new point equal to a training point keeps its zero-distance neighbour (not training).
        QCOMPARE(d->score(column({3}))(0), 2.0);
    }

    void knnDuplicatesAndHigherDimension()
    {
        // Two identical points: each one's nearest *other* point is the duplicate (distance 0).
        Eigen::MatrixXd X(4, 2);
        X << 0, 0, 0, 0, 3, 4, 6, 8;
        auto d = Registry::instance().create("knn", {{"k", "1"}});
        d->fit(X);
        const Eigen::VectorXd s = d->trainingScores();
        QCOMPARE(s(0), 0.0);
        QCOMPARE(s(1), 0.0);
        QCOMPARE(s(2), 5.0);
        QCOMPARE(s(3), 5.0);
    }

    void knnMatchesBruteForce()
    {
        Rng rng(42);
        Eigen::MatrixXd X(300, 5);
        for (Eigen::Index i = 0; i < X.size(); ++i)
            X.data()[i] = rng.normal();
        const int k = 7;
        auto d = Registry::instance().create("knn", {{"k", std::to_string(k)}});
        d->fit(X);
        for (Eigen::Index i = 0; i < X.rows(); i += 17) {
            std::vector<double> dist;
            for (Eigen::Index j = 0; j < X.rows(); ++j)
                if (j != i)
                    dist.push_back((X.row(i) - X.row(j)).norm());
            std::nth_element(dist.begin(), dist.begin() + (k - 1), dist.end());
            QVERIFY(std::abs(d->trainingScores()(i) - dist[k - 1]) < 1e-12);
        }
    }

    void knnNeedsMoreThanKSamples()
    {
        auto d = Registry::instance().create("knn", {{"k", "5"}});
        try {
            d->fit(column({1, 2, 3}));
            QFAIL("expected DataError");
        } catch (const DataError& e) {
            QVERIFY(QString(e.what()).contains("at least 6 samples"));
        }
        QVERIFY(!d->isFitted());
    }

    void pcaDistanceToLine()
    {
        // Points on the line y = 2x + 1 plus symmetric off-line points: the principal line is y=2x+1
        // and the distance of (x, y) from it is |y − 2x − 1|/√5 (eq. 2).
        Eigen::MatrixXd X(6, 2);
        X << -2, -3, -1, -1, 0, 1, 1, 3, 2, 5, 0, 1;
        auto d = Registry::instance().create("pca", {{"k", "1"}});
        d->fit(X);
        QVERIFY(d->trainingScores().cwiseAbs().maxCoeff() < 1e-12);
        Eigen::MatrixXd Q(2, 2);
        Q << 0, 6, 3, 0;
        const Eigen::VectorXd s = d->score(Q);
        QVERIFY(std::abs(s(0) - 5.0 / std::sqrt(5.0)) < 1e-12);
        QVERIFY(std::abs(s(1) - 7.0 / std::sqrt(5.0)) < 1e-12); // |0 − 6 − 1|/√5
        // Geometry: one flat through the mean along (1,2)/√5, spanning the data.
        const Geometry g = d->geometry();
        QCOMPARE(g.flats.size(), std::size_t(1));
        QVERIFY(std::abs(std::abs(g.flats[0].basis(0, 0)) - 1 / std::sqrt(5.0)) < 1e-12);
        QVERIFY(std::abs(g.flats[0].upper(0) - g.flats[0].lower(0) - 4 * std::sqrt(5.0)) < 1e-9);
    }

    void pcaIsRotationAndTranslationEquivariant()
    {
        Rng rng(3);
        Eigen::MatrixXd X(100, 3);
        for (Eigen::Index i = 0; i < X.rows(); ++i) {
            const double t = rng.normal();
            X.row(i) << t, 0.5 * t + 0.1 * rng.normal(), 0.05 * rng.normal();
        }
        // A rotation R and a shift: distances to the principal subspace must not change.
        const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
        const Eigen::MatrixXd Y = (X * R.transpose()).rowwise() + Eigen::RowVector3d(5, -2, 1);
        auto a = Registry::instance().create("pca", {{"k", "2"}});
        auto b = Registry::instance().create("pca", {{"k", "2"}});
        a->fit(X);
        b->fit(Y);
        QVERIFY((a->trainingScores() - b->trainingScores()).cwiseAbs().maxCoeff() < 1e-10);
    }

    void explanationsNameTheReason()
    {
        auto knn = Registry::instance().create("knn", {{"k", "2"}});
        const Eigen::MatrixXd X = column({0, 1, 3, 6, 10});
        knn->fit(X);
        const auto e = knn->explain(X);
        QCOMPARE(e.size(), std::size_t(5));
        // Sample 4 (x=10): neighbours 6 (4) and 3 (7) → the 2nd is sample 2 at distance 7.
        QCOMPARE(QString::fromStdString(e[4]), QString("2-th neighbour: sample 2 at 7"));
        auto pca = Registry::instance().create("pca", {{"k", "1"}});
        Eigen::MatrixXd Y(4, 2);
        Y << 0, 0, 1, 0, 2, 0, 3, 0;
        pca->fit(Y);
        Eigen::MatrixXd Q(1, 2);
        Q << 1.5, 2;
        QVERIFY(QString::fromStdString(pca->explain(Q)[0]).startsWith("residual 2 off the 1-dim subspace"));
    }

    void pcaRejectsKNotBelowP()
    {
        auto d = Registry::instance().create("pca", {{"k", "2"}});
        Eigen::MatrixXd X = Eigen::MatrixXd::Random(10, 2);
        QVERIFY_THROWS_EXCEPTION(ParamError, d->fit(X));
    }

    void unfittedUseFailsLoudly()
    {
        for (const auto& info : Registry::instance().detectors()) {
            auto d = Registry::instance().create(info.id);
            QVERIFY_THROWS_EXCEPTION(NotFittedError, d->score(Eigen::MatrixXd::Zero(2, 2)));
            QVERIFY_THROWS_EXCEPTION(NotFittedError, d->isOutlier(Eigen::MatrixXd::Zero(2, 2)));
            QVERIFY_THROWS_EXCEPTION(NotFittedError, d->threshold());
            QVERIFY_THROWS_EXCEPTION(NotFittedError, d->toJson());
        }
    }

    void badInputIsAnError()
    {
        auto d = Registry::instance().create("knn", {{"k", "1"}});
        Eigen::MatrixXd X(3, 2);
        X << 0, 0, 1, std::numeric_limits<double>::quiet_NaN(), 2, 2;
        try {
            d->fit(X);
            QFAIL("expected DataError");
        } catch (const DataError& e) {
            QVERIFY(QString(e.what()).contains("row 2, column 2"));
        }
        d->fit(Eigen::MatrixXd::Random(5, 2));
        QVERIFY_THROWS_EXCEPTION(DataError, d->score(Eigen::MatrixXd::Zero(2, 3)));
    }

    void isOutlierUsesContaminationQuantile()
    {
        // Ten points 0..8 plus 100, k=1: training scores nine 1s and 92. The 0.9 quantile with
        // linear interpolation: position 0.9·9 = 8.1 → 1 + 0.1·(92 − 1) = 10.1.
        Eigen::MatrixXd X = column({0, 1, 2, 3, 4, 5, 6, 7, 8, 100});
        auto d = Registry::instance().create("knn", {{"k", "1"}, {"contamination", "0.1"}});
        d->fit(X);
        QVERIFY(std::abs(d->threshold() - 10.1) < 1e-12);
        QCOMPARE((d->trainingScores().array() > d->threshold()).count(), Eigen::Index(1));
        // New points: 4.5 is 0.5 from its neighbour (inlier), 50 is 42 away (outlier).
        const Eigen::VectorXi flags = d->isOutlier(column({4.5, 50}));
        QCOMPARE(flags(0), 0);
        QCOMPARE(flags(1), 1);
    }

    void cancelKeepsPreviousModel()
    {
        auto d = Registry::instance().create("knn", {{"k", "1"}});
        d->fit(column({0, 1, 3}));
        const Eigen::VectorXd before = d->trainingScores();
        int calls = 0;
        auto cancelAtHalf = [&](const ProgressInfo& p) {
            ++calls;
            return p.fraction >= 0.5;
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, d->fit(column({0, 10, 30, 60}), cancelAtHalf));
        QVERIFY(calls >= 2);
        QVERIFY(d->isFitted());
        QCOMPARE(d->trainingScores(), before);
        QCOMPARE(d->score(column({2}))(0), 1.0);
    }

    void jsonRoundTripReproducesScores()
    {
        Rng rng(11);
        Eigen::MatrixXd X(60, 3), Q(20, 3);
        for (Eigen::Index i = 0; i < X.size(); ++i)
            X.data()[i] = rng.normal();
        for (Eigen::Index i = 0; i < Q.size(); ++i)
            Q.data()[i] = rng.normal();
        for (const auto& info : Registry::instance().detectors()) {
            auto d = Registry::instance().create(info.id);
            d->fit(X);
            const nlohmann::json j = nlohmann::json::parse(d->toJson().dump());
            auto e = Registry::instance().load(j);
            QCOMPARE(QString::fromStdString(e->id()), QString::fromStdString(info.id));
            QCOMPARE(e->score(Q), d->score(Q));
            QCOMPARE(e->threshold(), d->threshold());
            QCOMPARE(e->trainingScores(), d->trainingScores());
        }
    }

    void garbledModelJsonIsAnError()
    {
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(nlohmann::json::parse("[1,2]")));
        auto d = Registry::instance().create("knn", {{"k", "1"}});
        d->fit(column({0, 1, 3}));
        nlohmann::json j = d->toJson();
        j["state"]["points"] = std::vector<double>{1.0};
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(j));
        j = d->toJson();
        j["detector"] = "nope";
        QVERIFY_THROWS_EXCEPTION(ParamError, Registry::instance().load(j));
        j = d->toJson();
        j.erase("threshold");
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(j));
    }
};

QTEST_APPLESS_MAIN(TestDetectors)
#include "TestDetectors.moc"
