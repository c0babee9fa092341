// outlierlens: the GUI. Headless flags for demos and tests: --load FILE --screenshot OUT.png --exit.
#include "CloudView.h"
#include "LogPanel.h"
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSurfaceFormat>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    // VTK 9.1 cannot run on Qt's EGL platforms (GLEW); default to xcb unless the user chose.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "xcb");
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

    QApplication app(argc, argv);
    QApplication::setApplicationName("OutlierLens");
    QApplication::setOrganizationName("OutlierLens");
    QApplication::setApplicationVersion(OLENS_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("OutlierLens — explore geometric outlier detectors on point clouds.");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption load("load", "Load a data file (CSV, TSV, TXT, XYZ, PLY) at start.", "FILE");
    QCommandLineOption shot("screenshot", "Render once and save the view as PNG.", "OUT.png");
    QCommandLineOption exitOpt("exit", "Quit after --screenshot (or right after start).");
    parser.addOptions({load, shot, exitOpt});
    parser.addPositionalArgument("file", "Data file to open (same as --load).", "[file]");
    parser.process(app);

    olens::MainWindow window;
    const bool headless = parser.isSet(exitOpt);
    window.setInteractive(!headless);
    QString file = parser.value(load);
    if (file.isEmpty() && !parser.positionalArguments().isEmpty())
        file = parser.positionalArguments().first();
    int status = 0;
    if (!file.isEmpty()) {
        QString error;
        if (!window.openFile(file, &error)) {
            std::fprintf(stderr, "outlierlens: %s\n", qPrintable(error));
            status = 1;
        }
    }
    window.show();

    const QString shotPath = parser.value(shot);
    if (!shotPath.isEmpty() || headless) {
        // After the first events are processed the GL context exists and the view has its size.
        QTimer::singleShot(200, &window, [&] {
            if (!shotPath.isEmpty()) {
                QString error;
                if (!window.view()->saveScreenshot(shotPath, &error)) {
                    std::fprintf(stderr, "outlierlens: screenshot failed: %s\n", qPrintable(error));
                    status = 1;
                } else {
                    std::fprintf(stdout, "outlierlens: screenshot written to %s\n", qPrintable(shotPath));
                }
            }
            if (headless)
                QApplication::exit(status);
        });
    }
    const int rc = app.exec();
    return rc != 0 ? rc : status;
}
