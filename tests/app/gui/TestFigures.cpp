// Issue #19 in the window: legends that list only what is drawn (GODS "W2" was listed with nothing
// drawn; the quadrics legend stopped at 6 of 29 and 29 surfaces hid WBC) with a chooser, and
// figures for slides (File → Export figure: PNG at a size / scale with a transparent background,
// SVG and PDF of the plots, PDF of the view, the GUI's --export-plots).
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "docks/EvaluationPanel.h"
#include "reactions/ExportFigureReaction.h"
#include "dialogs/GeometryChooserDialog.h"
#include "GuiTestSupport.h"
#include "window/MainWindow.h"
#include "plots/PlotWidget.h"
#include "reactions/Presets.h"
#include "jobs/TrainingController.h"
#include "docks/ViewControls.h"

#include <QAction>
#include <QFile>
#include <QListWidget>
#include <QProcess>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace olens;

namespace {
using olens::test::sample;

bool has(const CloudView* view, const std::string& text)
{
    const auto& e = view->legendEntries();
    return std::find(e.begin(), e.end(), text) != e.end();
}

QString entries(const CloudView* view)
{
    QStringList out;
    for (const auto& e : view->legendEntries())
        out << QString::fromStdString(e);
    return out.join(" | ");
}

using olens::test::activate;

/// Trains the current detector and waits for its field.
void trainAndWaitForField(MainWindow& w)
{
    QSignalSpy finished(w.trainer(), &TrainingController::finished);
    QSignalSpy field(w.view(), &CloudView::fieldUpdated);
    w.detectorPanel()->train();
    QVERIFY(finished.wait(60000));
    QVERIFY(field.wait(60000));
}
} // namespace

class TestFigures : public QObject {
    Q_OBJECT
private slots:
    void manyQuadricsAreSummarisedAndChosen()
    {
        // WBC (p = 30, PCA 3-D) with Q-BASE: 8 quadrics (defaults: dims = auto = 9 principal axes for
        // 569 rows, m = 9 - 1; the paper's all-features setting gave 29). 3-D default: the first 3
        // drawn, the legend says "3 of 8"; the chooser picks the 3 the selected point violates most.
        MainWindow w;
        w.setInteractive(false);
        activate(w);
        QVERIFY(w.openFile(sample("wbc.csv")));
        QVERIFY(w.detectorPanel()->setCurrentDetector("quadrics-base"));
        trainAndWaitForField(w);
        const auto r = w.document()->result();
        QVERIFY(r);
        QCOMPARE(r->geometry.quadrics.size(), std::size_t(8));
        const GeometryChoice& c = w.view()->geometryChoice();
        QCOMPARE(std::count(c.quadrics.begin(), c.quadrics.end(), true), long(GeometryChoice::kDefaultQuadrics3D));
        QVERIFY2(has(w.view(), "quadrics: 3 of 8 shown (choose: Layers menu)"), qPrintable(entries(w.view())));
        QVERIFY(!has(w.view(), "quadric 1 (zero set)"));
        QVERIFY(w.viewControls()->chooseGeometryAction()->isEnabled());

        w.document()->setSelectedPoint(0);
        GeometryChooserDialog dialog(w.document(), w.view()->geometryChoice());
        QCOMPARE(dialog.list()->count(), 8);
        QVERIFY(dialog.chooseMostViolated(3));
        const GeometryChoice picked = dialog.choice();
        QCOMPARE(std::count(picked.quadrics.begin(), picked.quadrics.end(), true), 3L);
        const Eigen::VectorXd x = r->normalizer.transform(w.document()->dataset().X.row(0)).row(0).transpose();
        const auto top = mostViolatedQuadrics(r->geometry.quadrics, x, 3);
        for (std::size_t q : top)
            QVERIFY(picked.quadrics[q]);
        // Two only: the legend follows at once (no new field needed).
        GeometryChoice two = picked;
        two.quadrics[top[2]] = false;
        w.view()->setGeometryChoice(two);
        QVERIFY2(has(w.view(), "quadrics: 2 of 8 shown (choose: Layers menu)"), qPrintable(entries(w.view())));
        // A retraining with the same count keeps the user's choice.
        trainAndWaitForField(w);
        QCOMPARE(w.view()->geometryChoice().quadrics, two.quadrics);
    }

    void framesWithNothingDrawnAreNotListed()
    {
        // The GODS Gaussian preset (2-D, K = 1): frame W2's plane lies outside the grid box —
        // nothing is drawn for it, so the legend does not list it; W1 crosses the data.
        MainWindow w;
        w.setInteractive(false);
        activate(w);
        const auto presets = availablePresets();
        const auto it = std::find_if(presets.begin(), presets.end(), [](const Preset& p) { return p.detector == "gods"; });
        QVERIFY(it != presets.end());
        QSignalSpy field(w.view(), &CloudView::fieldUpdated);
        QSignalSpy finished(w.trainer(), &TrainingController::finished);
        QVERIFY(w.presets()->apply(*it, true));
        QVERIFY(finished.wait(60000));
        QVERIFY(field.wait(60000));
        QVERIFY(w.document()->result());
        const auto& frames = w.document()->result()->geometry.frames;
        QCOMPARE(frames.size(), std::size_t(2));
        const std::vector<bool> drawn = framesOnGrid(*w.view()->field(), 2);
        QVERIFY(drawn[0]);
        QVERIFY(!drawn[1]); // the situation of the screenshot
        QVERIFY2(has(w.view(), frames[0].name), qPrintable(entries(w.view())));
        QVERIFY2(!has(w.view(), frames[1].name), qPrintable(entries(w.view())));
        // Hidden by the user: W1 leaves the legend too.
        GeometryChoice c = w.view()->geometryChoice();
        c.frames[0] = false;
        w.view()->setGeometryChoice(c);
        QVERIFY(!has(w.view(), frames[0].name));
    }

    void figuresForSlides()
    {
        MainWindow w;
        w.setInteractive(false);
        activate(w);
        QVERIFY(w.openFile(sample("moons2d.csv")));
        QVERIFY(w.detectorPanel()->setCurrentDetector("knn"));
        trainAndWaitForField(w);
        QVERIFY(w.action("actionExportFigure"));
        const auto targets = ExportFigureReaction::targets(w.context(), w.compareReaction());
        QVERIFY(!targets.front().plot);
        PlotWidget* roc = w.evaluationPanel()->rocPlot();
        const auto rocTarget = std::find_if(targets.begin(), targets.end(), [&](const auto& t) { return t.plot == roc; });
        QVERIFY(rocTarget != targets.end());
        QTemporaryDir dir;

        // The view at a chosen size with a transparent background; the widget keeps its size.
        const QSize before = w.view()->size();
        FigureOptions o;
        o.size = QSize(900, 560);
        o.transparent = true;
        QCOMPARE(ExportFigureReaction::save(w.context(), w.compareReaction(), targets.front(), o, dir.filePath("view.png")), QString());
        QImage view(dir.filePath("view.png"));
        QCOMPARE(view.size(), QSize(900, 560) * w.view()->devicePixelRatioF());
        QCOMPARE(w.view()->size(), before);
        QVERIFY(view.hasAlphaChannel());
        QCOMPARE(qAlpha(view.pixel(2, view.height() - 3)), 0); // the background: transparent
        int opaque = 0, partial = 0;
        for (int y = 0; y < view.height(); y += 2)
            for (int x = 0; x < view.width(); x += 2) {
                const int a = qAlpha(view.pixel(x, y));
                opaque += a == 255;
                partial += a > 0 && a < 255;
            }
        QVERIFY2(opaque > 1000, qPrintable(QString::number(opaque))); // points, lines, labels, colour bar
        QVERIFY(partial > 0); // antialiased edges / the translucent field keep their coverage
        // Opaque without --transparent.
        o.transparent = false;
        QCOMPARE(ExportFigureReaction::save(w.context(), w.compareReaction(), targets.front(), o, dir.filePath("view-white.png")), QString());
        QCOMPARE(qAlpha(QImage(dir.filePath("view-white.png")).pixel(2, 2)), 255);
        // The view as PDF (vector text over the rendered scene); SVG of the view is refused with a reason.
        o.format = "pdf";
        QCOMPARE(ExportFigureReaction::save(w.context(), w.compareReaction(), targets.front(), o, dir.filePath("view.pdf")), QString());
        QFile pdf(dir.filePath("view.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray pdfBytes = pdf.readAll();
        QVERIFY(pdfBytes.startsWith("%PDF"));
        QVERIFY(pdfBytes.size() > 20000); // the scene is in it as an image
        o.format = "svg";
        QVERIFY(ExportFigureReaction::save(w.context(), w.compareReaction(), targets.front(), o, dir.filePath("view.svg")).contains("PNG or PDF"));

        // A plot: PNG at 2× (transparent), SVG with its text as text, PDF.
        o = FigureOptions();
        o.scale = 2.0;
        o.transparent = true;
        QCOMPARE(ExportFigureReaction::save(w.context(), w.compareReaction(), *rocTarget, o, dir.filePath("roc.png")), QString());
        const QImage rocPng(dir.filePath("roc.png"));
        QCOMPARE(rocPng.size(), roc->size() * 2);
        QCOMPARE(qAlpha(rocPng.pixel(1, 1)), 0);
        o.format = "svg";
        QCOMPARE(ExportFigureReaction::save(w.context(), w.compareReaction(), *rocTarget, o, dir.filePath("roc.svg")), QString());
        QFile svgFile(dir.filePath("roc.svg"));
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svg = svgFile.readAll();
        QVERIFY(svg.contains(">false positive rate</text>"));
        QVERIFY(svg.contains("<polyline"));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(QPoint(0, 0), roc->size())); // drawn at the widget's size
        o.format = "pdf";
        QCOMPARE(ExportFigureReaction::save(w.context(), w.compareReaction(), *rocTarget, o, dir.filePath("roc.pdf")), QString());
        QFile rocPdf(dir.filePath("roc.pdf"));
        QVERIFY(rocPdf.open(QIODevice::ReadOnly) && rocPdf.readAll().startsWith("%PDF"));
    }

    void exportPlotsAndSizedScreenshotFromTheCommandLine()
    {
        QTemporaryDir dir;
        QProcess p;
        p.start(QStringLiteral(OLENS_GUI_PATH),
                {"--load", sample("moons2d.csv"), "--detector", "knn", "--train", "--screenshot", dir.filePath("v.png"),
                 "--screenshot-size", "640x400", "--transparent", "--export-plots", dir.filePath("plots"), "--exit"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QImage v(dir.filePath("v.png"));
        QCOMPARE(v.size(), QSize(640, 400));
        QCOMPARE(qAlpha(v.pixel(1, v.height() - 2)), 0);
        for (const char* f : {"roc.svg", "roc.png", "precision-recall.svg", "scores-by-class.svg"})
            QVERIFY2(QFile::exists(dir.filePath(QStringLiteral("plots/") + f)), f);
        QProcess bad;
        bad.start(QStringLiteral(OLENS_GUI_PATH), {"--load", sample("moons2d.csv"), "--screenshot", dir.filePath("x.png"),
                                                   "--screenshot-size", "big", "--exit"});
        QVERIFY(bad.waitForFinished(60000));
        QVERIFY(bad.exitCode() != 0);
        QVERIFY(bad.readAllStandardError().contains("--screenshot-size"));
    }
};

OLENS_GUI_TEST_MAIN(TestFigures)
#include "TestFigures.moc"
