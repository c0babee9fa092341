#include "display/GeometryChoice.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace olens {

GeometryChoice GeometryChoice::defaults(std::size_t quadrics, std::size_t frames, bool twoD)
{
    GeometryChoice c;
    const std::size_t limit = twoD ? kDefaultQuadrics2D : kDefaultQuadrics3D;
    c.quadrics.assign(quadrics, false);
    for (std::size_t k = 0; k < quadrics && k < limit; ++k)
        c.quadrics[k] = true;
    c.frames.assign(frames, true);
    return c;
}

std::vector<bool> zeroSetsOnGrid(const std::vector<Eigen::VectorXd>& values)
{
    std::vector<bool> out;
    out.reserve(values.size());
    for (const Eigen::VectorXd& v : values) {
        bool neg = false, pos = false;
        for (Eigen::Index i = 0; i < v.size() && !(neg && pos); ++i) {
            neg = neg || v[i] <= 0.0;
            pos = pos || v[i] >= 0.0;
        }
        // A function that is 0 somewhere and of one sign elsewhere still touches the grid.
        out.push_back(neg && pos);
    }
    return out;
}

std::vector<bool> framesOnGrid(const FieldData& field, std::size_t frames)
{
    std::vector<bool> out(frames, false);
    const std::vector<bool> planes = zeroSetsOnGrid(field.planeValues);
    for (std::size_t h = 0; h < planes.size() && h < field.planeFrame.size(); ++h) {
        const int f = field.planeFrame[h];
        if (planes[h] && f >= 0 && std::size_t(f) < frames)
            out[std::size_t(f)] = true;
    }
    return out;
}

LegendGroup legendGroup(const std::vector<bool>& chosen, const std::vector<bool>& drawn, std::size_t maxListed)
{
    LegendGroup g;
    g.total = chosen.size(); // the items named (a field may sample more, e.g. a live snapshot)
    std::vector<std::size_t> both;
    for (std::size_t k = 0; k < g.total; ++k)
        if ((k >= chosen.size() || chosen[k]) && k < drawn.size() && drawn[k])
            both.push_back(k);
    g.shown = both.size();
    g.compact = g.total > maxListed;
    if (!g.compact)
        g.listed = std::move(both);
    return g;
}

std::vector<std::size_t> mostViolatedQuadrics(const std::vector<Quadric>& quadrics, const Eigen::VectorXd& x,
                                              std::size_t k)
{
    std::vector<double> value(quadrics.size(), -1.0);
    for (std::size_t q = 0; q < quadrics.size(); ++q) {
        const Quadric& Q = quadrics[q];
        if (Q.A.rows() != x.size() || Q.b.size() != x.size())
            continue;
        value[q] = std::fabs(x.dot(Q.A * x) + Q.b.dot(x) + Q.c);
    }
    std::vector<std::size_t> order(quadrics.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return value[a] > value[b]; });
    order.resize(std::min(k, order.size()));
    return order;
}

} // namespace olens
