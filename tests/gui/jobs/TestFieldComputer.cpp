// Score fields on display grids: values equal the detector's score / the quadric's f at the grid
// points (through projection and normalisation), and the newest request wins.
#include "jobs/FieldComputer.h"
#include "data/Generators.h"
#include "registry/Registry.h"

#include <QSignalSpy>
#include <QtTest>

using namespace olens;

namespace {
/// A field request for knn (k) fitted on d through z-scores, in d's automatic projection.
FieldRequest knnRequest(const Dataset& d, int k)
{
    FieldRequest req;
    req.normalizer = Normalizer(Normalization::ZScore);
    req.normalizer.fit(d.X);
    auto det = Registry::instance().create("knn", {{"k", std::to_string(k)}});
    det->fit(req.normalizer.transform(d.X));
    req.detector = std::move(det);
    req.projection = Projection::automatic(d.X, d.featureNames);
    return req;
}
} // namespace

class TestFieldComputer : public QObject {
    Q_OBJECT

private slots:
    void gridPointsInVtkOrder()
    {
        GridSpec g;
        g.dims = 2;
        g.lo = Eigen::Vector3d(0, 10, 0);
        g.hi = Eigen::Vector3d(2, 13, 0);
        g.res = Eigen::Vector3i(3, 4, 1);
        QCOMPARE(g.count(), Eigen::Index(12));
        const Eigen::MatrixXd U = g.displayPoints(0, 12);
        // x varies fastest: (0,10) (1,10) (2,10) (0,11) ...
        QCOMPARE(U(1, 0), 1.0);
        QCOMPARE(U(1, 1), 10.0);
        QCOMPARE(U(3, 0), 0.0);
        QCOMPARE(U(3, 1), 11.0);
        QCOMPARE(U(11, 0), 2.0);
        QCOMPARE(U(11, 1), 13.0);
    }

    void scoreFieldMatchesDetectorThroughNormalisation()
    {
        FieldRequest req = knnRequest(generate("moons", 120, 3), 3);
        req.grid.dims = 2;
        req.grid.lo = Eigen::Vector3d(-1.5, -1, 0);
        req.grid.hi = Eigen::Vector3d(2.5, 1.5, 0);
        req.grid.res = Eigen::Vector3i(37, 23, 1);
        const auto f = computeField(req);
        QVERIFY(f);
        QCOMPARE(f->score.size(), req.grid.count());
        const Eigen::MatrixXd U = req.grid.displayPoints(0, req.grid.count());
        const Eigen::VectorXd direct = req.detector->score(req.normalizer.transform(U));
        QVERIFY((f->score - direct).cwiseAbs().maxCoeff() < 1e-12);
    }

    void chunksAreSizedByTheirCostAndDoNotChangeTheField()
    {
        // nextFieldChunk aims at kFieldChunkSeconds per chunk from the last chunk's rate, grows at
        // most 4× per step and stays within its bounds (values worked out by hand).
        QCOMPARE(nextFieldChunk(1024, 0.10), Eigen::Index(512));     // 1024 × 0.05 / 0.10
        QCOMPARE(nextFieldChunk(1024, 0.025), Eigen::Index(2048));   // 1024 × 0.05 / 0.025
        QCOMPARE(nextFieldChunk(1024, 0.001), Eigen::Index(4096));   // 51 200 wanted, 4× cap
        QCOMPARE(nextFieldChunk(1024, 0.0), Eigen::Index(4096));     // too fast to time: 4×
        QCOMPARE(nextFieldChunk(1024, 10.0), kMinFieldChunk);        // 5 wanted
        QCOMPARE(nextFieldChunk(60000, 0.001), kMaxFieldChunk);
        // A 3-D field of 40³ = 64 000 points, computed in chunks of growing size, is the
        // detector's score of all grid points computed in one call.
        FieldRequest req = knnRequest(generate("seam", 3000, 5), 5);
        req.grid.dims = 3;
        req.grid.lo = Eigen::Vector3d(-1.5, -1.5, -1.5);
        req.grid.hi = Eigen::Vector3d(1.5, 1.5, 1.5);
        req.grid.res = Eigen::Vector3i(40, 40, 40);
        std::vector<double> reported;
        const auto f = computeField(req, nullptr, [&](const ProgressInfo& p) {
            reported.push_back(p.fraction);
            return false;
        });
        QVERIFY(f);
        const Eigen::MatrixXd U = req.grid.displayPoints(0, req.grid.count());
        const Eigen::VectorXd direct = req.detector->score(req.normalizer.transform(req.projection.toFeature(U)));
        QCOMPARE(f->score.size(), direct.size());
        QVERIFY(f->score == direct); // row by row the same arithmetic: bit for bit
        QVERIFY(std::is_sorted(reported.begin(), reported.end()));
        QVERIFY2(reported.size() < 64000 / kFirstFieldChunk, qPrintable(QString::number(reported.size()))); // chunks grew
    }

    void quadricValuesAreTheImplicitFunction()
    {
        // Unit circle x² + y² − 1 (quadrics paper eq. 3 with A = I, b = 0, c = −1).
        FieldRequest req;
        req.normalizer = Normalizer(Normalization::None);
        req.normalizer.fit(Eigen::MatrixXd::Random(5, 2));
        Quadric q;
        q.A = Eigen::Matrix2d::Identity();
        q.b = Eigen::Vector2d::Zero();
        q.c = -1.0;
        req.geometry.quadrics.push_back(q);
        Hyperplane h;
        h.w = Eigen::Vector2d(1, -1);
        h.bias = 0.5;
        req.geometry.frames.push_back({"W1", {h}});
        req.projection = Projection::automatic(Eigen::MatrixXd::Random(5, 2), {"x", "y"});
        req.grid.dims = 2;
        req.grid.lo = Eigen::Vector3d(-2, -2, 0);
        req.grid.hi = Eigen::Vector3d(2, 2, 0);
        req.grid.res = Eigen::Vector3i(5, 5, 1);
        const auto f = computeField(req);
        QVERIFY(f);
        QCOMPARE(f->score.size(), Eigen::Index(0)); // no detector: geometry only
        const Eigen::MatrixXd U = req.grid.displayPoints(0, 25);
        for (Eigen::Index i = 0; i < 25; ++i) {
            QCOMPARE(f->quadricValues[0](i), U(i, 0) * U(i, 0) + U(i, 1) * U(i, 1) - 1.0);
            QCOMPARE(f->planeValues[0](i), U(i, 0) - U(i, 1) + 0.5);
        }
        QCOMPARE(f->planeFrame, std::vector<int>{0});
    }

    void pcaSliceThroughTheMean()
    {
        // p = 5: the field lives on {mean + B u}; a pca detector with k = 3 on data spanning the
        // first three PCs scores the slice by its distance to that subspace, i.e. 0 everywhere.
        const Dataset d = generate("blobs", 200, 5, {{"dim", "5"}});
        FieldRequest req;
        req.normalizer = Normalizer(Normalization::None);
        req.normalizer.fit(d.X);
        auto det = Registry::instance().create("pca", {{"k", "3"}});
        det->fit(d.X);
        req.detector = std::move(det);
        req.projection = Projection::pca(d.X, 3);
        req.grid.dims = 3;
        req.grid.lo = Eigen::Vector3d(-3, -3, -3);
        req.grid.hi = Eigen::Vector3d(3, 3, 3);
        req.grid.res = Eigen::Vector3i(4, 4, 4);
        const auto f = computeField(req);
        QVERIFY(f);
        QVERIFY(f->score.cwiseAbs().maxCoeff() < 1e-9);
    }

    void newestRequestWins()
    {
        const Dataset d = generate("moons", 2000, 1);
        auto det = Registry::instance().create("knn", {{"k", "5"}});
        det->fit(d.X);
        std::shared_ptr<const Detector> shared = std::move(det);
        FieldComputer fc;
        QSignalSpy ready(&fc, &FieldComputer::ready);
        for (int res : {300, 301, 17}) {
            FieldRequest req;
            req.detector = shared;
            req.normalizer = Normalizer(Normalization::None);
            req.normalizer.fit(d.X);
            req.projection = Projection::automatic(d.X, d.featureNames);
            req.grid.lo = Eigen::Vector3d(-1, -1, 0);
            req.grid.hi = Eigen::Vector3d(2, 1, 0);
            req.grid.res = Eigen::Vector3i(res, res, 1);
            fc.request(std::move(req));
        }
        QVERIFY(ready.wait(30000));
        // Over: the computer is idle (busy until the last request's outcome is delivered, and the
        // replaced requests' outcomes are dropped, never queued), so nothing else can arrive.
        QVERIFY(!fc.isBusy());
        QCoreApplication::sendPostedEvents(); // and what was queued meanwhile is delivered
        QCOMPARE(ready.count(), 1);
        const auto field = ready.first().at(0).value<std::shared_ptr<const FieldData>>();
        QVERIFY(field);
        QCOMPARE(field->grid.res[0], 17);
    }

    void finishedFieldsAreReleased()
    {
        // Regression (issue 20): each computation stayed alive with its result (a reference cycle
        // between the watcher's connection and the state owning the watcher): RSS grew during
        // live training. After 100 recomputes, only the field the caller still holds may be alive.
        const Dataset d = generate("moons", 300, 1);
        auto det = Registry::instance().create("knn", {{"k", "5"}});
        det->fit(d.X);
        std::shared_ptr<const Detector> shared = std::move(det);
        FieldComputer fc;
        std::vector<std::weak_ptr<const FieldData>> seen;
        std::shared_ptr<const FieldData> held;
        connect(&fc, &FieldComputer::ready, this, [&](std::shared_ptr<const FieldData> f) {
            seen.push_back(f);
            held = std::move(f);
        });
        for (int i = 0; i < 100; ++i) {
            FieldRequest req;
            req.detector = shared;
            req.normalizer = Normalizer(Normalization::None);
            req.normalizer.fit(d.X);
            req.projection = Projection::automatic(d.X, d.featureNames);
            req.grid.lo = Eigen::Vector3d(-1, -1, 0);
            req.grid.hi = Eigen::Vector3d(2, 1, 0);
            req.grid.res = Eigen::Vector3i(20, 20, 1);
            const std::size_t before = seen.size();
            fc.request(std::move(req));
            QTRY_VERIFY_WITH_TIMEOUT(seen.size() == before + 1, 10000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!fc.isBusy(), 5000);
        QCOMPARE(seen.size(), std::size_t(100));
        int alive = 0;
        for (const auto& w : seen)
            alive += w.expired() ? 0 : 1;
        QCOMPARE(alive, 1); // `held`
        held.reset();
        QVERIFY(seen.back().expired());
    }
};

QTEST_GUILESS_MAIN(TestFieldComputer)
#include "TestFieldComputer.moc"
