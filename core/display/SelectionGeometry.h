#pragma once
// Box and lasso selection in screen space, without Qt or VTK: project the points with the camera's
// composite (projection · view) matrix to display pixels, then keep those inside a rectangle or a
// polygon (even-odd rule), and combine the hits with the current selection (replace / add /
// subtract) or invert it. Selections are sorted vectors of distinct row indices.
#include <Eigen/Core>

#include <vector>

namespace olens {

/// How a new region combines with the current selection (ParaView / CloudCompare: Shift adds,
/// Ctrl subtracts).
enum class SelectionOp { Replace, Add, Subtract };

/// The part of the window a renderer draws into, in display pixels (origin bottom left, as VTK's
/// display coordinates): x0, y0 and its width and height.
struct DisplayViewport {
    double x0 = 0.0, y0 = 0.0, width = 1.0, height = 1.0;
};

/// Display coordinates (pixels, y up) of each row of `world` (n×3) under `composite`, the camera's
/// world → normalised-view matrix (vtkCamera::GetCompositeProjectionTransformMatrix with the
/// viewport's aspect, z range −1…1). Points behind the camera or outside the viewport (not drawn)
/// get NaN, so no region selects them.
Eigen::MatrixX2d projectToDisplay(const Eigen::Ref<const Eigen::MatrixX3d>& world, const Eigen::Matrix4d& composite,
                                  const DisplayViewport& viewport);

/// Rows of `screen` inside the axis-aligned rectangle spanned by two corners (any order; the
/// border counts as inside).
std::vector<int> pointsInRectangle(const Eigen::MatrixX2d& screen, const Eigen::Vector2d& a, const Eigen::Vector2d& b);

/// Whether p lies inside the closed polygon (even-odd rule: self-intersecting lassos select what
/// they enclose an odd number of times). Fewer than 3 vertices: nothing is inside.
bool pointInPolygon(const Eigen::Vector2d& p, const std::vector<Eigen::Vector2d>& polygon);

/// Rows of `screen` inside the polygon (pointInPolygon), in increasing order.
std::vector<int> pointsInPolygon(const Eigen::MatrixX2d& screen, const std::vector<Eigen::Vector2d>& polygon);

/// The current selection combined with new hits (both any order, duplicates allowed): Replace →
/// the hits, Add → the union, Subtract → current minus hits. Sorted, distinct.
std::vector<int> combineSelection(const std::vector<int>& current, const std::vector<int>& hits, SelectionOp op);

/// Every row of 0…n−1 not in `current` (entries outside the range are ignored).
std::vector<int> invertSelection(const std::vector<int>& current, int n);

/// Sorted, distinct, and within 0…n−1.
std::vector<int> normalizedSelection(std::vector<int> rows, int n);

} // namespace olens
