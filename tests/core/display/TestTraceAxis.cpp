// Convergence-plot axes without a window (core/display/TraceAxis): y goes on a log axis exactly
// when positive values span decades, and objectives below zero are drawn as their distance to the
// minimum. (The x axis is the StepMark each report carries: TestDetectors.)
#include "display/TraceAxis.h"

#include <QtTest>
#include <cmath>

using namespace olens;

class TestTraceAxis : public QObject {
    Q_OBJECT

private slots:
    void logAxisOnlyWhenPositiveValuesSpanDecades()
    {
        QVERIFY(spansDecades({1.0, 0.1, 0.001}));
        QVERIFY(!spansDecades({1.0, 0.5, 0.2}));
        QVERIFY(!spansDecades({1.0, -1.0, 1e-5}));
        QVERIFY(spansDecades({1.0, std::nan(""), 1e-3}));
        TracePlot p = convergencePlot({10.0, 1.0, 0.1, 0.01});
        QVERIFY(p.logY);
        QVERIFY(!p.aboveMinimum);
        QCOMPARE(p.y[2], 0.1);
        p = convergencePlot({3.0, 2.5, 2.2});
        QVERIFY(!p.logY); // less than a decade: linear
    }

    void negativeObjectivesAreShownAboveTheirMinimum()
    {
        // A KODS-like objective: −5, −5.9, −5.99, −6 → 1, 0.1, 0.01 above the minimum (log axis).
        const TracePlot p = convergencePlot({-5.0, -5.9, -5.99, -6.0});
        QVERIFY(p.aboveMinimum);
        QVERIFY(p.logY);
        QCOMPARE(p.y.size(), std::size_t(4));
        QVERIFY(std::fabs(p.y[0] - 1.0) < 1e-12);
        QVERIFY(std::fabs(p.y[2] - 0.01) < 1e-9);
        QVERIFY(std::isnan(p.y[3])); // the minimum itself has no place on a log axis
    }
};

QTEST_APPLESS_MAIN(TestTraceAxis)
#include "TestTraceAxis.moc"
