// Issue #37 in the window: the timeline under the view replays a training. Quadrics on the seam
// curve: after training the bar shows every recorded epoch; a step shows the model stopped there
// (scores, threshold and ranking equal to an independent fit with epochs = k — not the recorded
// state read back), the trained result stays what sessions save; the Replay actions ([ ] { } P)
// step and return; a new training or an edit ends the step view; a saved session brings the path
// back; presets carry a lesson caption and View → Classroom shows only the view, caption and
// timeline; `--replay-frames` writes one changing frame per step and refuses a detector without steps.
#include "modes/ClassroomReaction.h"
#include "AppTestSupport.h"
#include "GuiTestSupport.h"
#include "window/MainWindow.h"
#include "files/SessionManager.h"
#include "session/Session.h"
#include "files/RecentFilesMenu.h"
#include "files/BackgroundOpen.h"
#include "files/Autosave.h"
#include "detectors/TrainingHistory.h"
#include "docks/DetectorPanel.h"
#include "docks/LessonCaption.h"
#include "docks/TimelineBar.h"
#include <QFontMetrics>
#include "modes/TextSizeReaction.h"
#include "docks/RankingPanel.h"
#include "reactions/Presets.h"
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "jobs/TrainingController.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"

#include <QAction>
#include <QLabel>
#include <QCryptographicHash>
#include <QDir>
#include <QDockWidget>
#include <QMenuBar>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonArray>
#include <QProcessEnvironment>
#include <QImageReader>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTableView>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QtTest>

#include <set>
#include <tuple>

using namespace olens;

namespace {

using olens::test::sample;

void trainQuadrics(MainWindow& w, int epochs)
{
    QVERIFY(w.detectorPanel()->setCurrentDetector("quadrics"));
    TrainingSetup setup = w.document()->trainingSetup();
    ParamSet params = Registry::instance().defaultParams(setup.detectorId);
    params.set(setup.params);
    params.set("epochs", std::to_string(epochs));
    params.set("tol", "0");
    setup.params = params.assignments();
    w.document()->setTrainingSetup(setup);
    QSignalSpy finished(w.trainer(), &TrainingController::finished);
    w.detectorPanel()->train();
    QVERIFY(finished.wait(60000));
}

QAction* actionWithKey(MainWindow& w, const QString& key)
{
    for (QAction* a : w.findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(key))
            return a;
    return nullptr;
}

bool showAndWait(TimelineBar* t, int index)
{
    QSignalSpy shown(t, &TimelineBar::stepShown);
    t->showIndex(index);
    return !shown.isEmpty() || shown.wait(20000);
}

double differingPixels(const QImage& a, const QImage& b)
{
    if (a.size() != b.size())
        return 1.0;
    long differ = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            differ += a.pixel(x, y) != b.pixel(x, y);
    return double(differ) / double(a.width() * a.height());
}

} // namespace

class TestReplay : public QObject {
    Q_OBJECT
private slots:
    void aStepShowsTheModelStoppedThere()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(sample("seam3d.csv")));
        TimelineBar* t = w.timeline();
        QVERIFY(t->isHidden()); // nothing trained: no timeline
        trainQuadrics(w, 30);
        QCOMPARE(t->stepCount(), 31); // epochs 0 … 30, all within the dense start
        QVERIFY(!t->isHidden());
        const auto trained = w.document()->result();
        QVERIFY(trained);
        QCOMPARE(t->currentIndex(), 30);

        QVERIFY(showAndWait(t, 3));
        QCOMPARE(w.document()->shownStep(), 3);
        QCOMPARE(w.document()->trainedResult(), trained); // sessions and edits still see the trained model
        const auto shown = w.document()->result();
        QVERIFY(shown);
        QVERIFY(shown != trained);
        // The reference: an independent fit stopped after 3 epochs, through the same pipeline.
        TrainingSetup setup = w.document()->trainingSetup();
        ParamSet params = Registry::instance().defaultParams("quadrics");
        params.set(setup.params);
        params.set("epochs", "3");
        auto ref = fitPipeline(Registry::instance().create("quadrics", params.assignments()),
                               Normalizer(setup.normalization), w.document()->dataset().X);
        QVERIFY(ref);
        QVERIFY((shown->scores - ref->scores).cwiseAbs().maxCoeff() <= 1e-12);
        QCOMPARE(w.document()->threshold(), ref->threshold);
        QCOMPARE(w.document()->ranking(), rankByScore(ref->scores));
        QVERIFY((shown->scores - trained->scores).cwiseAbs().maxCoeff() > 1e-4); // the fit moved after epoch 3

        // The Replay actions: ] forward, [ back, { the start, } the trained model.
        QAction* forward = actionWithKey(w, "]");
        QAction* back = actionWithKey(w, "[");
        QAction* first = actionWithKey(w, "{");
        QAction* live = actionWithKey(w, "}");
        QVERIFY(forward && back && first && live && actionWithKey(w, "P"));
        QVERIFY(forward->isEnabled());
        QSignalSpy shownSpy(t, &TimelineBar::stepShown);
        forward->trigger();
        QVERIFY(shownSpy.wait(20000));
        QCOMPARE(w.document()->shownStep(), 4);
        first->trigger();
        QVERIFY(shownSpy.wait(20000));
        QCOMPARE(w.document()->shownStep(), 0);
        live->trigger();
        QCOMPARE(w.document()->shownStep(), -1);
        QCOMPARE(w.document()->result(), trained);
        QCOMPARE(w.document()->threshold(), trained->threshold);

        // Playing walks forward on its own and stops at the trained model.
        QVERIFY(showAndWait(t, 26));
        t->togglePlay();
        QVERIFY(t->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!t->isPlaying(), 20000);
        QCOMPARE(w.document()->shownStep(), -1);

        // A new training ends the step view and brings a new path.
        QVERIFY(showAndWait(t, 5));
        trainQuadrics(w, 12);
        QCOMPARE(w.document()->shownStep(), -1);
        QCOMPARE(t->stepCount(), 13);
    }

    void stepTrainingPausesAfterEachEpoch()
    {
        // Item 3: N trains one epoch at a time; the live geometry shows where it is; Esc still
        // cancels while paused; Shift+N lets it run to the end, and the timeline then replays it.
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.openFile(sample("seam3d.csv")));
        QVERIFY(w.detectorPanel()->setCurrentDetector("quadrics"));
        TrainingSetup setup = w.document()->trainingSetup();
        ParamSet params = Registry::instance().defaultParams("quadrics");
        params.set(setup.params);
        params.set("epochs", "40");
        params.set("tol", "0");
        setup.params = params.assignments();
        w.document()->setTrainingSetup(setup);
        TrainingController* t = w.trainer();
        QAction* step = actionWithKey(w, "N");
        QAction* run = actionWithKey(w, "Shift+N");
        QVERIFY(step && run);
        QVERIFY(step->isEnabled() && !run->isEnabled());

        step->trigger(); // starts, pauses after epoch 1
        QTRY_COMPARE_WITH_TIMEOUT(t->pausedStep(), 1, 20000);
        QVERIFY(run->isEnabled());
        // It does not go on by itself: the paused job polls its gate and reports each time (the
        // worker passes on a report every 100 ms); three reports later it still waits at step 1.
        QSignalSpy reports(t, &TrainingController::progress);
        QVERIFY(QTest::qWaitFor([&] { return reports.count() >= 3; }, 20000));
        QVERIFY(t->isRunning());
        QCOMPARE(t->pausedStep(), 1);
        step->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(t->pausedStep(), 2, 20000);
        step->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(t->pausedStep(), 3, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->liveGeometry() != nullptr, 20000); // the quadrics as they are

        // One more step on a fine grid: its live quadrics' field is still being computed when the
        // user cancels. That field must not arrive afterwards (it drew every live quadric over a
        // view that had no result; issue #35 item 5).
        w.view()->setGridResolution3D(128);
        step->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(t->pausedStep(), 4, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(w.view()->isFieldBusy(), 20000);
        QSignalSpy cancelled(t, &TrainingController::cancelled);
        t->cancel(); // Esc while paused
        QVERIFY(cancelled.wait(20000));
        QVERIFY(!t->isRunning());
        QVERIFY(!w.document()->result());
        QVERIFY(!w.document()->liveGeometry());
        // The live field's computation is over (not busy: it was dropped or delivered), and what was
        // queued meanwhile is delivered without starting another one.
        QTRY_VERIFY_WITH_TIMEOUT(!w.view()->isFieldBusy(), 20000);
        QVERIFY(test::processQueued(&w));
        QVERIFY(!w.view()->isFieldBusy());
        QVERIFY2(!w.view()->field(), "the cancelled training's live field arrived after the cancel");
        w.view()->setGridResolution3D(48);

        QSignalSpy finished(t, &TrainingController::finished);
        step->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(t->pausedStep(), 1, 20000);
        run->trigger();
        QVERIFY(finished.wait(30000));
        QCOMPARE(w.timeline()->stepCount(), 41);

        // The counter at projector text keeps "(trained)" and gives up the loss first (found
        // driving the GUI as a teacher: "… loss 0.03900…" cut, "(trained)" lost behind the speed box).
        const QLabel* counter = w.timeline()->findChild<QLabel*>(QStringLiteral("TimelineLabel"));
        QVERIFY(counter);
        QVERIFY(test::showAt(w, QSize(1280, 720))); // laid out: the label's width is the layout's
        QTRY_VERIFY_WITH_TIMEOUT(w.timeline()->counterText().contains(QStringLiteral("loss")), 5000);
        QVERIFY(w.timeline()->counterText().endsWith(QStringLiteral("(trained)")));
        const QString full = w.timeline()->counterText(); // "epoch 40 / 40 · loss … (trained)"
        TextSizeReaction::apply(&w, 2.0, false);
        auto width = [&](const QString& t) { return QFontMetrics(counter->font()).horizontalAdvance(t); };
        const QString plain = full.left(full.indexOf(QStringLiteral(" · "))); // "epoch 40 / 40"
        // The longest form that fits is shown: whole, without the loss, then the bare counter.
        QTRY_VERIFY_WITH_TIMEOUT(width(counter->text()) <= counter->contentsRect().width(), 5000);
        const QString shown = w.timeline()->counterText();
        const int room = counter->contentsRect().width();
        QVERIFY2(width(full) > room, "2x text: the whole counter should not fit here");
        if (!shown.endsWith(QStringLiteral("(trained)")))
            QVERIFY(width(plain + QStringLiteral(" (trained)")) > room);
        QVERIFY(shown.startsWith(plain));
        QVERIFY(!shown.contains(QStringLiteral("loss")));
        QVERIFY(counter->toolTip().contains(QStringLiteral("loss")));
        TextSizeReaction::apply(&w, 1.0, false);
        QTRY_VERIFY_WITH_TIMEOUT(w.timeline()->counterText().contains(QStringLiteral("loss")), 5000);
    }

    void oneStepShownEverywhereInALesson()
    {
        // Issue #52 item 1, as the issue found it: preset 1, Page Down, then N three times showed
        // three steps at once (Detector dock epoch 3, timeline "epoch 100 (trained)", caption about
        // epoch 0, points coloured by the trained model). Now the step-by-step training owns the
        // shown step: every reader names epoch 3, the trained scores are set aside, and the
        // caption says it describes another step and offers to go there. Going there (its link)
        // pauses the training; N hands it the view again; N during a replay stops the replay; Esc
        // brings the trained model back.
        MainWindow w;
        QVERIFY(test::showAt(w, QSize(1280, 720)));
        QVERIFY(test::applyLessonPreset(w, 20));
        QTRY_VERIFY_WITH_TIMEOUT(w.timeline()->stepCount() > 10, 20000);
        const auto trained = w.document()->trainedResult();
        LessonCaption* caption = w.lessonCaption();
        QAction* next = test::actionWithShortcut(w, QKeySequence(Qt::Key_PageDown));
        QAction* step = actionWithKey(w, "N");
        QVERIFY(next && step);
        next->trigger(); // "Epoch 0: …"
        QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), 0, 20000);
        QVERIFY(caption->describesShown());
        QVERIFY(!caption->mismatchNote()->isVisibleTo(caption));

        TrainingController* t = w.trainer();
        step->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(t->pausedStep(), 1, 20000);
        step->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(t->pausedStep(), 2, 20000);
        step->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(t->pausedStep(), 3, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(w.document()->shown().step, 3, 20000);
        QVERIFY(w.document()->showsTraining());
        QVERIFY(!w.document()->result()); // no colours, ranking or evaluation of another model
        QCOMPARE(w.document()->trainedResult(), trained);
        QTRY_COMPARE_WITH_TIMEOUT(w.view()->drawnStep(), 3, 20000);
        QCOMPARE(w.timeline()->labelledStep(), 3);
        QVERIFY(!w.timeline()->sliderEnabled()); // it stood at the recorded step 0 it had left
        QCOMPARE(w.detectorPanel()->describedStep(), 3);
        QCOMPARE(w.rankingPanel()->listedStep(), -1);
        QVERIFY(!caption->describesShown());
        QVERIFY(caption->mismatchNote()->isVisibleTo(caption));
        QVERIFY2(caption->mismatchNote()->text().contains("epoch 0") && caption->mismatchNote()->text().contains("epoch 3"),
                 qPrintable(caption->mismatchNote()->text()));

        // The caption's link: the step it describes, from the trained model's recorded path.
        emit caption->mismatchNote()->linkActivated(QStringLiteral("show"));
        QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), 0, 20000);
        QVERIFY(!w.document()->showsTraining());
        QVERIFY(caption->describesShown());
        QCOMPARE(w.view()->drawnStep(), 0);
        QCOMPARE(w.timeline()->labelledStep(), 0);
        QVERIFY(w.timeline()->sliderEnabled());
        QCOMPARE(w.detectorPanel()->describedStep(), 0);
        QCOMPARE(w.rankingPanel()->listedStep(), 0);
        QVERIFY(t->isRunning()); // the training waits where it was
        QCOMPARE(t->pausedStep(), 3);

        step->trigger(); // N: the training takes the view again, one step further
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->showsTraining() && w.document()->shown().step == 4, 20000);

        // A replay takes the view; N stops the replay.
        w.timeline()->togglePlay();
        QVERIFY(w.timeline()->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->shownStep() >= 0, 20000);
        QVERIFY(!w.document()->showsTraining());
        step->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->showsTraining() && w.document()->shown().step == 5, 20000);
        QVERIFY(!w.timeline()->isPlaying());

        QSignalSpy cancelled(t, &TrainingController::cancelled);
        t->cancel(); // Esc: the trained model is back, with its ranking
        QVERIFY(cancelled.wait(20000));
        QVERIFY(!w.document()->showsTraining());
        QCOMPARE(w.document()->result(), trained);
        QTRY_VERIFY_WITH_TIMEOUT(w.timeline()->sliderEnabled(), 20000);
        QCOMPARE(w.document()->shown().kind, DataDocument::Shown::Kind::Trained);
        QCOMPARE(int(w.document()->ranking().size()), int(w.document()->dataset().rows()));
    }

    void lessonStepHeadlessReportsOneShownStep()
    {
        // Issue #52 item 7: `--lesson-step N` shows step N of the preset's lesson before the outputs,
        // and the layout report's "shown" names each component's step: all the same. Step 4 of
        // preset 1 is epoch 10 here (epochs=20; the lesson's "Epoch 40" step resolves to the
        // trained model at epoch 20).
        QTemporaryDir dir;
        auto run = [&](int lessonStep, QJsonObject* shown) {
            const QString report = dir.filePath(QStringLiteral("r%1.json").arg(lessonStep));
            QProcess p;
            p.start(QStringLiteral(OLENS_GUI_PATH), {"--preset", "1", "--param", "epochs=20", "--lesson-step",
                                                     QString::number(lessonStep), "--layout-report", report, "--exit"});
            if (!p.waitForFinished(240000) || p.exitCode() != 0)
                return QString::fromUtf8(p.readAllStandardError());
            QFile f(report);
            if (!f.open(QIODevice::ReadOnly))
                return QStringLiteral("no report");
            *shown = QJsonDocument::fromJson(f.readAll()).object().value("shown").toObject();
            return QString();
        };
        for (const auto& [lessonStep, epoch] : {std::pair{3, 10}, std::pair{4, 20}, std::pair{2, 0}}) {
            QJsonObject shown;
            const QString error = run(lessonStep, &shown);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            for (const char* key : {"view", "scores", "ranking", "caption", "timeline", "detector"})
                QVERIFY2(shown.value(key).toInt(-1) == epoch,
                         qPrintable(QStringLiteral("step %1: %2 shows %3, expected %4")
                                        .arg(lessonStep).arg(key).arg(shown.value(key).toVariant().toString()).arg(epoch)));
            QVERIFY(shown.value("caption_matches").toBool());
        }
        // A step beyond the lesson is refused with the lesson's length.
        QProcess bad;
        bad.start(QStringLiteral(OLENS_GUI_PATH), {"--preset", "1", "--param", "epochs=3", "--lesson-step", "9", "--exit"});
        QVERIFY(bad.waitForFinished(240000));
        QCOMPARE(bad.exitCode(), 1);
        QVERIFY2(bad.readAllStandardError().contains("not in 1..5"), "no range named");
    }

    void aProjectorLessonStepCoversNothing()
    {
        // Issue #52 items 2 and 7, its "done when": preset 1 at lesson step 4 with projector text
        // (QT_SCALE_FACTOR 1.5, text 1.5): every text at least 18 device px, no text over another
        // or over the highlighted point (the legend sat on the far outlier), and the lesson's ring
        // where the report says, in the screenshot. The same at scale 1, text 1: every text ≥ 9 px.
        QTemporaryDir dir;
        for (const auto& [factor, text, minPx] : {std::tuple{"1.5", "1.5", 18}, std::tuple{"1", "1", 9}}) {
            const QString report = dir.filePath(QStringLiteral("r%1.json").arg(factor));
            const QString shot = dir.filePath(QStringLiteral("s%1.png").arg(factor));
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("QT_SCALE_FACTOR", factor);
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(OLENS_GUI_PATH), {"--preset", "1", "--param", "epochs=20", "--lesson-step", "4",
                                                     "--text-size", text, "--screenshot", shot, "--layout-report", report,
                                                     "--exit"});
            QVERIFY(p.waitForFinished(240000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            QFile f(report);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonObject r = QJsonDocument::fromJson(f.readAll()).object();
            QVERIFY2(r.value("overlaps").toArray().isEmpty(),
                     QJsonDocument(r.value("overlaps").toArray()).toJson().constData());
            QVERIFY2(r.value("min_text_px").toInt() >= minPx,
                     QJsonDocument(r.value("text_px").toObject()).toJson().constData());
            for (const char* key : {"caption", "timeline", "legend", "ticks"}) // the triad's letters, when the view has room for them, count in min_text_px
                QVERIFY2(r.value("text_px").toObject().contains(key), key);
            // The ring (magenta, SelectionLayer) around the first highlighted point.
            const QJsonArray points = r.value("highlighted_point_px").toArray();
            QVERIFY(!points.isEmpty());
            const QImage img(shot);
            QVERIFY(!img.isNull());
            const int x = points[0].toArray()[0].toInt(), y = points[0].toArray()[1].toInt();
            QVERIFY(x >= 0 && y >= 0 && x < img.width() && y < img.height());
            const int magenta = test::selectionPixelsNear(img, QPoint(x, y), 30);
            QVERIFY2(magenta > 20, qPrintable(QStringLiteral("no ring at (%1, %2)").arg(x).arg(y)));
        }
    }

    void aRestoredAutosaveShowsItsStepAndKeepsItsName()
    {
        // Issue #52 item 1: restoring the autosave of a lesson at its epoch-10 step kept the caption
        // but showed the trained model without a timeline (the autosave had no recorded path), and
        // the status bar and Recent files then named "crashed.olens.json". Now the autosave carries
        // the path, the step shown and the session file it stands for.
        QTemporaryDir dir;
        const QString sessionPath = dir.filePath("lesson.olens.json");
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(test::applyLessonPreset(w, 20));
        QTRY_VERIFY_WITH_TIMEOUT(w.timeline()->stepCount() > 10, 20000);
        const auto h = w.document()->trainedResult()->detector->history();
        QAction* next = test::actionWithShortcut(w, QKeySequence(Qt::Key_PageDown));
        QVERIFY(next);
        next->trigger();
        next->trigger(); // "Epoch 10"
        QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), h->indexAtOrBefore(10), 20000);
        QVERIFY(w.sessions()->saveAs(sessionPath)); // File → Save session as: the session's name
        QCOMPARE(w.sessions()->currentPath(), sessionPath);
        w.autosaves()->waitForAutosave();
        QVERIFY(w.autosaves()->autosave());
        w.autosaves()->waitForAutosave();
        const Session saved = SessionManager::readSessionFile(w.autosaves()->path());
        QCOMPARE(QString::fromStdString(saved.origin), sessionPath);
        QCOMPARE(saved.shownStep, 10);
        QVERIFY(saved.model.contains("history"));
        w.autosaves()->markCleanExit(); // no later autosave replaces that file

        QVERIFY(w.openFile(sample("moons2d.csv"))); // other work, then File → Restore autosave
        QSignalSpy opened(w.backgroundOpen(), &BackgroundOpen::finished);
        w.action("actionRestoreAutosave")->trigger();
        QVERIFY(opened.wait(60000));
        QCOMPARE(opened.takeFirst().at(0).toBool(), true);
        QCOMPARE(w.lessonCaption()->lesson().current, 2);
        QVERIFY(w.timeline()->stepCount() > 10);
        QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), h->indexAtOrBefore(10), 20000);
        QVERIFY(w.lessonCaption()->describesShown());
        QCOMPARE(w.sessions()->currentPath(), sessionPath);
        QVERIFY(!w.recentFiles()->files().contains(w.autosaves()->path()));
    }

    void aSessionKeepsThePath()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("replay.olens");
        int steps = 0;
        {
            MainWindow w;
            w.setInteractive(false);
            QVERIFY(w.openFile(sample("seam3d.csv")));
            trainQuadrics(w, 15);
            steps = w.timeline()->stepCount();
            QVERIFY(showAndWait(w.timeline(), 2)); // saved while a step is shown: the trained model is saved
            QString error;
            QVERIFY2(w.sessions()->save(path, &error), qPrintable(error));
        }
        MainWindow w2;
        w2.setInteractive(false);
        QString error;
        QVERIFY2(w2.sessions()->open(path, &error), qPrintable(error));
        QCOMPARE(w2.timeline()->stepCount(), steps);
        QCOMPARE(w2.document()->trainedResult()->step, -1); // the trained model was saved …
        // … and the step the timeline showed comes back (issue #52: shown_step).
        QTRY_COMPARE_WITH_TIMEOUT(w2.document()->shownStep(), 2, 20000);
        QCOMPARE(w2.document()->shown().step, w2.document()->trainedResult()->detector->history()->steps[2].step);
        QVERIFY(showAndWait(w2.timeline(), 1));
        QCOMPARE(w2.document()->shownStep(), 1);
    }

    void aPresetIsALessonAndClassroomShowsOnlyTheView()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 720);
        w.show();
        const auto presets = availablePresets();
        QVERIFY(!presets.empty());
        for (const Preset& p : presets)
            QVERIFY2(p.caption.contains("eq.") || p.caption.contains("fig.") || p.caption.contains("lines "),
                     qPrintable(p.title)); // every lesson names what of the paper it shows
        QVERIFY(w.presets()->apply(presets.front(), false));
        LessonCaption* caption = w.lessonCaption();
        QVERIFY(caption->isVisible());
        QCOMPARE(caption->lessonText(), presets.front().caption);
        QVERIFY(w.openFile(sample("moons2d.csv"))); // other data: the lesson is over
        QVERIFY(!caption->isVisible());

        QVERIFY(w.presets()->apply(presets.front(), false));
        QAction* classroom = actionWithKey(w, "F11");
        QVERIFY(classroom);
        QList<QDockWidget*> shownBefore;
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            if (d->isVisible())
                shownBefore << d;
        QVERIFY(!shownBefore.isEmpty());
        classroom->trigger();
        QVERIFY(classroom->isChecked());
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            QVERIFY2(!d->isVisible(), qPrintable(d->objectName()));
        QVERIFY(!w.menuBar()->isVisible());
        QVERIFY(caption->isVisible());
        QVERIFY(w.view()->isVisible());
        // Issue #52: Ctrl+S, Ctrl+O … did nothing with the menu bar hidden (Qt matches a window
        // shortcut only through a visible widget). The window carries every menu key meanwhile.
        QAction* save = w.findChild<QAction*>("actionSaveSession");
        QAction* open = w.findChild<QAction*>("actionOpenSession");
        QVERIFY(save && open);
        QCOMPARE(save->shortcut(), QKeySequence(QKeySequence::Save));
        for (QAction* a : {save, open})
            QVERIFY2(w.actions().contains(a), qPrintable(a->objectName()));
        QCOMPARE(test::actionWithShortcut(w, QKeySequence(QKeySequence::Save)), save);
        classroom->trigger(); // F11 again: everything back
        QVERIFY(!classroom->isChecked());
        QVERIFY(w.menuBar()->isVisible());
        QVERIFY(!w.actions().contains(save)); // back in its menu only
        for (QDockWidget* d : shownBefore)
            QVERIFY2(d->isVisible(), qPrintable(d->objectName()));
    }

    void aLessonStepsThroughTheTrainingAndTravelsWithTheSession()
    {
        // Preset 1's lesson: the caption, then epochs 0, 3, 10 and the trained model, each with the
        // point ranked first at that step highlighted. Page Down / Page Up go through it; the step
        // shown is the recorded one (its scores are resultAtStep's, an independent argmax picks
        // the point); a saved session brings the lesson back at its step, with classroom mode and
        // the dock kept in it.
        QTemporaryDir dir;
        const QString path = dir.filePath("lesson.olens");
        auto argmax = [](const Eigen::VectorXd& v) {
            Eigen::Index i = 0;
            v.maxCoeff(&i);
            return static_cast<int>(i);
        };
        {
            MainWindow w;
            w.setInteractive(false);
            w.resize(1280, 720);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
            Preset preset = availablePresets().front();
            preset.detectorParams = {{"epochs", "20"}};
            QSignalSpy finished(w.trainer(), &TrainingController::finished);
            QVERIFY(w.presets()->apply(preset));
            LessonCaption* caption = w.lessonCaption();
            QCOMPARE(int(caption->lesson().steps.size()), 5);
            QCOMPARE(caption->lesson().current, 0);
            QVERIFY(finished.wait(60000));
            QTRY_VERIFY_WITH_TIMEOUT(w.timeline()->stepCount() > 10, 20000);
            const auto trained = w.document()->trainedResult();
            QVERIFY(trained);
            const Eigen::MatrixXd X = w.document()->dataset().X;
            const auto h = trained->detector->history();
            QVERIFY(h);

            // Page Down / Page Up are the lesson actions' window shortcuts (also with the menu bar
            // hidden: actions of the window itself). The actions are triggered: a key click reaches
            // a window shortcut only while the window is active, which a loaded run loses (the
            // lesson then stayed where it was).
            QAction* next = test::actionWithShortcut(w, QKeySequence(Qt::Key_PageDown));
            QAction* back = test::actionWithShortcut(w, QKeySequence(Qt::Key_PageUp));
            QVERIFY(next && back);
            QCOMPARE(next->shortcut(), QKeySequence(Qt::Key_PageDown));
            QCOMPARE(back->shortcut(), QKeySequence(Qt::Key_PageUp));
            for (QAction* a : {next, back})
                QVERIFY(w.actions().contains(a) && a->shortcutContext() == Qt::WindowShortcut);
            auto stepResult = [&](int index) {
                const auto r = resultAtStep(*trained, X, index);
                return r ? argmax(r->scores) : -2; // -2: no result (never a selected point)
            };
            const int top0 = stepResult(0), top10 = stepResult(h->indexAtOrBefore(10));
            next->trigger(); // epoch 0, the point ranked first there
            QCOMPARE(caption->lesson().current, 1);
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), 0, 20000);
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->selectedPoint(), top0, 20000);
            // The key steps the lesson only when no list, table or spin box holds the focus (those
            // page themselves): nothing the lesson did may have moved the window's focus into one.
            QWidget* focus = w.focusWidget();
            QVERIFY2(!qobject_cast<QAbstractItemView*>(focus) && !qobject_cast<QAbstractSpinBox*>(focus),
                     focus ? focus->metaObject()->className() : "none");
            next->trigger(); // epoch 10
            QCOMPARE(caption->lesson().current, 2);
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), h->indexAtOrBefore(10), 20000);
            QCOMPARE(h->steps[static_cast<std::size_t>(w.document()->shownStep())].step, 10);
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->selectedPoint(), top10, 20000);
            next->trigger(); // epoch 40: after the last of 20 epochs, the trained model
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), -1, 20000);
            back->trigger(); // back to epoch 10
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), h->indexAtOrBefore(10), 20000);
            next->trigger();
            next->trigger(); // trained
            QCOMPARE(caption->lesson().current, 4);
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), -1, 20000);
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->selectedPoint(), argmax(trained->scores), 20000);
            QVERIFY(caption->lessonText().startsWith("Trained"));
            QVERIFY(!next->isEnabled());
            next->trigger(); // the last step: nothing further
            QCOMPARE(caption->lesson().current, 4);
            back->trigger();
            back->trigger(); // epoch 10 again
            QCOMPARE(caption->lesson().current, 2);
            // With the Ranking table focused the keys page the table, not the lesson. The action
            // hands the key to the focus widget of the active window: the window is made active and
            // the table focused in one go, then the action triggered before anything can take the
            // activation away.
            auto* table = w.findChild<QDockWidget*>("RankingDock")->findChild<QTableView*>();
            QVERIFY(table);
            table->setCurrentIndex(table->model()->index(0, 0));
            QVERIFY(QTest::qWaitFor([&] {
                w.activateWindow();
                QApplication::setActiveWindow(&w);
                table->setFocus();
                return table->hasFocus();
            }, 20000));
            next->trigger();
            QCOMPARE(caption->lesson().current, 2);
            QVERIFY2(table->currentIndex().row() > 0, "the table did not page");
            w.view()->setFocus();
            QTRY_COMPARE_WITH_TIMEOUT(w.document()->shownStep(), h->indexAtOrBefore(10), 20000);

            w.classroom()->setPanels({"RankingDock"});
            w.classroom()->setActive(true);
            QTRY_VERIFY(w.findChild<QDockWidget*>("RankingDock")->isVisible());
            QVERIFY(!w.findChild<QDockWidget*>("DetectorDock")->isVisible());
            QString error;
            QVERIFY2(w.sessions()->save(path, &error), qPrintable(error));
            w.classroom()->setActive(false);
        }
        MainWindow w2;
        w2.setInteractive(false);
        w2.resize(1280, 720);
        w2.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w2, 60000));
        QString error;
        QVERIFY2(w2.sessions()->open(path, &error), qPrintable(error));
        QCOMPARE(w2.lessonCaption()->lesson().current, 2);
        QVERIFY(w2.lessonCaption()->isVisible());
        QVERIFY(w2.document()->trainedResult());
        const auto h2 = w2.document()->trainedResult()->detector->history();
        QVERIFY(h2);
        QTRY_COMPARE_WITH_TIMEOUT(w2.document()->shownStep(), h2->indexAtOrBefore(10), 20000);
        QVERIFY(w2.classroom()->isActive());
        QTRY_VERIFY(w2.findChild<QDockWidget*>("RankingDock")->isVisible());
        QVERIFY(!w2.findChild<QDockWidget*>("DetectorDock")->isVisible());
        QVERIFY(!w2.menuBar()->isVisible());
        w2.classroom()->setActive(false);
        w2.classroom()->setPanels({}); // remembered in the settings: the other cases start without
        QVERIFY(w2.menuBar()->isVisible());
        QVERIFY(w2.openFile(sample("moons2d.csv"))); // other data end the lesson
        QVERIFY(!w2.lessonCaption()->hasLesson());
    }

    void replayFramesAreWrittenHeadless()
    {
        QTemporaryDir dir;
        const QString frames = dir.filePath("frames");
        QProcess p;
        // Preset 1 as the paper sets it records 101 epochs (~30 s of frames idle, each with its 3-D
        // field); 20 epochs keep the test short on a loaded machine.
        const QString gif = dir.filePath("seam.gif");
        p.start(QStringLiteral(OLENS_GUI_PATH),
                {"--preset", "1", "--param", "epochs=20", "--replay-frames", frames, "--replay-video", gif, "--exit"});
        QVERIFY(p.waitForFinished(240000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QStringList files = QDir(frames).entryList({"frame_*.png"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 21); // epochs 0 … 20
        std::set<QByteArray> distinct;
        for (const QString& f : files) {
            QFile file(QDir(frames).filePath(f));
            QVERIFY(file.open(QIODevice::ReadOnly));
            distinct.insert(QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha1));
        }
        QVERIFY(distinct.size() >= 5);
        const QImage firstImg(QDir(frames).filePath(files.first())), lastImg(QDir(frames).filePath(files.last()));
        QVERIFY(!firstImg.isNull() && !lastImg.isNull());
        QVERIFY2(differingPixels(firstImg, lastImg) > 0.05, "the first and last frames look alike");

        // The same frames as one looping GIF, read back by Qt's own GIF decoder: 21 frames at
        // 200 ms (the last held 2 s), each the PNG frame within the error of a 256-colour palette (median cut on a shaded 3-D
        // frame: ~7 levels of 255 per channel; swapped channels or a shifted frame give > 40).
        QImageReader reader(gif);
        QCOMPARE(reader.format(), QByteArray("gif"));
        QCOMPARE(reader.imageCount(), 21);
        QVERIFY(reader.loopCount() != 0); // the NETSCAPE2.0 loop: forever
        for (int i = 0; i < 21; ++i) {
            const QImage frame = reader.read();
            QVERIFY2(!frame.isNull(), qPrintable(reader.errorString()));
            QCOMPARE(reader.nextImageDelay(), i < 20 ? 200 : 2000);
            if (i == 0 || i == 20) {
                const QImage png(QDir(frames).filePath(files[i]));
                QCOMPARE(frame.size(), png.size());
                double sum = 0;
                for (int y = 0; y < png.height(); ++y)
                    for (int x = 0; x < png.width(); ++x) {
                        const QRgb a = frame.pixel(x, y), b = png.pixel(x, y);
                        sum += std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) + std::abs(qBlue(a) - qBlue(b));
                    }
                const double mean = sum / (3.0 * png.width() * png.height());
                QVERIFY2(mean < 12.0, qPrintable(QString("frame %1: mean colour error %2").arg(i).arg(mean)));
            }
        }

        // #51: a second run into the same folder left the old run's frames 4…20 after its own 0…3.
        // Frames of an earlier run are removed, with a word; a folder holding anything else is
        // refused before any work, and that file is kept.
        QProcess again;
        again.start(QStringLiteral(OLENS_GUI_PATH), {"--preset", "1", "--param", "epochs=3", "--replay-frames", frames, "--exit"});
        QVERIFY(again.waitForFinished(120000));
        QVERIFY2(again.exitCode() == 0, again.readAllStandardError().constData());
        QVERIFY2(again.readAllStandardOutput().contains("removed 21 frames of an earlier run"), "no word on the removal");
        QCOMPARE(QDir(frames).entryList({"frame_*.png"}, QDir::Files).size(), 4);
        const QString mine = dir.filePath("mine");
        QVERIFY(QDir().mkpath(mine));
        {
            QFile f(QDir(mine).filePath("notes.txt"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("keep me");
        }
        for (const QStringList& args : {QStringList{"--preset", "1", "--param", "epochs=3", "--replay-frames", mine, "--exit"},
                                        QStringList{"--load", sample("moons2d.csv"), "--replay-frames", dir.filePath("f2"), "--exit"}}) {
            QProcess refused;
            refused.start(QStringLiteral(OLENS_GUI_PATH), args);
            QVERIFY(refused.waitForFinished(60000));
            QCOMPARE(refused.exitCode(), 1);
            const QByteArray err = refused.readAllStandardError();
            QVERIFY2(err.contains("did not write (e.g. 'notes.txt')") || err.contains("add --train"), err.constData());
        }
        QCOMPARE(QDir(mine).entryList(QDir::Files), QStringList{"notes.txt"});
        QVERIFY(!QFileInfo::exists(dir.filePath("f2")));

        // Only GIF is written: another extension is refused (exit 1), nothing is written.
        QProcess v;
        v.start(QStringLiteral(OLENS_GUI_PATH), {"--preset", "1", "--param", "epochs=3", "--replay-video", dir.filePath("a.webm"), "--exit"});
        QVERIFY(v.waitForFinished(60000));
        QCOMPARE(v.exitCode(), 1);
        QVERIFY(v.readAllStandardError().contains("not a .gif file"));
        QVERIFY(!QFileInfo::exists(dir.filePath("a.webm")));

        // knn has no steps: a clear refusal, exit status 1.
        QProcess q;
        q.start(QStringLiteral(OLENS_GUI_PATH),
                {"--load", sample("moons2d.csv"), "--detector", "knn", "--train", "--replay-frames", dir.filePath("none"), "--exit"});
        QVERIFY(q.waitForFinished(60000));
        QCOMPARE(q.exitCode(), 1);
        QVERIFY(q.readAllStandardError().contains("recorded no training steps"));
    }
};

OLENS_GUI_TEST_MAIN(TestReplay)
#include "TestReplay.moc"
