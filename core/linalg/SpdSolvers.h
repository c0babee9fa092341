#pragma once
// Solves with symmetric positive (semi-)definite matrices, with progress (each long loop reports
// between BLAS-3 steps, so the callback can stop the work by throwing): forward substitution with
// a lower Cholesky factor, the diagonal of the inverse from that factor, a Cholesky factorisation
// with the smallest diagonal jitter that succeeds, and conjugate gradient for the quadratic forms
// bᵀ(K + λI)⁻¹b of regularised (ridge) systems. Used by kic (exact, primal and Nyström paths).
#include <Eigen/Core>

#include <functional>

namespace olens {

/// Fraction of the work done, in [0, 1]; may throw to stop the work (as FactorTick of
/// BlockedCholesky.h).
using SolveTick = std::function<void(double)>;

/// Solves L·X = B in place (B := L⁻¹B) with the lower-triangular block L(offset:, offset:) of L
/// (B has L.rows() − offset rows or fewer: the leading part of that block is used). Left-looking,
/// one block of rows at a time so that progress can be reported and the work stays in GEMM.
void lowerSolveInPlace(const Eigen::MatrixXd& L, Eigen::Index offset, Eigen::Ref<Eigen::MatrixXd> B,
                       const SolveTick& tick = {});

/// diag(A⁻¹) for A = LLᵀ from its lower Cholesky factor L: (A⁻¹)_jj = ‖L⁻¹e_j‖². Column block
/// [c, c+b) of L⁻¹ is zero above row c, so it solves with the trailing (n−c)×(n−c) part only
/// (n³/3 flops in all).
Eigen::VectorXd diagonalOfInverse(const Eigen::MatrixXd& L, const SolveTick& tick = {});

/// The lower Cholesky factor L of A + εI (A symmetric) for the first ε of first, first·growth,
/// first·growth², … with which the factorisation succeeds (e.g. a kernel matrix with duplicate
/// rows). Returns false, leaving L and jitter as they were, when it fails for an ε above `last`.
bool jitteredCholesky(const Eigen::MatrixXd& A, double first, double last, double growth, Eigen::MatrixXd& L,
                      double& jitter);

struct CgStats {
    int iterations = 0;  ///< largest iteration count of any right-hand side
    long unconverged = 0; ///< right-hand sides that hit the iteration cap
};

/// For each column b of B solves (K + λI) α = b (K symmetric positive semidefinite, λ > 0) by
/// Jacobi-preconditioned conjugate gradient and returns q = bᵀα* = bᵀA⁻¹b (A = K + λI). The
/// columns run in lockstep so that the products K·P are matrix–matrix products. With the true
/// residual r = b − Aα, bᵀA⁻¹b = bᵀα + αᵀr + rᵀA⁻¹r exactly, and 0 ≤ rᵀA⁻¹r ≤ ‖r‖²/λ (K ⪰ 0): the
/// estimate bᵀα + αᵀr is off by at most ‖r‖²/λ. The caller's quantity is (offset_j − q_j)/scale
/// (kic: the score (γ − q)/ρ); column j stops when the bound on its error, ‖r‖²/(λ·scale), is
/// ≤ 1e-10·(1 + |(offset_j − q_j)/scale|). At most min(3n + 100, 20000) iterations; columns that
/// hit the cap get the same corrected estimate without the guarantee and are counted in stats.
Eigen::VectorXd cgQuadraticForms(const Eigen::MatrixXd& K, double lambda, double scale, const Eigen::MatrixXd& B,
                                 const Eigen::VectorXd& offset, CgStats& stats, const SolveTick& tick = {});

} // namespace olens
