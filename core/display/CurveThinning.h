#pragma once
// A curve of the unit square thinned for drawing. The ROC and precision-recall curves of a
// 5 M-row result have a vertex per distinct score: 4 × 36 MB of Qt vectors (146 MB) and a
// QPainter path no screen can show apart (issue #54). The metrics (AUROC, AUPRC) are computed on
// the whole curve; only the drawn polyline is thinned.
#include <vector>

namespace olens {

struct Polyline {
    std::vector<double> x, y;
};

/// The points of (x, y) that metrics/CurveThinner keeps: those more than `tolerance` (in x or in y)
/// from the last point kept, each with the point before it, and the first and last points. Every point left out lies within
/// `tolerance` (in x and in y) of the kept point before it, so the drawing moves by at most
/// `tolerance` of the axis (sub-pixel at 1/4096 on any screen); a monotone curve of the unit
/// square (ROC) keeps at most 4 / tolerance + 2 points. x and y have one size.
Polyline thinCurve(const std::vector<double>& x, const std::vector<double>& y, double tolerance);

} // namespace olens
