#include "scripted/ScriptedRun.h"

#include "modes/CompareReaction.h"
#include "scripted/CompareStartup.h"
#include "reactions/ExportFigureReaction.h"
#include "scripted/LayoutReport.h"
#include "window/MainWindow.h"
#include "reactions/Presets.h"
#include "docks/LessonCaption.h"
#include "docks/TimelineBar.h"
#include "reactions/Reactions.h"
#include "files/RecentFilesMenu.h"
#include "scripted/ReplayFrames.h"
#include "files/SessionManager.h"
#include "files/Autosave.h"
#include "scripted/StartupTimeline.h"
#include "modes/TextSizeReaction.h"
#include "compare/CompareView.h"
#include "data/Normalizer.h"
#include "docks/DetectorPanel.h"
#include "docks/LogPanel.h"
#include "document/DataDocument.h"
#include "jobs/TrainingController.h"
#include "registry/Registry.h"
#include "render/CameraRig.h"
#include "render/VtkSupport.h"
#include "view/CloudView.h"
#include "base/Messages.h"
#include "base/AtomicWriter.h"
#include "base/Errors.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <vector>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

namespace olens {

void ScriptedRun::addOptions(QCommandLineParser& parser)
{
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
    const QCommandLineOption allowOutside("allow-data-outside",
                                          "Let --session read a data file outside the session's folder (a session "
                                          "handed over may name any file; without this flag such a session is "
                                          "refused).");
    parser.addOption(allowOutside);
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
    parser.addOption(QCommandLineOption("as-presented",
                                        "With --session: use the text size the session was saved with (a presenter's); "
                                        "without, the viewer's own setting stays."));
    parser.addOption(QCommandLineOption("max-input-mb",
                                        "Input limit for --load, in MB (default 1024; a 20 M-point CSV is 1.2 GB), as the "
                                        "CLI's --max-input-mb.",
                                        "N"));
    parser.addOption(QCommandLineOption("select-rank",
                                        "After training: select the point ranked K-th (1 = the highest score), as a "
                                        "click on that Ranking row; the layout report gives where it is (selected_point_px).",
                                        "K"));
    parser.addOption(QCommandLineOption("orbit",
                                        "Before the screenshots: turn the camera once around the data in N steps, "
                                        "drawing each, and print the median and longest frame time (with --timings: "
                                        "what rotating a big cloud costs). The camera ends where it began.",
                                        "N"));
    parser.addOption(QCommandLineOption("lesson-step",
                                        "With --preset or a --session holding a lesson: show step N of the lesson "
                                        "(1-based) before the screenshots and the layout report, as Page Down would.",
                                        "N"));
    parser.addOption(replayFrames);
    parser.addOption(replayVideo);
    parser.addPositionalArgument("file", "Data file to open (same as --load).", "[file]");
}

QString ScriptedRun::precheck(const QCommandLineParser& parser)
{
    if (parser.isSet(QStringLiteral("replay-video"))
        && QFileInfo(parser.value(QStringLiteral("replay-video"))).suffix().compare("gif", Qt::CaseInsensitive) != 0)
        // Before any training: a typo must not cost one.
        return QStringLiteral("--replay-video: '%1' is not a .gif file; an animated GIF is what OutlierLens writes (for "
                              "WebM or MP4 write PNG frames with --replay-frames DIR and run ffmpeg on them)")
            .arg(parser.value(QStringLiteral("replay-video")));
    if (parser.isSet(QStringLiteral("session")) && !QFileInfo(parser.value(QStringLiteral("session"))).isFile())
        return QStringLiteral("--session: cannot open '%1': no such file").arg(parser.value(QStringLiteral("session")));
    return {};
}

ScriptedRun::ScriptedRun(MainWindow& window, const QCommandLineParser& parser, StartupTimeline& timeline)
    : m_window(window), m_parser(parser), m_timeline(timeline)
{
}

bool ScriptedRun::isSet(const char* option) const
{
    return m_parser.isSet(QString::fromLatin1(option));
}

QString ScriptedRun::value(const char* option) const
{
    return m_parser.value(QString::fromLatin1(option));
}

void ScriptedRun::fail(const QString& message)
{
    // Escaped and bounded: a name from a session handed over may hold control characters.
    std::fprintf(stderr, "outlierlens: %s\n", displayValue(message.toStdString(), 2000).c_str());
    m_status = 1;
}

namespace {

/// The same file for two output paths: by device and inode when it exists, else by the absolute
/// path with its folder's symlinks resolved. (Against the inputs: checkOutputPath.)
QString fileKey(const QString& path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) == 0)
        return QStringLiteral("inode:%1:%2").arg(st.st_dev).arg(st.st_ino);
    const QFileInfo info(path);
    const QString dir = QFileInfo(info.absolutePath()).canonicalFilePath();
    return QStringLiteral("path:") + QDir(dir.isEmpty() ? info.absolutePath() : dir).filePath(info.fileName());
}

} // namespace

QString ScriptedRun::outputClash() const
{
    // Before any work (#51): an output must not replace an input (the --session file, the data) or
    // another output (two outputs naming one file lost one of them), and an empty name is refused.
    std::vector<std::string> inputs;
    if (!m_parser.value("load").isEmpty())
        inputs.push_back(QFile::encodeName(m_parser.value("load")).toStdString());
    if (!m_parser.positionalArguments().isEmpty())
        inputs.push_back(QFile::encodeName(m_parser.positionalArguments().first()).toStdString());
    if (isSet("session"))
        inputs.push_back(QFile::encodeName(value("session")).toStdString());
    std::vector<std::pair<const char*, QString>> outputs;
    for (const char* o : {"screenshot", "window-screenshot", "layout-report", "save-session", "replay-video",
                          "replay-frames", "export-plots"}) {
        if (!isSet(o))
            continue;
        if (value(o).trimmed().isEmpty())
            return QStringLiteral("--%1: empty file name").arg(QLatin1String(o));
        const bool folder = std::strcmp(o, "replay-frames") == 0 || std::strcmp(o, "export-plots") == 0;
        if (std::strcmp(o, "replay-frames") == 0)
            if (const QString problem = ReplayFrames::folderProblem(value(o)); !problem.isEmpty())
                return problem;
        if (!folder) {
            try { // what the writers check too (an input, a symlink, a read-only file), but before any work
                checkOutputPath(QFile::encodeName(value(o)).toStdString(), inputs, std::string("--") + o);
            } catch (const DataError& e) {
                return QString::fromUtf8(e.what());
            }
        }
        if ((std::strcmp(o, "replay-frames") == 0 || std::strcmp(o, "replay-video") == 0) && !isSet("train")
            && !isSet("preset"))
            return QStringLiteral("--%1 replays a training: add --train (and a --detector that records steps, "
                                  "e.g. quadrics)").arg(QLatin1String(o));
        outputs.emplace_back(o, value(o));
    }
    for (std::size_t i = 0; i < outputs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (fileKey(outputs[j].second) == fileKey(outputs[i].second))
                return QStringLiteral("--%1 and --%2 name the same file %3: one would be lost")
                    .arg(QLatin1String(outputs[j].first), QLatin1String(outputs[i].first), outputs[i].second);
    if (isSet("select-rank")) {
        bool ok = false;
        const int k = value("select-rank").toInt(&ok);
        if (!ok || k < 1)
            return QStringLiteral("--select-rank: expected a rank from 1, got '%1'").arg(value("select-rank"));
        if (!isSet("train") && !isSet("preset") && !isSet("session"))
            return QStringLiteral("--select-rank selects a point of the ranking: add --train (or a --preset or --session with a model)");
    }
    if (isSet("orbit")) {
        bool ok = false;
        const int n = value("orbit").toInt(&ok);
        if (!ok || n < 2 || n > 360)
            return QStringLiteral("--orbit: expected a number of frames in 2..360, got '%1'").arg(value("orbit"));
        if (isSet("compare"))
            return QStringLiteral("--orbit turns the main view's camera: it does not go with --compare");
    }
    if (isSet("lesson-step")) {
        bool ok = false;
        const int k = value("lesson-step").toInt(&ok);
        if (!ok || k < 1)
            return QStringLiteral("--lesson-step: expected a step number from 1, got '%1'").arg(value("lesson-step"));
        if (!isSet("preset") && !isSet("session"))
            return QStringLiteral("--lesson-step shows a step of a lesson: add --preset N or a --session that holds one");
    }
    if (isSet("top-k")) {
        bool ok = false;
        const int k = value("top-k").toInt(&ok);
        if (!ok || k < 0 || k > kMaxTopK)
            return QStringLiteral("--top-k: expected a whole number from 0 to %1, got '%2'").arg(kMaxTopK).arg(value("top-k"));
    }
    return {};
}

bool ScriptedRun::start()
{
    if (const QString clash = outputClash(); !clash.isEmpty()) {
        fail(clash);
        return false;
    }
    if (isSet("text-size")) {
        bool ok = false;
        const double scale = value("text-size").toDouble(&ok);
        if (!ok || !(scale >= kMinTextScale && scale <= kMaxTextScale)) {
            std::fprintf(stderr, "outlierlens: --text-size: expected a number from %g to %g, got '%s'\n",
                         kMinTextScale, kMaxTextScale, qPrintable(value("text-size")));
            return false;
        }
        TextSizeReaction::apply(&m_window, scale, false); // a scripted run leaves the user's setting alone
    }
    QGuiApplication::setDesktopFileName("outlierlens");
    m_headless = isSet("exit");
    m_window.setInteractive(!m_headless);
    // Scripted runs (tests, scripts/screenshots.sh, demos) leave the user's File → Open Recent alone.
    const bool recording = !(m_headless || isSet("screenshot") || isSet("window-screenshot") || isSet("export-plots"));
    m_window.recentFiles()->setRecording(recording);
    m_window.sessions()->trustedFolders().setRemembering(recording);
    m_window.sessions()->setOutsideDataAllowed(isSet("allow-data-outside"));
    // The window first: any message about the start-up file or the autosave appears over it.
    m_window.show();
    // Keyboard focus from the start (shortcuts need an active window), also without a window manager.
    QTimer::singleShot(0, &m_window, [this] { m_window.activateWindow(); });

    if (isSet("max-input-mb")) {
        bool ok = false;
        const long long mb = value("max-input-mb").toLongLong(&ok);
        if (!ok || mb < 1 || mb > 1000000) {
            fail(QStringLiteral("--max-input-mb: '%1' is not a whole number of MB from 1 to 1000000").arg(value("max-input-mb")));
            m_inputFailed = true;
        } else {
            setInputLimitBytes(static_cast<std::uint64_t>(mb) << 20);
        }
    }
    m_file = value("load");
    if (m_file.isEmpty() && !m_parser.positionalArguments().isEmpty())
        m_file = m_parser.positionalArguments().first();
    if (!m_file.isEmpty()) {
        QString error;
        if (!m_window.openFile(m_file, &error)) {
            fail(error);
            m_inputFailed = true;
        }
        else if (isSet("timings"))
            m_timeline.mark("file loaded");
    }
    if (isSet("timings"))
        m_timeline.watch(m_window.context()); // the first paint from here on draws the loaded data
    if (isSet("preset")) {
        const auto all = availablePresets();
        const int k = value("preset").toInt();
        if (k < 1 || k > int(all.size()))
            fail(QStringLiteral("--preset: %1 is not in 1..%2").arg(value("preset")).arg(all.size()));
        else
            m_presetApplied = m_window.presets()->apply(all[std::size_t(k - 1)], false);
    }
    if (isSet("session")) {
        QString error;
        m_window.sessions()->setTextSizeFromSession(isSet("as-presented"));
        if (!m_window.sessions()->open(value("session"), &error)) {
            fail(error);
            m_inputFailed = true;
        }
        else if (const QString problem = m_window.sessions()->restoreProblem(); !problem.isEmpty())
            fail(problem); // also keeps --save-session from writing the session without its model
        else
        {
            std::fprintf(stdout, "outlierlens: session opened from %s (n = %ld)\n", qPrintable(value("session")),
                         long(m_window.document()->dataset().rows()));
            if (isSet("text-size")) // the command line's text size over the session's
                TextSizeReaction::apply(&m_window, value("text-size").toDouble(), false);
        }
    } else if (m_file.isEmpty() && !m_presetApplied && !m_headless && m_window.autosaves()->recoveryAvailable()) {
        // The previous run did not exit cleanly: offer its autosave.
        const auto answer = QMessageBox::question(
            &m_window, QObject::tr("Restore session?"),
            QObject::tr("OutlierLens did not close cleanly last time. Restore the session saved at %1?")
                .arg(QFileInfo(m_window.autosaves()->recoveryPath()).lastModified().toString()));
        if (answer == QMessageBox::Yes) {
            QString error;
            if (!m_window.autosaves()->restoreRecovery(&error))
                QMessageBox::warning(&m_window, QObject::tr("Cannot restore"), error);
        } else {
            m_window.autosaves()->discardRecovery();
        }
    } else if (m_window.autosaves()->crashedWithoutAutosave()) {
        m_window.log()->warning(QObject::tr("the previous run did not close cleanly and saved nothing to restore "
                                          "(an older session stays under File → Restore autosave)"));
    }
    if (isSet("detector") && !m_window.detectorPanel()->setCurrentDetector(value("detector"))) {
        fail(QStringLiteral("unknown detector '%1' (see outlierlens-cli list)").arg(value("detector")));
        m_inputFailed = true;
    }
    applyTrainingSetup();
    if (isSet("top-k"))
        m_window.document()->setTopK(value("top-k").toInt()); // checked in outputClash

    if (isSet("screenshot-size")) {
        const QStringList wh = value("screenshot-size").toLower().split('x');
        const int w = wh.size() == 2 ? wh[0].toInt() : 0, h = wh.size() == 2 ? wh[1].toInt() : 0;
        if (w < 16 || h < 16 || w > VtkView::kMaxExportSide || h > VtkView::kMaxExportSide)
            fail(QStringLiteral("--screenshot-size: '%1' is not WxH with 16 ≤ W, H ≤ %2")
                     .arg(value("screenshot-size")).arg(VtkView::kMaxExportSide));
        else
            m_figureSize = QSize(w, h);
    }
    if (isSet("compare"))
        return startCompare();
    startTraining();
    // The start-up changes (file, detector, training's progress widgets) resize the docks: lay them
    // out before the first paint, or the first frame of a large cloud is drawn twice (at 1M points
    // under a software rasteriser, half a second each).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return true;
}

void ScriptedRun::applyTrainingSetup()
{
    try {
        // --param and --normalize change the document's training setup (the dock follows it);
        // the registry's schema checks the names and values.
        TrainingSetup setup = m_window.document()->trainingSetup();
        ParamSet params = Registry::instance().defaultParams(setup.detectorId);
        params.set(setup.params);
        for (const QString& p : m_parser.values(QStringLiteral("param"))) {
            const auto [name, value] = splitAssignment(p.toStdString());
            params.set(name, value);
        }
        setup.params = params.assignments();
        if (isSet("normalize"))
            setup.normalization = parseNormalization(value("normalize").toStdString());
        m_window.document()->setTrainingSetup(setup);
    } catch (const std::exception& e) {
        fail(QString::fromUtf8(e.what()));
    }
}

bool ScriptedRun::startCompare()
{
    // --compare knn,pca,kic:kernel=rbf,...: compare mode with these detectors (parameters as
    // id:name=value:...), trained at once; --screenshot then saves the compare page.
    std::vector<CompareView::Entry> entries;
    try {
        for (const QString& item : value("compare").split(',', Qt::SkipEmptyParts)) {
            const QStringList parts = item.split(':');
            auto e = CompareView::defaultEntry(parts.first().trimmed().toStdString());
            for (int k = 1; k < parts.size(); ++k)
                e.params.push_back(splitAssignment(parts[k].toStdString()));
            // A bad member is refused before any training, as the CLI refuses --param (#51).
            ParamSet check = Registry::instance().defaultParams(e.id);
            check.set(e.params);
            entries.push_back(e);
        }
    } catch (const std::exception& e) {
        fail(QString::fromUtf8(e.what()));
    }
    m_window.compareReaction()->setActive(true);
    CompareView* cv = m_window.compareView();
    QString error;
    if (m_status == 0 && !cv->setDetectors(entries, &error))
        fail(error);
    if (m_status != 0 || m_window.document()->isEmpty()) {
        QTimer::singleShot(300, &m_window, [this] { finish(); });
    } else {
        // Screenshot once every trained panel has drawn its field (or after a grace period).
        whenCompareFirstDrawn(cv, &m_window, [this, cv] {
            for (int i = 0; i < cv->panelCount(); ++i) {
                std::fprintf(stdout, "outlierlens: %s\n", qPrintable(cv->panelTitle(i).replace('\n', "  ")));
                if (!cv->panelError(i).isEmpty()) // a member that could not be trained: not exit 0
                    fail(QStringLiteral("--compare: %1: %2").arg(QString::fromStdString(cv->entries()[static_cast<std::size_t>(i)].id), cv->panelError(i)));
            }
            QTimer::singleShot(200, &m_window, [this] { finish(); });
        });
        cv->trainAll(); // now: the compare page's own first-open training then has nothing to do
    }
    return true;
}

void ScriptedRun::startTraining()
{
    const bool doTrain = (isSet("train") || m_presetApplied) && m_status == 0 && (!m_file.isEmpty() || m_presetApplied);
    if (doTrain) {
        // Screenshot the first frame that shows the trained result with its final score field (no
        // field computing any more): that frame is drawn anyway, so the screenshot renders nothing
        // of its own. A grace period covers a field that never arrives.
        auto* guard = new QTimer(&m_window);
        guard->setSingleShot(true);
        QObject::connect(guard, &QTimer::timeout, &m_window, [this] { finish(); });
        CloudView* view = m_window.view();
        auto shootWhenSettled = [this, view] {
            if (view->isFieldBusy())
                return; // a field is still coming: its fieldUpdated asks again
            view->captureNextFrame([this, view](const QImage& img) {
                if (!view->isFieldBusy()) // else a newer field was requested meanwhile
                    finish(img);
            });
        };
        auto afterTraining = [this, guard, view, shootWhenSettled] {
            atLessonStep([guard, view, shootWhenSettled] {
                guard->start(15000);
                QObject::connect(view, &CloudView::fieldUpdated, guard, shootWhenSettled);
                shootWhenSettled();
            });
        };
        QObject::connect(m_window.trainer(), &TrainingController::finished, &m_window, [this, afterTraining](double s) {
            std::fprintf(stdout, "outlierlens: trained in %.3f s\n", s);
            if (!isSet("replay-frames") && !isSet("replay-video")) {
                afterTraining();
                return;
            }
            // The frames first (each waits for its own field), then the screenshots of the trained model.
            const QString dir = value("replay-frames");
            const QString video = value("replay-video");
            auto* replay = new ReplayFrames(m_window.context(), m_window.timeline(), dir, video);
            replay->setDone([this, replay, dir, video, afterTraining](const QString& error) {
                if (!error.isEmpty())
                    fail(error);
                else {
                    if (replay->oldFramesRemoved() > 0)
                        std::fprintf(stdout, "outlierlens: removed %d frames of an earlier run from %s\n",
                                     replay->oldFramesRemoved(), qPrintable(dir));
                    std::fprintf(stdout, "outlierlens: %d replay frames written to %s\n", replay->framesWritten(),
                                 qPrintable(video.isEmpty() ? dir : dir.isEmpty() ? video : dir + " and " + video));
                }
                afterTraining();
            });
            replay->start();
        });
        QObject::connect(m_window.trainer(), &TrainingController::failed, &m_window, [this, guard](const QString& m) {
            fail(QStringLiteral("training failed: %1").arg(m));
            // Not at once: the failure is still being delivered (buttons, status, log update after
            // this slot); the screenshot waits until the window has repainted.
            guard->start(300);
        });
        // At once: the worker trains while the first frame is being drawn.
        m_window.detectorPanel()->train();
    } else if (isSet("screenshot") || isSet("window-screenshot") || isSet("export-plots") || isSet("layout-report")
               || isSet("save-session")
               || m_headless) {
        // After the first events are processed the GL context exists and the view has its size.
        QTimer::singleShot(300, &m_window, [this] {
            if (!isSet("lesson-step") && !isSet("select-rank")) {
                finish();
                return;
            }
            atLessonStep([this] {
                CloudView* view = m_window.view();
                auto* guard = new QTimer(&m_window);
                guard->setSingleShot(true);
                QObject::connect(guard, &QTimer::timeout, &m_window, [this] { finish(); });
                guard->start(15000);
                auto shoot = [this, view] {
                    if (!view->isFieldBusy())
                        view->captureNextFrame([this](const QImage&) { finish(); });
                };
                QObject::connect(view, &CloudView::fieldUpdated, guard, shoot);
                shoot();
            });
        });
    }
}

void ScriptedRun::atLessonStep(std::function<void()> then)
{
    if (isSet("select-rank")) { // as a click on that Ranking row
        const auto& ranking = m_window.document()->ranking();
        const int k = value("select-rank").toInt();
        if (k > static_cast<int>(ranking.size()))
            fail(QStringLiteral("--select-rank: %1 is beyond the %2 ranked points").arg(k).arg(ranking.size()));
        else
            m_window.document()->setSelectedPoint(ranking[std::size_t(k - 1)]);
    }
    if (!isSet("lesson-step")) {
        then();
        return;
    }
    LessonCaption* caption = m_window.lessonCaption();
    const int n = caption->hasLesson() ? static_cast<int>(caption->lesson().steps.size()) : 0;
    const int k = value("lesson-step").toInt();
    if (n == 0 || k > n) {
        fail(n == 0 ? QStringLiteral("--lesson-step: this preset or session has no lesson")
                    : QStringLiteral("--lesson-step: %1 is not in 1..%2 (the lesson's steps)").arg(k).arg(n));
        then();
        return;
    }
    // The step is shown when the caption describes what the window shows (a recorded step is built
    // off the GUI thread) and the lesson has highlighted its point (after the timeline's stepShown).
    auto done = std::make_shared<bool>(false);
    auto check = [caption, done, then] {
        if (*done || !caption->describesShown())
            return;
        *done = true;
        then();
    };
    QObject::connect(m_window.timeline(), &TimelineBar::stepShown, caption, check, Qt::QueuedConnection);
    caption->goTo(k - 1);
    QTimer::singleShot(0, caption, check);
    std::fprintf(stdout, "outlierlens: lesson step %d of %d\n", k, n);
}

void ScriptedRun::orbit(int steps, std::function<void()> then)
{
    // Each frame is drawn whole (no drag, so no level of detail): the cost of a still frame from
    // any side, which is what a rotation settles on.
    CloudView* view = m_window.view();
    if (!view->isThreeD() || !view->isVisible()) {
        std::fprintf(stderr, "outlierlens: --orbit: the view is %s; nothing turned\n",
                     view->isVisible() ? "2-D (a plot does not turn)" : "hidden");
        then();
        return;
    }
    auto times = std::make_shared<std::vector<double>>();
    auto step = std::make_shared<std::function<void(int)>>();
    auto reached = std::make_shared<int>(0); // the step the orbit is at: a frame or its timeout moves it on
    *step = [this, view, steps, times, then, reached, weak = std::weak_ptr<std::function<void(int)>>(step)](int i) {
        if (i > 0)
            times->push_back(view->lastFrameMs());
        if (i == steps) {
            std::vector<double> t = *times;
            std::sort(t.begin(), t.end());
            std::fprintf(stderr, "outlierlens: orbit: %d frames, median %.0f ms, longest %.0f ms\n", steps,
                         t[t.size() / 2], t.back());
            if (isSet("timings"))
                m_timeline.mark("orbit drawn");
            then();
            return;
        }
        CameraRig::of(view)->turn(360.0 / steps);
        // The frame moves the orbit on, or (a later field's screenshot request took its place, a
        // view that never paints) 60 s do: a headless run never waits for ever.
        auto advance = [weak, reached, i] {
            if (*reached != i)
                return;
            *reached = i + 1;
            if (auto next = weak.lock())
                (*next)(i + 1);
        };
        view->captureNextFrame([advance](const QImage&) { advance(); });
        QTimer::singleShot(60000, &m_window, advance);
    };
    m_orbitStep = step; // kept alive until the run ends
    (*step)(0);
}

void ScriptedRun::finish(const QImage& captured)
{
    if (std::exchange(m_finished, true))
        return; // the fallback timer after a captured frame, or the other way round
    if (isSet("orbit") && !m_inputFailed) {
        // After a whole turn the camera is back: the captured frame is still the view as it is.
        orbit(value("orbit").toInt(), [this, captured] { writeOutputs(captured); });
        return;
    }
    writeOutputs(captured);
}

void ScriptedRun::writeOutputs(const QImage& captured)
{
    const auto shotWritten = [this](const QString& err) {
        if (!err.isEmpty()) {
            fail(QStringLiteral("screenshot failed: %1").arg(err));
            return;
        }
        std::fprintf(stdout, "outlierlens: screenshot written to %s\n", qPrintable(value("screenshot")));
        if (isSet("timings"))
            m_timeline.mark("screenshot written");
    };
    if (m_inputFailed) {
        // The run's input could not be had (an unreadable --load or --session, an unknown
        // detector): no output is written and what is there stays, as the CLI does — a missing
        // data file left a screenshot of an empty window behind, exit 1 notwithstanding. (A
        // failed training still gets its screenshots: they show the failure.)
        for (const char* option : {"screenshot", "export-plots", "layout-report", "save-session", "window-screenshot"})
            if (isSet(option))
                std::fprintf(stderr, "outlierlens: --%s: not written, an earlier step failed (above); %s is kept as it was\n",
                             option, qPrintable(value(option)));
        exitIfHeadless();
        return;
    }
    const bool vectorShot = value("screenshot").endsWith(".pdf", Qt::CaseInsensitive);
    if (isSet("screenshot") && (m_figureSize.isValid() || isSet("transparent") || vectorShot)) {
        FigureOptions o;
        o.format = vectorShot ? "pdf" : "png";
        o.size = m_figureSize;
        o.transparent = isSet("transparent");
        shotWritten(ExportFigureReaction::save(m_window.context(), m_window.compareReaction(), {}, o, value("screenshot")));
    } else if (isSet("screenshot")) {
        shotWritten(captured.isNull()
                        ? ScreenshotReaction::save(m_window.context(), m_window.compareReaction(), ScreenshotReaction::Target::View, value("screenshot"))
                        : ScreenshotReaction::saveImage(captured, value("screenshot"), ScreenshotReaction::inputsOf(m_window.document())));
    }
    if (isSet("export-plots")) {
        QStringList written;
        const QString err = ExportFigureReaction::saveAllPlots(m_window.context(), m_window.compareReaction(), value("export-plots"), &written);
        if (!err.isEmpty())
            fail(QStringLiteral("--export-plots: %1").arg(err));
        for (const QString& f : written)
            std::fprintf(stdout, "outlierlens: plot written to %s\n", qPrintable(f));
    }
    if (isSet("layout-report")) {
        const QString err = LayoutReport::write(&m_window, value("layout-report"));
        if (!err.isEmpty())
            fail(QStringLiteral("--layout-report: %1").arg(err));
    }
    if (isSet("save-session") && m_status != 0) {
        // A step above failed (a screenshot or report could not be written): what is there stays.
        fail(QStringLiteral("--save-session: not written, an earlier step failed (above); %1 is kept as it was")
                 .arg(value("save-session")));
    } else if (isSet("save-session")) {
        QString err;
        if (!m_window.sessions()->save(value("save-session"), &err))
            fail(QStringLiteral("--save-session: %1").arg(err));
        else
            std::fprintf(stdout, "outlierlens: session saved to %s\n", qPrintable(value("save-session")));
    }
    if (isSet("window-screenshot")) {
        const QString err = ScreenshotReaction::save(m_window.context(), m_window.compareReaction(), ScreenshotReaction::Target::Window, value("window-screenshot"));
        if (!err.isEmpty())
            fail(QStringLiteral("window screenshot failed: %1").arg(err));
    }
    exitIfHeadless();
}

void ScriptedRun::exitIfHeadless()
{
    if (!m_headless)
        return;
    // Before: the save queued behind the one started with the training was dropped at exit,
    // so `view(..., return_scores=True)` found a session without the model in 3 of 20 runs.
    m_window.autosaves()->flushAutosave();
    QApplication::exit(m_status);
}

} // namespace olens
