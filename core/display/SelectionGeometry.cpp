#include "display/SelectionGeometry.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace olens {

Eigen::MatrixX2d projectToDisplay(const Eigen::Ref<const Eigen::MatrixX3d>& world, const Eigen::Matrix4d& composite,
                                  const DisplayViewport& viewport)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Eigen::MatrixX2d out(world.rows(), 2);
    for (Eigen::Index i = 0; i < world.rows(); ++i) {
        const Eigen::Vector4d h = composite * Eigen::Vector4d(world(i, 0), world(i, 1), world(i, 2), 1.0);
        if (!(h.w() > 0.0) || !std::isfinite(h.w())) { // behind the camera (or degenerate)
            out.row(i).setConstant(nan);
            continue;
        }
        const double x = h.x() / h.w(), y = h.y() / h.w(), z = h.z() / h.w();
        // Outside the view volume: clipped, not drawn, so not selectable.
        if (!(std::abs(x) <= 1.0 && std::abs(y) <= 1.0 && std::abs(z) <= 1.0)) {
            out.row(i).setConstant(nan);
            continue;
        }
        out(i, 0) = viewport.x0 + 0.5 * (x + 1.0) * viewport.width;
        out(i, 1) = viewport.y0 + 0.5 * (y + 1.0) * viewport.height;
    }
    return out;
}

std::vector<int> pointsInRectangle(const Eigen::MatrixX2d& screen, const Eigen::Vector2d& a, const Eigen::Vector2d& b)
{
    const double x0 = std::min(a.x(), b.x()), x1 = std::max(a.x(), b.x());
    const double y0 = std::min(a.y(), b.y()), y1 = std::max(a.y(), b.y());
    std::vector<int> rows;
    for (Eigen::Index i = 0; i < screen.rows(); ++i) {
        const double x = screen(i, 0), y = screen(i, 1); // NaN fails every comparison
        if (x >= x0 && x <= x1 && y >= y0 && y <= y1)
            rows.push_back(static_cast<int>(i));
    }
    return rows;
}

bool pointInPolygon(const Eigen::Vector2d& p, const std::vector<Eigen::Vector2d>& polygon)
{
    const std::size_t m = polygon.size();
    if (m < 3 || !std::isfinite(p.x()) || !std::isfinite(p.y()))
        return false;
    // Even-odd rule: count the edges a ray to +x crosses (half-open in y, so a vertex on the ray
    // counts once).
    bool inside = false;
    for (std::size_t i = 0, j = m - 1; i < m; j = i++) {
        const Eigen::Vector2d& a = polygon[i];
        const Eigen::Vector2d& b = polygon[j];
        if ((a.y() > p.y()) != (b.y() > p.y())) {
            const double xCross = a.x() + (p.y() - a.y()) * (b.x() - a.x()) / (b.y() - a.y());
            if (p.x() < xCross)
                inside = !inside;
        }
    }
    return inside;
}

std::vector<int> pointsInPolygon(const Eigen::MatrixX2d& screen, const std::vector<Eigen::Vector2d>& polygon)
{
    std::vector<int> rows;
    if (polygon.size() < 3)
        return rows;
    // The polygon's box rejects most points cheaply.
    Eigen::Vector2d lo = polygon.front(), hi = polygon.front();
    for (const auto& v : polygon) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
    }
    for (Eigen::Index i = 0; i < screen.rows(); ++i) {
        const Eigen::Vector2d p = screen.row(i).transpose();
        if (!(p.x() >= lo.x() && p.x() <= hi.x() && p.y() >= lo.y() && p.y() <= hi.y()))
            continue;
        if (pointInPolygon(p, polygon))
            rows.push_back(static_cast<int>(i));
    }
    return rows;
}

namespace {
std::vector<int> sortedDistinct(std::vector<int> v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}
} // namespace

std::vector<int> combineSelection(const std::vector<int>& current, const std::vector<int>& hits, SelectionOp op)
{
    const std::vector<int> a = sortedDistinct(current), b = sortedDistinct(hits);
    std::vector<int> out;
    switch (op) {
    case SelectionOp::Replace: return b;
    case SelectionOp::Add: std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out)); break;
    case SelectionOp::Subtract:
        std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
        break;
    }
    return out;
}

std::vector<int> invertSelection(const std::vector<int>& current, int n)
{
    std::vector<char> in(static_cast<std::size_t>(std::max(0, n)), 0);
    for (int i : current)
        if (i >= 0 && i < n)
            in[static_cast<std::size_t>(i)] = 1;
    std::vector<int> out;
    for (int i = 0; i < n; ++i)
        if (!in[static_cast<std::size_t>(i)])
            out.push_back(i);
    return out;
}

std::vector<int> normalizedSelection(std::vector<int> rows, int n)
{
    rows.erase(std::remove_if(rows.begin(), rows.end(), [n](int i) { return i < 0 || i >= n; }), rows.end());
    return sortedDistinct(std::move(rows));
}

} // namespace olens
