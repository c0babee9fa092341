#pragma once
// `--timings`: a timeline of what the user waits for, in seconds since the process started —
// file loaded, first frame (the first frame of the 3-D view rendered after the load), training
// started/finished, each score field shown, screenshot written — printed to stderr, each with the
// longest GUI-thread stall since the previous mark (a 10 ms heartbeat timer: the largest gap
// between its ticks, minus the period). It is how scripts/bench.sh measures the GUI at scale
// (issue #16 item 6: no stall over 100 ms while training) without guessing from wall time.
#include <QElapsedTimer>
#include <QObject>

class QTimer;

class QWidget;

namespace olens {

class CloudView;
struct ReactionContext;

class StartupTimeline : public QObject {
    Q_OBJECT
public:
    /// Starts the clock; call first thing in main().
    StartupTimeline();
    /// Follows the window's view, training and field signals from now on.
    void watch(const ReactionContext& context);
    /// Prints "outlierlens: [timings] 1.234 s <what>" (also used by main for load and screenshot).
    void mark(const char* what) const;

private:
    void beat();
    QElapsedTimer m_clock;
    QTimer* m_heartbeat = nullptr;
    mutable qint64 m_lastBeatNs = 0;
    mutable qint64 m_maxStallNs = 0; // since the previous mark
    CloudView* m_view = nullptr;
    bool m_frameSeen = false;
};

} // namespace olens
