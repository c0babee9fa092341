#include "metrics/CurveThinner.h"

#include <cmath>

namespace olens {

void CurveThinner::keep(const Point& p)
{
    m_x.push_back(p.x);
    m_y.push_back(p.y);
    m_t.push_back(p.t);
    m_last = p;
}

void CurveThinner::interior(const Point& p)
{
    // NaN compares false: a non-finite point is kept, as the plot would draw it.
    const bool near = m_tolerance > 0.0 && std::abs(p.x - m_last.x) <= m_tolerance
                      && std::abs(p.y - m_last.y) <= m_tolerance;
    if (near) {
        m_before = p;
        m_beforeIsLast = false;
        return;
    }
    // The point before this one ends the run near the last kept: a step curve keeps its corners
    // (to within the tolerance) instead of a diagonal across them.
    if (!m_beforeIsLast)
        keep(m_before);
    keep(p);
    m_before = p;
    m_beforeIsLast = true;
}

void CurveThinner::add(double x, double y, double t)
{
    if (m_finished)
        return;
    const Point p{x, y, t};
    if (m_seen == 0) {
        keep(p);
        m_before = p;
        m_beforeIsLast = true;
    } else if (m_seen >= 2) {
        interior(m_pending); // a later point came: the pending one was not the last
    }
    if (m_seen > 0)
        m_pending = p;
    ++m_seen;
}

void CurveThinner::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_seen >= 2)
        keep(m_pending);
}

} // namespace olens
