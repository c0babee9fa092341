// Tests for core/Metrics: every expected value below is worked out by hand in the comment next to
// it (positives = label 1; the ROC/PR tables list thresholds in decreasing score order with the
// cumulative TP/FP counts at each distinct score, as scikit-learn does).
#include "base/Errors.h"
#include "metrics/Metrics.h"
#include "Numeric.h"

#include <QtTest>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <vector>

using olens::Curve;
using olens::DataError;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

Eigen::VectorXd vd(std::initializer_list<double> v)
{
    Eigen::VectorXd r(static_cast<Eigen::Index>(v.size()));
    Eigen::Index i = 0;
    for (double x : v)
        r[i++] = x;
    return r;
}

Eigen::VectorXi vi(std::initializer_list<int> v)
{
    Eigen::VectorXi r(static_cast<Eigen::Index>(v.size()));
    Eigen::Index i = 0;
    for (int x : v)
        r[i++] = x;
    return r;
}

using olens::test::nearAbs; // absolute tolerance here, infinities equal only to themselves

/// Compares a curve with expected (x, y, threshold) triples; reports the first difference.
void compareCurve(const Curve& c, const std::vector<std::array<double, 3>>& expected)
{
    QCOMPARE(c.x.size(), expected.size());
    QCOMPARE(c.y.size(), expected.size());
    QCOMPARE(c.thresholds.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const QByteArray where = QByteArray("point ") + QByteArray::number(qulonglong(k)) + ": got ("
                                 + QByteArray::number(c.x[k]) + ", " + QByteArray::number(c.y[k])
                                 + ", " + QByteArray::number(c.thresholds[k]) + ") expected ("
                                 + QByteArray::number(expected[k][0]) + ", "
                                 + QByteArray::number(expected[k][1]) + ", "
                                 + QByteArray::number(expected[k][2]) + ")";
        QVERIFY2(nearAbs(c.x[k], expected[k][0]), where.constData());
        QVERIFY2(nearAbs(c.y[k], expected[k][1]), where.constData());
        QVERIFY2(nearAbs(c.thresholds[k], expected[k][2]), where.constData());
    }
}

/// Uniform in [0,1) from the raw engine bits (std distributions differ between libraries).
double uniform01(std::mt19937& g)
{
    const std::uint64_t hi = g() >> 5; // 27 bits
    const std::uint64_t lo = g() >> 6; // 26 bits
    return static_cast<double>((hi << 26) | lo) * 0x1.0p-53;
}

/// Seeded random scores (continuous, no ties) and labels with both classes present.
void randomData(std::uint32_t seed, Eigen::Index n, Eigen::VectorXd& s, Eigen::VectorXi& y)
{
    std::mt19937 g(seed);
    s.resize(n);
    y.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        y[i] = uniform01(g) < 0.3 ? 1 : 0;
        // Positives shifted up so the AUROC is informative (neither 0.5 nor 1).
        s[i] = 4.0 * uniform01(g) - 2.0 + (y[i] ? 0.8 : 0.0);
    }
    y[0] = 1; // both classes present whatever the draw
    y[1] = 0;
}

} // namespace

class TestMetrics : public QObject {
    Q_OBJECT

private slots:
    void rankingCurvesEqualTheFourMetricsOneByOne()
    {
        // One sort for all four (the Evaluation dock at a million points): the same numbers as
        // rocCurve, precisionRecallCurve, auroc and averagePrecision, bit for bit, ties included.
        std::mt19937 gen(11);
        std::uniform_int_distribution<int> coarse(0, 40); // many equal scores
        std::bernoulli_distribution outlier(0.1);
        Eigen::VectorXd s(5000);
        Eigen::VectorXi y(5000);
        for (Eigen::Index i = 0; i < s.size(); ++i) {
            s(i) = coarse(gen) / 8.0;
            y(i) = outlier(gen) ? 1 : 0;
        }
        using namespace olens;
        const RankingCurves c = rankingCurves(s, y);
        const Curve roc = rocCurve(s, y), pr = precisionRecallCurve(s, y);
        QVERIFY(c.roc.x == roc.x && c.roc.y == roc.y && c.roc.thresholds == roc.thresholds);
        QVERIFY(c.pr.x == pr.x && c.pr.y == pr.y && c.pr.thresholds == pr.thresholds);
        QCOMPARE(c.auroc, auroc(s, y));
        QCOMPARE(c.averagePrecision, averagePrecision(s, y));
        QCOMPARE(static_cast<int>(roc.x.size()), 42); // 41 distinct scores + the (0, 0) point
    }

    void rankingCurvesFromAGivenOrderMatchTheSortedOnes()
    {
        // The GUI passes its ranking (rows by decreasing score, ties by row) to skip the sort: the
        // curves are the same bit for bit; an order that is not one (wrong size, a repeated row,
        // out of order) is ignored rather than trusted.
        std::mt19937 gen(12);
        std::uniform_int_distribution<int> coarse(0, 30);
        std::bernoulli_distribution outlier(0.15);
        Eigen::VectorXd s(3000);
        Eigen::VectorXi y(3000);
        for (Eigen::Index i = 0; i < s.size(); ++i) {
            s(i) = coarse(gen) / 4.0;
            y(i) = outlier(gen) ? 1 : 0;
        }
        std::vector<int> order(3000);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s(a) > s(b); });
        using namespace olens;
        const RankingCurves ref = rankingCurves(s, y);
        auto same = [&](const RankingCurves& c) {
            return c.roc.x == ref.roc.x && c.roc.y == ref.roc.y && c.roc.thresholds == ref.roc.thresholds
                   && c.pr.x == ref.pr.x && c.pr.y == ref.pr.y && c.auroc == ref.auroc
                   && c.averagePrecision == ref.averagePrecision;
        };
        QVERIFY(same(rankingCurves(s, y, &order)));
        std::vector<int> ascending(order.rbegin(), order.rend()); // a permutation, wrong direction
        QVERIFY(same(rankingCurves(s, y, &ascending)));
        std::vector<int> repeated = order;
        repeated[1] = repeated[0];
        QVERIFY(same(rankingCurves(s, y, &repeated)));
        std::vector<int> shorter(order.begin(), order.end() - 1);
        QVERIFY(same(rankingCurves(s, y, &shorter)));
    }

    // ---- ROC / AUROC ------------------------------------------------------------------------
    void rocCurveSimple()
    {
        // scores {0.1,0.4,0.35,0.8}, labels {0,0,1,1}: P = 2, N = 2.
        // Decreasing: 0.8(+) 0.4(-) 0.35(+) 0.1(-)
        //   t=0.8 : TP 1 FP 0 -> (FPR 0,   TPR 0.5)
        //   t=0.4 : TP 1 FP 1 -> (0.5, 0.5)
        //   t=0.35: TP 2 FP 1 -> (0.5, 1)
        //   t=0.1 : TP 2 FP 2 -> (1, 1)
        // preceded by (0, 0) at +inf.
        const Curve roc = olens::rocCurve(vd({0.1, 0.4, 0.35, 0.8}), vi({0, 0, 1, 1}));
        compareCurve(roc, {{0.0, 0.0, kInf},
                           {0.0, 0.5, 0.8},
                           {0.5, 0.5, 0.4},
                           {0.5, 1.0, 0.35},
                           {1.0, 1.0, 0.1}});
    }

    void aurocSimple()
    {
        // Trapezoids over the points above: (0,0)->(0,.5): width 0; (0,.5)->(.5,.5): .5*.5 = .25;
        // (.5,.5)->(.5,1): width 0; (.5,1)->(1,1): .5*1 = .5. Total 0.75.
        // Check by pairs: positives {0.8, 0.35} vs negatives {0.4, 0.1}: 0.8 beats both,
        // 0.35 beats 0.1 only -> 3/4.
        QCOMPARE(olens::auroc(vd({0.1, 0.4, 0.35, 0.8}), vi({0, 0, 1, 1})), 0.75);
    }

    void rocCurveTies()
    {
        // scores {1,1,0,0}, labels {1,0,1,0}: each distinct score holds one + and one -.
        //   t=1: TP 1 FP 1 -> (0.5, 0.5);  t=0: TP 2 FP 2 -> (1, 1).
        // The tied pair enters together: no (0, 0.5) or (0.5, 0) corner.
        const Eigen::VectorXd s = vd({1, 1, 0, 0});
        const Eigen::VectorXi y = vi({1, 0, 1, 0});
        compareCurve(olens::rocCurve(s, y), {{0.0, 0.0, kInf}, {0.5, 0.5, 1.0}, {1.0, 1.0, 0.0}});
        // Area: (0+.5)/2*.5 + (.5+1)/2*.5 = .125 + .375 = 0.5.
        QCOMPARE(olens::auroc(s, y), 0.5);
    }

    void aurocTiesPartial()
    {
        // scores {3,2,2,1}, labels {1,1,0,0}: decreasing 3(+) {2(+),2(-)} 1(-).
        //   t=3: TP 1 FP 0 -> (0, .5); t=2: TP 2 FP 1 -> (.5, 1); t=1: TP 2 FP 2 -> (1, 1).
        // Area: 0 + (.5+1)/2*.5 + 1*.5 = .375 + .5 = 0.875.
        // Pairs: (3,2)=1 (3,1)=1 (2,2)=1/2 (2,1)=1 -> 3.5/4 = 0.875.
        const Eigen::VectorXd s = vd({3, 2, 2, 1});
        const Eigen::VectorXi y = vi({1, 1, 0, 0});
        compareCurve(olens::rocCurve(s, y),
                     {{0.0, 0.0, kInf}, {0.0, 0.5, 3.0}, {0.5, 1.0, 2.0}, {1.0, 1.0, 1.0}});
        QCOMPARE(olens::auroc(s, y), 0.875);

        // scores {2,2,2,1}, labels {0,1,0,1}: t=2: TP 1 FP 2 -> (1, .5); t=1: TP 2 FP 2 -> (1, 1).
        // Area: (0+.5)/2*1 = 0.25. Pairs: positive 2 vs two negative 2s: 1/2 + 1/2;
        // positive 1 loses both -> 1/4.
        QCOMPARE(olens::auroc(vd({2, 2, 2, 1}), vi({0, 1, 0, 1})), 0.25);
    }

    void aurocAllTied()
    {
        // One threshold: (0,0) -> (1,1), area 1/2, whatever the labels.
        const Eigen::VectorXd s = vd({5, 5, 5, 5, 5});
        const Eigen::VectorXi y = vi({1, 0, 0, 1, 0});
        compareCurve(olens::rocCurve(s, y), {{0.0, 0.0, kInf}, {1.0, 1.0, 5.0}});
        QCOMPARE(olens::auroc(s, y), 0.5);
    }

    void aurocPerfectAndReversed()
    {
        // All positives above all negatives: every pair won -> 1. Swapped labels: none -> 0.
        const Eigen::VectorXd s = vd({0.9, 0.8, 0.3, 0.1});
        QCOMPARE(olens::auroc(s, vi({1, 1, 0, 0})), 1.0);
        QCOMPARE(olens::auroc(s, vi({0, 0, 1, 1})), 0.0);
        // Perfect ROC: (0,0) (0,.5) (0,1) (.5,1) (1,1).
        compareCurve(olens::rocCurve(s, vi({1, 1, 0, 0})),
                     {{0.0, 0.0, kInf}, {0.0, 0.5, 0.9}, {0.0, 1.0, 0.8}, {0.5, 1.0, 0.3},
                      {1.0, 1.0, 0.1}});
    }

    void aurocOneClassIsNaN()
    {
        const Eigen::VectorXd s = vd({0.3, 0.1, 0.2});
        QVERIFY(std::isnan(olens::auroc(s, vi({0, 0, 0}))));
        QVERIFY(std::isnan(olens::auroc(s, vi({1, 1, 1}))));
        // The curve still exists; the undefined rate is NaN (no positives -> TPR = 0/0).
        const Curve roc = olens::rocCurve(s, vi({0, 0, 0}));
        QCOMPARE(roc.x.size(), std::size_t(4));
        QCOMPARE(roc.x.back(), 1.0);
        for (double t : roc.y)
            QVERIFY(std::isnan(t));
    }

    void infiniteScoresAccepted()
    {
        // +inf(+) 1(-) -inf(-): perfect ranking -> AUROC 1. The curve's first two thresholds are
        // both +inf (the prepended point and the score itself).
        const Eigen::VectorXd s = vd({kInf, 1.0, -kInf});
        const Eigen::VectorXi y = vi({1, 0, 0});
        QCOMPARE(olens::auroc(s, y), 1.0);
        compareCurve(olens::rocCurve(s, y),
                     {{0.0, 0.0, kInf}, {0.0, 1.0, kInf}, {0.5, 1.0, 1.0}, {1.0, 1.0, -kInf}});
    }

    // ---- Precision–recall / AP ---------------------------------------------------------------
    void prCurveSimple()
    {
        // Same data as rocCurveSimple (P = 2): (recall, precision) = (TP/2, TP/(TP+FP))
        //   +inf : (0, 1)   [scikit-learn's appended end point, first in our order]
        //   0.8  : TP 1 FP 0 -> (0.5, 1)
        //   0.4  : TP 1 FP 1 -> (0.5, 0.5)
        //   0.35 : TP 2 FP 1 -> (1, 2/3)
        //   0.1  : TP 2 FP 2 -> (1, 0.5)   [class balance at the lowest threshold]
        const Curve pr = olens::precisionRecallCurve(vd({0.1, 0.4, 0.35, 0.8}), vi({0, 0, 1, 1}));
        compareCurve(pr, {{0.0, 1.0, kInf},
                          {0.5, 1.0, 0.8},
                          {0.5, 0.5, 0.4},
                          {1.0, 2.0 / 3.0, 0.35},
                          {1.0, 0.5, 0.1}});
    }

    void apSimple()
    {
        // AP = Σ (R_n − R_{n−1}) P_n: 0.5*1 + 0*0.5 + 0.5*(2/3) + 0*0.5 = 1/2 + 1/3 = 5/6.
        QVERIFY(nearAbs(olens::averagePrecision(vd({0.1, 0.4, 0.35, 0.8}), vi({0, 0, 1, 1})),
                     5.0 / 6.0));
    }

    void prCurveAndApTies()
    {
        // scores {1,1,0,0}, labels {1,0,1,0}:
        //   t=1: TP 1 FP 1 -> (0.5, 0.5);  t=0: TP 2 FP 2 -> (1, 0.5).
        // AP = 0.5*0.5 + 0.5*0.5 = 0.5 (not 0.75 as it would be if the tied + came first).
        const Eigen::VectorXd s = vd({1, 1, 0, 0});
        const Eigen::VectorXi y = vi({1, 0, 1, 0});
        compareCurve(olens::precisionRecallCurve(s, y),
                     {{0.0, 1.0, kInf}, {0.5, 0.5, 1.0}, {1.0, 0.5, 0.0}});
        QVERIFY(nearAbs(olens::averagePrecision(s, y), 0.5));

        // scores {3,2,2,1}, labels {1,1,0,0}: t=3: R .5 P 1; t=2: R 1 P 2/3; t=1: R 1 P 1/2.
        // AP = .5*1 + .5*(2/3) = 5/6.
        QVERIFY(nearAbs(olens::averagePrecision(vd({3, 2, 2, 1}), vi({1, 1, 0, 0})), 5.0 / 6.0));

        // scores {2,2,2,1}, labels {0,1,0,1}: t=2: TP 1 FP 2 -> R .5 P 1/3; t=1: R 1 P 1/2.
        // AP = .5/3 + .5*.5 = 1/6 + 1/4 = 5/12.
        QVERIFY(nearAbs(olens::averagePrecision(vd({2, 2, 2, 1}), vi({0, 1, 0, 1})), 5.0 / 12.0));

        // All tied, 2 positives of 5: one threshold, R 1 P 2/5 -> AP = 0.4.
        const Eigen::VectorXd tied = vd({5, 5, 5, 5, 5});
        const Eigen::VectorXi ty = vi({1, 0, 0, 1, 0});
        compareCurve(olens::precisionRecallCurve(tied, ty), {{0.0, 1.0, kInf}, {1.0, 0.4, 5.0}});
        QVERIFY(nearAbs(olens::averagePrecision(tied, ty), 0.4));
    }

    void apPerfectReversedOneClass()
    {
        const Eigen::VectorXd s = vd({0.9, 0.8, 0.3, 0.1});
        // Perfect: precision 1 at each recall step -> 1.
        QCOMPARE(olens::averagePrecision(s, vi({1, 1, 0, 0})), 1.0);
        // Reversed: t=.3: R .5 P 1/3; t=.1: R 1 P 1/2 -> 1/6 + 1/4 = 5/12.
        QVERIFY(nearAbs(olens::averagePrecision(s, vi({0, 0, 1, 1})), 5.0 / 12.0));
        // No positives: undefined.
        QVERIFY(std::isnan(olens::averagePrecision(s, vi({0, 0, 0, 0}))));
        // All positives: precision is 1 everywhere -> AP 1 (defined, as in scikit-learn).
        QCOMPARE(olens::averagePrecision(s, vi({1, 1, 1, 1})), 1.0);
        // No positives: scikit-learn sets recall to 1 (and precision is 0) at every threshold.
        compareCurve(olens::precisionRecallCurve(vd({2, 1}), vi({0, 0})),
                     {{0.0, 1.0, kInf}, {1.0, 0.0, 2.0}, {1.0, 0.0, 1.0}});
    }

    // ---- Cross-checks on random data -----------------------------------------------------------
    void aurocMatchesPairCountingWithTies()
    {
        // Scores rounded to 0.25 so there are many ties. Reference: Mann–Whitney by brute force,
        // (#pairs positive > negative + 0.5 #tied pairs) / (P·N), and AP by brute force from the
        // definition (one threshold per distinct score).
        Eigen::VectorXd s;
        Eigen::VectorXi y;
        randomData(20240601u, 300, s, y);
        for (Eigen::Index i = 0; i < s.size(); ++i)
            s[i] = std::round(s[i] * 4.0) / 4.0;

        double wins = 0.0;
        long pos = 0, neg = 0;
        for (Eigen::Index i = 0; i < s.size(); ++i) {
            if (y[i] == 1) ++pos; else ++neg;
            for (Eigen::Index j = 0; j < s.size(); ++j) {
                if (y[i] == 1 && y[j] == 0)
                    wins += s[i] > s[j] ? 1.0 : (s[i] == s[j] ? 0.5 : 0.0);
            }
        }
        QVERIFY(nearAbs(olens::auroc(s, y), wins / (double(pos) * double(neg))));

        std::set<double, std::greater<double>> distinct(s.data(), s.data() + s.size());
        QVERIFY(distinct.size() < std::size_t(s.size())); // ties present
        double ap = 0.0, prevR = 0.0;
        for (double t : distinct) {
            long tp = 0, k = 0;
            for (Eigen::Index i = 0; i < s.size(); ++i)
                if (s[i] >= t) { ++k; tp += y[i]; }
            const double r = double(tp) / double(pos);
            ap += (r - prevR) * double(tp) / double(k);
            prevR = r;
        }
        QVERIFY(nearAbs(olens::averagePrecision(s, y), ap));
        QCOMPARE(olens::rocCurve(s, y).x.size(), distinct.size() + 1);
        QCOMPARE(olens::precisionRecallCurve(s, y).x.size(), distinct.size() + 1);
    }

    void aurocInvariantUnderIncreasingTransform()
    {
        Eigen::VectorXd s;
        Eigen::VectorXi y;
        randomData(12345u, 500, s, y);
        const double a = olens::auroc(s, y);
        QVERIFY(a > 0.55 && a < 0.95); // informative but not perfect
        const double ap = olens::averagePrecision(s, y);
        // Strictly increasing maps keep the ranking (and the ties) identical; AUROC is computed
        // from integer counts, so equality is exact.
        const Eigen::VectorXd affine = (3.0 * s.array() + 7.0).matrix();
        const Eigen::VectorXd expo = s.array().exp().matrix();
        const Eigen::VectorXd cube = s.array().cube().matrix();
        const Eigen::VectorXd arctan = s.array().atan().matrix();
        QCOMPARE(olens::auroc(affine, y), a);
        QCOMPARE(olens::auroc(expo, y), a);
        QCOMPARE(olens::auroc(cube, y), a);
        QCOMPARE(olens::auroc(arctan, y), a);
        QCOMPARE(olens::averagePrecision(expo, y), ap);
        QCOMPARE(olens::averagePrecision(cube, y), ap);
    }

    void aurocOfNegatedScores()
    {
        // Without ties, negating the scores turns every won pair into a lost one.
        Eigen::VectorXd s;
        Eigen::VectorXi y;
        randomData(777u, 400, s, y);
        std::set<double> distinct(s.data(), s.data() + s.size());
        QCOMPARE(distinct.size(), std::size_t(s.size())); // no ties
        const Eigen::VectorXd neg = -s;
        QVERIFY(nearAbs(olens::auroc(neg, y), 1.0 - olens::auroc(s, y)));
    }

    // ---- Input validation ------------------------------------------------------------------------
    void badInputThrows()
    {
        const Eigen::VectorXd s3 = vd({0.1, 0.2, 0.3});
        const Eigen::VectorXi y2 = vi({0, 1});
        QVERIFY_THROWS_EXCEPTION(DataError, olens::auroc(s3, y2));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::rocCurve(s3, y2));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::averagePrecision(s3, y2));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::precisionRecallCurve(s3, y2));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::equalErrorRate(s3, y2));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::fnrAtFpr(s3, y2, 0.1));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::confusion(vi({0, 1, 1}), y2));
        // Empty.
        QVERIFY_THROWS_EXCEPTION(DataError, olens::auroc(Eigen::VectorXd(), Eigen::VectorXi()));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::averagePrecision(Eigen::VectorXd(), Eigen::VectorXi()));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::confusion(Eigen::VectorXi(), Eigen::VectorXi()));
        // Labels not 0/1.
        QVERIFY_THROWS_EXCEPTION(DataError, olens::auroc(s3, vi({0, 2, 1})));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::averagePrecision(s3, vi({0, -1, 1})));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::confusion(vi({0, 1, 1}), vi({0, 1, 3})));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::confusion(vi({0, 2, 1}), vi({0, 1, 1})));
        // NaN score cannot be ranked.
        QVERIFY_THROWS_EXCEPTION(
            DataError,
            olens::auroc(vd({0.1, std::numeric_limits<double>::quiet_NaN(), 0.3}), vi({0, 1, 1})));
        // msre shape mismatch / empty.
        QVERIFY_THROWS_EXCEPTION(DataError, olens::msre(Eigen::MatrixXd::Zero(3, 2), Eigen::MatrixXd::Zero(2, 2)));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::msre(Eigen::MatrixXd::Zero(3, 2), Eigen::MatrixXd::Zero(3, 3)));
        QVERIFY_THROWS_EXCEPTION(DataError, olens::msre(Eigen::MatrixXd(), Eigen::MatrixXd()));
    }

    // ---- Confusion-matrix metrics ----------------------------------------------------------------
    void confusionMetrics()
    {
        //  i     :  0 1 2 3 4 5 6 7 8 9
        //  pred  :  1 1 0 0 1 0 0 0 1 0
        //  label :  1 0 0 1 1 0 0 0 0 0
        //  cell  : TP FP TN FN TP TN TN TN FP TN  -> TP 2, FP 2, TN 5, FN 1
        const olens::Confusion c =
            olens::confusion(vi({1, 1, 0, 0, 1, 0, 0, 0, 1, 0}), vi({1, 0, 0, 1, 1, 0, 0, 0, 0, 0}));
        QCOMPARE(c.tp, 2L);
        QCOMPARE(c.fp, 2L);
        QCOMPARE(c.tn, 5L);
        QCOMPARE(c.fn, 1L);
        // precision 2/4 = 0.5; recall 2/3.
        QCOMPARE(olens::precision(c), 0.5);
        QVERIFY(nearAbs(olens::recall(c), 2.0 / 3.0));
        // F1 = 2*(1/2)*(2/3) / (1/2 + 2/3) = (2/3) / (7/6) = 4/7.
        QVERIFY(nearAbs(olens::f1(c), 4.0 / 7.0));
        // TNR = 5/(5+2) = 5/7; NPV = 5/(5+1) = 5/6.
        QVERIFY(nearAbs(olens::tnr(c), 5.0 / 7.0));
        QVERIFY(nearAbs(olens::npv(c), 5.0 / 6.0));
        // F1bar = 2*(5/7)*(5/6) / (5/7 + 5/6) = (50/42) / (65/42) = 10/13.
        QVERIFY(nearAbs(olens::f1Bar(c), 10.0 / 13.0));
    }

    void confusionDegenerate()
    {
        // Everything predicted and labelled inlier: TN 4, rest 0.
        // precision 0/0 -> 0, recall 0/0 -> 0, F1 -> 0; TNR 4/4 = 1, NPV 4/4 = 1, F1bar 1.
        const olens::Confusion c = olens::confusion(vi({0, 0, 0, 0}), vi({0, 0, 0, 0}));
        QCOMPARE(c.tn, 4L);
        QCOMPARE(olens::precision(c), 0.0);
        QCOMPARE(olens::recall(c), 0.0);
        QCOMPARE(olens::f1(c), 0.0);
        QCOMPARE(olens::tnr(c), 1.0);
        QCOMPARE(olens::npv(c), 1.0);
        QCOMPARE(olens::f1Bar(c), 1.0);

        // Everything predicted outlier, labels {1,0,0}: TP 1 FP 2 TN 0 FN 0.
        // precision 1/3, recall 1, F1 = 2*(1/3)/(4/3) = 1/2; TNR 0/2 = 0, NPV 0/0 -> 0, F1bar 0.
        const olens::Confusion d = olens::confusion(vi({1, 1, 1}), vi({1, 0, 0}));
        QVERIFY(nearAbs(olens::precision(d), 1.0 / 3.0));
        QCOMPARE(olens::recall(d), 1.0);
        QVERIFY(nearAbs(olens::f1(d), 0.5));
        QCOMPARE(olens::tnr(d), 0.0);
        QCOMPARE(olens::npv(d), 0.0);
        QCOMPARE(olens::f1Bar(d), 0.0);

        // An empty matrix: every ratio undefined -> 0.
        const olens::Confusion e;
        QCOMPARE(olens::precision(e), 0.0);
        QCOMPARE(olens::recall(e), 0.0);
        QCOMPARE(olens::f1(e), 0.0);
        QCOMPARE(olens::tnr(e), 0.0);
        QCOMPARE(olens::npv(e), 0.0);
        QCOMPARE(olens::f1Bar(e), 0.0);
    }

    // ---- Verification: EER and FNR at FPR ---------------------------------------------------------
    void eerSymmetric()
    {
        // Genuine {-1,1,2,3} and impostor {1,-1,-2,-3} are mirror images about 0, so the EER is
        // reached at threshold 0 with FPR = P(impostor >= 0) = 1/4 = FNR = P(genuine < 0).
        // On the ROC (P = N = 4): 3g 2g {1g,1i} {-1g,-1i} -2i -3i
        //   FPR: 0  0   0    .25   .5  .75 1
        //   FNR: 1 .75 .5    .25   0   0   0     -> FPR − FNR hits 0 at (0.25, 0.25).
        const Eigen::VectorXd sim = vd({-1, 1, 2, 3, 1, -1, -2, -3});
        const Eigen::VectorXi gen = vi({1, 1, 1, 1, 0, 0, 0, 0});
        QVERIFY(nearAbs(olens::equalErrorRate(sim, gen), 0.25));

        // Exactly on a ROC point without ties: 6g 5g 4g 3.5i 3i 2.5i 2g 1i (P = N = 4):
        //   FPR: 0  0  0   0   .25 .5 .75 .75 1
        //   FNR: 1 .75 .5 .25  .25 .25 .25 0  0  -> equal at (0.25, 0.25).
        QVERIFY(nearAbs(olens::equalErrorRate(vd({2, 4, 5, 6, 1, 2.5, 3, 3.5}), vi({1, 1, 1, 1, 0, 0, 0, 0})),
                     0.25));
    }

    void eerInterpolated()
    {
        // Genuine {5,3,1}, impostor {3,0} (P = 3, N = 2), tie at 3:
        //   point  thr   FPR  FNR   FPR−FNR
        //   0      inf   0    1     −1
        //   1      5     0    2/3   −2/3
        //   2      3     1/2  1/3   +1/6      (tie: one genuine and one impostor enter together)
        //   3      1     1/2  0
        //   4      0     1    0
        // Between points 1 and 2: t = (2/3)/(2/3 + 1/6) = 4/5;
        // FPR = 0 + 4/5 * 1/2 = 0.4, FNR = 2/3 + 4/5 * (1/3 − 2/3) = 2/3 − 4/15 = 0.4. EER = 0.4.
        QVERIFY(nearAbs(olens::equalErrorRate(vd({5, 3, 1, 3, 0}), vi({1, 1, 1, 0, 0})), 0.4));

        // No ties: genuine {5,3,2}, impostor {4,1}: 5g 4i 3g 2g 1i
        //   FPR: 0 0   .5  .5  .5  1
        //   FNR: 1 2/3 2/3 1/3 0   0
        //   d  : −1 −2/3 −1/6 +1/6 ...  -> between (.5, 2/3) and (.5, 1/3), t = 1/2:
        //   FPR = .5, FNR = 2/3 − 1/6 = .5. EER = 0.5.
        QVERIFY(nearAbs(olens::equalErrorRate(vd({5, 3, 2, 4, 1}), vi({1, 1, 1, 0, 0})), 0.5));

        // One class: undefined.
        QVERIFY(std::isnan(olens::equalErrorRate(vd({1, 2}), vi({1, 1}))));
    }

    void fnrAtFprValues()
    {
        // Same data as the no-tie case above (FPR / FNR per ROC point):
        //   (0,1) (0,2/3) (.5,2/3) (.5,1/3) (.5,0) (1,0)
        const Eigen::VectorXd sim = vd({5, 3, 2, 4, 1});
        const Eigen::VectorXi gen = vi({1, 1, 1, 0, 0});
        // FPR <= 0: best is (0, 2/3).
        QVERIFY(nearAbs(olens::fnrAtFpr(sim, gen, 0.0), 2.0 / 3.0));
        QVERIFY(nearAbs(olens::fnrAtFpr(sim, gen, 0.49), 2.0 / 3.0));
        // FPR <= 0.5: (.5, 0) qualifies -> 0; the 1e-12 slack admits it from just below too.
        QCOMPARE(olens::fnrAtFpr(sim, gen, 0.5), 0.0);
        QCOMPARE(olens::fnrAtFpr(sim, gen, 0.5 - 1e-13), 0.0);
        QCOMPARE(olens::fnrAtFpr(sim, gen, 1.0), 0.0);
        // Below every operating point except "accept nothing": FNR 1.
        QCOMPARE(olens::fnrAtFpr(sim, gen, -0.1), 1.0);

        // Tie case genuine {5,3,1}, impostor {3,0}: (0,1) (0,2/3) (.5,1/3) (.5,0) (1,0).
        // Target 0.25: only FPR 0 points -> 2/3; the tie at 3 cannot be split.
        QVERIFY(nearAbs(olens::fnrAtFpr(vd({5, 3, 1, 3, 0}), vi({1, 1, 1, 0, 0}), 0.25), 2.0 / 3.0));
        // FPR 1/3 computed as 1.0/3 in the metric and in the target must match: N = 3,
        // genuine {4,3}, impostor {3.5,1,0}: 4g 3.5i 3g 1i 0i:
        //   (0,1) (0,1/2) (1/3,1/2) (1/3,0) (2/3,0) (1,0) -> at target 1/3: 0.
        QCOMPARE(olens::fnrAtFpr(vd({4, 3, 3.5, 1, 0}), vi({1, 1, 0, 0, 0}), 1.0 / 3.0), 0.0);
    }

    // ---- Reconstruction ----------------------------------------------------------------------------
    void msreValue()
    {
        // Rows are samples. Differences: (0,1) -> 1, (2,0) -> 4, (0,-3) -> 9; sum 14, N = 3.
        Eigen::MatrixXd X(3, 2), Xh(3, 2);
        X << 1, 2, 3, 4, 0, 0;
        Xh << 1, 1, 1, 4, 0, 3;
        QVERIFY(nearAbs(olens::msre(X, Xh), 14.0 / 3.0));
        QCOMPARE(olens::msre(X, X), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "TestMetrics.moc"
