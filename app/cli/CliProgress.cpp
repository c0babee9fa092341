#include "CliProgress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace olens {

CliProgress::CliProgress(std::ostream& err, Mode mode, double timeoutSeconds, bool announce, Clock clock)
    : m_err(err), m_mode(mode), m_timeout(timeoutSeconds), m_announce(announce),
      m_clock(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })), m_start(m_clock())
{
    if (m_timeout > 0)
        m_announce = false; // the run is bounded already: the notice would only add a line to its error

}

CliProgress::~CliProgress()
{
    if (m_lineOpen)
        m_err << "\r\033[K" << std::flush; // erase the in-place line, leave the terminal clean
}

ProgressCallback CliProgress::callback()
{
    return [this](const ProgressInfo& p) {
        const auto now = m_clock();
        char pct[16];
        std::snprintf(pct, sizeof pct, "%3.0f %% ", 100.0 * std::clamp(p.fraction, 0.0, 1.0));
        m_last = pct + p.message;
        const double elapsed = std::chrono::duration<double>(now - m_start).count();
        const double left = secondsLeft(elapsed, p.fraction);
        // #53: quadrics ran 196 s on 207 × 751 without a word. After two seconds the pace is known:
        // a fit that will take long says so once (a log or pipe too), with the way to stop it.
        if (m_announce && elapsed >= 2.0 && left >= 0.0 && elapsed + left > kAnnounceSeconds) {
            m_announce = false;
            if (m_lineOpen)
                m_err << "\r\033[K";
            m_lineOpen = false;
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          "outlierlens-cli: this fit may take about %.0f s in all (%.0f s left at its pace so far; less "
                          "if it converges early); --timeout S stops it\n",
                          elapsed + left, left);
            m_err << buf << std::flush;
        }
        if (left >= 0.0) {
            char buf[48];
            std::snprintf(buf, sizeof buf, " (~%.0f s left)", left);
            m_last += buf;
        }
        if (m_mode != Mode::Off) {
            // A terminal redraws 5 times a second; a log gets one line a second.
            const auto every = m_mode == Mode::Terminal ? std::chrono::milliseconds(200) : std::chrono::milliseconds(1000);
            if (now - m_lastPrint >= every) {
                m_lastPrint = now;
                std::string line = "outlierlens-cli: " + m_last;
                if (m_mode == Mode::Terminal) {
                    if (line.size() > 79)
                        line.resize(79);
                    m_err << "\r\033[K" << line << std::flush;
                    m_lineOpen = true;
                } else {
                    m_err << line << '\n' << std::flush;
                }
            }
        }
        if (m_timeout > 0 && std::chrono::duration<double>(now - m_start).count() > m_timeout) {
            m_timedOut = true;
            return true;
        }
        return false;
    };
}

} // namespace olens
