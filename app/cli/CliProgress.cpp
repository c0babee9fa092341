#include "CliProgress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace olens {

CliProgress::CliProgress(std::ostream& err, Mode mode, double timeoutSeconds)
    : m_err(err), m_mode(mode), m_timeout(timeoutSeconds), m_start(std::chrono::steady_clock::now())
{
}

CliProgress::~CliProgress()
{
    if (m_lineOpen)
        m_err << "\r\033[K" << std::flush; // erase the in-place line, leave the terminal clean
}

ProgressCallback CliProgress::callback()
{
    return [this](const ProgressInfo& p) {
        const auto now = std::chrono::steady_clock::now();
        char pct[16];
        std::snprintf(pct, sizeof pct, "%3.0f %% ", 100.0 * std::clamp(p.fraction, 0.0, 1.0));
        m_last = pct + p.message;
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
