#pragma once
// How a p-dimensional cloud is shown in a 2D/3D view: display coordinates u = Bᵀ(x − origin)
// with an orthonormal p×q basis B (q ≤ 3), and back x = origin + B u. For p ≤ 3 this is the
// identity; for p > 3 the first principal axes (or chosen feature axes) through the mean — the
// view then shows the slice {origin + B u} through the mean, and fields are evaluated on it.
#include <Eigen/Core>
#include <string>
#include <vector>

namespace olens {

struct Projection {
    Eigen::VectorXd origin; ///< p
    Eigen::MatrixXd basis;  ///< p×q, orthonormal columns
    std::vector<std::string> axisNames; ///< q names
    bool identity = true;   ///< true when the data are shown as they are (p ≤ 3)
    std::string note;       ///< what the view shows, for the on-screen note (empty for identity)

    int displayDims() const { return static_cast<int>(basis.cols()); }
    /// n×3 display coordinates (unused columns are 0).
    Eigen::MatrixX3d toDisplay(const Eigen::MatrixXd& X) const;
    /// Feature-space points for n×q display coordinates.
    Eigen::MatrixXd toFeature(const Eigen::MatrixXd& U) const;

    /// Identity for p ≤ 3 (names = feature names), else PCA onto the first three axes.
    static Projection automatic(const Eigen::MatrixXd& X, const std::vector<std::string>& names);
    static Projection pca(const Eigen::MatrixXd& X, int q);
    /// Chosen principal axes (0-based component indices by decreasing variance, 1 to 3 of them)
    /// through the mean, e.g. PC2 against PC4.
    static Projection components(const Eigen::MatrixXd& X, const std::vector<int>& pcs);
    /// Chosen feature axes (0-based), the other features fixed at their mean.
    static Projection axes(const Eigen::MatrixXd& X, const std::vector<std::string>& names, const std::vector<int>& axes);
};

} // namespace olens
