#pragma once
// `--timings`: a timeline of what the user waits for, in seconds since the process started —
// file loaded, first frame drawn (the first paint of the 3-D view after the load), training
// started/finished, each score field shown, screenshot written — printed to stderr. It is how
// scripts/bench.sh measures the GUI at scale (issue #16 item 6) without guessing from wall time.
#include <QElapsedTimer>
#include <QObject>

class QWidget;

namespace olens {

class MainWindow;

class StartupTimeline : public QObject {
    Q_OBJECT
public:
    /// Starts the clock; call first thing in main().
    StartupTimeline();
    /// Follows the window's view, training and field signals from now on.
    void watch(MainWindow* window);
    /// Prints "outlierlens: [timings] 1.234 s <what>" (also used by main for load and screenshot).
    void mark(const char* what) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QElapsedTimer m_clock;
    QWidget* m_view = nullptr;
    bool m_frameSeen = false;
};

} // namespace olens
