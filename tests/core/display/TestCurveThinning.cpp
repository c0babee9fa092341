// display/CurveThinning: the drawn ROC / PR polyline of a big result. Checked against the whole
// curve by an independent measure: the distance of every original point to the thinned polyline
// (point-to-segment, computed here), the point count bound for a monotone curve, the end points,
// and the trapezoid area of the thinned ROC against the whole one's.
#include "display/CurveThinning.h"
#include "metrics/Metrics.h"

#include <QtTest>

#include <algorithm>
#include <numeric>
#include <utility>
#include <cmath>
#include <random>

using namespace olens;

namespace {

double segmentDistance(double px, double py, double ax, double ay, double bx, double by)
{
    const double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    const double t = len2 > 0.0 ? std::clamp(((px - ax) * dx + (py - ay) * dy) / len2, 0.0, 1.0) : 0.0;
    return std::hypot(px - (ax + t * dx), py - (ay + t * dy));
}

// The largest distance of a point of (x, y) to the polyline, walking both in order (the thinned
// points are a subsequence of the original ones).
double largestGap(const std::vector<double>& x, const std::vector<double>& y, const Polyline& p)
{
    double worst = 0.0;
    std::size_t seg = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        double best = 1e300;
        // The two segments around the walk's position (the point lies on the path between kept
        // points seg and seg + 1).
        for (std::size_t s = seg; s + 1 < p.x.size() && s <= seg + 1; ++s)
            best = std::min(best, segmentDistance(x[i], y[i], p.x[s], p.y[s], p.x[s + 1], p.y[s + 1]));
        worst = std::max(worst, best);
        if (seg + 1 < p.x.size() && x[i] == p.x[seg + 1] && y[i] == p.y[seg + 1])
            ++seg;
    }
    return worst;
}

/// n scores of which every `every`-th row is an outlier (label 1) shifted up by `shift`; with
/// `round` > 0 the scores are rounded to 1/round (ties).
void shiftedScores(Eigen::Index n, int every, double shift, unsigned seed, double round, Eigen::VectorXd& s, Eigen::VectorXi& l)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> g;
    s.resize(n);
    l.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        l(i) = i % every == 0;
        s(i) = g(rng) + shift * l(i);
        if (round > 0)
            s(i) = std::round(s(i) * round) / round;
    }
}

double trapezoid(const std::vector<double>& x, const std::vector<double>& y)
{
    double a = 0.0;
    for (std::size_t i = 1; i < x.size(); ++i)
        a += (x[i] - x[i - 1]) * 0.5 * (y[i] + y[i - 1]);
    return a;
}

} // namespace

class TestCurveThinning : public QObject {
    Q_OBJECT
private slots:
    void aMillionPointRocIsDrawnWithFewPointsWithinTheTolerance()
    {
        // Scores of a million rows, outliers (5 %) shifted up: an ROC with ~10^6 vertices.
        Eigen::VectorXd s;
        Eigen::VectorXi l;
        shiftedScores(1000000, 20, 1.5, 7, 0.0, s, l);
        const Curve roc = rocCurve(s, l);
        QVERIFY(roc.x.size() > 900000);
        const double tol = 1.0 / 4096;
        const Polyline p = thinCurve(roc.x, roc.y, tol);
        QVERIFY2(p.x.size() <= std::size_t(4 / tol + 2), qPrintable(QString::number(p.x.size())));
        QVERIFY(p.x.size() > 100);
        QCOMPARE(p.x.front(), roc.x.front());
        QCOMPARE(p.y.back(), roc.y.back());
        QCOMPARE(p.x.back(), roc.x.back());
        const double gap = largestGap(roc.x, roc.y, p);
        QVERIFY2(gap <= tol * std::sqrt(2.0) + 1e-12, qPrintable(QString::number(gap)));
        QVERIFY(std::abs(trapezoid(p.x, p.y) - trapezoid(roc.x, roc.y)) <= 2 * tol);
    }

    void aStepKeepsItsCorners()
    {
        // Up 1 in 1000 small steps, then right 1: the corner (0, 1) stays within the tolerance of a
        // kept point (without the point before each trigger, the drawn path cut it diagonally).
        std::vector<double> x, y;
        for (int i = 0; i <= 1000; ++i) {
            x.push_back(0.0);
            y.push_back(i / 1000.0);
        }
        for (int i = 1; i <= 1000; ++i) {
            x.push_back(i / 1000.0);
            y.push_back(1.0);
        }
        const Polyline p = thinCurve(x, y, 0.01);
        bool corner = false;
        for (std::size_t i = 0; i < p.x.size(); ++i)
            corner = corner || (std::abs(p.x[i]) <= 0.01 && std::abs(p.y[i] - 1.0) <= 0.01);
        QVERIFY(corner);
        QVERIFY(p.x.size() < 450);
        QVERIFY(largestGap(x, y, p) <= 0.01 * std::sqrt(2.0) + 1e-12);
    }

    // The GUI's curves are thinned as rankingCurves walks the scores (issue #54: the whole curves
    // of 20 M rows were 1.6 GB for a moment). The independent computation: the whole curves built
    // first (rankingCurves without a tolerance), then thinned by thinCurve. The same points, the
    // same thresholds at them and the same areas, bit for bit, with ties, with and without the
    // caller's order.
    void curvesThinnedAsWalkedEqualTheWholeCurvesThinned()
    {
        const Eigen::Index n = 200000;
        Eigen::VectorXd s;
        Eigen::VectorXi l;
        shiftedScores(n, 25, 2.0, 11, 5000.0, s, l); // ~40 000 distinct scores: ties
        std::vector<int> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s(a) > s(b); });
        const double tol = 1.0 / 4096;
        for (const std::vector<int>* descending : std::vector<const std::vector<int>*>{nullptr, &order}) {
            const RankingCurves whole = rankingCurves(s, l, descending);
            const RankingCurves thin = rankingCurves(s, l, descending, tol);
            QCOMPARE(thin.auroc, whole.auroc);
            QCOMPARE(thin.averagePrecision, whole.averagePrecision);
            QCOMPARE(thin.auroc, auroc(s, l));
            for (const auto& [w, t] : {std::pair(&whole.roc, &thin.roc), std::pair(&whole.pr, &thin.pr)}) {
                const Polyline p = thinCurve(w->x, w->y, tol);
                QCOMPARE(t->x, p.x);
                QCOMPARE(t->y, p.y);
                QVERIFY(t->x.size() < w->x.size() / 2);
                // Each kept point carries the threshold of that point of the whole curve.
                std::size_t j = 0;
                for (std::size_t i = 0; i < t->x.size(); ++i) {
                    while (j < w->x.size() && !(w->x[j] == t->x[i] && w->y[j] == t->y[i] && w->thresholds[j] == t->thresholds[i]))
                        ++j;
                    QVERIFY2(j < w->x.size(), qPrintable(QString("kept point %1 not on the whole curve").arg(i)));
                }
            }
        }
    }

    void shortCurvesAndNoToleranceStayWhole()
    {
        const std::vector<double> x{0.0, 0.5}, y{0.0, 1.0};
        QCOMPARE(thinCurve(x, y, 0.1).x, x);
        const std::vector<double> x3{0.0, 0.0001, 1.0}, y3{0.0, 0.0001, 1.0};
        QCOMPARE(thinCurve(x3, y3, 0.0).x, x3);
        QCOMPARE(thinCurve(x3, y3, 0.01).x, (std::vector<double>{0.0, 1.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, thinCurve(x3, y, 0.1));
    }
};

QTEST_APPLESS_MAIN(TestCurveThinning)
#include "TestCurveThinning.moc"
