#pragma once
// What the GUI's command line asks of a run — `outlierlens --load F --detector ID --param k=v
// --train --screenshot OUT.png --exit` and the rest (presets, sessions, compare, figures, replay
// frames, layout report) — carried out on the window step by step: the start-up steps at once,
// the outputs once the trained result has drawn its final frame, then, headless, the exit.
// main() only makes the application and the window (issue #32: the driver was 450 lines of main).
#include <QImage>
#include <QSize>
#include <QString>

#include <functional>
#include <memory>

class QCommandLineParser;

namespace olens {

class MainWindow;
class StartupTimeline;

/// Lives as long as the application's event loop (main()'s stack): the callbacks it schedules on
/// the window refer to it.
class ScriptedRun {
public:
    /// Adds the GUI's options (--load, --train, --screenshot, …) and the positional file.
    static void addOptions(QCommandLineParser& parser);
    /// Checks that need no window: a --replay-video that is not a GIF (before a training is spent),
    /// a --session file that does not exist. The message, or empty.
    static QString precheck(const QCommandLineParser& parser);

    ScriptedRun(MainWindow& window, const QCommandLineParser& parser, StartupTimeline& timeline);

    /// Shows the window and applies the start-up steps (text size, file, preset, session or the
    /// crash-recovery question, detector, parameters, top-k), then starts the training or compare
    /// mode whose end triggers the outputs. False when the run cannot start at all (a bad
    /// --text-size): main() then exits with 1 without showing the window.
    bool start();
    /// 0, or 1 once any step failed (each failure is printed on stderr as it happens).
    int status() const { return m_status; }

    /// The largest --top-k (as a session's top_k).
    static constexpr int kMaxTopK = 1000000;

private:
    /// Why the outputs asked for cannot be written (empty name, one replaces an input or another
    /// output, --top-k out of range), or empty; checked before any work.
    QString outputClash() const;
    void fail(const QString& message);
    void applyTrainingSetup();
    bool startCompare();
    void startTraining();
    /// The outputs: screenshot or figure, plots, layout report, session, window screenshot; then,
    /// headless, the exit. `captured`: the view's frame as drawn (saved as it is for a plain
    /// --screenshot instead of rendering once more). Runs once.
    void finish(const QImage& captured = QImage());
    void writeOutputs(const QImage& captured);
    /// Headless: completes the autosave and quits with the run's status.
    void exitIfHeadless();
    /// --orbit N: N frames around the data (camera azimuth 360/N each), then `then`.
    void orbit(int steps, std::function<void()> then);
    /// --lesson-step N: goes to step N of the lesson, then calls `then` once the window shows it
    /// (at once without the option; after a failure, which it reports, too).
    void atLessonStep(std::function<void()> then);
    bool isSet(const char* option) const;
    QString value(const char* option) const;

    MainWindow& m_window;
    const QCommandLineParser& m_parser;
    StartupTimeline& m_timeline;
    int m_status = 0;
    bool m_inputFailed = false; // --load, --session or --detector could not be had: no output is written
    bool m_headless = false;
    bool m_finished = false;
    bool m_presetApplied = false;
    QString m_file;
    QSize m_figureSize;
    std::shared_ptr<std::function<void(int)>> m_orbitStep;
};

} // namespace olens
