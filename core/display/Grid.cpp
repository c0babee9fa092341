#include "display/Grid.h"

#include <algorithm>

namespace olens {

Eigen::MatrixXd GridSpec::displayPoints(Eigen::Index first, Eigen::Index count) const
{
    Eigen::MatrixXd U(count, dims);
    const Eigen::Index nx = res[0], ny = res[1];
    for (Eigen::Index r = 0; r < count; ++r) {
        const Eigen::Index id = first + r;
        const Eigen::Index ix = id % nx, iy = (id / nx) % ny, iz = id / (nx * ny);
        U(r, 0) = lo[0] + ix * spacing(0);
        if (dims > 1)
            U(r, 1) = lo[1] + iy * spacing(1);
        if (dims > 2)
            U(r, 2) = lo[2] + iz * spacing(2);
    }
    return U;
}

GridSpec gridAround(const Eigen::Ref<const Eigen::MatrixX3d>& display, int dims, double margin, int res2d, int res3d)
{
    GridSpec g;
    g.dims = dims;
    if (display.rows() == 0)
        return g;
    Eigen::Vector3d lo = display.colwise().minCoeff().transpose();
    Eigen::Vector3d hi = display.colwise().maxCoeff().transpose();
    const Eigen::Vector3d size = (hi - lo).cwiseMax(1e-9);
    const double biggest = size.maxCoeff();
    for (int a = 0; a < 3; ++a) {
        // A degenerate axis (e.g. p = 1: y is flat) still gets a visible band.
        const double s = size[a] < 1e-6 * biggest ? biggest * 0.2 : size[a];
        lo[a] -= margin * s;
        hi[a] += margin * s;
    }
    g.lo = lo;
    g.hi = hi;
    if (g.dims == 2) {
        g.lo[2] = g.hi[2] = 0.0;
        g.res = Eigen::Vector3i(res2d, res2d, 1);
    } else {
        g.res = Eigen::Vector3i(res3d, res3d, res3d);
    }
    return g;
}

double boxDiagonal(const Eigen::Ref<const Eigen::MatrixX3d>& display)
{
    if (display.rows() == 0)
        return 1.0;
    return std::max(1e-12, (display.colwise().maxCoeff() - display.colwise().minCoeff()).norm());
}

} // namespace olens
