// The Detector dock's plot appears only with a trace to draw, and its axes say what they show: no
// plot for detectors without a loss (knn), the convergence trace of an iterative method against
// "iteration", the live loss of the quadrics against "epoch".
#include "DataDocument.h"
#include "DetectorPanel.h"
#include "GuiTestSupport.h"
#include "PlotWidget.h"
#include "TrainingController.h"
#include "data/Generators.h"

#include <QApplication>
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
        if (!QTest::qWaitForWindowExposed(&panel))
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
