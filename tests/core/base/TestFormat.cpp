// formatDuration (core/base/Format): the unit keeps 2–3 significant digits, the text is rounded to
// what it shows, and a value that rounds into the next unit is written in that unit.
#include "base/Format.h"

#include <QtTest>
#include <cmath>
#include <limits>

using namespace olens;

class TestFormat : public QObject {
    Q_OBJECT
private slots:
    void durationsUseASensibleUnit()
    {
        const std::pair<double, const char*> cases[] = {
            {0.0, "0 \u00b5s"},          {4.5e-5, "45 \u00b5s"},   {9.96e-5, "0.1 ms"},
            {8.0e-4, "0.8 ms"},          {0.00123, "1.2 ms"},      {0.00996, "10 ms"},
            {0.048, "48 ms"},            {0.4804, "480 ms"},       {0.9996, "1.0 s"},
            {2.34, "2.3 s"},             {9.96, "10 s"},           {48.2, "48 s"},
            {59.6, "1 min 00 s"},        {125.0, "2 min 05 s"},    {3725.0, "1 h 02 min"},
        };
        for (const auto& [seconds, text] : cases)
            QVERIFY2(formatDuration(seconds) == text,
                     qPrintable(QString("%1 s -> '%2', expected '%3'")
                                    .arg(seconds).arg(QString::fromStdString(formatDuration(seconds)), text)));
    }

    void invalidDurationsAreADash()
    {
        QCOMPARE(QString::fromStdString(formatDuration(-1.0)), QString::fromUtf8("\u2013"));
        QCOMPARE(QString::fromStdString(formatDuration(std::numeric_limits<double>::quiet_NaN())),
                 QString::fromUtf8("\u2013"));
        QCOMPARE(QString::fromStdString(formatDuration(std::numeric_limits<double>::infinity())),
                 QString::fromUtf8("\u2013"));
    }
};

QTEST_APPLESS_MAIN(TestFormat)
#include "TestFormat.moc"
