#pragma once
// Progress of a long fit on the CLI's stderr and an optional time budget (issue #20 item 5): on a
// terminal one line rewritten in place; with --progress elsewhere (logs, pipes) a line at most every
// second; nothing with --quiet. --timeout S cancels the fit after S seconds of wall time.
#include "base/Progress.h"

#include <chrono>
#include <iosfwd>
#include <string>

namespace olens {

class CliProgress {
public:
    enum class Mode { Off, Terminal, Lines };
    /// timeoutSeconds ≤ 0: no budget.
    CliProgress(std::ostream& err, Mode mode, double timeoutSeconds);
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
    std::string m_last;
    std::chrono::steady_clock::time_point m_start, m_lastPrint{};
};

} // namespace olens
