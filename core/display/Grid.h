#pragma once
// The regular display-space grid on which score fields and implicit geometry are sampled.
#include <Eigen/Core>

namespace olens {

/// A regular grid in display coordinates; 2D grids have res[2] == 1.
struct GridSpec {
    int dims = 2;
    Eigen::Vector3d lo = Eigen::Vector3d::Zero();
    Eigen::Vector3d hi = Eigen::Vector3d::Ones();
    Eigen::Vector3i res = Eigen::Vector3i(2, 2, 1);

    Eigen::Index count() const { return Eigen::Index(res[0]) * res[1] * res[2]; }
    double spacing(int axis) const { return res[axis] > 1 ? (hi[axis] - lo[axis]) / (res[axis] - 1) : 1.0; }
    /// count×dims display coordinates, x varying fastest (VTK image order).
    Eigen::MatrixXd displayPoints(Eigen::Index first, Eigen::Index count) const;
};

/// The grid over the box of the display points, widened by `margin` × its size per side (a
/// degenerate axis gets 0.2 × the largest size, so p = 1 still shows a band). dims 2: z = 0 and
/// res2d² points; dims 3: res3d³. Default grid when there are no points.
GridSpec gridAround(const Eigen::Ref<const Eigen::MatrixX3d>& display, int dims, double margin, int res2d, int res3d);

/// Diagonal of the display points' bounding box (1 without points, never below 1e-12): the scale
/// for rings, glyph offsets and depth nudges.
double boxDiagonal(const Eigen::Ref<const Eigen::MatrixX3d>& display);

} // namespace olens
