#include "linalg/KernelFunction.h"

namespace olens {

Eigen::MatrixXd KernelFunction::cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const
{
    Eigen::MatrixXd G;
    G.noalias() = A * B.transpose();
    if (kind == KernelKind::Poly) {
        // (1 + xᵀy)^d by repeated multiplication (d is a small integer).
        G.array() += 1.0;
        if (degree > 1) {
            const Eigen::ArrayXXd base = G.array();
            for (int i = 1; i < degree; ++i)
                G.array() *= base;
        }
        return G;
    }
    // exp(−‖a − b‖²/2σ²) with ‖a − b‖² = ‖a‖² + ‖b‖² − 2aᵀb, clamped at 0 against rounding.
    const double c = 1.0 / (2.0 * sigma * sigma);
    const Eigen::VectorXd an = A.rowwise().squaredNorm() * c;
    const Eigen::RowVectorXd bn = B.rowwise().squaredNorm().transpose() * c;
    G *= 2.0 * c;
    G.colwise() -= an;
    G.rowwise() -= bn;
    G = G.array().min(0.0).exp().matrix();
    return G;
}

Eigen::VectorXd KernelFunction::self(const Eigen::MatrixXd& A) const
{
    if (kind == KernelKind::Rbf)
        return Eigen::VectorXd::Ones(A.rows());
    Eigen::ArrayXd base = A.rowwise().squaredNorm().array() + 1.0;
    Eigen::ArrayXd out = base;
    for (int i = 1; i < degree; ++i)
        out *= base;
    return out.matrix();
}

} // namespace olens
