#pragma once
// Small classes that carry out menu actions (ParaView's "reactions"): the window stays thin.
#include <QObject>

class QAction;

namespace olens {

class MainWindow;
class VtkView;

/// File → Open: asks for a file and loads it through MainWindow::openFile.
class OpenDataReaction : public QObject {
    Q_OBJECT
public:
    OpenDataReaction(QAction* action, MainWindow* window);
    static QString fileFilter();

private:
    void onTriggered();
    MainWindow* m_window;
};

/// File → Save screenshot: writes the central view as PNG.
class ScreenshotReaction : public QObject {
    Q_OBJECT
public:
    ScreenshotReaction(QAction* action, MainWindow* window);

private:
    void onTriggered();
    MainWindow* m_window;
};

} // namespace olens
