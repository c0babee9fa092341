// The scatter-plot matrix's layout and box selection (display/SplomLayout): cells tile the area,
// pixels map back to the right cell and values, and a box in a cell selects exactly the rows whose
// drawn position lies inside it — checked against the pixel positions computed independently here
// and against hand-placed points.
#include "display/SplomLayout.h"

#include <QtTest>

#include <random>

using namespace olens;

class TestSplomLayout : public QObject {
    Q_OBJECT
private slots:
    void cellsTileTheArea()
    {
        Eigen::MatrixXd X(2, 3);
        X << 0, 0, 0, 1, 2, 3;
        const SplomLayout L(X, {0, 1, 2}, {10, 20, 310, 400}, 5);
        QCOMPARE(L.count(), 3);
        // Width (310 − 2·5) / 3 = 100, height (400 − 2·5) / 3 = 130 (within 1.6 × 100).
        const SplomRect c = L.cell(1, 2);
        QCOMPARE(c.x, 10.0 + 2 * 105.0);
        QCOMPARE(c.y, 20.0 + 135.0);
        QCOMPARE(c.w, 100.0);
        QCOMPARE(c.h, 130.0);
        // A wide, short area: cells at most 1.6 times wider than tall (height 60 → width 96).
        const SplomLayout wide(X, {0, 1, 2}, {0, 0, 1000, 190}, 5);
        QCOMPARE(wide.cell(0, 0).h, 60.0);
        QCOMPARE(wide.cell(0, 0).w, 96.0);
        QCOMPARE(L.cellAt(c.x + 1, c.y + 99), std::make_pair(1, 2));
        QCOMPARE(L.cellAt(10 + 102, 30), std::make_pair(-1, -1)); // in the gap between columns 0 and 1
        QCOMPARE(L.cellAt(5, 30), std::make_pair(-1, -1));
        QCOMPARE(L.cellAt(10 + 3 * 105, 30), std::make_pair(-1, -1)); // right of the matrix
        // Ranges padded by 5 %: feature 2 spans [0, 3] → [−0.15, 3.15]; values grow upwards.
        QCOMPARE(L.low(2), -0.15);
        QCOMPARE(L.high(2), 3.15);
        QCOMPARE(L.toPixelX(2, -0.15), c.x);
        QCOMPARE(L.toPixelY(1, L.high(1)), c.y);
        QVERIFY(std::abs(L.valueAtX(2, L.toPixelX(2, 1.7)) - 1.7) < 1e-12);
        QVERIFY(std::abs(L.valueAtY(0, L.toPixelY(0, 0.3)) - 0.3) < 1e-12);
    }

    void boxSelectsByHand()
    {
        // Features 0 and 1 on [0, 10] each (padded to [−0.5, 10.5]); one 210-pixel cell per feature.
        Eigen::MatrixXd X(5, 2);
        X << 0, 0, 10, 10, 2, 8, 8, 2, 5, 5;
        const SplomLayout L(X, {0, 1}, {0, 0, 430, 430}, 10);
        // Cell (0, 1): x = feature 1, y = feature 0. A box over feature 1 ∈ [1, 6], feature 0 ∈ [4, 9].
        const double x0 = L.toPixelX(1, 1.0), x1 = L.toPixelX(1, 6.0);
        const double y0 = L.toPixelY(0, 9.0), y1 = L.toPixelY(0, 4.0);
        QCOMPARE(L.rowsInBox(X, 0, 1, x0, y0, x1, y1), (std::vector<int>{3, 4})); // (8, 2) and (5, 5)
        QCOMPARE(L.rowsInBox(X, 0, 1, x1, y1, x0, y0), (std::vector<int>{3, 4})); // corners in any order
        // Diagonal (histogram of feature 0): only x counts.
        QCOMPARE(L.rowsInBox(X, 0, 0, L.toPixelX(0, 4.0), 0, L.toPixelX(0, 9.0), 1), (std::vector<int>{3, 4}));
        // A box larger than the cell is clipped to it: everything.
        QCOMPARE(L.rowsInBox(X, 1, 0, -100, -100, 1000, 1000), (std::vector<int>{0, 1, 2, 3, 4}));
        QVERIFY(L.rowsInBox(X, 2, 0, 0, 0, 10, 10).empty());
    }

    void boxSelectsWhatIsDrawnInside()
    {
        std::mt19937 rng(7);
        std::normal_distribution<double> g;
        Eigen::MatrixXd X(2000, 5);
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            for (int j = 0; j < 5; ++j)
                X(i, j) = g(rng) * (j + 1) + j;
        const std::vector<int> features{4, 0, 2, 3};
        const SplomLayout L(X, features, {40, 10, 800, 760}, 6);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        for (int trial = 0; trial < 40; ++trial) {
            const int r = trial % 4, c = (trial / 4) % 4;
            const SplomRect cell = L.cell(r, c);
            const double ax = cell.x + u(rng) * cell.w, bx = cell.x + u(rng) * cell.w;
            const double ay = cell.y + u(rng) * cell.h, by = cell.y + u(rng) * cell.h;
            // Independent: each row's drawn pixel (x from feature c, y from feature r) inside the box.
            std::vector<int> want;
            for (Eigen::Index i = 0; i < X.rows(); ++i) {
                const double px = cell.x + (X(i, features[c]) - L.low(c)) / (L.high(c) - L.low(c)) * cell.w;
                const double py = cell.y + cell.h - (X(i, features[r]) - L.low(r)) / (L.high(r) - L.low(r)) * cell.h;
                const bool inX = px >= std::min(ax, bx) - 1e-9 && px <= std::max(ax, bx) + 1e-9;
                const bool inY = r == c || (py >= std::min(ay, by) - 1e-9 && py <= std::max(ay, by) + 1e-9);
                if (inX && inY)
                    want.push_back(int(i));
            }
            QCOMPARE(L.rowsInBox(X, r, c, ax, ay, bx, by), want);
        }
    }

    void defaultsAndDecimation()
    {
        QCOMPARE(splomDefaultFeatures(4), (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(splomDefaultFeatures(30), (std::vector<int>{0, 1, 2, 3, 4, 5}));
        QCOMPARE(splomDecimation(5, 10).size(), std::size_t(5));
        // 25 rows, at most 10: every 3rd (0, 3, …, 24) plus the selected rows 4 and 5.
        const std::vector<int> d = splomDecimation(25, 10, {5, 4, 99});
        QCOMPARE(d, (std::vector<int>{0, 3, 4, 5, 6, 9, 12, 15, 18, 21, 24}));
    }
};

QTEST_APPLESS_MAIN(TestSplomLayout)
#include "TestSplomLayout.moc"
