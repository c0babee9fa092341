// The main window shell: opening samples (2D, 3D, p>3, PLY), errors keep the previous data,
// status bar, and the headless --load/--screenshot/--exit flags of the real executable.
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "dialogs/ParamForm.h"
#include "docks/RankingPanel.h"
#include "jobs/TrainingController.h"
#include "docks/ViewControls.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "data/Generators.h"

#include <QCheckBox>
#include <QSpinBox>
#include <set>
#include "GuiTestSupport.h"
#include "docks/LogPanel.h"
#include "modes/ClassroomReaction.h"
#include "modes/CompareReaction.h"
#include "window/MainWindow.h"
#include "reactions/Presets.h"
#include "scripted/LayoutReport.h"

#include <QApplication>
#include <QDockWidget>
#include <QJsonObject>
#include <QDialog>
#include <QScreen>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QDockWidget>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace olens;

namespace {
using olens::test::sample;

// Pixels that are neither background white nor near-grey (axes/text): the coloured points.
int colouredPixels(const QImage& img)
{
    int count = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2) {
            const QColor c(img.pixel(x, y));
            if (c.saturation() > 80 && c.value() > 60)
                ++count;
        }
    return count;
}

// Near-black pixels: the emphasised threshold contour (and a little axis text).
int darkPixels(const QImage& img)
{
    int count = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            if (qRed(c) < 40 && qGreen(c) < 40 && qBlue(c) < 40)
                ++count;
        }
    return count;
}

QString statusText(MainWindow& w)
{
    for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
        if (l->text().contains("n = "))
            return l->text();
    return {};
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void hasTheDocks()
    {
        MainWindow w;
        QStringList titles;
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            titles << d->windowTitle();
        for (const char* t : {"Data", "Detector", "Ranking", "Evaluation", "Log"})
            QVERIFY2(titles.contains(t), t);
    }

    void opensSamplesInTheRightMode()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));

        QVERIFY(w.openFile(sample("moons2d.csv")));
        QCOMPARE(w.view()->mode(), VtkView::Mode::View2D);
        QVERIFY(statusText(w).startsWith("n = 300   p = 2   file: moons2d.csv"));
        QVERIFY(colouredPixels(w.view()->grabImage()) > 200);

        QVERIFY(w.openFile(sample("seam3d.csv")));
        QCOMPARE(w.view()->mode(), VtkView::Mode::View3D);
        QVERIFY(w.view()->projectionNote().isEmpty());
        QVERIFY(colouredPixels(w.view()->grabImage()) > 200);

        QVERIFY(w.openFile(sample("blobs5d.csv")));
        QCOMPARE(w.view()->mode(), VtkView::Mode::View3D);
        QVERIFY(w.view()->projectionNote().startsWith("PCA projection of 5 features"));

        QVERIFY(w.openFile(sample("torus.ply")));
        QCOMPARE(w.document()->dataset().rows(), Eigen::Index(400));
        QCOMPARE(w.document()->dataset().cols(), Eigen::Index(3));
    }

    void badFileKeepsPreviousData()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.csv");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("x,y\n1,2\n3,abc\n");
        }
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(sample("seam3d.csv")));
        QString error;
        QVERIFY(!w.openFile(bad, &error));
        QVERIFY2(error.contains("bad.csv:3:2"), qPrintable(error));
        QCOMPARE(w.document()->dataset().rows(), Eigen::Index(200));
        QVERIFY(w.log()->toPlainText().contains("bad.csv:3:2"));
        QVERIFY(!w.openFile(dir.filePath("nope.csv"), &error));
        QCOMPARE(w.document()->dataset().rows(), Eigen::Index(200));
    }

    void headlessScreenshotOfTheExecutable()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath("s.png");
        QProcess p;
        p.start(QStringLiteral(OLENS_GUI_PATH), {"--load", sample("seam3d.csv"), "--screenshot", png, "--exit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QImage img(png);
        QVERIFY(!img.isNull());
        QVERIFY(colouredPixels(img) > 200);

        // A load failure exits non-zero with the reason.
        QProcess q;
        q.start(QStringLiteral(OLENS_GUI_PATH), {"--load", dir.filePath("missing.csv"), "--exit"});
        QVERIFY(q.waitForFinished(60000));
        QVERIFY(q.exitCode() != 0);
        QVERIFY(q.readAllStandardError().contains("missing.csv"));
    }

    void rankingGetsTheRoomOnALaptopAndTheLayoutReportSaysSo()
    {
        // Issue #35: at 1280×720 the Ranking showed 2 rows (Evaluation stacked under it); below 900 px
        // of height they now share the right column as tabs. Real labelled data (WBC, 569 rows), knn.
        for (const QSize size : {QSize(1280, 720), QSize(1024, 600)}) {
            MainWindow w;
            w.setInteractive(false);
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
            QVERIFY(w.openFile(sample("wbc.csv")));
            QSignalSpy finished(w.trainer(), &TrainingController::finished);
            QVERIFY(w.detectorPanel()->setCurrentDetector("knn"));
            w.detectorPanel()->train();
            QVERIFY(finished.wait(30000));
            const int want = size.height() >= 720 ? 12 : 6;
            QTRY_VERIFY2_WITH_TIMEOUT(LayoutReport::rankingVisibleRows(&w) >= want,
                                      qPrintable(QString("%1x%2: %3 rows visible, want %4").arg(size.width()).arg(size.height())
                                                     .arg(LayoutReport::rankingVisibleRows(&w)).arg(want)), 5000);
            // The report as --layout-report writes it.
            const QJsonObject r = LayoutReport::report(&w);
            QCOMPARE(r["window"].toObject()["height"].toInt(), w.height());
            QCOMPARE(r["ranking_rows"].toInt(), 569);
            QVERIFY(r["docks"].toObject()["RankingDock"].toObject()["visible"].toBool());
            // View → Reset layout brings the first arrangement back after the user closed the Ranking.
            w.findChild<QDockWidget*>("RankingDock")->close();
            QCOMPARE(LayoutReport::rankingVisibleRows(&w), 0);
            w.action("actionResetLayout")->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(LayoutReport::rankingVisibleRows(&w) >= want, 5000);
        }
        // A window opened tall and then made laptop-sized (as a user does, or a screen change)
        // tabs the column the same way: before, the Ranking kept its stacked 8 rows at 1280×720.
        MainWindow tall;
        tall.setInteractive(false);
        tall.resize(1280, 960);
        tall.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tall, 60000));
        QVERIFY(tall.openFile(sample("wbc.csv")));
        QSignalSpy trained(tall.trainer(), &TrainingController::finished);
        QVERIFY(tall.detectorPanel()->setCurrentDetector("knn"));
        tall.detectorPanel()->train();
        QVERIFY(trained.wait(30000));
        tall.resize(1280, 720);
        QTRY_VERIFY2_WITH_TIMEOUT(LayoutReport::rankingVisibleRows(&tall) >= 12,
                                  qPrintable(QString::number(LayoutReport::rankingVisibleRows(&tall))), 5000);
    }

    void leavingCompareModeEnteredAtStartGivesTheRankingItsRoom()
    {
        // --compare at start enters compare mode before the window's first dock layout; leaving it
        // restored the unarranged docks (Evaluation stacked under the Ranking, a tall log): 1.5
        // rows of the Ranking at 1280×720. Now the arranged layout comes back.
        MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 720);
        QVERIFY(w.openFile(sample("wbc.csv")));
        w.compareReaction()->setActive(true); // before the event loop runs, as ScriptedRun does
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        QVERIFY(test::settleLayout(w)); // the window's first dock layout (a zero-delay call) has run
        for (QDockWidget* d : w.findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
            QVERIFY2(!d->isVisible(), qPrintable(d->objectName())); // the compare page has the window
        w.compareReaction()->setActive(false);
        auto* ranking = w.findChild<QDockWidget*>("RankingDock");
        QTRY_VERIFY(ranking->isVisible());
        QVERIFY(w.tabifiedDockWidgets(ranking).contains(w.findChild<QDockWidget*>("EvaluationDock")));
        QSignalSpy finished(w.trainer(), &TrainingController::finished);
        w.detectorPanel()->train();
        QVERIFY(finished.wait(30000));
        QTRY_VERIFY2_WITH_TIMEOUT(LayoutReport::rankingVisibleRows(&w) >= 12,
                                  qPrintable(QString::number(LayoutReport::rankingVisibleRows(&w))), 5000);

        // A tall window made laptop-sized while comparing: the column is tabbed on leaving too.
        MainWindow tall;
        tall.setInteractive(false);
        tall.resize(1280, 960);
        tall.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tall, 60000));
        QVERIFY(test::settleLayout(tall)); // the first dock layout has run
        auto* tallRanking = tall.findChild<QDockWidget*>("RankingDock");
        QVERIFY(!tall.tabifiedDockWidgets(tallRanking).contains(tall.findChild<QDockWidget*>("EvaluationDock")));
        tall.compareReaction()->setActive(true);
        tall.resize(1280, 720);
        QTRY_COMPARE_WITH_TIMEOUT(tall.height(), 720, 20000); // the resize has reached the window
        QVERIFY(test::settleLayout(tall));
        tall.compareReaction()->setActive(false);
        QVERIFY(tall.tabifiedDockWidgets(tallRanking).contains(tall.findChild<QDockWidget*>("EvaluationDock")));
    }

    void leavingClassroomEnteredAtStartGivesTheRankingItsRoom()
    {
        // A session saved in classroom mode and opened at start enters it before the window's first
        // dock layout; leaving it (F11) restored the unarranged docks: the Ranking 4 rows high under
        // a tall Log at 1280×720, Evaluation stacked under it. Now the arranged layout comes back.
        MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 720);
        QVERIFY(w.openFile(sample("wbc.csv")));
        w.classroom()->setPanels({QStringLiteral("RankingDock")});
        w.classroom()->setActive(true); // before the event loop runs, as a session restore at start does
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        QVERIFY(test::settleLayout(w)); // the first dock layout has run
        auto* ranking = w.findChild<QDockWidget*>("RankingDock");
        auto* eval = w.findChild<QDockWidget*>("EvaluationDock");
        QVERIFY(ranking->isVisible()); // the dock kept in classroom mode
        QVERIFY(!eval->isVisible());
        w.classroom()->setActive(false);
        QTRY_VERIFY(eval->isVisible() || w.tabifiedDockWidgets(ranking).contains(eval));
        QTRY_COMPARE(w.height(), 720);
        QTRY_VERIFY(w.tabifiedDockWidgets(ranking).contains(eval));
        QSignalSpy finished(w.trainer(), &TrainingController::finished);
        w.detectorPanel()->train();
        QVERIFY(finished.wait(30000));
        QTRY_VERIFY2_WITH_TIMEOUT(LayoutReport::rankingVisibleRows(&w) >= 12,
                                  qPrintable(QString::number(LayoutReport::rankingVisibleRows(&w))), 5000);
    }

    void closingWhileComparingRemembersTheDocks()
    {
        // The dock layout is remembered on close for the next interactive start; closed while
        // comparing, it was compare mode's (every dock hidden) and the next start showed none.
        QSettings().remove("layout/state");
        {
            MainWindow w; // interactive, as a user's
            w.resize(1280, 720);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
            QVERIFY(test::settleLayout(w)); // the first dock layout has run
            w.compareReaction()->setActive(true);
            QVERIFY(!w.findChild<QDockWidget*>("RankingDock")->isVisible());
            w.close();
        }
        QVERIFY(QSettings().contains("layout/state"));
        MainWindow next;
        next.resize(1280, 720);
        next.show();
        QVERIFY(QTest::qWaitForWindowExposed(&next, 60000));
        QTRY_VERIFY(next.findChild<QDockWidget*>("RankingDock")->isVisible());
        QVERIFY(next.findChild<QDockWidget*>("DetectorDock")->isVisible());
        next.setInteractive(false); // closing without remembering again
    }

    void trainShowsContoursAndLinksRankingWithView()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        QVERIFY(w.openFile(sample("moons2d.csv")));
        // Contour-free reference image (no result yet).
        const int darkBefore = darkPixels(w.view()->grabImage());

        QSignalSpy finished(w.trainer(), &TrainingController::finished);
        QSignalSpy field(w.view(), &CloudView::fieldUpdated);
        QVERIFY(w.detectorPanel()->setCurrentDetector("knn"));
        w.detectorPanel()->train();
        QVERIFY(finished.wait(30000));
        QVERIFY(field.wait(30000));
        QVERIFY(w.document()->result());
        QVERIFY(w.view()->thresholdContourCells() > 20);
        const int darkAfter = darkPixels(w.view()->grabImage());
        QVERIFY2(darkAfter > darkBefore + 300, qPrintable(QString("%1 -> %2").arg(darkBefore).arg(darkAfter)));
        // Turning the contours layer off removes those pixels again.
        w.view()->setLayerVisible(CloudView::Layer::Contours, false);
        const int darkOff = darkPixels(w.view()->grabImage());
        QVERIFY2(darkOff < darkAfter - 200, qPrintable(QString("%1 vs %2").arg(darkOff).arg(darkAfter)));
        w.view()->setLayerVisible(CloudView::Layer::Contours, true);

        // Moving the threshold redraws the emphasised contour.
        const vtkIdType cellsAtDefault = w.view()->thresholdContourCells();
        w.document()->setThreshold(w.document()->threshold() * 3.0);
        QVERIFY(w.view()->thresholdContourCells() != cellsAtDefault);

        // Ranking → view: selecting the first row selects the top-ranked sample.
        QTableView* table = w.rankingPanel()->table();
        table->selectRow(0);
        const int top = w.document()->ranking().front();
        QCOMPARE(w.document()->selectedPoint(), top);
        // View → ranking: a click on a point selects its row.
        const auto& P = w.view()->displayPoints();
        const int target = w.document()->ranking()[5];
        const QPointF pos = w.view()->worldToWidget(P(target, 0), P(target, 1), P(target, 2));
        QTest::mouseClick(w.view(), Qt::LeftButton, Qt::NoModifier, pos.toPoint());
        QCOMPARE(w.document()->selectedPoint(), target);
        const QModelIndexList rows = table->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), qsizetype(1));
        QCOMPARE(rows.first().row(), w.rankingPanel()->rowOfSample(target));
    }

    void clusterSliderRecutsAcdtWithoutRetraining()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        QTemporaryDir dir;
        const QString path = dir.filePath("swiss.csv");
        writeCsv(path.toStdString(), generate("swissroll", 800, 3));
        QVERIFY(w.openFile(path));
        QSignalSpy finished(w.trainer(), &TrainingController::finished);
        QVERIFY(w.detectorPanel()->setCurrentDetector("acdt"));
        w.detectorPanel()->form()->setValues({{"score_rule", "patch"}}); // scores that depend on the cut
        w.detectorPanel()->train();
        QVERIFY(finished.wait(60000));
        auto distinct = [](const std::vector<int>& labels) { return std::set<int>(labels.begin(), labels.end()).size(); };
        const auto trained = w.document()->result();
        QVERIFY(trained);
        QCOMPARE(distinct(trained->geometry.clusterOfPoint), std::size_t(12)); // the slides' L=12
        QSpinBox* spin = w.viewControls()->clusterSpin();
        QVERIFY(spin->isVisibleTo(&w));
        spin->setValue(30);
        const auto recut = w.document()->result();
        QVERIFY(recut);
        QVERIFY(recut != trained);
        QCOMPARE(distinct(recut->geometry.clusterOfPoint), std::size_t(30));
        QCOMPARE(recut->geometry.flats.size(), std::size_t(30));
        QCOMPARE(recut->scores.size(), Eigen::Index(800));
        QCOMPARE(finished.count(), 1); // no retraining
        // Finer cuts reconstruct the roll better: training scores (distances to the flats) shrink.
        QVERIFY(recut->scores.mean() < trained->scores.mean());
        spin->setValue(12);
        QVERIFY(w.document()->result());
        QVERIFY((w.document()->result()->scores - trained->scores).cwiseAbs().maxCoeff() < 1e-12);

        // Reconstruction view: points move onto their flats; the mean squared move is the MSRE.
        const Eigen::MatrixX3d before = w.view()->displayPoints();
        QVERIFY(w.view()->hasReconstruction());
        w.viewControls()->reconstruction()->setChecked(true);
        const Eigen::MatrixX3d after = w.view()->displayPoints();
        const double meanSq = (after - before).rowwise().squaredNorm().mean();
        QVERIFY(meanSq > 0);
        QVERIFY(w.document()->result());
        QVERIFY(std::abs(meanSq - w.document()->result()->detector->figures().at("msre")) < 1e-9 * (1 + meanSq));
        w.viewControls()->reconstruction()->setChecked(false);
        QVERIFY((w.view()->displayPoints() - before).cwiseAbs().maxCoeff() < 1e-12);
    }

    void quadricSurfacesAreDrawn()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        QVERIFY(w.openFile(sample("seam100.csv")));
        QSignalSpy finished(w.trainer(), &TrainingController::finished);
        QSignalSpy field(w.view(), &CloudView::fieldUpdated);
        QVERIFY(w.detectorPanel()->setCurrentDetector("quadrics"));
        w.detectorPanel()->train();
        QVERIFY(finished.wait(60000));
        QVERIFY(field.wait(30000));
        const auto f = w.view()->field();
        QVERIFY(f);
        QCOMPARE(f->quadricValues.size(), std::size_t(2)); // m = p − 1 = 2 quadrics cut out the curve
        // The quadric layer paints many pixels in the quadric colours (translucent surfaces).
        auto tinted = [](const QImage& img, const QColor& c) {
            int count = 0;
            for (int y = 0; y < img.height(); y += 2)
                for (int x = 0; x < img.width(); x += 2) {
                    const QColor p(img.pixel(x, y));
                    if (p.saturation() > 40 && std::abs(p.hue() - c.hue()) < 20)
                        ++count;
                }
            return count;
        };
        const QColor orange = CloudView::componentColour(1);
        const int on = tinted(w.view()->grabImage(), orange);
        w.view()->setLayerVisible(CloudView::Layer::Quadrics, false);
        const int off = tinted(w.view()->grabImage(), orange);
        QVERIFY2(on > off + 2000, qPrintable(QString("%1 vs %2").arg(on).arg(off)));
    }

    void everyPresetLoadsAndTrains()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        const auto presets = availablePresets();
        QVERIFY(presets.size() >= 5);
        for (const Preset& p : presets) {
            QSignalSpy finished(w.trainer(), &TrainingController::finished);
            QSignalSpy failed(w.trainer(), &TrainingController::failed);
            QVERIFY(w.presets()->apply(p));
            QVERIFY2(finished.wait(60000), qPrintable(p.title + ": " + (failed.isEmpty() ? QString() : failed.first().at(0).toString())));
            const auto r = w.document()->result();
            QVERIFY(r);
            QCOMPARE(QString::fromStdString(r->detectorId), QString::fromStdString(p.detector));
            QCOMPARE(r->scores.size(), Eigen::Index(p.n));
        }
        // The shortcuts page lists the menu shortcuts.
        const QString keys = w.shortcutsHtml();
        QVERIFY(keys.contains("Ctrl+T"));
        QVERIFY(keys.contains("Ctrl+O"));
        // F1 opens them in a dialog that fits the screen (issue #35: a message box ran off-screen
        // at 1280×720 and 1024×600); the table scrolls inside it.
        QAction* f1 = w.action("actionShortcuts");
        QCOMPARE(f1->shortcut(), QKeySequence(QKeySequence::HelpContents));
        f1->trigger();
        auto* dialog = w.findChild<QDialog*>("shortcutsDialog");
        QVERIFY(dialog && dialog->isVisible());
        const QRect avail = w.screen()->availableGeometry();
        QVERIFY2(avail.contains(dialog->frameGeometry()) || avail.contains(dialog->geometry()),
                 qPrintable(QString("dialog %1,%2 %3x%4 outside the screen %5x%6").arg(dialog->x()).arg(dialog->y())
                                .arg(dialog->width()).arg(dialog->height()).arg(avail.width()).arg(avail.height())));
        QVERIFY(dialog->height() <= avail.height() * 9 / 10 + 1);
        // Wide enough for a key and its menu path on one line (the first version came out ~110 px
        // wide, every entry wrapped letter by letter).
        QVERIFY2(dialog->width() >= std::min(600, avail.width() * 8 / 10), qPrintable(QString::number(dialog->width())));
        dialog->close();
    }

    void headlessTrainScreenshotHasContours()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath("t.png");
        QProcess p;
        p.start(QStringLiteral(OLENS_GUI_PATH),
                {"--load", sample("moons2d.csv"), "--detector", "knn", "--param", "k=5", "--train", "--screenshot", png, "--exit"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains("trained in"));
        QVERIFY(darkPixels(QImage(png)) > 300);
        // Unknown detector: clear error, non-zero exit.
        QProcess q;
        q.start(QStringLiteral(OLENS_GUI_PATH), {"--load", sample("moons2d.csv"), "--detector", "nope", "--train", "--exit"});
        QVERIFY(q.waitForFinished(60000));
        QVERIFY(q.exitCode() != 0);
        QVERIFY(q.readAllStandardError().contains("unknown detector 'nope'"));
    }

    void closeIsClean()
    {
        auto* w = new MainWindow;
        w->setInteractive(false);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w, 60000));
        QVERIFY(w->openFile(sample("seam3d.csv")));
        w->view()->grabImage();
        QVERIFY(w->close());
        delete w;
    }
};

OLENS_GUI_TEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
