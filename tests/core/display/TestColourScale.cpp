// The colour bar's numbers without a window (core/display/ColourScale): each range mode gives the
// analytic ends on known values, clipping is reported exactly when values fall outside, log scales
// stay positive, positions invert, and tick labels are short, common-precision and never "191.".
#include "display/ColourScale.h"

#include "Numeric.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace olens;

namespace {

using test::near;

/// 0, 1, …, 100 and one outlier at 1000 (101 values below it: the 99th percentile is 99).
Eigen::VectorXd rampWithOutlier()
{
    Eigen::VectorXd v(102);
    for (int i = 0; i <= 100; ++i)
        v(i) = i;
    v(101) = 1000.0;
    return v;
}

ColourRangeSpec spec(ColourRangeMode mode)
{
    ColourRangeSpec s;
    s.mode = mode;
    return s;
}

} // namespace

class TestColourScale : public QObject {
    Q_OBJECT

private slots:
    void rangesEqualThoseOfTheSortedValues()
    {
        // The ends are order statistics found by selection (no sort of a million scores): the
        // same values as indexing the sorted finite values at ⌊q·(n − 1)⌋, computed here by sorting.
        std::mt19937 gen(5);
        std::lognormal_distribution<double> dist(0.0, 1.5);
        for (int n : {1, 2, 7, 1000, 4321}) {
            Eigen::VectorXd v(n + 2);
            std::vector<double> finite;
            for (int i = 0; i < n; ++i) {
                v(i) = std::floor(dist(gen) * 8.0) / 8.0; // ties
                finite.push_back(v(i));
            }
            v(n) = std::numeric_limits<double>::quiet_NaN();
            v(n + 1) = std::numeric_limits<double>::infinity();
            std::sort(finite.begin(), finite.end());
            const auto at = [&](double q) { return finite[static_cast<std::size_t>(q * double(finite.size() - 1) + 1e-9)]; };
            const ColourScale a = colourScale(v, spec(ColourRangeMode::Auto));
            QCOMPARE(a.dataMin, finite.front());
            QCOMPARE(a.dataMax, finite.back());
            if (at(0.99) > finite.front())
                QCOMPARE(a.hi, at(0.99));
            ColourRangeSpec p = spec(ColourRangeMode::Percentile);
            p.percentile = 90.0;
            const ColourScale b = colourScale(v, p);
            if (at(0.9) > at(0.1)) {
                QCOMPARE(b.lo, at(0.1));
                QCOMPARE(b.hi, at(0.9));
            }
        }
    }

    void autoStopsAtThe99thPercentileAndReportsTheClip()
    {
        const ColourScale c = colourScale(rampWithOutlier(), spec(ColourRangeMode::Auto));
        QCOMPARE(c.lo, 0.0);
        QCOMPARE(c.hi, 99.0); // sorted index ⌊0.99·101⌋ = 99
        QVERIFY(c.clippedHigh());
        QVERIFY(!c.clippedLow());
        QCOMPARE(c.dataMax, 1000.0);
    }

    void minMaxSpansTheValuesWithoutClipping()
    {
        const ColourScale c = colourScale(rampWithOutlier(), spec(ColourRangeMode::MinMax));
        QCOMPARE(c.lo, 0.0);
        QCOMPARE(c.hi, 1000.0);
        QVERIFY(!c.clippedHigh() && !c.clippedLow());
    }

    void symmetricIsCentredOnZero()
    {
        Eigen::VectorXd v(4);
        v << -0.5, 0.1, 0.2, 2.0;
        const ColourScale c = colourScale(v, spec(ColourRangeMode::Symmetric));
        QCOMPARE(c.lo, -2.0);
        QCOMPARE(c.hi, 2.0);
        QVERIFY(!c.clippedHigh() && !c.clippedLow());
    }

    void percentileClipsBothEnds()
    {
        ColourRangeSpec s = spec(ColourRangeMode::Percentile);
        s.percentile = 90.0;
        Eigen::VectorXd v(101);
        for (int i = 0; i <= 100; ++i)
            v(i) = i;
        const ColourScale c = colourScale(v, s);
        QCOMPARE(c.lo, 10.0);
        QCOMPARE(c.hi, 90.0);
        QVERIFY(c.clippedLow() && c.clippedHigh());
    }

    void manualRangeIsKeptAndClipsWhatLiesOutside()
    {
        ColourRangeSpec s = spec(ColourRangeMode::Manual);
        s.lo = 0.0;
        s.hi = 0.0326;
        Eigen::VectorXd v(3);
        v << 0.001, 0.02, 0.44;
        const ColourScale c = colourScale(v, s);
        QCOMPARE(c.lo, 0.0);
        QCOMPARE(c.hi, 0.0326);
        QVERIFY(c.clippedHigh());
        QVERIFY(!c.clippedLow());
        // An inverted or empty manual range is widened, never empty.
        s.lo = 2.0;
        s.hi = 2.0;
        const ColourScale d = colourScale(v, s);
        QVERIFY(d.hi > d.lo);
    }

    void logScaleStaysPositive()
    {
        Eigen::VectorXd v(5);
        v << 0.0, 1e-3, 1e-2, 1.0, 10.0;
        ColourRangeSpec s = spec(ColourRangeMode::MinMax);
        s.log = true;
        const ColourScale c = colourScale(v, s);
        QVERIFY(c.log);
        QCOMPARE(c.lo, 1e-3); // the smallest positive value
        QCOMPARE(c.hi, 10.0);
        QVERIFY(c.clippedLow()); // 0 cannot be shown on a log scale
        QVERIFY(near(colourPosition(c, 0.1), 0.5)); // 10^-1 halfway between 10^-3 and 10^1
        QCOMPARE(colourPosition(c, 0.0), 0.0);
        QVERIFY(near(colourValueAt(c, 0.25), 1e-2));
        // Nothing positive: log is not applied.
        Eigen::VectorXd neg(2);
        neg << -3.0, -1.0;
        QVERIFY(!colourScale(neg, s).log);
    }

    void positionsAreClampedAndInvert()
    {
        const ColourScale c = colourScale(rampWithOutlier(), spec(ColourRangeMode::Auto));
        QCOMPARE(colourPosition(c, -5.0), 0.0);
        QCOMPARE(colourPosition(c, 5000.0), 1.0);
        QVERIFY(near(colourValueAt(c, colourPosition(c, 33.0)), 33.0));
        QCOMPARE(colourPosition(c, std::numeric_limits<double>::quiet_NaN()), 0.0);
    }

    void nonFiniteValuesAreIgnored()
    {
        Eigen::VectorXd v(4);
        v << 1.0, std::numeric_limits<double>::infinity(), 3.0, std::nan("");
        const ColourScale c = colourScale(v, spec(ColourRangeMode::MinMax));
        QCOMPARE(c.lo, 1.0);
        QCOMPARE(c.hi, 3.0);
        QVERIFY(!c.clippedHigh());
    }

    void ticksLieOnTheBar()
    {
        const ColourScale c = colourScale(rampWithOutlier(), spec(ColourRangeMode::Auto));
        const auto t = colourBarTicks(c, 5);
        QVERIFY(t.size() >= 3 && t.size() <= 7);
        for (double v : t)
            QVERIFY(v >= c.lo && v <= c.hi);
        ColourRangeSpec s = spec(ColourRangeMode::MinMax);
        s.log = true;
        Eigen::VectorXd v(2);
        v << 1e-4, 1e2;
        const ColourScale lc = colourScale(v, s);
        const auto lt = colourBarTicks(lc, 5);
        QVERIFY(lt.size() >= 2 && lt.size() <= 6);
        for (double x : lt)
            QVERIFY(x >= lc.lo * (1 - 1e-9) && x <= lc.hi * (1 + 1e-9));
    }

    void countsGetWholeNumberTicks()
    {
        // "flagged by 0 … 3 detectors": 0, 1, 2, 3 — not 0.5 steps, which name no count.
        Eigen::VectorXd v(5);
        v << 0, 1, 3, 2, 0;
        ColourScale c = colourScale(v, spec(ColourRangeMode::MinMax));
        QVERIFY(colourBarTicks(c, 8).size() > 4); // halves without the flag
        c.counts = true;
        QCOMPARE(colourBarTicks(c, 8), (std::vector<double>{0, 1, 2, 3}));
        c.hi = 12; // more counts than ticks: whole steps still
        for (double t : colourBarTicks(c, 4))
            QCOMPARE(t, std::round(t));
    }

    void labelsAreShortAndShareTheirPrecision()
    {
        using L = std::vector<std::string>;
        QCOMPARE(tickLabels({0.0, 0.01, 0.02, 0.03}, false), (L{"0.00", "0.01", "0.02", "0.03"}));
        QCOMPARE(tickLabels({100.0, 150.0, 200.0}, false), (L{"100", "150", "200"})); // no "191."
        QCOMPARE(tickLabels({-1.0, -0.5, 0.0, 0.5}, false), (L{"-1.0", "-0.5", "0.0", "0.5"}));
        QCOMPARE(tickLabels({0.0, 5e5, 1e6}, false), (L{"0e+00", "5e+05", "1e+06"}));
        QCOMPARE(tickLabels({1e-4, 1e-2, 1.0, 100.0}, true), (L{"1e-04", "1e-02", "1e+00", "1e+02"}));
        QCOMPARE(tickLabels({0.1, 0.2, 0.5, 1.0}, true), (L{"0.1", "0.2", "0.5", "1"}));
        for (const auto& s : tickLabels({1310.0, 1320.0}, false))
            QVERIFY(s.size() <= 8 && s.back() != '.');
    }

    void percentileRanksAreTheMidRankEmpiricalCdf()
    {
        // Reference 1..4 (n = 4, distinct): the i-th smallest has (i − ½)/4 — Hazen's position,
        // computed by hand; a value between two reference values has the count below it over n;
        // outside the range 0 and 1; ties share their mean rank; NaN in the reference is ignored.
        Eigen::VectorXd ref(5);
        ref << 3.0, 1.0, std::numeric_limits<double>::quiet_NaN(), 4.0, 2.0;
        Eigen::VectorXd at(7);
        at << 1.0, 2.0, 3.0, 4.0, 2.5, -10.0, 10.0;
        const Eigen::VectorXd r = percentileRanks(ref, at);
        const double expected[] = {0.125, 0.375, 0.625, 0.875, 0.5, 0.0, 1.0};
        for (int i = 0; i < 7; ++i)
            QVERIFY2(near(r(i), expected[i]), qPrintable(QString("at %1: %2").arg(at(i)).arg(r(i))));
        Eigen::VectorXd ties(4);
        ties << 1.0, 1.0, 1.0, 5.0; // the three 1s hold ranks 1..3: mean (2 − ½)/4
        Eigen::VectorXd one(1);
        one << 1.0;
        QVERIFY(near(percentileRanks(ties, one)(0), 0.375));
        // Invariance: ranks do not change under a strictly increasing transform of both sides
        // (the reason compare mode colours by them: detectors score on different scales).
        const Eigen::VectorXd expRanks = percentileRanks(ref.array().exp().matrix(), at.array().exp().matrix());
        for (int i = 0; i < 7; ++i)
            QVERIFY(near(expRanks(i), r(i)));
        QVERIFY(std::isnan(percentileRanks(Eigen::VectorXd(), one)(0)));
    }
};

QTEST_APPLESS_MAIN(TestColourScale)
#include "TestColourScale.moc"
