#pragma once
// Subspaces as points of the Grassmannian G(N, d) (ACDT slides, "Distanza geodetica" and
// "Punto medio di Karcher"). A subspace is given by an N×d matrix with orthonormal columns.
#include <Eigen/Core>
#include <vector>

namespace olens::grassmann {

/// Principal angles 0 ≤ θ_1 ≤ … ≤ θ_d between span(A) and span(B) (A, B: N×d, orthonormal
/// columns, same d; throws std::invalid_argument otherwise). Knyazev & Argentati (SIAM J. Sci.
/// Comput. 2002) / Knyazev et al. (2006): the cosines are the singular values of AᵀB, the sines
/// the singular values of B − A(AᵀB); an angle with sin² θ ≤ ½ is taken as arcsin of its sine
/// (accurate for small angles, where arccos loses half the digits), the others as arccos of
/// their cosine. Closed-form 2×2 singular values for d ≤ 2, Jacobi SVD otherwise.
Eigen::VectorXd principalAngles(const Eigen::Ref<const Eigen::MatrixXd>& A,
                                const Eigen::Ref<const Eigen::MatrixXd>& B);

/// Geodesic distance D_T(A, B) = ‖θ‖₂ = (Σ_i θ_i²)^½ (slides, definition of D_T).
double distance(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::MatrixXd>& B);

/// d leading left singular vectors of M (N×m) as an orthonormal N×d matrix: thin SVD when
/// m ≤ N, eigenvectors of MMᵀ (N×N) otherwise. When rank(M) < d the basis is completed with
/// orthonormal directions (deterministically, by a Householder QR).
Eigen::MatrixXd leadingLeftSingularVectors(const Eigen::Ref<const Eigen::MatrixXd>& M, int d);

/// Mean of subspaces by J.M. Chang's SVD formulation (the "flag mean"): the d leading left
/// singular vectors of the concatenated bases [B_1 … B_m], i.e. the d leading eigenvectors of
/// the sum of projectors Σ B_i B_iᵀ. Used by ACDT as the cluster's mean tangent space M_C
/// (slides, "Punto medio di Karcher", algorithm box line 11). Throws std::invalid_argument when
/// the list is empty or the bases differ in size.
Eigen::MatrixXd flagMean(const std::vector<Eigen::MatrixXd>& bases, int d);

/// The sum of projectors P = Σ_i B_i B_iᵀ of a cluster's tangent spaces and its flag mean, kept so
/// that merging two clusters never revisits their members: P is stored as a factor F (P = F Fᵀ)
/// while F has at most N columns, and as the dense N×N matrix beyond. The mean (d leading
/// eigenvectors of P) comes from a full symmetric eigensolver for small problems (≤ 64) and
/// otherwise from subspace iteration with Rayleigh–Ritz, warm-started from the two children's
/// means and run until every Ritz residual is below 1e-12·λ_max (full solver as a fallback).
class ProjectorSum {
public:
    ProjectorSum() = default;
    /// A single subspace: P = B Bᵀ, mean = B.
    static ProjectorSum of(const Eigen::Ref<const Eigen::MatrixXd>& basis);
    /// P_a + P_b and the flag mean of the union (the flag mean of all the summed bases, whatever
    /// the merge order).
    static ProjectorSum merged(const ProjectorSum& a, const ProjectorSum& b, int d);

    /// N×d flag mean (orthonormal columns).
    const Eigen::MatrixXd& mean() const { return m_mean.size() > 0 ? m_mean : m_factor; }
    /// Dense N×N P.
    Eigen::MatrixXd projector() const;
    /// Columns of the factor, or N when P is stored densely.
    Eigen::Index rank() const { return m_dense.size() > 0 ? m_dense.rows() : m_factor.cols(); }
    Eigen::Index dimension() const { return m_dense.size() > 0 ? m_dense.rows() : m_factor.rows(); }

private:
    Eigen::MatrixXd m_factor; ///< N×r (empty when dense)
    Eigen::MatrixXd m_dense;  ///< N×N (empty when factored)
    Eigen::MatrixXd m_mean;   ///< empty for a single subspace (the mean is the factor itself)
};

} // namespace olens::grassmann
