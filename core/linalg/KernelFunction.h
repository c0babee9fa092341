#pragma once
// Kernel functions on the rows of matrices, for kernel methods: the polynomial kernel (1 + xᵀy)^d
// and the RBF (Gaussian) kernel exp(−‖x − y‖²/2σ²), a block of kernel values at a time as one GEMM
// plus elementwise work. Used by kic (KIC paper eq. 5, 17 and sec. 3 "Using different kernels").
#include <Eigen/Core>

namespace olens {

enum class KernelKind { Poly, Rbf };

struct KernelFunction {
    KernelKind kind = KernelKind::Poly;
    int degree = 2;     ///< d of the polynomial kernel (a small integer ≥ 1)
    double sigma = 1.0; ///< σ of the RBF kernel

    /// K(a_i, b_j) for the rows a_i of A and b_j of B (|A|×|B|), one GEMM plus elementwise work.
    Eigen::MatrixXd cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const;
    /// γ = K(x, x) per row of A.
    Eigen::VectorXd self(const Eigen::MatrixXd& A) const;
};

} // namespace olens
