#include "base/Progress.h"

#include "base/Errors.h"

#include <algorithm>
#include <cmath>

namespace olens {

double secondsLeft(double elapsedSeconds, double fraction)
{
    if (!(fraction > 0.02) || !(elapsedSeconds >= 0.0))
        return -1.0;
    return elapsedSeconds * (1.0 - std::min(fraction, 1.0)) / fraction;
}

bool ProgressInfo::endsStep() const
{
    return at && !at->unit.empty() && at->step == std::floor(at->step);
}

ProgressReporter::ProgressReporter(ProgressCallback cb, double from, double to, std::chrono::milliseconds minInterval)
    : m_cb(std::move(cb)), m_from(from), m_to(to), m_interval(minInterval)
{
}

void ProgressReporter::report(double fraction, const std::string& message, std::optional<double> loss,
                              std::shared_ptr<const Geometry> snapshot, bool force) const
{
    report(fraction, StepMark{}, message, loss, std::move(snapshot), force);
}

void ProgressReporter::report(double fraction, StepMark at, const std::string& message, std::optional<double> loss,
                              std::shared_ptr<const Geometry> snapshot, bool force) const
{
    if (!m_cb)
        return;
    if (m_interval.count() > 0 && !force) {
        const auto now = std::chrono::steady_clock::now();
        if (now - m_last < m_interval)
            return;
        m_last = now;
    }
    ProgressInfo info;
    info.fraction = m_from + (m_to - m_from) * std::clamp(fraction, 0.0, 1.0);
    info.message = message;
    info.loss = loss;
    info.snapshot = std::move(snapshot);
    if (!at.unit.empty())
        info.at = std::move(at);
    if (m_cb(info))
        throw Cancelled();
}

ProgressCallback ProgressReporter::sub(double from, double to) const
{
    if (!m_cb)
        return {};
    const double a = m_from + (m_to - m_from) * from;
    const double b = m_from + (m_to - m_from) * to;
    ProgressCallback cb = m_cb;
    return [cb, a, b](const ProgressInfo& info) {
        ProgressInfo s = info;
        s.fraction = a + (b - a) * std::clamp(info.fraction, 0.0, 1.0);
        return cb(s);
    };
}

} // namespace olens
