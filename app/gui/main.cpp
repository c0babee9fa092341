// outlierlens: the GUI. Headless flags for demos and tests:
//   --load FILE [--detector ID --param k=v ... --train] --screenshot OUT.png --exit
#include "base/AtomicWriter.h"
#include "LayoutReport.h"
#include "ReplayFrames.h"
#include "view/CloudView.h"
#include "CompareReaction.h"
#include "CompareStartup.h"
#include "CommandLine.h"
#include "compare/CompareView.h"
#include "ExportFigureReaction.h"
#include "document/DataDocument.h"
#include "docks/DetectorPanel.h"
#include "docks/LogPanel.h"
#include "MainWindow.h"
#include "data/Normalizer.h"
#include "Presets.h"
#include "registry/Registry.h"
#include "Reactions.h"
#include "RecentFilesMenu.h"
#include "SessionManager.h"
#include "StartupTimeline.h"
#include "TextSizeReaction.h"
#include "render/VtkSupport.h"
#include "jobs/TrainingController.h"
#include "jobs/Worker.h"

#include <QApplication>
#include <memory>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QSurfaceFormat>
#include <QTimer>
#include <QFileInfo>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

void setOpenGLFormat()
{
    QSurfaceFormat fmt;
    fmt.setRenderableType(QSurfaceFormat::OpenGL);
    fmt.setVersion(3, 2);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    fmt.setDepthBufferSize(24);
    fmt.setRedBufferSize(8);
    fmt.setGreenBufferSize(8);
    fmt.setBlueBufferSize(8);
    fmt.setAlphaBufferSize(8);
    fmt.setStencilBufferSize(0);
    QSurfaceFormat::setDefaultFormat(fmt);
}

/// The window is closed. Jobs are cancelled and joined, but a job inside a phase that has no
/// cancellation point (a library eigen-decomposition) could keep the process, and its instance lock,
/// alive for minutes after the user quit. Such a job gets a short grace period; then the process
/// ends without waiting for it (its result is unwanted and the session was autosaved at its start).
int quitWithoutWaiting(olens::MainWindow& window, int status)
{
    constexpr int kGraceMs = 2000;
    if (olens::Worker::cancelAllAndWait(kGraceMs))
        return status;
    std::fprintf(stderr, "outlierlens: a background job did not stop within %d ms of its cancellation "
                         "(a phase without cancellation points); exiting without waiting for it\n", kGraceMs);
    window.sessions()->markCleanExit();
    std::fflush(nullptr);
    std::_Exit(status);
}

} // namespace

int main(int argc, char** argv)
{
    olens::StartupTimeline timeline; // --timings: seconds since here
    olens::removeTemporaryFilesOnSignals(); // a kill during a save leaves no hidden .tmp file
    // VTK 9.1 cannot run on Qt's EGL platforms (GLEW); default to xcb unless the user chose.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "xcb");
    setOpenGLFormat();

    // `--session FILE` → `--session=FILE` before Qt's X11 session management can eat it.
    std::vector<std::string> args = olens::protectSessionArgument(std::vector<std::string>(argv, argv + argc));
    std::vector<char*> argPointers;
    for (std::string& a : args)
        argPointers.push_back(a.data());
    argPointers.push_back(nullptr);
    int appArgc = int(args.size());
    // --help / --version print and exit: no display needed (over SSH, QApplication would abort
    // with "could not connect to display" before printing anything).
    bool textOnly = false;
    for (std::size_t i = 1; i < args.size(); ++i)
        textOnly = textOnly || args[i] == "--help" || args[i] == "-h" || args[i] == "-?" || args[i] == "--help-all"
                   || args[i] == "--version" || args[i] == "-v";
    std::unique_ptr<QCoreApplication> appHolder;
    if (textOnly)
        appHolder = std::make_unique<QCoreApplication>(appArgc, argPointers.data());
    else
        appHolder = std::make_unique<QApplication>(appArgc, argPointers.data());
    QCoreApplication& app = *appHolder;
    QApplication::setApplicationName("OutlierLens");
    QApplication::setOrganizationName("OutlierLens");
    QApplication::setApplicationVersion(OLENS_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("OutlierLens — explore geometric outlier detectors on point clouds.");
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption load("load", "Load a data file (CSV, TSV, TXT, XYZ, PLY) at start.", "FILE");
    const QCommandLineOption detector("detector", "Select a detector (see outlierlens-cli list).", "ID");
    const QCommandLineOption param("param", "Set a detector parameter (repeatable).", "name=value");
    const QCommandLineOption normalize("normalize", "Normalisation: none|zscore|l2|minmax (default: the paper's).", "KIND");
    const QCommandLineOption train("train", "Train the detector after loading.");
    const QCommandLineOption topk("top-k", "Highlight the k highest-scoring points.", "K");
    const QCommandLineOption shot("screenshot", "Save the view as PNG (after training, when --train); OUT.pdf: PDF with vector text and frame.", "OUT.png");
    const QCommandLineOption windowShot("window-screenshot", "Save the whole window as PNG.", "OUT.png");
    const QCommandLineOption replayFrames("replay-frames",
                                          "After training, write one PNG per recorded training step (the timeline's "
                                          "positions) into DIR: frame_0000.png, … (iterative detectors).",
                                          "DIR");
    const QCommandLineOption replayVideo("replay-video",
                                         "After training, write the recorded training as one looping animated GIF "
                                         "(5 steps per second, the trained model held 2 s).",
                                         "F.gif");
    const QCommandLineOption exitOpt("exit", "Quit after the screenshots (or right after start).");
    const QCommandLineOption session("session", "Open a saved session (data, detector, model, camera, view).", "FILE");
    const QCommandLineOption preset("preset", "Apply preset N of the Presets menu (1-based) and train.", "N");
    parser.addOptions({load, detector, param, normalize, train, topk, shot, windowShot, exitOpt, session, preset});
    const QCommandLineOption compareOpt("compare", "Open compare mode with these detectors (comma-separated, "
                                        "parameters as id:name=value) and train them; --screenshot saves the compare page.",
                                        "IDS");
    parser.addOption(compareOpt);
    // Figures for slides (File → Export figure): the --screenshot at a size / with a transparent
    // background, and every plot with data as SVG + PNG (2×).
    const QCommandLineOption shotSize("screenshot-size", "Render --screenshot at W x H pixels (e.g. 1920x1080).", "WxH");
    const QCommandLineOption transparent("transparent", "--screenshot with a transparent background (PNG alpha).");
    const QCommandLineOption exportPlots("export-plots", "Write every plot with data (loss, ROC, PR, histogram, DET) "
                                         "as DIR/NAME.svg and DIR/NAME.png (2x) after training.", "DIR");
    parser.addOptions({shotSize, transparent, exportPlots});
    const QCommandLineOption timings("timings", "Print a timeline to stderr (seconds since start): file loaded, first "
                                     "frame, training started/computed, result shown, score field shown, screenshot written, each with "
                                     "the longest GUI-thread stall before it.");
    parser.addOption(timings);
    const QCommandLineOption layoutReport("layout-report", "After the other steps, write what is visible of the window as "
                                          "JSON: window size, docks' rectangles, clipped controls, Ranking rows visible.",
                                          "FILE.json");
    parser.addOption(layoutReport);
    const QCommandLineOption saveSession("save-session",
                                         "After the other steps (training, screenshots), save the session: data (their rows "
                                         "embedded when the file is at most 20 MB), detector, model, camera, view.",
                                         "FILE");
    parser.addOption(saveSession);
    const QCommandLineOption textSize("text-size",
                                      "Scale every text of the view and the plots (View → Text size; 1 = default, 1.5 "
                                      "for a projector or a 1920×1080 figure).",
                                      "SCALE");
    parser.addOption(textSize);
    parser.addOption(replayFrames);
    parser.addOption(replayVideo);
    parser.addPositionalArgument("file", "Data file to open (same as --load).", "[file]");
    parser.process(app);
    if (parser.isSet(replayVideo) && QFileInfo(parser.value(replayVideo)).suffix().compare("gif", Qt::CaseInsensitive) != 0) {
        // Before any training: a typo must not cost one.
        std::fprintf(stderr, "outlierlens: --replay-video: '%s' is not a .gif file; an animated GIF is what OutlierLens "
                             "writes (for WebM or MP4 write PNG frames with --replay-frames DIR and run ffmpeg on them)\n",
                     qPrintable(parser.value(replayVideo)));
        return 1;
    }
    if (parser.isSet(session) && !QFileInfo(parser.value(session)).isFile()) {
        std::fprintf(stderr, "outlierlens: --session: cannot open '%s': no such file\n", qPrintable(parser.value(session)));
        return 1;
    }

    olens::MainWindow window;
    QApplication::setWindowIcon(window.windowIcon()); // resources/icons/outlierlens.svg
    if (parser.isSet(textSize)) {
        bool ok = false;
        const double scale = parser.value(textSize).toDouble(&ok);
        if (!ok || !(scale >= olens::kMinTextScale && scale <= olens::kMaxTextScale)) {
            std::fprintf(stderr, "outlierlens: --text-size: expected a number from %g to %g, got '%s'\n",
                         olens::kMinTextScale, olens::kMaxTextScale, qPrintable(parser.value(textSize)));
            return 1;
        }
        olens::TextSizeReaction::apply(&window, scale, false); // a scripted run leaves the user's setting alone
    }
    QGuiApplication::setDesktopFileName("outlierlens");
    const bool headless = parser.isSet(exitOpt);
    window.setInteractive(!headless);
    // Scripted runs (tests, scripts/screenshots.sh, demos) leave the user's File → Open Recent alone.
    window.recentFiles()->setRecording(!(headless || parser.isSet(shot) || parser.isSet(windowShot) || parser.isSet(exportPlots)));
    // The window first: any message about the start-up file or the autosave appears over it.
    window.show();
    // Keyboard focus from the start (shortcuts need an active window), also without a window manager.
    QTimer::singleShot(0, &window, [&window] { window.activateWindow(); });
    int status = 0;
    auto fail = [&](const QString& msg) {
        std::fprintf(stderr, "outlierlens: %s\n", qPrintable(msg));
        status = 1;
    };

    QString file = parser.value(load);
    if (file.isEmpty() && !parser.positionalArguments().isEmpty())
        file = parser.positionalArguments().first();
    if (!file.isEmpty()) {
        QString error;
        if (!window.openFile(file, &error))
            fail(error);
        else if (parser.isSet(timings))
            timeline.mark("file loaded");
    }
    if (parser.isSet(timings))
        timeline.watch(&window); // the first paint from here on draws the loaded data
    bool presetApplied = false;
    if (parser.isSet(preset)) {
        const auto all = olens::availablePresets();
        const int k = parser.value(preset).toInt();
        if (k < 1 || k > int(all.size()))
            fail(QStringLiteral("--preset: %1 is not in 1..%2").arg(parser.value(preset)).arg(all.size()));
        else
            presetApplied = olens::PresetsReaction::apply(&window, all[std::size_t(k - 1)], false);
    }
    if (parser.isSet(session)) {
        QString error;
        if (!window.sessions()->open(parser.value(session), &error))
            fail(error);
        else
        {
            std::fprintf(stdout, "outlierlens: session opened from %s (n = %ld)\n", qPrintable(parser.value(session)),
                         long(window.document()->dataset().rows()));
            if (parser.isSet(textSize)) // the command line's text size over the session's
                olens::TextSizeReaction::apply(&window, parser.value(textSize).toDouble(), false);
        }
    } else if (file.isEmpty() && !presetApplied && !headless && window.sessions()->recoveryAvailable()) {
        // The previous run did not exit cleanly: offer its autosave.
        const auto answer = QMessageBox::question(
            &window, QObject::tr("Restore session?"),
            QObject::tr("OutlierLens did not close cleanly last time. Restore the session saved at %1?")
                .arg(QFileInfo(window.sessions()->recoveryPath()).lastModified().toString()));
        if (answer == QMessageBox::Yes) {
            QString error;
            if (!window.sessions()->restoreRecovery(&error))
                QMessageBox::warning(&window, QObject::tr("Cannot restore"), error);
        } else {
            window.sessions()->discardRecovery();
        }
    } else if (window.sessions()->crashedWithoutAutosave()) {
        window.log()->warning(QObject::tr("the previous run did not close cleanly and saved nothing to restore "
                                          "(an older session stays under File → Restore autosave)"));
    }
    if (parser.isSet(detector) && !window.detectorPanel()->setCurrentDetector(parser.value(detector)))
        fail(QStringLiteral("unknown detector '%1' (see outlierlens-cli list)").arg(parser.value(detector)));
    try {
        // --param and --normalize change the document's training setup (the dock follows it);
        // the registry's schema checks the names and values.
        olens::TrainingSetup setup = window.document()->trainingSetup();
        olens::ParamSet params = olens::Registry::instance().defaultParams(setup.detectorId);
        params.set(setup.params);
        for (const QString& p : parser.values(param)) {
            const auto [name, value] = olens::splitAssignment(p.toStdString());
            params.set(name, value);
        }
        setup.params = params.assignments();
        if (parser.isSet(normalize))
            setup.normalization = olens::parseNormalization(parser.value(normalize).toStdString());
        window.document()->setTrainingSetup(setup);
    } catch (const std::exception& e) {
        fail(QString::fromUtf8(e.what()));
    }
    if (parser.isSet(topk))
        window.document()->setTopK(parser.value(topk).toInt());

    QSize figureSize;
    if (parser.isSet(shotSize)) {
        const QStringList wh = parser.value(shotSize).toLower().split('x');
        const int w = wh.size() == 2 ? wh[0].toInt() : 0, h = wh.size() == 2 ? wh[1].toInt() : 0;
        if (w < 16 || h < 16 || w > olens::VtkView::kMaxExportSide || h > olens::VtkView::kMaxExportSide)
            fail(QStringLiteral("--screenshot-size: '%1' is not WxH with 16 ≤ W, H ≤ %2")
                     .arg(parser.value(shotSize)).arg(olens::VtkView::kMaxExportSide));
        else
            figureSize = QSize(w, h);
    }
    // `captured`: the view's frame as drawn (VtkView::captureNextFrame), saved for a plain --screenshot
    // instead of rendering the view once more.
    bool finished = false;
    auto finish = [&](const QImage& captured = QImage()) {
        if (std::exchange(finished, true))
            return; // the fallback timer after a captured frame, or the other way round
        const bool vectorShot = parser.value(shot).endsWith(".pdf", Qt::CaseInsensitive);
        if (parser.isSet(shot) && (figureSize.isValid() || parser.isSet(transparent) || vectorShot)) {
            olens::FigureOptions o;
            o.format = vectorShot ? "pdf" : "png";
            o.size = figureSize;
            o.transparent = parser.isSet(transparent);
            const QString err = olens::ExportFigureReaction::save(&window, {}, o, parser.value(shot));
            if (!err.isEmpty())
                fail(QStringLiteral("screenshot failed: %1").arg(err));
            else
                {
                std::fprintf(stdout, "outlierlens: screenshot written to %s\n", qPrintable(parser.value(shot)));
                if (parser.isSet(timings))
                    timeline.mark("screenshot written");
            }
        } else if (parser.isSet(shot)) {
            const QString err = captured.isNull()
                                    ? olens::ScreenshotReaction::save(&window, olens::ScreenshotReaction::Target::View, parser.value(shot))
                                    : olens::ScreenshotReaction::saveImage(captured, parser.value(shot),
                                                                           olens::ScreenshotReaction::inputsOf(&window));
            if (!err.isEmpty())
                fail(QStringLiteral("screenshot failed: %1").arg(err));
            else
                {
                std::fprintf(stdout, "outlierlens: screenshot written to %s\n", qPrintable(parser.value(shot)));
                if (parser.isSet(timings))
                    timeline.mark("screenshot written");
            }
        }
        if (parser.isSet(exportPlots)) {
            QStringList written;
            const QString err = olens::ExportFigureReaction::saveAllPlots(&window, parser.value(exportPlots), &written);
            if (!err.isEmpty())
                fail(QStringLiteral("--export-plots: %1").arg(err));
            for (const QString& f : written)
                std::fprintf(stdout, "outlierlens: plot written to %s\n", qPrintable(f));
        }
        if (parser.isSet(layoutReport)) {
            const QString err = olens::LayoutReport::write(&window, parser.value(layoutReport));
            if (!err.isEmpty())
                fail(QStringLiteral("--layout-report: %1").arg(err));
        }
        if (parser.isSet(saveSession)) {
            QString err;
            if (!window.sessions()->save(parser.value(saveSession), &err))
                fail(QStringLiteral("--save-session: %1").arg(err));
            else
                std::fprintf(stdout, "outlierlens: session saved to %s\n", qPrintable(parser.value(saveSession)));
        }
        if (parser.isSet(windowShot)) {
            const QString err = olens::ScreenshotReaction::save(&window, olens::ScreenshotReaction::Target::Window, parser.value(windowShot));
            if (!err.isEmpty())
                fail(QStringLiteral("window screenshot failed: %1").arg(err));
        }
        if (headless) {
            // Before: the save queued behind the one started with the training was dropped at exit,
            // so `view(..., return_scores=True)` found a session without the model in 3 of 20 runs.
            window.sessions()->flushAutosave();
            QApplication::exit(status);
        }
    };

    if (parser.isSet(compareOpt)) {
        // --compare knn,pca,kic:kernel=rbf,...: compare mode with these detectors (parameters as
        // id:name=value:...), trained at once; --screenshot then saves the compare page.
        std::vector<olens::CompareView::Entry> entries;
        try {
            for (const QString& item : parser.value(compareOpt).split(',', Qt::SkipEmptyParts)) {
                const QStringList parts = item.split(':');
                auto e = olens::CompareView::defaultEntry(parts.first().trimmed().toStdString());
                for (int k = 1; k < parts.size(); ++k)
                    e.params.push_back(olens::splitAssignment(parts[k].toStdString()));
                entries.push_back(e);
            }
        } catch (const std::exception& e) {
            fail(QString::fromUtf8(e.what()));
        }
        window.compareReaction()->setActive(true);
        olens::CompareView* cv = window.compareView();
        QString error;
        if (status == 0 && !cv->setDetectors(entries, &error))
            fail(error);
        if (status != 0 || window.document()->isEmpty()) {
            QTimer::singleShot(300, &window, [&] { finish(); });
        } else {
            // Screenshot once every trained panel has drawn its field (or after a grace period).
            olens::whenCompareFirstDrawn(cv, &window, [&, cv] {
                for (int i = 0; i < cv->panelCount(); ++i)
                    std::fprintf(stdout, "outlierlens: %s\n", qPrintable(cv->panelTitle(i).replace('\n', "  ")));
                QTimer::singleShot(200, &window, [&] { finish(); });
            });
            cv->trainAll(); // now: the compare page's own first-open training then has nothing to do
        }
        const int rc = app.exec();
        return quitWithoutWaiting(window, rc != 0 ? rc : status);
    }
    const bool doTrain = (parser.isSet(train) || presetApplied) && status == 0 && (!file.isEmpty() || presetApplied);
    if (doTrain) {
        // Screenshot the first frame that shows the trained result with its final score field (no
        // field computing any more): that frame is drawn anyway, so the screenshot renders nothing
        // of its own. A grace period covers a field that never arrives.
        auto* guard = new QTimer(&window);
        guard->setSingleShot(true);
        QObject::connect(guard, &QTimer::timeout, &window, [&] { finish(); });
        olens::CloudView* view = window.view();
        auto shootWhenSettled = [&, view] {
            if (view->isFieldBusy())
                return; // a field is still coming: its fieldUpdated asks again
            view->captureNextFrame([&, view](const QImage& img) {
                if (!view->isFieldBusy()) // else a newer field was requested meanwhile
                    finish(img);
            });
        };
        auto afterTraining = [&, guard, view, shootWhenSettled] {
            guard->start(15000);
            QObject::connect(view, &olens::CloudView::fieldUpdated, guard, shootWhenSettled);
            shootWhenSettled();
        };
        QObject::connect(window.trainer(), &olens::TrainingController::finished, &window, [&, afterTraining](double s) {
            std::fprintf(stdout, "outlierlens: trained in %.3f s\n", s);
            if (!parser.isSet(replayFrames) && !parser.isSet(replayVideo)) {
                afterTraining();
                return;
            }
            // The frames first (each waits for its own field), then the screenshots of the trained model.
            const QString dir = parser.value(replayFrames);
            const QString video = parser.value(replayVideo);
            auto* replay = new olens::ReplayFrames(&window, dir, video);
            replay->setDone([&, replay, dir, video, afterTraining](const QString& error) {
                if (!error.isEmpty())
                    fail(error);
                else
                    std::fprintf(stdout, "outlierlens: %d replay frames written to %s\n", replay->framesWritten(),
                                 qPrintable(video.isEmpty() ? dir : dir.isEmpty() ? video : dir + " and " + video));
                afterTraining();
            });
            replay->start();
        });
        QObject::connect(window.trainer(), &olens::TrainingController::failed, &window, [&, guard](const QString& m) {
            fail(QStringLiteral("training failed: %1").arg(m));
            // Not at once: the failure is still being delivered (buttons, status, log update after
            // this slot); the screenshot waits until the window has repainted.
            guard->start(300);
        });
        // At once: the worker trains while the first frame is being drawn.
        window.detectorPanel()->train();
    } else if (parser.isSet(shot) || parser.isSet(windowShot) || parser.isSet(exportPlots) || parser.isSet(layoutReport)
               || parser.isSet(saveSession)
               || headless) {
        // After the first events are processed the GL context exists and the view has its size.
        QTimer::singleShot(300, &window, [&] { finish(); });
    }
    // The start-up changes (file, detector, training's progress widgets) resize the docks: lay them
    // out before the first paint, or the first frame of a large cloud is drawn twice (at 1M points
    // under a software rasteriser, half a second each).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const int rc = app.exec();
    return quitWithoutWaiting(window, rc != 0 ? rc : status);
}
