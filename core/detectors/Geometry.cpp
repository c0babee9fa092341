#include "detectors/Geometry.h"

#include <utility>
#include <Eigen/Dense>

namespace olens {

Quadric ellipsoidQuadric(const Eigen::VectorXd& centre, const Eigen::MatrixXd& shape, double radius2, std::string name)
{
    Quadric q;
    // A = shape⁻¹ by a Cholesky solve (shape is a covariance: symmetric positive definite).
    q.A = shape.llt().solve(Eigen::MatrixXd::Identity(shape.rows(), shape.cols()));
    q.A = 0.5 * (q.A + q.A.transpose()).eval();
    const Eigen::VectorXd Ac = q.A * centre;
    q.b = -2.0 * Ac;
    q.c = centre.dot(Ac) - radius2;
    q.name = std::move(name);
    q.ellipsoid = true;
    return q;
}

} // namespace olens
