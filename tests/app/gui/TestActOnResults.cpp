// Issue #22 in the window: File → Export inliers / flagged / selected points (disabled before
// training, enabled after; files re-open with the loader and follow the document's threshold), the
// View menu's camera presets, and the shared selection: Edit → Select box / lasso / all / invert /
// clear, the Ranking dock following it both ways (and its "selection only" filter), Delete removing
// exactly the selected rows (undo brings them back selected).
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "reactions/ExportPointsReaction.h"
#include "shell/LastFolder.h"
#include "view/DataEditor.h"
#include "docks/RankingFilterBar.h"
#include "docks/RankingPanel.h"
#include "GuiTestSupport.h"
#include "window/MainWindow.h"
#include "files/SessionManager.h"
#include "jobs/TrainingController.h"
#include "render/CameraRig.h"
#include "data/DataLoader.h"
#include "display/SelectionGeometry.h"
#include "registry/Registry.h"

#include <QAction>
#include <QDir>
#include <QSettings>
#include <QItemSelectionModel>
#include <QTableView>
#include <QUndoStack>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

#include <vtkCamera.h>
#include <vtkRenderer.h>
#include <nlohmann/json.hpp>

using namespace olens;

namespace {
using olens::test::sample;

/// Unit vector from the camera to its focal point.
Eigen::Vector3d viewDirection(const VtkView::CameraState& c)
{
    const Eigen::Vector3d d(c.focalPoint[0] - c.position[0], c.focalPoint[1] - c.position[1], c.focalPoint[2] - c.position[2]);
    return d.normalized();
}

Eigen::Vector3d up(const VtkView::CameraState& c)
{
    return Eigen::Vector3d(c.viewUp[0], c.viewUp[1], c.viewUp[2]).normalized();
}

void train(MainWindow& w, const char* id)
{
    QSignalSpy finished(w.trainer(), &TrainingController::finished);
    QVERIFY(w.detectorPanel()->setCurrentDetector(id));
    w.detectorPanel()->train();
    QVERIFY(finished.wait(30000));
}

/// Starts quadrics on seam3d with more epochs than a test waits for and no convergence stop,
/// plus `extra` parameters, and waits for its first live snapshot.
void startEndlessQuadrics(MainWindow& w, const std::vector<std::pair<std::string, std::string>>& extra = {})
{
    QVERIFY(w.openFile(sample("seam3d.csv")));
    QVERIFY(w.detectorPanel()->setCurrentDetector("quadrics"));
    TrainingSetup setup = w.document()->trainingSetup();
    ParamSet params = Registry::instance().defaultParams(setup.detectorId);
    params.set(setup.params);
    params.set("epochs", "1000000");
    params.set("tol", "0");
    for (const auto& [name, value] : extra)
        params.set(name, value);
    setup.params = params.assignments();
    w.document()->setTrainingSetup(setup);
    w.action("actionTrain")->trigger();
    QVERIFY(w.trainer()->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->liveGeometry() != nullptr, 30000);
}
} // namespace

class TestActOnResults : public QObject {
    Q_OBJECT
private slots:
    void aCancelledTrainingLeavesNothingDrawn()
    {
        // Issue #35: quadrics, Ctrl+T, Esc — the log said "training cancelled; there is no result
        // yet" but the last live snapshot's quadric surfaces and field stayed in the view.
        MainWindow w;
        w.setInteractive(false);
        QSignalSpy cancelled(w.trainer(), &TrainingController::cancelled);
        startEndlessQuadrics(w);
        QTRY_VERIFY_WITH_TIMEOUT(w.view()->field() != nullptr, 30000); // the snapshot's field is drawn
        w.action("actionCancelTraining")->trigger();
        QVERIFY(cancelled.wait(10000));
        QVERIFY(!w.document()->result());
        QVERIFY(!w.document()->liveGeometry());
        QTRY_VERIFY_WITH_TIMEOUT(!w.view()->field(), 5000);
        for (const std::string& entry : w.view()->legendEntries())
            QVERIFY2(entry.find("quadric") == std::string::npos, entry.c_str());
    }

    void aLivePreviewDrawsTheDefaultThreeQuadrics()
    {
        // Issue #35: during training every quadric was drawn (all 35 on Satellite), not the "3 of
        // many" a result shows in 3-D.
        MainWindow w;
        w.setInteractive(false);
        QSignalSpy cancelled(w.trainer(), &TrainingController::cancelled);
        startEndlessQuadrics(w, {{"m", "5"}});
        QCOMPARE(w.document()->liveGeometry()->quadrics.size(), std::size_t(5));
        const GeometryChoice& choice = w.view()->geometryChoice();
        QCOMPARE(choice.quadrics.size(), std::size_t(5));
        QCOMPARE(std::count(choice.quadrics.begin(), choice.quadrics.end(), true), 3);
        w.action("actionCancelTraining")->trigger();
        QVERIFY(cancelled.wait(10000));
    }

    void saveDialogsStartInTheLastFolder()
    {
        // Issue #35: screenshot / figure / export dialogs opened in the working directory. They
        // start in the folder last written to, else the data's folder, else home.
        QTemporaryDir data, shots;
        QSettings().remove("dialogs/lastSaveDir");
        QCOMPARE(LastFolder::suggest("a.png", data.filePath("d.csv")), QDir(data.path()).filePath("a.png"));
        QCOMPARE(LastFolder::suggest("a.png"), QDir::home().filePath("a.png"));
        LastFolder::remember(shots.filePath("shot.png"));
        QCOMPARE(LastFolder::suggest("b.svg", data.filePath("d.csv")), QDir(shots.path()).filePath("b.svg"));
        // The export reaction writes and remembers through the same path a dialog would take.
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(sample("seam3d.csv")));
        train(w, "knn");
        QTemporaryDir elsewhere;
        QCOMPARE(ExportPointsReaction::save(w.document(), ExportPointsReaction::Which::Flagged, elsewhere.filePath("f.csv")), QString());
        LastFolder::remember(elsewhere.filePath("f.csv"));
        QCOMPARE(LastFolder::suggest("g.csv", w.document()->filePath()), QDir(elsewhere.path()).filePath("g.csv"));
        // A folder that no longer exists: the data's folder again.
        const QString gone = shots.path();
        LastFolder::remember(QDir(gone).filePath("x.png"));
        shots.remove();
        QCOMPARE(LastFolder::suggest("c.png", data.filePath("d.csv")), QDir(data.path()).filePath("c.png"));
    }

    void exportActionsFollowTheResult()
    {
        MainWindow w;
        w.setInteractive(false);
        QAction* inliers = w.action("actionExportInliers");
        QAction* flagged = w.action("actionExportFlagged");
        QVERIFY(inliers && flagged);
        QVERIFY(!inliers->isEnabled() && !flagged->isEnabled()); // no data
        QVERIFY(w.openFile(sample("seam3d.csv")));
        QVERIFY(!inliers->isEnabled() && !flagged->isEnabled()); // data, not trained
        QTemporaryDir dir;
        QVERIFY(!ExportPointsReaction::save(w.document(), ExportPointsReaction::Which::Inliers, dir.filePath("a.csv")).isEmpty());
        train(w, "knn");
        QVERIFY(inliers->isEnabled() && flagged->isEnabled());

        // The cleaned cloud as binary PLY and the flagged points as CSV re-open with their columns.
        int nIn = 0, nOut = 0;
        QCOMPARE(ExportPointsReaction::save(w.document(), ExportPointsReaction::Which::Inliers, dir.filePath("clean.ply"), &nIn), QString());
        QCOMPARE(ExportPointsReaction::save(w.document(), ExportPointsReaction::Which::Flagged, dir.filePath("out.csv"), &nOut), QString());
        const Dataset& data = w.document()->dataset();
        const Dataset clean = loadDataset(dir.filePath("clean.ply").toStdString());
        const Dataset out = loadDataset(dir.filePath("out.csv").toStdString());
        QCOMPARE(clean.rows(), Eigen::Index(nIn));
        QCOMPARE(out.rows(), Eigen::Index(nOut));
        QCOMPARE(nIn + nOut, int(data.rows()));
        QVERIFY(nOut > 0 && nIn > nOut);
        for (const Dataset* d : {&clean, &out}) {
            QCOMPARE(d->featureNames, (std::vector<std::string>{"x", "y", "z", "score", "outlier", "index"}));
            QVERIFY(d->hasLabels());
        }
        const double t = w.document()->threshold();
        QVERIFY((clean.X.col(3).array() <= t).all());
        QVERIFY((out.X.col(3).array() > t).all());
        // The top-ranked point is the flagged file's row with the highest score, coordinates intact.
        const int top = w.document()->ranking().front();
        Eigen::Index best;
        out.X.col(3).maxCoeff(&best);
        QCOMPARE(out.X.row(best).head(3), Eigen::RowVectorXd(data.X.row(top)));

        // Opened in the app, the cleaned cloud is the same cloud: x, y, z and label (score and
        // outlier start as ignored columns), the inliers' coordinates in their order.
        QVERIFY(w.openFile(dir.filePath("clean.ply")));
        const Dataset& reopened = w.document()->dataset();
        QCOMPARE(reopened.featureNames, (std::vector<std::string>{"x", "y", "z"}));
        QCOMPARE(reopened.X, Eigen::MatrixXd(clean.X.leftCols(3)));
        QCOMPARE(reopened.labels, clean.labels);
        QVERIFY(w.openFile(sample("seam3d.csv")));
        train(w, "knn");

        // A lower threshold (dragged in the Evaluation histogram) flags more points: the export follows.
        w.document()->setThreshold(clean.X.col(3).maxCoeff() * 0.5);
        int nOut2 = 0;
        QCOMPARE(ExportPointsReaction::save(w.document(), ExportPointsReaction::Which::Flagged, dir.filePath("out2.csv"), &nOut2), QString());
        QVERIFY2(nOut2 > nOut, qPrintable(QString("%1 vs %2").arg(nOut2).arg(nOut)));

        // New data: the result is gone, and so is the action.
        QVERIFY(w.openFile(sample("moons2d.csv")));
        QVERIFY(!inliers->isEnabled() && !flagged->isEnabled());
    }

    void cameraPresetsAndProjection()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        const char* names[] = {"actionViewPlusX", "actionViewMinusX", "actionViewPlusY", "actionViewMinusY",
                               "actionViewPlusZ", "actionViewMinusZ", "actionViewIsometric", "actionOrthographic",
                               "actionOrientationTriad"};
        for (const char* name : names) {
            QVERIFY2(w.action(name), name);
            QVERIFY2(!w.action(name)->isEnabled(), name); // no data yet
        }
        QVERIFY(w.openFile(sample("moons2d.csv")));
        QVERIFY(!w.action("actionViewPlusZ")->isEnabled()); // 2-D: always looking down -z, parallel
        QVERIFY(w.openFile(sample("seam3d.csv")));
        for (const char* name : names)
            QVERIFY2(w.action(name)->isEnabled(), name);

        const struct {
            const char* action;
            Eigen::Vector3d dir, up;
        } cases[] = {{"actionViewPlusX", {1, 0, 0}, {0, 0, 1}},  {"actionViewMinusX", {-1, 0, 0}, {0, 0, 1}},
                     {"actionViewPlusY", {0, 1, 0}, {0, 0, 1}},  {"actionViewMinusY", {0, -1, 0}, {0, 0, 1}},
                     {"actionViewPlusZ", {0, 0, 1}, {0, 1, 0}},  {"actionViewMinusZ", {0, 0, -1}, {0, 1, 0}},
                     {"actionViewIsometric", Eigen::Vector3d(-1, -1, -1).normalized(), Eigen::Vector3d(-1, -1, 2).normalized()}};
        for (const auto& c : cases) {
            w.action(c.action)->trigger();
            const VtkView::CameraState s = w.view()->cameraState();
            QVERIFY2((viewDirection(s) - c.dir).norm() < 1e-9, c.action);
            QVERIFY2((up(s) - c.up).norm() < 1e-9, c.action);
            // The data stay in view: the focal point is the centre of what is drawn.
            const auto& P = w.view()->displayPoints();
            const QPointF centre = w.view()->worldToWidget(P.col(0).mean(), P.col(1).mean(), P.col(2).mean());
            QVERIFY2(w.view()->rect().contains(centre.toPoint()), c.action);
        }

        // Orthographic ↔ perspective: the camera's flag, the checked state and the picture change.
        vtkCamera* cam = w.view()->renderer()->GetActiveCamera();
        QAction* ortho = w.action("actionOrthographic");
        QVERIFY(!cam->GetParallelProjection() && !ortho->isChecked());
        w.action("actionViewPlusX")->trigger();
        const QImage perspective = w.view()->grabImage();
        ortho->trigger();
        QVERIFY(cam->GetParallelProjection());
        QVERIFY(CameraRig::of(w.view())->parallelProjection());
        const QImage parallel = w.view()->grabImage();
        QVERIFY(perspective != parallel);

        // Kept in sessions, and restored on a fresh window.
        QTemporaryDir dir;
        const QString path = dir.filePath("cam.olens.json");
        QString error;
        QVERIFY2(w.sessions()->save(path, &error), qPrintable(error));
        const VtkView::CameraState saved = w.view()->cameraState();
        MainWindow w2;
        w2.setInteractive(false);
        QVERIFY2(w2.sessions()->open(path, &error), qPrintable(error));
        QVERIFY(CameraRig::of(w2.view())->parallelProjection());
        QVERIFY(w2.action("actionOrthographic")->isChecked());
        QVERIFY(w2.view()->renderer()->GetActiveCamera()->GetParallelProjection());
        QVERIFY((viewDirection(w2.view()->cameraState()) - viewDirection(saved)).norm() < 1e-9);
        QCOMPARE(w2.view()->cameraState().parallelScale, saved.parallelScale);

        // Back to perspective; the triad can be hidden.
        ortho->trigger();
        QVERIFY(!cam->GetParallelProjection());
        // The triad is drawn in the bottom-left corner: hiding it changes those pixels only there.
        CameraRig* rig = CameraRig::of(w.view());
        QVERIFY(rig->orientationTriadShown());
        w.action("actionViewIsometric")->trigger();
        const QImage with = w.view()->grabImage();
        w.action("actionOrientationTriad")->trigger();
        QVERIFY(!rig->orientationTriadVisible() && !rig->orientationTriadShown());
        const QImage without = w.view()->grabImage();
        QCOMPARE(with.size(), without.size());
        int cornerDiff = 0, elsewhereDiff = 0;
        for (int y = 0; y < with.height(); ++y)
            for (int x = 0; x < with.width(); ++x)
                if (with.pixel(x, y) != without.pixel(x, y))
                    ++(x < with.width() * 0.2 && y > with.height() * 0.75 ? cornerDiff : elsewhereDiff);
        QVERIFY2(cornerDiff > 200 && elsewhereDiff < cornerDiff / 10,
                 qPrintable(QString("%1 corner, %2 elsewhere").arg(cornerDiff).arg(elsewhereDiff)));
        // 2-D data: no triad, whatever the wish.
        w.action("actionOrientationTriad")->trigger();
        QVERIFY(w.openFile(sample("moons2d.csv")));
        QVERIFY(rig->orientationTriadVisible() && !rig->orientationTriadShown());
    }

    void rankingAndViewShareTheSelection()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(sample("moons2d.csv")));
        train(w, "knn");
        DataDocument* doc = w.document();
        RankingPanel* ranking = w.rankingPanel();
        QTableView* table = ranking->table();
        auto selectedSamples = [&] {
            std::vector<int> v;
            for (const QModelIndex& i : table->selectionModel()->selectedRows(1))
                v.push_back(i.data().toInt());
            std::sort(v.begin(), v.end());
            return v;
        };
        // Document → table: a region selection (as the view's box / lasso make) selects those rows.
        doc->setPointSelection({3, 17, 42, 250});
        QCOMPARE(selectedSamples(), (std::vector<int>{3, 17, 42, 250}));
        QCOMPARE(doc->selectedPoint(), -1); // a region has no current point
        // Table → document: ctrl-click on a row adds its point; another ctrl-click removes it again.
        const int row = ranking->rowOfSample(100);
        QVERIFY(row >= 0);
        table->selectionModel()->select(table->model()->index(row, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(doc->pointSelection(), (std::vector<int>{3, 17, 42, 100, 250}));
        table->selectionModel()->select(table->model()->index(ranking->rowOfSample(17), 0),
                                        QItemSelectionModel::Deselect | QItemSelectionModel::Rows);
        QCOMPARE(doc->pointSelection(), (std::vector<int>{3, 42, 100, 250}));
        // "selection only" shows exactly the selected points; rows hidden by a filter stay selected.
        ranking->filterBar()->setShow(RankingFilterBar::Show::Selection);
        QCOMPARE(table->model()->rowCount(), 4);
        QCOMPARE(selectedSamples(), (std::vector<int>{3, 42, 100, 250}));
        ranking->filterBar()->setShow(RankingFilterBar::Show::Flagged);
        QCOMPARE(doc->pointSelection(), (std::vector<int>{3, 42, 100, 250}));
        // Rows the filter hides or shows again as the threshold moves keep their selection.
        const std::vector<int> top{doc->ranking()[0], doc->ranking()[1], doc->ranking()[2]};
        doc->setPointSelection(top);
        const double t0 = doc->threshold();
        QVERIFY(doc->result());
        doc->setThreshold(doc->result()->scores(doc->ranking()[0]) - 1e-9); // only the top one flagged
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(doc->pointSelection(), combineSelection({}, top, SelectionOp::Replace));
        doc->setThreshold(t0);
        QCOMPARE(int(selectedSamples().size()), 3);
        doc->setPointSelection({3, 42, 100, 250});
        ranking->filterBar()->setShow(RankingFilterBar::Show::All);
        QCOMPARE(selectedSamples(), (std::vector<int>{3, 42, 100, 250}));
        // A click on a row picks that point alone (current point and selection).
        table->selectionModel()->setCurrentIndex(table->model()->index(ranking->rowOfSample(7), 0),
                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(doc->pointSelection(), std::vector<int>{7});
        QCOMPARE(doc->selectedPoint(), 7);

        // Edit → Invert / Clear / Select all.
        const int n = static_cast<int>(doc->dataset().rows());
        w.action("actionInvertSelection")->trigger();
        QCOMPARE(int(doc->pointSelection().size()), n - 1);
        QVERIFY(!doc->isSelected(7));
        QCOMPARE(int(selectedSamples().size()), n - 1);
        w.action("actionClearSelection")->trigger();
        QVERIFY(doc->pointSelection().empty());
        QVERIFY(selectedSamples().empty());
        QVERIFY(!w.action("actionClearSelection")->isEnabled());
        QVERIFY(!w.action("actionDeleteSelected")->isEnabled());
        QVERIFY(!w.action("actionExportSelected")->isEnabled());
        w.action("actionSelectAll")->trigger();
        QCOMPARE(int(doc->pointSelection().size()), n);
        QVERIFY(!w.action("actionSelectAll")->isEnabled());

        // The tools: B and L are exclusive toggles of the view's tool.
        QAction* box = w.action("actionSelectBox");
        QAction* lasso = w.action("actionSelectLasso");
        QCOMPARE(box->shortcut(), QKeySequence("B"));
        QCOMPARE(lasso->shortcut(), QKeySequence("L"));
        box->trigger();
        QCOMPARE(w.view()->selectionTool(), VtkView::SelectionTool::Box);
        lasso->trigger();
        QVERIFY(!box->isChecked());
        QCOMPARE(w.view()->selectionTool(), VtkView::SelectionTool::Lasso);
        lasso->trigger();
        QCOMPARE(w.view()->selectionTool(), VtkView::SelectionTool::None);
        // Esc puts the tool away (issue #35: it did not, and the next rotate drag drew a box).
        lasso->trigger();
        QAction* esc = w.action("actionCancelTraining");
        QVERIFY(esc->isEnabled());
        QVERIFY(esc->shortcuts().contains(QKeySequence(Qt::Key_Escape)));
        esc->trigger();
        QVERIFY(!lasso->isChecked());
        QCOMPARE(w.view()->selectionTool(), VtkView::SelectionTool::None);
        QTRY_VERIFY_WITH_TIMEOUT(!esc->isEnabled(), 20000); // nothing left to stop once a field is drawn
        // Edit points takes the left mouse back from a tool.
        box->trigger();
        w.action("actionEditMode")->setChecked(true);
        QVERIFY(!box->isChecked());
        QCOMPARE(w.view()->selectionTool(), VtkView::SelectionTool::None);
        w.action("actionEditMode")->setChecked(false);
    }

    void deleteRemovesExactlyTheSelectedRowsAndExportWritesThem()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(sample("moons2d.csv")));
        train(w, "knn");
        DataDocument* doc = w.document();
        const Dataset before = doc->dataset();
        QVERIFY(doc->result());
        const Eigen::VectorXd scoresBefore = doc->result()->scores;
        const std::vector<int> gone{0, 5, 6, 120, 299};
        doc->setPointSelection(gone);

        // Export selected points: exactly those rows, every column, their scores.
        QAction* exportSel = w.action("actionExportSelected");
        QVERIFY(exportSel && exportSel->isEnabled());
        int count = 0;
        QCOMPARE(ExportPointsReaction::save(w.document(), ExportPointsReaction::Which::Selected, dir.filePath("sel.csv"), &count),
                 QString());
        QCOMPARE(count, int(gone.size()));
        const Dataset written = loadDataset(dir.filePath("sel.csv").toStdString());
        QCOMPARE(written.rows(), Eigen::Index(gone.size()));
        for (std::size_t r = 0; r < gone.size(); ++r) {
            QCOMPARE(written.X(Eigen::Index(r), 0), before.X(gone[r], 0));
            QCOMPARE(written.X(Eigen::Index(r), 1), before.X(gone[r], 1));
        }

        // Edit mode, Del: exactly the selected rows leave, the others keep order and scores.
        w.action("actionEditMode")->setChecked(true);
        QVERIFY(w.dataEditor()->isEnabled());
        QAction* del = w.action("actionDeleteSelected");
        QVERIFY(del->isEnabled());
        del->trigger();
        const Dataset& after = doc->dataset();
        QCOMPARE(after.rows(), before.rows() - Eigen::Index(gone.size()));
        QCOMPARE(after.labels.size(), after.rows());
        Eigen::Index r = 0;
        for (Eigen::Index i = 0; i < before.rows(); ++i) {
            if (std::find(gone.begin(), gone.end(), int(i)) != gone.end())
                continue;
            QCOMPARE(after.X.row(r), before.X.row(i));
            QCOMPARE(after.labels(r), before.labels(i));
            if (doc->result())
                QCOMPARE(doc->result()->scores(r), scoresBefore(i));
            ++r;
        }
        QVERIFY(doc->pointSelection().empty());
        // Undo: the rows are back, in place, and selected again.
        w.dataEditor()->undoStack()->undo();
        QCOMPARE(doc->dataset().X, before.X);
        QCOMPARE(doc->pointSelection(), gone);
        w.action("actionEditMode")->setChecked(false);
    }
};

OLENS_GUI_TEST_MAIN(TestActOnResults)
#include "TestActOnResults.moc"
