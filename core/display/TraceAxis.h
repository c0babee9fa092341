#pragma once
// How the y axis of a convergence plot shows the losses the detectors report: whether they need a
// log axis (positive values spanning decades) or, when they are not all positive, the distance to
// their minimum. (The x axis is the step each report names, base/Progress's StepMark.)
#include <string>
#include <vector>

namespace olens {

/// Positive, finite values whose largest is at least `decades` powers of ten above the smallest.
bool spansDecades(const std::vector<double>& values, double decades = 2.0);

/// How to draw a convergence trace: the values themselves (log when they span decades), or, when
/// some are not positive (objectives below zero), their distance to the smallest value on a log
/// axis (the minimum itself dropped: log 0). Non-finite values are kept as NaN.
struct TracePlot {
    std::vector<double> y;
    bool logY = false;
    bool aboveMinimum = false; ///< y = value − min(values)
};
TracePlot convergencePlot(const std::vector<double>& values);

} // namespace olens
