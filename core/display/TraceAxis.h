#pragma once
// What the axes of a convergence plot show, from what the detectors report: the x value and its
// name read from a progress message ("epoch 3/50" → epochs, "iteration 12" → iterations,
// "merging: 40 clusters" → clusters), and whether the y values need a log axis (positive values
// spanning decades) or, when they are not all positive, the distance to their minimum.
#include <string>
#include <vector>

namespace olens {

/// One loss report placed on the x axis.
struct TraceStep {
    double x = 0.0;   ///< the step in `axis` units (fractional epochs between epoch ends)
    std::string axis; ///< "epoch", "iteration", "clusters"; empty when the message names no step
};

/// Reads the step from a progress message; `fraction` (0..1 of the whole fit) places reports
/// inside an epoch when the message says "epoch k/E".
TraceStep traceStep(const std::string& message, double fraction);

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
