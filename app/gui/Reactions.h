#pragma once
// Small classes that carry out menu actions (ParaView's "reactions"): the window stays thin.
#include <QObject>

class QAction;
class QImage;

namespace olens {

class MainWindow;

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

/// File → Save screenshot: the central view (its framebuffer) or the whole window, as PNG.
class ScreenshotReaction : public QObject {
    Q_OBJECT
public:
    enum class Target { View, Window };
    ScreenshotReaction(QAction* action, MainWindow* window, Target target);
    /// Writes the screenshot; returns an error message or an empty string.
    static QString save(MainWindow* window, Target target, const QString& path);
    /// Writes an image already captured (e.g. VtkView::captureNextFrame) as the PNG `path`.
    /// `inputs`: files the image must not replace (the loaded data: AtomicWriter refuses the same file).
    static QString saveImage(const QImage& img, const QString& path, const QStringList& inputs = {});
    /// The files no output of the window may replace: the data file it shows.
    static QStringList inputsOf(const MainWindow* window);

private:
    void onTriggered();
    MainWindow* m_window;
    Target m_target;
};

/// File → Export scores CSV (the CLI's columns) / fitted model JSON; writes are atomic.
class ExportReaction : public QObject {
    Q_OBJECT
public:
    enum class What { Scores, Model };
    ExportReaction(QAction* action, MainWindow* window, What what);
    /// Writes the export; returns an error message or an empty string.
    static QString save(MainWindow* window, What what, const QString& path);

private:
    void onTriggered();
    MainWindow* m_window;
    What m_what;
};

} // namespace olens
