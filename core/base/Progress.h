#pragma once
// Progress and cancellation across the core boundary: a plain callback, no Qt, and the one helper
// every long computation reports through (in the spirit of CCCoreLib's NormalizedProgress).
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace olens {

struct Geometry;

/// Where a report stands in the method's own steps: data, so that step training, the loss plot's
/// x axis and the timeline never read the message (which is for people and may be reworded).
struct StepMark {
    std::string unit; ///< "epoch", "iteration" (a Detector's historyUnit()), or "clusters" (acdt's merges)
    double step = 0;  ///< steps done: whole at the end of a step, fractional inside one (quadrics' batches)
    int of = 0;       ///< steps planned; 0 when unknown
};

struct ProgressInfo {
    double fraction = 0.0;                     ///< 0..1
    std::string message;                       ///< for people only: no code reads it
    std::optional<double> loss;                ///< objective value, when the method has one
    std::shared_ptr<const Geometry> snapshot;  ///< current geometry, when cheap to produce
    std::optional<StepMark> at;                ///< the step reached, when the method has steps

    /// The report closes step `at->step` of its unit (not a report from inside a step).
    bool endsStep() const;
};

/// Seconds left, extrapolated from the time spent on the fraction done (as a progress bar's "about
/// N s left"); negative while too little is done to tell (≤ 2 %). For a method that may stop
/// early (quadrics' tol, gods' tol) it is an upper bound.
double secondsLeft(double elapsedSeconds, double fraction);

/// Returns true when cancellation is requested.
using ProgressCallback = std::function<bool(const ProgressInfo&)>;

/// Reports into a callback (which may be empty), mapping fractions 0..1 onto [from, to] of the
/// caller's range, optionally throttled; throws Cancelled when the callback asks to stop.
class ProgressReporter {
public:
    explicit ProgressReporter(ProgressCallback cb, double from = 0.0, double to = 1.0,
                              std::chrono::milliseconds minInterval = std::chrono::milliseconds(0));

    /// Reports (unless throttled; `force` bypasses the throttle). Throws Cancelled on request.
    void report(double fraction, const std::string& message, std::optional<double> loss = std::nullopt,
                std::shared_ptr<const Geometry> snapshot = nullptr, bool force = false) const;
    /// A report that names the step reached (see StepMark).
    void report(double fraction, StepMark at, const std::string& message, std::optional<double> loss = std::nullopt,
                std::shared_ptr<const Geometry> snapshot = nullptr, bool force = false) const;
    void operator()(double fraction, const std::string& message, std::optional<double> loss = std::nullopt,
                    bool force = false) const
    {
        report(fraction, message, loss, nullptr, force);
    }
    /// A callback for a sub-step that fills [from, to] of this reporter's range (empty when this
    /// reporter has no callback, so callees can skip their own reporting work).
    ProgressCallback sub(double from, double to) const;

private:
    ProgressCallback m_cb;
    double m_from, m_to;
    std::chrono::milliseconds m_interval;
    mutable std::chrono::steady_clock::time_point m_last{};
};

} // namespace olens
