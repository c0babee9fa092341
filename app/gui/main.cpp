// outlierlens: the GUI. Makes the application and the window; what the command line asks
// (--load FILE [--detector ID --param k=v ... --train] --screenshot OUT.png --exit, …) is carried
// out by ScriptedRun.
#include "base/AtomicWriter.h"
#include "scripted/CommandLine.h"
#include "window/MainWindow.h"
#include "scripted/ScriptedRun.h"
#include "files/SessionManager.h"
#include "files/Autosave.h"
#include "scripted/StartupTimeline.h"
#include "jobs/Worker.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSurfaceFormat>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
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
    window.autosaves()->markCleanExit();
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
    olens::ScriptedRun::addOptions(parser);
    parser.process(app);
    if (const QString problem = olens::ScriptedRun::precheck(parser); !problem.isEmpty()) {
        std::fprintf(stderr, "outlierlens: %s\n", qPrintable(problem));
        return 1;
    }

    olens::MainWindow window;
    QApplication::setWindowIcon(window.windowIcon()); // resources/icons/outlierlens.svg
    olens::ScriptedRun run(window, parser, timeline);
    if (!run.start())
        return 1;
    const int rc = app.exec();
    return quitWithoutWaiting(window, rc != 0 ? rc : run.status());
}
