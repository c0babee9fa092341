#pragma once
// The points of a curve worth drawing, chosen as the points arrive: a 20 M-row result's ROC and
// precision-recall curves have a vertex per distinct score (three vectors of 160 MB each), of which
// a screen can show a few thousand apart (issue #54). display/CurveThinning applies the same rule
// to a curve already built.
#include <cstddef>
#include <vector>

namespace olens {

/// Keeps the first and last points, and every point more than `tolerance` (in x or in y) from the
/// last point kept, each with the point before it (a step curve keeps its corners). A point left
/// out lies within `tolerance` of the kept point before it, so the drawing moves by at most that
/// much; a monotone curve of the unit square (ROC) keeps at most 4 / tolerance + 2 points. With
/// tolerance ≤ 0 (or NaN), every point. A NaN coordinate is never "near": it is kept.
class CurveThinner {
public:
    explicit CurveThinner(double tolerance) : m_tolerance(tolerance) {}
    /// The next point of the curve, with the value it stands for (a threshold; 0 if none).
    void add(double x, double y, double t = 0.0);
    /// Ends the curve (keeps its last point); add() after this starts no new curve.
    void finish();
    const std::vector<double>& x() const { return m_x; }
    const std::vector<double>& y() const { return m_y; }
    const std::vector<double>& t() const { return m_t; }
    std::vector<double> takeX() { return std::move(m_x); }
    std::vector<double> takeY() { return std::move(m_y); }
    std::vector<double> takeT() { return std::move(m_t); }

private:
    struct Point {
        double x = 0, y = 0, t = 0;
    };
    void keep(const Point& p);
    void interior(const Point& p);

    double m_tolerance;
    std::size_t m_seen = 0;
    Point m_pending;     // the newest point: the last one, or an interior one once another arrives
    Point m_before;      // the interior point before it
    bool m_beforeIsLast = false; // m_before is the last point kept
    Point m_last;        // the last point kept
    bool m_finished = false;
    std::vector<double> m_x, m_y, m_t;
};

} // namespace olens
