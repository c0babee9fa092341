// What the view draws of a detector's geometry and what its legend lists (issue #19 item 4),
// without a window (core/display/GeometryChoice): a compact "n of N shown" for many quadrics,
// frames listed only when their planes cross the grid (GODS "W2" was listed with nothing drawn),
// and the quadrics a point violates most.
#include "display/GeometryChoice.h"
#include "display/ScoreField.h"

#include <QtTest>

using namespace olens;

namespace {
std::vector<bool> bits(std::initializer_list<int> v)
{
    std::vector<bool> out;
    for (int b : v)
        out.push_back(b != 0);
    return out;
}
} // namespace

class TestGeometryChoice : public QObject {
    Q_OBJECT

private slots:
    void defaultsHideClutterIn3D()
    {
        const GeometryChoice wbc3d = GeometryChoice::defaults(29, 0, false);
        QCOMPARE(wbc3d.quadrics.size(), std::size_t(29));
        QCOMPARE(std::count(wbc3d.quadrics.begin(), wbc3d.quadrics.end(), true), long(GeometryChoice::kDefaultQuadrics3D));
        const GeometryChoice wbc2d = GeometryChoice::defaults(29, 0, true);
        QCOMPARE(std::count(wbc2d.quadrics.begin(), wbc2d.quadrics.end(), true), long(GeometryChoice::kDefaultQuadrics2D));
        const GeometryChoice seam = GeometryChoice::defaults(2, 2, false); // few: all of them
        QCOMPARE(seam.quadrics, bits({1, 1}));
        QCOMPARE(seam.frames, bits({1, 1}));
        QVERIFY(seam.quadricShown(5)); // beyond the vectors: shown (a live snapshot with more)
    }

    void zeroSetsCountOnlyWhenTheyCrossTheGrid()
    {
        Eigen::VectorXd crosses(4), above(4), touches(4);
        crosses << -1, 0.5, 2, 3;
        above << 0.1, 0.5, 2, 3;
        touches << 0, 0.5, 2, 3;
        QCOMPARE(zeroSetsOnGrid({crosses, above, touches}), bits({1, 0, 1}));

        // GODS: two frames of two planes each; frame 1's planes both miss the box.
        FieldData f;
        f.planeValues = {crosses, above, above, above};
        f.planeFrame = {0, 0, 1, 1};
        QCOMPARE(framesOnGrid(f, 2), bits({1, 0}));
        f.planeValues[3] = crosses;
        QCOMPARE(framesOnGrid(f, 2), bits({1, 1}));
    }

    void legendListsFewAndSummarisesMany()
    {
        // Two frames, W2 not drawn: only W1 listed, not compact.
        LegendGroup g = legendGroup(bits({1, 1}), bits({1, 0}), 4);
        QVERIFY(!g.compact);
        QCOMPARE(g.listed, (std::vector<std::size_t>{0}));
        QCOMPARE(g.shown, std::size_t(1));
        QCOMPARE(g.total, std::size_t(2));
        // 29 quadrics, 3 chosen, one of them off the grid: "2 of 29 shown".
        std::vector<bool> chosen(29, false), drawn(29, true);
        chosen[0] = chosen[4] = chosen[7] = true;
        drawn[7] = false;
        g = legendGroup(chosen, drawn, 6);
        QVERIFY(g.compact);
        QVERIFY(g.listed.empty());
        QCOMPARE(g.shown, std::size_t(2));
        QCOMPARE(g.total, std::size_t(29));
        // Hidden by the user: not listed.
        g = legendGroup(bits({1, 0, 1}), bits({1, 1, 1}), 6);
        QCOMPARE(g.listed, (std::vector<std::size_t>{0, 2}));
    }

    void mostViolatedQuadricsAreTheLargestValues()
    {
        // f0 = x² + y² − 1, f1 = x − 3, f2 = y (at (2, 0): 3, −1, 0).
        std::vector<Quadric> q(3);
        q[0].A = Eigen::Matrix2d::Identity();
        q[0].b = Eigen::Vector2d::Zero();
        q[0].c = -1;
        q[1].A = Eigen::Matrix2d::Zero();
        q[1].b = Eigen::Vector2d(1, 0);
        q[1].c = -3;
        q[2].A = Eigen::Matrix2d::Zero();
        q[2].b = Eigen::Vector2d(0, 1);
        q[2].c = 0;
        QCOMPARE(mostViolatedQuadrics(q, Eigen::Vector2d(2, 0), 2), (std::vector<std::size_t>{0, 1}));
        QCOMPARE(mostViolatedQuadrics(q, Eigen::Vector2d(2, 0), 10).size(), std::size_t(3));
        QCOMPARE(mostViolatedQuadrics(q, Eigen::Vector2d(0, 5), 1), (std::vector<std::size_t>{0})); // 24 > 5 > 3
    }
};

QTEST_APPLESS_MAIN(TestGeometryChoice)
#include "TestGeometryChoice.moc"
