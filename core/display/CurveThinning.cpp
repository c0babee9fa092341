#include "display/CurveThinning.h"

#include "metrics/CurveThinner.h"

#include <stdexcept>

namespace olens {

Polyline thinCurve(const std::vector<double>& x, const std::vector<double>& y, double tolerance)
{
    if (x.size() != y.size())
        throw std::invalid_argument("thinCurve: x and y differ in size");
    CurveThinner thinner(tolerance);
    for (std::size_t i = 0; i < x.size(); ++i)
        thinner.add(x[i], y[i]);
    thinner.finish();
    Polyline out;
    out.x = thinner.takeX();
    out.y = thinner.takeY();
    return out;
}

} // namespace olens
