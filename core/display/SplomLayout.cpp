#include "display/SplomLayout.h"

#include <algorithm>
#include <cmath>

namespace olens {

SplomLayout::SplomLayout(const Eigen::MatrixXd& X, std::vector<int> features, const SplomRect& area, double gap)
    : m_features(std::move(features)), m_area(area), m_gap(gap)
{
    const int m = count();
    for (int f : m_features) {
        double lo = 0.0, hi = 0.0;
        if (X.rows() > 0) {
            lo = X.col(f).minCoeff();
            hi = X.col(f).maxCoeff();
        }
        const double pad = hi > lo ? 0.05 * (hi - lo) : 0.5;
        m_lo.push_back(lo - pad);
        m_hi.push_back(hi + pad);
    }
    // Cells fill the area, but no more than 1.6 times wider than tall or taller than wide: a
    // matrix in a wide, short dock (1280×720) got square 35-pixel cells and names cut to "m…".
    const double w = m > 0 ? std::max(0.0, (area.w - gap * (m - 1)) / m) : 0.0;
    const double h = m > 0 ? std::max(0.0, (area.h - gap * (m - 1)) / m) : 0.0;
    m_w = std::min(w, kMaxAspect * h);
    m_h = std::min(h, kMaxAspect * w);
}

SplomRect SplomLayout::cell(int row, int col) const
{
    return {m_area.x + col * (m_w + m_gap), m_area.y + row * (m_h + m_gap), m_w, m_h};
}

std::pair<int, int> SplomLayout::cellAt(double px, double py) const
{
    const double stepX = m_w + m_gap, stepY = m_h + m_gap;
    if (stepX <= 0.0 || stepY <= 0.0 || px < m_area.x || py < m_area.y)
        return {-1, -1};
    const int col = static_cast<int>(std::floor((px - m_area.x) / stepX));
    const int row = static_cast<int>(std::floor((py - m_area.y) / stepY));
    if (row >= count() || col >= count() || !cell(row, col).contains(px, py))
        return {-1, -1};
    return {row, col};
}

double SplomLayout::toPixelX(int col, double v) const
{
    const SplomRect c = cell(0, col);
    return c.x + (v - low(col)) / (high(col) - low(col)) * c.w;
}

double SplomLayout::toPixelY(int row, double v) const
{
    const SplomRect c = cell(row, 0);
    return c.y + c.h - (v - low(row)) / (high(row) - low(row)) * c.h; // values grow upwards
}

double SplomLayout::valueAtX(int col, double px) const
{
    const SplomRect c = cell(0, col);
    return low(col) + (px - c.x) / c.w * (high(col) - low(col));
}

double SplomLayout::valueAtY(int row, double py) const
{
    const SplomRect c = cell(row, 0);
    return low(row) + (c.y + c.h - py) / c.h * (high(row) - low(row));
}

std::vector<int> SplomLayout::rowsInBox(const Eigen::MatrixXd& X, int row, int col, double x0, double y0, double x1,
                                        double y1) const
{
    std::vector<int> out;
    if (row < 0 || col < 0 || row >= count() || col >= count() || m_w <= 0.0 || m_h <= 0.0)
        return out;
    const SplomRect c = cell(row, col);
    auto clampX = [&](double v) { return std::clamp(v, c.x, c.x + c.w); };
    auto clampY = [&](double v) { return std::clamp(v, c.y, c.y + c.h); };
    const double a = valueAtX(col, clampX(std::min(x0, x1))), b = valueAtX(col, clampX(std::max(x0, x1)));
    // Pixel y grows downwards: the box's bottom edge is the lower value.
    const double lo = valueAtY(row, clampY(std::max(y0, y1))), hi = valueAtY(row, clampY(std::min(y0, y1)));
    const int fx = m_features[static_cast<std::size_t>(col)], fy = m_features[static_cast<std::size_t>(row)];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double vx = X(i, fx);
        if (vx < a || vx > b)
            continue;
        if (row != col && (X(i, fy) < lo || X(i, fy) > hi))
            continue;
        out.push_back(static_cast<int>(i));
    }
    return out;
}

std::vector<int> splomDefaultFeatures(int p, int maxCount)
{
    std::vector<int> out;
    for (int j = 0; j < std::min(p, maxCount); ++j)
        out.push_back(j);
    return out;
}

std::vector<int> splomDecimation(int n, int maxPoints, const std::vector<int>& always)
{
    std::vector<int> out;
    if (n <= 0)
        return out;
    const int stride = n <= maxPoints || maxPoints <= 0 ? 1 : (n + maxPoints - 1) / maxPoints;
    for (int i = 0; i < n; i += stride)
        out.push_back(i);
    if (stride > 1) {
        for (int i : always)
            if (i >= 0 && i < n)
                out.push_back(i);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }
    return out;
}

} // namespace olens
