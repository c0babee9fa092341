#pragma once
// What a detector reports for drawing, in core terms (no VTK).
#include <Eigen/Core>
#include <string>
#include <vector>

namespace olens {

/// Zero set of f(x) = xᵀAx + bᵀx + c (quadrics paper eq. 3).
struct Quadric {
    Eigen::MatrixXd A;
    Eigen::VectorXd b;
    double c = 0.0;
    /// Legend / chooser text; empty: "quadric k (zero set)".
    std::string name;
    /// A positive definite: the boundary of a solid ellipsoid (mcd's robust covariance). Views of
    /// p > 3 then draw its shadow on the shown coordinates (the marginal ellipse, display/
    /// DisplayGeometry.h ellipsoidShadow) instead of the slice through the view's origin.
    bool ellipsoid = false;
};

/// The quadric (x − centre)ᵀ shape⁻¹ (x − centre) − radius² (shape symmetric positive definite):
/// A = shape⁻¹, b = −2A·centre, c = centreᵀA·centre − radius², marked as an ellipsoid.
Quadric ellipsoidQuadric(const Eigen::VectorXd& centre, const Eigen::MatrixXd& shape, double radius2,
                         std::string name);

/// Hyperplane {x : wᵀx + bias = 0}.
struct Hyperplane {
    Eigen::VectorXd w;
    double bias = 0.0;
};

/// A group of hyperplanes drawn in one colour (a GODS frame).
struct HyperplaneFrame {
    std::string name;
    std::vector<Hyperplane> planes;
};

/// Affine flat origin + basis·t, t within [lower, upper] per basis direction.
struct Flat {
    Eigen::VectorXd origin; ///< p
    Eigen::MatrixXd basis;  ///< p×d, orthonormal columns
    Eigen::VectorXd lower;  ///< d, extent of the members' coordinates
    Eigen::VectorXd upper;  ///< d
    int cluster = -1;
};

struct Geometry {
    std::vector<Quadric> quadrics;
    std::vector<HyperplaneFrame> frames;
    std::vector<Flat> flats;
    std::vector<int> clusterOfPoint; ///< per training point, for cluster colouring; may be empty

    bool empty() const
    {
        return quadrics.empty() && frames.empty() && flats.empty() && clusterOfPoint.empty();
    }
};

} // namespace olens
