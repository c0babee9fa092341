#pragma once
// Progress of a long fit on the CLI's stderr and an optional time budget (issue #20 item 5): on a
// terminal one line rewritten in place; with --progress elsewhere (logs, pipes) a line at most every
// second; nothing with --quiet. --timeout S cancels the fit after S seconds of wall time.
#include "base/Progress.h"

#include <chrono>
#include <functional>
#include <iosfwd>
#include <string>

namespace olens {

class CliProgress {
public:
    enum class Mode { Off, Terminal, Lines };
    /// timeoutSeconds ≤ 0: no budget. `announce`: say once, on any stderr, when a fit will take
    /// long (more than kAnnounceSeconds in all by the first seconds' pace; not with --quiet, nor
    /// with a budget, which bounds the run already).
    using Clock = std::function<std::chrono::steady_clock::time_point()>;
    /// `clock`: the time source (tests give their own; default steady_clock::now).
    CliProgress(std::ostream& err, Mode mode, double timeoutSeconds, bool announce = false, Clock clock = {});
    static constexpr double kAnnounceSeconds = 30.0;
    ~CliProgress(); // clears a terminal line

    /// The callback for fitPipeline: prints (throttled) and returns true once the budget is spent.
    ProgressCallback callback();
    bool timedOut() const { return m_timedOut; }
    /// The last progress report ("37 % kods: iteration 74 …"), for the timeout message.
    const std::string& lastReport() const { return m_last; }
    double timeoutSeconds() const { return m_timeout; }

private:
    std::ostream& m_err;
    Mode m_mode;
    double m_timeout;
    bool m_timedOut = false;
    bool m_lineOpen = false;
    bool m_announce = false;
    std::string m_last;
    Clock m_clock;
    std::chrono::steady_clock::time_point m_start, m_lastPrint{};
};

} // namespace olens
