// Teaching features of the main window: click-to-edit data (add / shift-add outlier / drag / delete,
// undo, debounced auto-retrain), New data from a generator, sessions (save → load gives identical
// scores and camera; corrupted files give an error and the app stays usable) and crash recovery
// of the autosave.
#include "AppTestSupport.h"
#include "files/BackgroundOpen.h"
#include "files/RecentFilesMenu.h"
#include "view/CloudView.h"
#include "modes/CompareReaction.h"
#include "compare/CompareView.h"
#include "document/DataDocument.h"
#include "view/DataEditor.h"
#include "view/layers/AxesFrame2D.h"
#include "docks/DetectorPanel.h"
#include "reactions/EditReactions.h"
#include "data/DataLoader.h"
#include "data/Generators.h"
#include "docks/LogPanel.h"
#include "session/Session.h"
#include "GuiTestSupport.h"
#include "window/MainWindow.h"
#include "dialogs/NewDataDialog.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"
#include "dialogs/ParamForm.h"
#include "files/SessionManager.h"
#include "files/Autosave.h"
#include "jobs/TrainingController.h"
#include "docks/ViewControls.h"
#include "jobs/Worker.h"
#include "jobs/Executor.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QStatusBar>
#include <QSignalSpy>
#include <QSemaphore>
#include <QSpinBox>
#include <QThreadPool>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <chrono>
#include <thread>
#include <mutex>
#include <sched.h>
#include <nlohmann/json.hpp>

using namespace olens;

namespace {

/// A shown window with 2D moons data, trained with knn (fast, deterministic).
void prepare(MainWindow& w, int n = 120)
{
    w.setInteractive(false);
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
    Dataset d = generate("moons", n, 5, {{"outliers", "0.05"}});
    w.document()->setDataset(std::move(d), QString());
    QVERIFY(w.detectorPanel()->setCurrentDetector("knn"));
    QSignalSpy done(w.trainer(), &TrainingController::finished);
    w.detectorPanel()->train();
    QVERIFY(done.wait(20000));
}

using olens::test::trainAndWait;

/// A real crash: the GUI loads `file` with `stateDir` as its state directory (loading autosaves,
/// debounced) and is killed once its first autosave is on disk. False when it never saved.
bool crashAfterFirstAutosave(const QString& stateDir, const QString& file)
{
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OLENS_STATE_DIR", stateDir);
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(OLENS_GUI_PATH), {"--load", file});
    if (!app.waitForStarted())
        return false;
    const bool saved = QTest::qWaitFor([&] { return QFile::exists(QDir(stateDir).filePath("autosave.run")); }, 120000);
    app.kill();
    return app.waitForFinished() && saved;
}

} // namespace

class TestSessionsAndEditing : public QObject {
    Q_OBJECT

private slots:
    void clickAddsShiftClickAddsOutlierDragMovesDeleteRemoves()
    {
        MainWindow w;
        prepare(w);
        const Eigen::Index n0 = w.document()->dataset().rows();
        QVERIFY(w.editReaction()->editModeAction()->isEnabled());
        w.editReaction()->editModeAction()->setChecked(true);
        QVERIFY(w.dataEditor()->isEnabled());
        QVERIFY(w.view()->editMode());

        // Click on empty space far from the data → a new inlier exactly under the cursor.
        CloudView* v = w.view();
        const QPointF empty = v->worldToWidget(2.4, 1.4, 0.0);
        QSignalSpy retrained(w.trainer(), &TrainingController::finished);
        QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier, empty.toPoint());
        QCOMPARE(w.document()->dataset().rows(), n0 + 1);
        const Eigen::RowVectorXd added = w.document()->dataset().X.row(n0);
        const QPointF back = v->worldToWidget(added(0), added(1), 0.0);
        QVERIFY2((back - empty).manhattanLength() < 3.0,
                 qPrintable(QString("point not placed under the cursor: clicked %1,%2 got %3,%4 (world %5,%6)")
                                .arg(empty.x()).arg(empty.y()).arg(back.x()).arg(back.y()).arg(added(0)).arg(added(1))));
        QCOMPARE(w.document()->dataset().labels(n0), 0.0);
        // the result was adjusted at once (the new point has a score) ...
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores.size(), n0 + 1);
        // ... and the debounced auto-retrain follows the edit.
        QVERIFY(retrained.wait(20000));
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores.size(), n0 + 1);
        // The isolated new point is the most outlying one for knn.
        QCOMPARE(w.document()->ranking().front(), int(n0));

        // Shift-click → labelled outlier.
        const QPointF other = v->worldToWidget(-1.6, -1.0, 0.0);
        QTest::mouseClick(v, Qt::LeftButton, Qt::ShiftModifier, other.toPoint());
        QCOMPARE(w.document()->dataset().rows(), n0 + 2);
        QCOMPARE(w.document()->dataset().labels(n0 + 1), 1.0);

        // Drag the first added point somewhere else: one undo step, position follows the mouse.
        const QPointF from = v->worldToWidget(added(0), added(1), 0.0);
        const QPointF to = v->worldToWidget(0.5, 0.25, 0.0);
        QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, from.toPoint());
        QMouseEvent move(QEvent::MouseMove, to, v->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(v, &move);
        QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, to.toPoint());
        const Eigen::RowVectorXd moved = w.document()->dataset().X.row(n0);
        QVERIFY2(std::abs(moved(0) - 0.5) < 0.05 && std::abs(moved(1) - 0.25) < 0.05, "drag did not move the point");
        QCOMPARE(w.document()->dataset().rows(), n0 + 2);

        // Delete the selected (dragged) point.
        QCOMPARE(w.document()->selectedPoint(), int(n0));
        w.dataEditor()->removeSelected();
        QCOMPARE(w.document()->dataset().rows(), n0 + 1);
        QCOMPARE(w.document()->dataset().labels(n0), 1.0); // the outlier moved up one row

        // Undo restores the deleted point at its dragged position; undo again moves it back.
        QUndoStack* undo = w.dataEditor()->undoStack();
        undo->undo();
        QCOMPARE(w.document()->dataset().rows(), n0 + 2);
        QVERIFY(w.document()->dataset().X.row(n0).isApprox(moved));
        undo->undo();
        QVERIFY(w.document()->dataset().X.row(n0).isApprox(added));
        QVERIFY(w.document()->isEdited());
        // The undo is an edit: the auto-retrain it schedules (kRetrainDelayMs later, once a running
        // training stopped) starts and finishes before the window goes away.
        QSignalSpy retrainStarted(w.trainer(), &TrainingController::started);
        QVERIFY(retrainStarted.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(!w.trainer()->isRunning(), 20000);
    }

    void emptyCanvasHasAxesEditModeAndKeepsTheCameraThroughTraining()
    {
        // File → New data → empty canvas (issue #35): the old canvas showed no axes, edit mode was
        // off (clicks rotated nothing and added nothing) and the status bar said "no data".
        MainWindow w;
        w.setInteractive(false);
        w.resize(1100, 760);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        Dataset canvas;
        canvas.featureNames = {"x", "y"};
        canvas.X.resize(0, 2);
        w.document()->setDataset(std::move(canvas), QString());
        QTRY_VERIFY_WITH_TIMEOUT(w.editReaction()->editModeAction()->isChecked(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(w.view()->editMode(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(w.statusText().contains("click"), 20000);
        CloudView* v = w.view();
        v->grabImage(); // a render places the frame's ticks
        QVERIFY(v->axesFrame2D().visible());
        QVERIFY(v->canvasHintShown());
        const auto xs = v->axesFrame2D().xLabels();
        QVERIFY2(xs.size() >= 3, "the empty canvas has no x ticks");
        // The canvas spans [-1, 1] in both directions (fitted to the viewport's aspect).
        const QPointF lo = v->worldToWidget(-1.0, -1.0, 0.0), hi = v->worldToWidget(1.0, 1.0, 0.0);
        QVERIFY(lo.x() >= 0 && hi.x() <= v->width() && hi.y() >= 0 && lo.y() <= v->height());
        QVERIFY(hi.x() - lo.x() > v->width() / 3.0);

        // Every click adds a point exactly under the cursor, also the first one (8 clicks on a
        // circle of radius 0.5, then a shift-click far out: an outlier).
        std::vector<QPoint> clicks;
        for (int k = 0; k < 8; ++k)
            clicks.push_back(v->worldToWidget(0.5 * std::cos(k * M_PI / 4), 0.5 * std::sin(k * M_PI / 4), 0.0).toPoint());
        for (std::size_t k = 0; k < clicks.size(); ++k) {
            QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier, clicks[k]);
            QCOMPARE(w.document()->dataset().rows(), Eigen::Index(k + 1));
            const Eigen::RowVectorXd x = w.document()->dataset().X.row(Eigen::Index(k));
            const QPointF at = v->worldToWidget(x(0), x(1), 0.0);
            QVERIFY2((at - QPointF(clicks[k])).manhattanLength() < 3.0,
                     qPrintable(QString("click %1 at %2,%3 made a point drawn at %4,%5")
                                    .arg(k).arg(clicks[k].x()).arg(clicks[k].y()).arg(at.x()).arg(at.y())));
        }
        QVERIFY(!v->canvasHintShown());
        QTest::mouseClick(v, Qt::LeftButton, Qt::ShiftModifier, v->worldToWidget(0.9, 0.9, 0.0).toPoint());
        QCOMPARE(w.document()->dataset().rows(), Eigen::Index(9));
        QCOMPARE(w.document()->dataset().labels(8), 1.0);

        // Training (and the colour bar it brings) does not move the camera the user worked in.
        const auto before = v->cameraState();
        QVERIFY(w.detectorPanel()->setCurrentDetector("knn"));
        QVERIFY(trainAndWait(w));
        // What the training brings is all there: its score field computed and drawn.
        QTRY_VERIFY_WITH_TIMEOUT(!v->isFieldBusy() && v->field(), 20000);
        QVERIFY(test::processQueued(&w));
        v->grabImage();
        const auto after = v->cameraState();
        for (int j = 0; j < 3; ++j)
            QVERIFY(std::abs(after.focalPoint[std::size_t(j)] - before.focalPoint[std::size_t(j)]) < 1e-12);
        QCOMPARE(after.parallelScale, before.parallelScale);
        QCOMPARE(w.document()->ranking().front(), 8); // the far shift-clicked point
    }

    void editingRefusedForProjectedData()
    {
        MainWindow w;
        w.setInteractive(false);
        w.document()->setDataset(generate("blobs", 50, 2, {{"dim", "5"}}), QString());
        QString why;
        QVERIFY(!w.dataEditor()->setEnabled(true, &why));
        QVERIFY(why.contains("at most 3"));
        QVERIFY(!w.view()->editMode());
    }

    void newDataDialogGeneratesSeededData()
    {
        NewDataDialog dialog;
        dialog.generatorBox()->setCurrentIndex(dialog.generatorBox()->findData(QString("ring")));
        dialog.countBox()->setValue(77);
        dialog.seedBox()->setValue(9);
        const Dataset d = dialog.makeDataset();
        const Dataset ref = generate("ring", 77, 9, dialog.form()->values());
        QCOMPARE(d.X, ref.X);
        dialog.generatorBox()->setCurrentIndex(dialog.generatorBox()->findData(QString(NewDataDialog::kEmpty)));
        QCOMPARE(dialog.makeDataset().rows(), Eigen::Index(0));
        QCOMPARE(dialog.makeDataset().cols(), Eigen::Index(2));
    }

    void sessionRoundTripRestoresScoresCameraAndView()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("s.olens.json");
        Eigen::VectorXd scores;
        VtkView::CameraState cam;
        double threshold = 0;
        {
            MainWindow w;
            prepare(w);
            w.dataEditor()->addPoint({2.0, 2.0}, true); // edited data must be embedded
            QVERIFY(trainAndWait(w));
            w.document()->setThreshold(w.document()->threshold() * 0.9);
            w.document()->setTopK(7);
            w.viewControls()->applySettings({{"point_size", 14}, {"colour_map", "magma"}, {"layer_contours", false}});
            cam = w.view()->cameraState();
            cam.parallelScale *= 1.7;
            cam.position[0] += 0.3;
            cam.focalPoint[0] += 0.3;
            w.view()->setCameraState(cam);
            QVERIFY(w.document()->result());
            scores = w.document()->result()->scores;
            threshold = w.document()->threshold();
            QString error;
            QVERIFY2(w.sessions()->save(path, &error), qPrintable(error));
        }
        MainWindow w2;
        w2.setInteractive(false);
        w2.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w2, 60000));
        QString error;
        QVERIFY2(w2.sessions()->open(path, &error), qPrintable(error));
        QVERIFY(w2.document()->result());
        QCOMPARE(w2.document()->result()->scores, scores); // identical, not retrained
        QCOMPARE(w2.document()->threshold(), threshold);
        QCOMPARE(w2.document()->topK(), 7);
        QCOMPARE(w2.detectorPanel()->currentDetector(), QString("knn"));
        // The dock says the model is there (it said "not trained on these data yet").
        auto* status = w2.detectorPanel()->findChild<QLabel*>("trainingStatus");
        QVERIFY(status);
        QVERIFY2(status->text().contains("restored"), qPrintable(status->text()));
        // Resize/auto-fit events must not move the restored camera: the window's layout settled,
        // the restored model's field drawn.
        QTRY_VERIFY_WITH_TIMEOUT(!w2.view()->isFieldBusy() && w2.view()->field(), 20000);
        QVERIFY(test::settleLayout(w2));
        const auto c2 = w2.view()->cameraState();
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(c2.position[k], cam.position[k]);
            QCOMPARE(c2.focalPoint[k], cam.focalPoint[k]);
        }
        QCOMPARE(c2.parallelScale, cam.parallelScale);
        const QVariantMap view = w2.viewControls()->settings();
        QCOMPARE(view.value("point_size").toInt(), 14);
        QCOMPARE(view.value("colour_map").toString(), QString("magma"));
        QCOMPARE(view.value("layer_contours").toBool(), false);
        QVERIFY(w2.document()->isEdited());
    }

    void fitOnABoxSelectionRingsTrainingPointsAndSessionKeepsIt()
    {
        // Fit on a part, score all (issue #22 item 6): a box over the left half of the view, "Fit on:
        // selected points", Train. The model equals a fit on those rows alone (independent fit,
        // scores to 1e-12), every point is scored, the view rings the training points, and a
        // session brings back the selection, the choice and the same scores.
        QTemporaryDir dir;
        const QString path = dir.filePath("part.olens.json");
        std::vector<int> selection;
        Eigen::VectorXd scores;
        {
            MainWindow w;
            prepare(w);
            CloudView* view = w.view();
            const QRectF half(0, 0, view->width() / 2.0, view->height());
            view->selectRegion(QPolygonF(half), SelectionOp::Replace);
            selection = w.document()->pointSelection();
            QVERIFY(selection.size() > 10 && selection.size() < 110);
            QComboBox* fitOn = w.detectorPanel()->fitOnCombo();
            fitOn->setCurrentIndex(fitOn->findData(int(FitSubset::Kind::Rows)));
            QVERIFY(trainAndWait(w));
            const auto r = w.document()->result();
            QCOMPARE(r->trainingRows, selection);
            QCOMPARE(r->scores.size(), Eigen::Index(120));
            QCOMPARE(view->trainingRingCount(), long(selection.size()));

            const Eigen::MatrixXd& X = w.document()->dataset().X;
            Eigen::MatrixXd part(static_cast<Eigen::Index>(selection.size()), 2);
            for (std::size_t j = 0; j < selection.size(); ++j)
                part.row(static_cast<Eigen::Index>(j)) = X.row(selection[j]);
            const auto alone = fitPipeline(Registry::instance().create("knn", w.detectorPanel()->form()->values()),
                                           Normalizer(w.detectorPanel()->normalization()), part);
            double worst = 0;
            for (std::size_t j = 0; j < selection.size(); ++j)
                worst = std::max(worst, std::abs(r->scores(selection[j]) - alone->scores(static_cast<Eigen::Index>(j))));
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                if (!std::binary_search(selection.begin(), selection.end(), int(i)))
                    worst = std::max(worst, std::abs(r->scores(i) - alone->detector->score(alone->normalizer.transform(X.row(i)))(0)));
            QVERIFY2(worst <= 1e-12, qPrintable(QString::number(worst)));

            // A new selection does not change the marks of the trained model.
            w.document()->setPointSelection({0, 1});
            QCOMPARE(view->trainingRingCount(), long(selection.size()));
            w.document()->setPointSelection(selection);
            scores = r->scores;
            QString error;
            QVERIFY2(w.sessions()->save(path, &error), qPrintable(error));

            // An edit (a point added far away) auto-retrains on the same points, not on what the edit
            // left selected; the new point is scored as new data.
            QSignalSpy retrained(w.trainer(), &TrainingController::finished);
            w.dataEditor()->addPoint({2.5, 2.5}, false);
            QVERIFY(retrained.wait(20000));
            QVERIFY(w.document()->result());
            QCOMPARE(w.document()->result()->trainingRows, selection);
            QCOMPARE(w.document()->result()->scores.size(), Eigen::Index(121));

            // Nothing selected: fitting on the selection is refused with a reason, the result stays.
            const auto before = w.document()->result();
            w.document()->setPointSelection({});
            QSignalSpy err(w.detectorPanel(), &DetectorPanel::errorMessage);
            w.detectorPanel()->train();
            QCOMPARE(err.count(), 1);
            QVERIFY(!w.trainer()->isRunning());
            QCOMPARE(w.document()->result(), before);
            // All points again: an ordinary fit, no rings.
            fitOn->setCurrentIndex(fitOn->findData(int(FitSubset::Kind::All)));
            QVERIFY(trainAndWait(w));
            QVERIFY(w.document()->result());
            QVERIFY(w.document()->result()->trainingRows.empty());
            QCOMPARE(view->trainingRingCount(), 0L);
        }
        MainWindow w2;
        w2.setInteractive(false);
        w2.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w2, 60000));
        QString error;
        QVERIFY2(w2.sessions()->open(path, &error), qPrintable(error));
        QCOMPARE(w2.document()->pointSelection(), selection);
        QVERIFY(w2.detectorPanel()->fitSubset() == (FitSubset{FitSubset::Kind::Rows, {}, {}, 1.0, 0}));
        QVERIFY(w2.document()->result());
        QCOMPARE(w2.document()->result()->trainingRows, selection);
        QCOMPARE(w2.document()->result()->scores, scores); // the knn training scores, not rescored
        QCOMPARE(w2.view()->trainingRingCount(), long(selection.size()));
    }

    void sessionRescoresAPointMovedAfterTraining()
    {
        // Regression (issue 15): the restored result reused the stored training scores whenever the
        // row count matched, so a point moved after training came back with its pre-move score.
        QTemporaryDir dir;
        const QString path = dir.filePath("moved.olens.json");
        double movedScore = 0;
        {
            MainWindow w;
            prepare(w);
            for (QAction* a : w.findChildren<QAction*>()) // keep the trained model: no auto-retrain
                if (a->text().contains("Auto-retrain"))
                    a->setChecked(false);
            w.dataEditor()->movePoint(3, {6.0, -6.0});
            QVERIFY(w.document()->result());
            movedScore = w.document()->result()->scores(3); // scored by the fitted model at once
            QString error;
            QVERIFY2(w.sessions()->save(path, &error), qPrintable(error));
        }
        MainWindow w2;
        w2.setInteractive(false);
        w2.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w2, 60000));
        QString error;
        QVERIFY2(w2.sessions()->open(path, &error), qPrintable(error));
        QVERIFY(w2.document()->result());
        const auto& r = *w2.document()->result();
        const Eigen::MatrixXd moved = r.normalizer.transform(w2.document()->dataset().X.row(3));
        QCOMPARE(r.scores(3), r.detector->score(moved)(0));
        QCOMPARE(r.scores(3), movedScore);
        QCOMPARE(r.outlier(3), 1);
    }

    void sessionRestoresCompareLayout()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("c.olens.json");
        {
            MainWindow w;
            prepare(w, 80);
            w.compareReaction()->setActive(true);
            CompareView* cv = w.compareView();
            QVERIFY(cv);
            QString why;
            QVERIFY2(cv->setDetectors({CompareView::defaultEntry("knn"), CompareView::defaultEntry("pca")}, &why), qPrintable(why));
            cv->setQuantile(0.9);
            QString error;
            QVERIFY2(w.sessions()->save(path, &error), qPrintable(error));
            cv->cancelAll();
        }
        MainWindow w2;
        w2.setInteractive(false);
        w2.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w2, 60000));
        QString error;
        QVERIFY2(w2.sessions()->open(path, &error), qPrintable(error));
        QVERIFY(w2.compareReaction()->isActive());
        CompareView* cv = w2.compareView();
        QVERIFY(cv);
        QCOMPARE(int(cv->entries().size()), 2);
        QCOMPARE(cv->entries()[0].id, std::string("knn"));
        QCOMPARE(cv->entries()[1].id, std::string("pca"));
        QCOMPARE(cv->quantile(), 0.9);
        cv->cancelAll();
    }

    void corruptedSessionGivesErrorAndAppStaysUsable_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("garbage") << QByteArray("\x01\x02 not json {") << "not valid JSON";
        QTest::newRow("other json") << QByteArray("{\"format\":\"something\"}") << "not an OutlierLens session";
        QTest::newRow("bad detector")
            << QByteArray("{\"format\":\"outlierlens-session\",\"version\":1,\"data\":{\"path\":\"x.csv\"},"
                          "\"detector\":{\"id\":\"zzz\"}}")
            << "unknown detector";
        QTest::newRow("missing data file")
            << QByteArray("{\"format\":\"outlierlens-session\",\"version\":1,\"data\":{\"path\":\"/nonexistent/x.csv\"}}")
            << "data file was not found: looked for /nonexistent/x.csv"; // and next to the session
    }

    void corruptedSessionGivesErrorAndAppStaysUsable()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.olens.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        MainWindow w;
        prepare(w, 60);
        QVERIFY(w.document()->result());
        const Eigen::VectorXd before = w.document()->result()->scores;
        QString error;
        QVERIFY(!w.sessions()->open(path, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(error.contains(path), qPrintable(error)); // names the file
        // the previous state is intact and the app keeps working
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores, before);
        QVERIFY(trainAndWait(w));
    }

    void restoreAutosaveOpensInTheBackground()
    {
        // File → Restore autosave read, restored and scored the autosave on the GUI thread (the
        // window froze for a large one); now it opens as Open session does, on the executor.
        const QString data = QStringLiteral(OLENS_SOURCE_DIR "/samples/moons2d.csv");
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(data));
        QVERIFY(w.detectorPanel()->setCurrentDetector("lof"));
        QVERIFY(trainAndWait(w));
        QVERIFY(w.document()->result());
        const Eigen::VectorXd stored = w.document()->result()->scores;
        const QString autosave = w.autosaves()->path();
        QString error;
        // The autosave the training's start began (no model yet) may still be on its way: the
        // save below waits for it (it used not to, and that older state landed after it).
        QVERIFY2(w.sessions()->save(autosave, &error, SessionManager::DataPolicy::Reference), qPrintable(error));
        w.autosaves()->markCleanExit(); // no later autosave replaces that file
        QVERIFY(SessionManager::readSessionFile(autosave).model.is_object()); // the lof model, not the older state
        prepare(w, 60); // knn on generated rows: the state the restore replaces
        QVERIFY(w.document()->result());
        const Eigen::VectorXd before = w.document()->result()->scores;
        QAction* restore = w.action("actionRestoreAutosave");
        QVERIFY(restore);
        QSignalSpy finished(w.backgroundOpen(), &BackgroundOpen::finished);
        restore->trigger();
        QVERIFY(w.backgroundOpen()->isBusy());
        QCOMPARE(w.document()->result()->scores, before); // nothing changes until it is complete
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores, stored);
        QCOMPARE(w.detectorPanel()->currentDetector(), QString("lof"));

        // A session given to File → Open (Ctrl+O, a recent data file) opens as a session: it was
        // read as a table ("ragged row: 2 values, expected 1", found driving the GUI as a teacher).
        {
            QTemporaryDir dir;
            const QString handed = dir.filePath("lesson.json"); // by content: sessions may be *.json
            QVERIFY2(w.sessions()->save(handed, &error), qPrintable(error));
            prepare(w, 60); // knn again
            QVERIFY(w.backgroundOpen()->open(handed));
            QVERIFY(finished.wait(20000));
            QCOMPARE(finished.takeFirst().at(0).toBool(), true);
            QCOMPARE(w.detectorPanel()->currentDetector(), QString("lof"));
            QCOMPARE(w.document()->result()->scores, stored);
        }

        // No autosave: said, nothing started, the state kept.
        QVERIFY(QFile::remove(autosave));
        restore->trigger();
        QVERIFY(!w.backgroundOpen()->isBusy());
        QVERIFY(finished.isEmpty());
        QCOMPARE(w.document()->result()->scores, stored);
    }

    void aSaveToTheAutosaveIsNotReplacedByAnOlderAutosave()
    {
        // The race behind a crash of restoreAutosaveOpensInTheBackground under load: an autosave
        // started earlier (it holds the state of then) finished after a save to the autosave file
        // and replaced it. Every pool thread is held here, so the older autosave cannot run before
        // the save; a thread lets them go a moment later. Old code: the file ends with top-k 3.
        MainWindow w;
        prepare(w, 60);
        w.document()->setTopK(3);
        w.autosaves()->waitForAutosave(); // the training's own saves are written: the next one starts a job
        QThreadPool* pool = Executor::pool();
        QSemaphore hold, started;
        const int threads = pool->maxThreadCount();
        for (int i = 0; i < threads; ++i)
            pool->start([&] {
                started.release();
                hold.acquire();
            });
        QVERIFY(started.tryAcquire(threads, 20000)); // every thread is held
        QVERIFY(w.autosaves()->autosave());           // queued: captured with top-k 3
        w.document()->setTopK(9);
        std::thread release([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            hold.release(threads);
        });
        QString error;
        const QString autosave = w.autosaves()->path();
        const bool saved = w.sessions()->save(autosave, &error, SessionManager::DataPolicy::Reference);
        release.join();
        QVERIFY2(saved, qPrintable(error));
        w.autosaves()->waitForAutosave();
        pool->waitForDone(20000);
        QCOMPARE(SessionManager::readSessionFile(autosave).topK, 9);
        w.autosaves()->markCleanExit();
    }

    void anAutosaveGivesItsThreadBackAsItFoundIt()
    {
        // The autosave ran its pool thread at idle priority and "restored" it with
        // QThread::setPriority(NormalPriority), which keeps SCHED_IDLE: that pool thread then ran
        // every later job (trainings, score fields) idle-scheduled, which under load gets almost
        // no CPU (GUI tests timed out with two busy loops). Every pool thread is asked for its
        // policy after a save (all of them are held at once, so the one that saved is among them).
        MainWindow w;
        prepare(w, 60);
        Autosave* a = w.autosaves();
        a->waitForAutosave();
        const int before = a->autosaveCount();
        QVERIFY(a->autosave());
        QTRY_VERIFY_WITH_TIMEOUT(a->autosaveCount() > before, 60000); // finished on its own, not waited for
        QThreadPool* pool = Executor::pool();
        // Idle, its threads kept (waitForDone would end them, and new threads start afresh).
        QTRY_COMPARE_WITH_TIMEOUT(pool->activeThreadCount(), 0, 60000);
        const int threads = pool->maxThreadCount();
        QSemaphore hold, started;
        std::mutex m;
        std::vector<int> policies;
        for (int i = 0; i < threads; ++i)
            pool->start([&] {
                {
                    std::lock_guard<std::mutex> lock(m);
                    policies.push_back(sched_getscheduler(0));
                }
                started.release();
                hold.acquire();
            });
        QVERIFY(started.tryAcquire(threads, 60000));
        hold.release(threads);
        QTRY_COMPARE_WITH_TIMEOUT(pool->activeThreadCount(), 0, 60000);
        QCOMPARE(static_cast<int>(policies.size()), threads);
        for (int p : policies)
            QCOMPARE(p, SCHED_OTHER);
    }

    void menusOpenSessionsInTheBackground()
    {
        // File → Open session and the recent list read the session, its data file and restore the
        // model (scores, explanations, warnings) on the executor: the window keeps the old state
        // until the new one is complete, Esc keeps it for good, a bad file is reported.
        QTemporaryDir dir;
        const QString data = QStringLiteral(OLENS_SOURCE_DIR "/samples/moons2d.csv");
        const QString path = dir.filePath("s.olens.json");
        Eigen::VectorXd scores;
        {
            MainWindow w;
            w.setInteractive(false);
            QVERIFY(w.openFile(data));
            QVERIFY(w.detectorPanel()->setCurrentDetector("lof"));
            QVERIFY(trainAndWait(w));
            QVERIFY(w.document()->result());
            scores = w.document()->result()->scores;
            QString error;
            QVERIFY2(w.sessions()->save(path, &error, SessionManager::DataPolicy::Reference), qPrintable(error));
        }
        MainWindow w;
        prepare(w, 60); // knn on 60 generated rows: the state to keep
        QVERIFY(w.document()->result());
        const Eigen::VectorXd before = w.document()->result()->scores;
        BackgroundOpen* opener = w.backgroundOpen();
        QSignalSpy finished(opener, &BackgroundOpen::finished);

        // Cancelled: the state stays.
        QVERIFY(opener->openSession(path));
        QVERIFY(opener->isBusy());
        opener->cancel();
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        // Nothing arrives later: nothing runs (not busy), and what was queued is delivered.
        QVERIFY(!opener->isBusy());
        QVERIFY(test::processQueued(&w));
        QVERIFY(finished.isEmpty());
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores, before);

        // Opened: nothing changes until it is complete, then all of it.
        QVERIFY(opener->openSession(path));
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores, before);
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QCOMPARE(QFileInfo(w.document()->filePath()).canonicalFilePath(), QFileInfo(data).canonicalFilePath());
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores, scores); // the stored model, not retrained
        QCOMPARE(w.detectorPanel()->currentDetector(), QString("lof"));
        QVERIFY(!opener->isBusy());

        // A broken session file: reported, the state kept.
        const QString bad = dir.filePath("bad.olens.json");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"format\":\"outlierlens-session\",\"version\":1,\"data\":{\"path\":\"/nonexistent/x.csv\"}}");
        }
        QVERIFY(opener->openSession(bad));
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores, scores);
        QVERIFY(!opener->openSession(dir.filePath("missing.olens.json")));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);

        // A data file opened while a session opens replaces it, and a missing session asked for
        // meanwhile does not disturb the data's open.
        const QString seam = QStringLiteral(OLENS_SOURCE_DIR "/samples/seam3d.csv");
        QVERIFY(opener->openSession(path));
        QVERIFY(opener->open(seam));
        QVERIFY(!opener->openSession(dir.filePath("missing.olens.json")));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false); // the missing one, at once
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QCOMPARE(QFileInfo(w.document()->filePath()).fileName(), QString("seam3d.csv"));
        // The replaced session does not arrive afterwards: nothing runs, and what was queued (a
        // step of the replaced session's open) is delivered without effect.
        QVERIFY(!opener->isBusy());
        QVERIFY(test::processQueued(&w));
        QVERIFY(finished.isEmpty());
        QCOMPARE(QFileInfo(w.document()->filePath()).fileName(), QString("seam3d.csv"));
        QVERIFY(!opener->isBusy());

        // The recent list opens a session the same way.
        prepare(w, 60);
        QVERIFY(w.recentFiles()->open(path));
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), true);
        QVERIFY(w.document()->result());
        QCOMPARE(w.document()->result()->scores, scores);
    }

    void closingDuringTrainingExitsPromptly()
    {
        // A long kNN training (200 000 points); closing the window must cancel it and return.
        auto* w = new MainWindow;
        w->setInteractive(false);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w, 60000));
        w->document()->setDataset(generate("blobs", 200000, 3, {{"dim", "3"}}), QString());
        QVERIFY(w->detectorPanel()->setCurrentDetector("knn"));
        QSignalSpy started(w->trainer(), &TrainingController::started);
        QSignalSpy progress(w->trainer(), &TrainingController::progress);
        w->detectorPanel()->train();
        QVERIFY(w->trainer()->isRunning());
        // The job has begun its work (its first report), not a guess at how long that takes.
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 60000);
        QVERIFY(w->trainer()->isRunning()); // still training: the close below interrupts it
        QElapsedTimer clock;
        clock.start();
        w->close();
        delete w; // joins the worker
        const qint64 ms = clock.elapsed();
        // Behaviour: deleting the window cancelled and joined the worker (no job outlives it).
        // How long that took is a figure for scripts/responsiveness.sh, not an assertion.
        QCOMPARE(Worker::liveTasks(), 0);
        qInfo("RESPONSIVENESS closing during training took %lld ms", static_cast<long long>(ms));
    }

    void crashedRunsOwnAutosaveIsOffered()
    {
        // A real crash: the app loads a file (which autosaves, debounced) and is killed before any
        // training. Before, the first autosave came after a training or 3 minutes: nothing to offer.
        QTemporaryDir state;
        const QString moons = QStringLiteral(OLENS_SOURCE_DIR "/samples/moons2d.csv");
        QVERIFY(crashAfterFirstAutosave(state.path(), moons));

        MainWindow w;
        w.setInteractive(false);
        Autosave restart(w.context(), w.sessions(), w.detectorPanel(), state.path());
        QVERIFY(restart.recoveryAvailable());
        QString error;
        QVERIFY2(restart.restoreRecovery(&error), qPrintable(error));
        QCOMPARE(w.document()->dataset().rows(), loadCloudFile(moons).rows());
        QCOMPARE(QFileInfo(w.document()->filePath()).fileName(), QStringLiteral("moons2d.csv"));
    }

    void crashedRunsAutosaveSurvivesAHeadlessRun()
    {
        // Crash, then a headless run with the same state directory (a script, a test, Python's
        // view()), then an interactive start. Before, the headless run rewrote the dirty marker and
        // the autosave, and its clean exit removed the marker: no restore was offered.
        QTemporaryDir state;
        const QString moons = QStringLiteral(OLENS_SOURCE_DIR "/samples/moons2d.csv");
        const QString seam = QStringLiteral(OLENS_SOURCE_DIR "/samples/seam3d.csv");
        QVERIFY(crashAfterFirstAutosave(state.path(), moons));

        QProcess headless;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("OLENS_STATE_DIR", state.path());
        headless.setProcessEnvironment(env);
        headless.start(QStringLiteral(OLENS_GUI_PATH), {"--load", seam, "--detector", "knn", "--train", "--exit"});
        QVERIFY(headless.waitForFinished(120000));
        QCOMPARE(headless.exitCode(), 0);

        MainWindow w;
        w.setInteractive(false);
        Autosave restart(w.context(), w.sessions(), w.detectorPanel(), state.path());
        QVERIFY(restart.recoveryAvailable());
        QString error;
        QVERIFY2(restart.restoreRecovery(&error), qPrintable(error));
        QCOMPARE(QFileInfo(w.document()->filePath()).fileName(), QStringLiteral("moons2d.csv"));
        QVERIFY(!QFile::exists(restart.recoveryPath())); // restored once, not offered again
    }

    void olderRunsAutosaveIsNotOfferedForACrash()
    {
        QTemporaryDir state;
        {
            MainWindow w;
            prepare(w, 60);
            Autosave first(w.context(), w.sessions(), w.detectorPanel(), state.path());
            QVERIFY(!first.recoveryAvailable());
            QVERIFY(first.autosave());
        } // a clean exit: the next start offers nothing
        {
            MainWindow w;
            w.setInteractive(false);
            Autosave second(w.context(), w.sessions(), w.detectorPanel(), state.path());
            QVERIFY(!second.recoveryAvailable());
            QVERIFY(!second.crashedWithoutAutosave());
        }
        // A later run crashed before it saved anything: its dirty marker names it, and the autosave
        // on disk is the first run's. Offering that one (as before) restores someone else's work.
        QFile marker(state.filePath("running.dirty"));
        QVERIFY(marker.open(QIODevice::WriteOnly));
        marker.write("99999999-1");
        marker.close();
        MainWindow w;
        w.setInteractive(false);
        Autosave third(w.context(), w.sessions(), w.detectorPanel(), state.path());
        QVERIFY(!third.recoveryAvailable());
        QVERIFY(third.crashedWithoutAutosave());
    }

    void changesAreAutosavedDebouncedAndAtTrainingStart()
    {
        QTemporaryDir state;
        MainWindow w;
        prepare(w, 80);
        Autosave m(w.context(), w.sessions(), w.detectorPanel(), state.path());
        QCOMPARE(m.autosaveCount(), 0);
        // A burst of parameter edits: one autosave after the quiet period, with the last value.
        w.detectorPanel()->form()->setValues({{"k", "7"}});
        w.detectorPanel()->form()->setValues({{"k", "9"}});
        w.document()->setThreshold(w.document()->threshold() * 1.5);
        QTRY_COMPARE_WITH_TIMEOUT(m.autosaveCount(), 1, 20000);
        // Nothing more is pending: flushAutosave writes at once an autosave still waiting for its
        // debounce (and one queued behind the one written), and waits for them.
        m.flushAutosave();
        QCOMPARE(m.autosaveCount(), 1);
        QFile f(m.path());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Session saved = parseSession(f.readAll().toStdString());
        QVERIFY(saved.detector);
        QCOMPARE(saved.detector->params.at("k").get<int>(), 9);
        QVERIFY(saved.threshold);
        QCOMPARE(*saved.threshold, w.document()->threshold());
        // Training start saves at once (a crash during the first training keeps the choices).
        QSignalSpy started(w.trainer(), &TrainingController::started);
        QSignalSpy done(w.trainer(), &TrainingController::finished);
        w.detectorPanel()->train();
        QCOMPARE(started.count(), 1);
        m.waitForAutosave(); // written on a pool thread: the GUI does not wait for it
        QCOMPARE(m.autosaveCount(), 2);
        QVERIFY(done.wait(20000));
        m.waitForAutosave();
        QCOMPARE(m.autosaveCount(), 3);
    }

    void autosaveOfAFilesKnnModelRefersToTheRows()
    {
        // Issue #34 item 7: a knn model keeps its training rows; the autosave of file data names
        // the file and stores the model without them (a million-point autosave was 32 MB, 24 of
        // them the points). Restored, the scores are the same; the file edited since, the session
        // still opens, without the model, and the log says why.
        QTemporaryDir dir, state;
        const QString csv = dir.filePath("moons.csv");
        {
            const Dataset d = generate("moons", 3000, 9, {{"outliers", "0.05"}});
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray text = "x,y\n";
            for (Eigen::Index i = 0; i < d.rows(); ++i)
                text += QByteArray::number(d.X(i, 0), 'g', 17) + ',' + QByteArray::number(d.X(i, 1), 'g', 17) + '\n';
            f.write(text);
        }
        Eigen::VectorXd scores;
        QString autosave;
        qint64 bytes = 0;
        {
            MainWindow w;
            w.setInteractive(false);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
            QString error;
            QVERIFY2(w.openFile(csv, &error), qPrintable(error));
            QVERIFY(w.detectorPanel()->setCurrentDetector("knn"));
            QVERIFY(trainAndWait(w));
            QVERIFY(w.document()->result());
            scores = w.document()->result()->scores;
            Autosave m(w.context(), w.sessions(), w.detectorPanel(), state.path());
            QVERIFY(m.autosave());
            m.waitForAutosave();
            autosave = m.path();
            QFile f(autosave);
            QVERIFY(f.open(QIODevice::ReadOnly));
            bytes = f.size();
            const Session saved = parseSession(f.readAll().toStdString());
            QVERIFY(!saved.embedded);
            QVERIFY(modelRefersToData(saved.model));
            QVERIFY(!saved.model["state"].contains("points"));
            // An explicit save that names the file keeps the whole model (the file may be read with
            // other column roles elsewhere); one with the rows embedded refers to them.
            const QString named = dir.filePath("named.olens.json"), embedded = dir.filePath("embedded.olens.json");
            QVERIFY2(w.sessions()->save(named, &error, SessionManager::DataPolicy::Reference), qPrintable(error));
            QVERIFY2(w.sessions()->save(embedded, &error, SessionManager::DataPolicy::Embed), qPrintable(error));
            auto read = [](const QString& path) {
                QFile in(path);
                return in.open(QIODevice::ReadOnly) ? parseSession(in.readAll().toStdString()) : Session{};
            };
            const Session n = read(named), e = read(embedded);
            QVERIFY(!n.embedded && !modelRefersToData(n.model) && n.model["state"].contains("points"));
            QVERIFY(e.embedded && modelRefersToData(e.model));
        }
        // 3000 × 2 doubles as base64 would be 64 000 bytes of the file alone.
        QVERIFY2(bytes < 60000, qPrintable(QString::number(bytes)));
        {
            MainWindow w2;
            w2.setInteractive(false);
            w2.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w2, 60000));
            QString error;
            QVERIFY2(w2.sessions()->open(autosave, &error), qPrintable(error));
            QVERIFY(w2.document()->result());
            QCOMPARE(w2.document()->result()->scores, scores);
        }
        {
            QFile f(csv); // one training row changed: the reference no longer holds
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray text = f.readAll();
            text.replace(text.indexOf('\n') + 1, 1, "9");
            f.resize(0);
            f.seek(0);
            f.write(text);
        }
        MainWindow w3;
        w3.setInteractive(false);
        w3.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w3, 60000));
        QString error;
        QVERIFY2(w3.sessions()->open(autosave, &error), qPrintable(error));
        QCOMPARE(int(w3.document()->dataset().rows()), 3000);
        QVERIFY(!w3.document()->result());
        QVERIFY(w3.log()->toPlainText().contains("model was not restored"));
        QVERIFY(w3.log()->toPlainText().contains("train the detector again"));
    }

    void anAutosaveRequestedWhileOneIsWrittenSavesTheNewestState()
    {
        QTemporaryDir state;
        MainWindow w;
        prepare(w, 3000); // a file of some size: the first save is still being written below
        Autosave m(w.context(), w.sessions(), w.detectorPanel(), state.path());
        QVERIFY(m.autosave());
        w.detectorPanel()->form()->setValues({{"k", "11"}});
        QVERIFY(m.autosave()); // queued behind the first, or started if that one is done
        m.waitForAutosave();
        QCOMPARE(m.autosaveCount(), 2);
        QFile f(m.path());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Session saved = parseSession(f.readAll().toStdString());
        QVERIFY(saved.detector);
        QCOMPARE(saved.detector->params.at("k").get<int>(), 11);
        // The owner file names this run and the hash of exactly these bytes (what a restart checks).
        QVERIFY(QFile::exists(state.filePath("autosave.run")));
    }

    void unwritableStateDirectoryIsReportedOnce()
    {
        QTemporaryDir parent;
        QFile blocker(parent.filePath("file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly)); // a file where a directory is needed (root ignores modes)
        blocker.close();
        const QString dir = parent.filePath("file/state");
        MainWindow w;
        prepare(w, 40);
        Autosave m(w.context(), w.sessions(), w.detectorPanel(), dir);
        QVERIFY(m.lastProblem().contains(QDir::toNativeSeparators(dir)));
        QVERIFY(m.lastProblem().contains("OLENS_STATE_DIR"));
        QTRY_VERIFY(w.statusBar()->currentMessage().contains("cannot be written"));
        QVERIFY(!m.autosave());
        m.scheduleAutosave();
        m.flushAutosave(); // the scheduled autosave is attempted now instead of after its debounce
        const QString log = w.log()->toPlainText();
        QCOMPARE(log.count("cannot be written"), 1);
    }
};

OLENS_GUI_TEST_MAIN(TestSessionsAndEditing)
#include "TestSessionsAndEditing.moc"
