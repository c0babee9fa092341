#include "display/CurveThinning.h"

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace olens {

Polyline thinCurve(const std::vector<double>& x, const std::vector<double>& y, double tolerance)
{
    if (x.size() != y.size())
        throw std::invalid_argument("thinCurve: x and y differ in size");
    const std::size_t n = x.size();
    Polyline out;
    if (n <= 2 || !(tolerance > 0.0)) {
        out.x = x;
        out.y = y;
        return out;
    }
    auto keep = [&](std::size_t i) {
        out.x.push_back(x[i]);
        out.y.push_back(y[i]);
    };
    keep(0);
    std::size_t last = 0; // the last point kept
    for (std::size_t i = 1; i + 1 < n; ++i) {
        // NaN compares false: a non-finite point is kept, as the plot would draw it.
        const bool near = std::abs(x[i] - x[last]) <= tolerance && std::abs(y[i] - y[last]) <= tolerance;
        if (near)
            continue;
        // The point before this one ends the run near `last`: a step curve keeps its corners (to
        // within the tolerance) instead of a diagonal across them.
        if (i - 1 != last)
            keep(i - 1);
        keep(i);
        last = i;
    }
    keep(n - 1);
    return out;
}

} // namespace olens
