// The Detector dock's plot appears only with a trace to draw, and its axes say what they show: no
// plot for detectors without a loss (knn), the convergence trace of an iterative method against
// "iteration", the live loss of the quadrics against "epoch".
#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "docks/LogPanel.h"
#include "GuiTestSupport.h"
#include "plots/PlotWidget.h"
#include "jobs/TrainingController.h"
#include "data/Generators.h"

#include <QApplication>
#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QtTest>

using namespace olens;

namespace {

/// Trains `id` on generated data (two moons unless named) in a shown panel; returns once finished.
struct Panel {
    DataDocument doc;
    TrainingController controller{&doc};
    DetectorPanel panel{&doc, &controller};

    bool train(const QString& id, const char* data = "moons")
    {
        panel.resize(360, 640);
        panel.show();
        if (!QTest::qWaitForWindowExposed(&panel, 60000))
            return false;
        doc.setDataset(generate(data, 200, 1), "generated.csv");
        if (!panel.setCurrentDetector(id))
            return false;
        QSignalSpy finished(&controller, &TrainingController::finished);
        panel.train();
        return finished.wait(60000) && doc.result();
    }
};

} // namespace

class TestDetectorPanel : public QObject {
    Q_OBJECT

private slots:
    void timeLeftIsInTheBarAndAReportDoesNotRelayTheDockOut()
    {
        // Progress reports arrive ten times a second with a new time left. Each must repaint the
        // bar only: the old panel wrote the time into its word-wrapped status label, which posted
        // a layout request (a relayout and a second repaint of the window) at every report.
        Panel p;
        p.panel.resize(360, 640);
        p.panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.panel, 60000));
        auto* bar = p.panel.findChild<QProgressBar*>();
        QVERIFY(bar);
        // The bar's throttle measures kBarIntervalMs from the report it last showed: a clock started
        // right after that report runs behind the panel's, so once it has passed the interval the
        // panel's has too (waiting on that state, not sleeping a guess of it).
        QElapsedTimer sinceShown;
        auto intervalPassed = [&] {
            return QTest::qWaitFor([&] { return sinceShown.elapsed() >= DetectorPanel::kBarIntervalMs; }, 20000);
        };
        emit p.controller.progress(0.10, QStringLiteral("knn: neighbour queries"), 12.0);
        sinceShown.start();
        QCoreApplication::processEvents();
        QVERIFY2(bar->text().contains(QStringLiteral("12 s left")), qPrintable(bar->text()));
        struct LayoutCounter : QObject {
            int n = 0;
            bool eventFilter(QObject*, QEvent* e) override
            {
                n += e->type() == QEvent::LayoutRequest;
                return false;
            }
        } counter;
        for (QWidget* w = bar; w; w = w->parentWidget())
            w->installEventFilter(&counter);
        for (QLabel* l : p.panel.findChildren<QLabel*>())
            l->installEventFilter(&counter);
        for (int k = 1; k <= 4; ++k) {
            QVERIFY(intervalPassed());
            emit p.controller.progress(0.10 + 0.1 * k, QStringLiteral("knn: neighbour queries"), 12.0 - 2.1 * k);
            sinceShown.start();
            QCoreApplication::processEvents();
        }
        // Reports closer together than kBarIntervalMs leave the bar as it is (a repaint each would
        // be a composition of the window each): two follow the one just shown at once (no event
        // processing in between). A machine that stalled longer than the interval between them
        // shows them rightly, so the three are sent again: the check needs them within it.
        for (int attempt = 0;; ++attempt) {
            QVERIFY(intervalPassed());
            QElapsedTimer shownNow; // started before the report: at least the panel's time since it
            shownNow.start();
            emit p.controller.progress(0.60, QStringLiteral("knn: neighbour queries"), 1.5);
            sinceShown.start();
            emit p.controller.progress(0.62, QStringLiteral("knn: neighbour queries"), 1.4);
            emit p.controller.progress(0.64, QStringLiteral("knn: neighbour queries"), 1.3);
            const bool within = shownNow.elapsed() < DetectorPanel::kBarIntervalMs;
            QCoreApplication::processEvents();
            if (within)
                break;
            QVERIFY2(attempt < 50, "the machine stalled longer than the bar interval 50 times in a row");
        }
        QVERIFY2(bar->text().contains(QStringLiteral("1.5 s left")), qPrintable(bar->text()));
        QCOMPARE(bar->value(), 600);
        QCOMPARE(counter.n, 0);
        // The next one after the interval is shown.
        QVERIFY(intervalPassed());
        emit p.controller.progress(0.66, QStringLiteral("knn: neighbour queries"), 1.2);
        QCOMPARE(bar->value(), 660);
        // A new phase is news: the label says it.
        bool shown = false;
        emit p.controller.progress(0.7, QStringLiteral("ranking"), -1.0);
        for (QLabel* l : p.panel.findChildren<QLabel*>())
            shown = shown || l->text() == QStringLiteral("ranking");
        QVERIFY(shown);
        QCOMPARE(bar->text(), QStringLiteral("70%"));
    }

    void newDataClearTheLastTrainingsState()
    {
        // After training, loading other data left "100 %" and "trained in 0.04 s" in the dock.
        Panel p;
        QVERIFY(p.train("knn"));
        auto* bar = p.panel.findChild<QProgressBar*>();
        QCOMPARE(bar->value(), bar->maximum());
        p.doc.setDataset(generate("blobs", 150, 2), "other.csv");
        QCOMPARE(bar->value(), 0);
        bool said = false;
        for (QLabel* l : p.panel.findChildren<QLabel*>())
            said = said || l->text().contains("not trained on these data yet");
        QVERIFY(said);
        for (QLabel* l : p.panel.findChildren<QLabel*>())
            QVERIFY2(!l->text().contains("trained in"), qPrintable(l->text()));
    }

    void noPlotWithoutATrace()
    {
        Panel p;
        QVERIFY(!p.panel.lossPlot()->isVisibleTo(&p.panel)); // nothing trained yet
        QVERIFY(p.train("knn"));
        QVERIFY(!p.panel.lossPlot()->isVisibleTo(&p.panel));
    }

    void iterativeMethodsShowTheirConvergenceAgainstIterations()
    {
        Panel p;
        QVERIFY(p.train("gods", "seam")); // K = 3 hyperplanes need 3 features
        QVERIFY(p.panel.lossPlot()->isVisibleTo(&p.panel));
        QCOMPARE(p.panel.lossPlot()->shownAxisTitles().first, QStringLiteral("iteration"));
    }

    void theLogEscapesWhatFilesSay()
    {
        // #51: messages quote values from files (a detector id with ESC sequences in a session);
        // the Log showed them raw and unbounded. Control characters are escaped, lines kept, the
        // length bounded.
        LogPanel log;
        log.error(QStringLiteral("unknown detector '\x1b[31mevil'\nsecond line"));
        log.info(QString(100000, QLatin1Char('a')));
        const QString text = log.toPlainText();
        QVERIFY(!text.contains(QChar(0x1b)));
        QVERIFY(text.contains(QLatin1String("'\\x1B[31mevil'")));
        QVERIFY(text.contains(QLatin1String("second line")));
        QVERIFY2(text.size() < 5000, qPrintable(QString::number(text.size())));
    }

    void quadricsLossIsPlottedAgainstEpochs()
    {
        Panel p;
        QVERIFY(p.panel.form());
        QVERIFY(p.train("quadrics"));
        QVERIFY(p.panel.lossPlot()->isVisibleTo(&p.panel));
        QCOMPARE(p.controller.lossAxis(), QStringLiteral("epoch"));
    }
};

OLENS_GUI_TEST_MAIN(TestDetectorPanel)
#include "TestDetectorPanel.moc"
