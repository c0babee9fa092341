#pragma once
// kods: Kernelized One-class Discriminative Subspaces (Cherian & Wang, GODS paper sec. 4.4,
// eq. 14–22; optimisation sec. 6.2, Theorem 1–2; initialisation sec. 6.3; kernels sec. 7.5).
//
// Dual variables Y, Z ∈ ℝ^{K×n} (one row per hyperplane, one column per training point) on the
// generalized Stiefel manifold {Λ : Λ𝕂Λᵀ = I_K} (eq. 17, Theorem 1); the weights that enter the
// model are their element-wise squares A = Y∘Y, B = Z∘Z (≥ 0, sec. 4.4.1). Approximate KODS
// objective, eq. 18 (1 = 1_n, λ = weight of the soft null-space constraint eq. 16):
//   𝒦(Y,Z) = ½‖A1‖² + Tr(A𝕂Bᵀ) − η Σ(A + B) + λ/2 ‖(A − B)1‖².
// Its Euclidean gradients (derived from eq. 18 and checked against finite differences):
//   ∇_Y = (2+2λ) Y∘(A E_n) + Y∘(B [2𝕂 − 2λE_n]) − 2ηY,
//   ∇_Z = 2λ Z∘(B E_n) + Z∘(A [2𝕂 − 2λE_n]) − 2ηZ,        E_n = 1 1ᵀ.
// NOTE: Theorem 2 prints the cross terms as Y∘Z²[2𝕂 − λE_n] and Z∘Y²[2𝕂 − λE_n]. Differentiating
// eq. 18 gives −2λ there: ∂/∂Y of λ/2‖(A − B)1‖² is 2λ Y∘((A − B)E_n), whose B part is −2λ Y∘(B E_n)
// (and symmetrically for Z). The other terms of Theorem 2 (γ = 2 + 2λ, 2λ, 2𝕂, −2η) agree with
// eq. 18. We implement the exact gradient of eq. 18 (verified by finite differences in TestKods).
// Parameters: eq. 18 has η and λ but no ν — eq. 14 turns the squared hinges of GODS (weight ν)
// into hard constraints ("no outliers in the one-class data"), so kods has no `nu`.
//
// Primal recovery (eq. 19–22) with k(x) = (k(x_1,x), …, k(x_n,x))ᵀ:
//   W1(x) = B k(x),  W2(x) = −A k(x),  b1 = rowmax(η − B𝕂),  b2 = rowmin(−η + A𝕂),
// responses r1(x) = W1(x) + b1, r2(x) = W2(x) + b2 (K-vectors). Decision rule eq. 23: in-class iff
// min_k r1_k ≥ η ∧ max_k r2_k ≤ −η. Continuous score (same convention as gods):
//   s(x) = max(η − min_k r1_k(x), η + max_k r2_k(x)),   isOutlier = s > 0, threshold() = 0.
// Frame scores (for drawing fig. 1e–f separately): frame 1 = η − min_k r1_k, frame 2 = η + max_k r2_k.
// By eq. 21–22 every training point satisfies eq. 23 (s ≤ 0, with equality at each row's minimiser).
//
// Kernel regularisation: the generalized Stiefel manifold needs 𝕂 ≻ 0, but e.g. the linear kernel
// has rank ≤ p < n and an RBF Gram matrix of close points is numerically singular. The optimisation
// uses 𝕂_ε = 𝕂 + εI with ε = ridge · mean(diag 𝕂) (parameter `ridge`, default 1e-3: smaller values
// leave the Riemannian CG badly conditioned, the gradient norm stalls), in eq. 17 and eq. 18; the primal
// recovery eq. 19–22 uses the plain kernel evaluations k(x_i, x) so that scoring a training point
// reproduces the columns of 𝕂 used in b1, b2.
//
// Kernels (sec. 7.5): linear xᵀy; rbf exp(−‖x−y‖²/2σ²); poly (xᵀy + 1)^degree; chi2
// exp(−χ²(x,y)/2σ²) with χ²(x,y) = Σ_j (x_j − y_j)²/(x_j + y_j) (0/0 := 0); hik Σ_j min(x_j, y_j).
// chi2 and hik are histogram kernels: training data must be non-negative (DataError); query points
// are clamped to the non-negative orthant (so the GUI can contour the plane around histograms).
// Defaults from sec. 7.5: σ = 0.1, degree 3; σ = 0 selects the median pairwise distance of the
// training rows (rbf: Euclidean; chi2: √χ²).
// Optimisation: Riemannian CG (core/Riemannian.h) on two generalized Stiefel factors with the
// canonical metric of Theorem 1 (parameter metric=canonical) or the 𝕂-metric (metric=b, ManOpt's
// choice, fewer products with 𝕂); retraction by the generalized polar decomposition (sec. 6.2); stop
// after max_iter iterations or when the gradient norm is below 1e-6 × its initial value.
// Start (sec. 6.3): duals 1/(nK); rows 2..K perturbed (seeded) so that K rows can be 𝕂-orthonormal.
// Training needs the n×n Gram matrix and its Cholesky factor: fit_rows ≤ 10000 (auto: a seeded subset of 2000
// rows when n is larger; every row is scored).
// Scoring evaluates kernels against the n training rows in chunks of queries (bounded memory).
// The paper works on L2-normalised features (sec. 7.3): DetectorInfo::normalization = "l2". The
// fig. 1d ring experiment is on raw 2-D points: use normalisation "none" there.
#include "detectors/Detector.h"

namespace olens {

struct DetectorInfo;

/// The kernels of sec. 7.5 (see the header comment for the formulas).
struct KodsKernel {
    enum class Kind { Linear, Rbf, Poly, Chi2, Hik };
    Kind kind = Kind::Rbf;
    double sigma = 0.1; ///< rbf / chi2 bandwidth (> 0)
    int degree = 3;     ///< poly

    static Kind parse(const std::string& name); ///< throws ParamError
    static std::string name(Kind kind);
    /// k(a_i, b_j) for the rows of A (|A|×p) and B (|B|×p): an |A|×|B| matrix.
    Eigen::MatrixXd cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const;
    /// Median pairwise distance of the rows of X (rbf: Euclidean, chi2: √χ²), over at most 1000 rows.
    static double medianDistance(Kind kind, const Eigen::MatrixXd& X);
    /// Median over the rows (up to 1000, evenly strided) of the Euclidean distance to the k-th
    /// nearest other row (zero distances of duplicates skipped); 0 when no row has k others.
    static double medianNeighbourDistance(const Eigen::MatrixXd& X, int k);
};

class KodsDetector : public Detector {
public:
    static DetectorInfo info();
    std::string historyUnit() const override { return "iteration"; }
    explicit KodsDetector(ParamSet params) : Detector(std::move(params)) {}

    /// Empty: KODS has no hyperplanes in input space; the GUI draws score contours.
    Geometry geometry() const override { return {}; }
    std::map<std::string, double> figures() const override;
    /// "W1 (frame 1) plane k short of eta by v" / "W2 plane k above -eta by v" / "inside (margin m)".
    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;

    /// One frame of the decision rule, per row of X: frame 1 = η − min_k(W1(x) + b1)_k, frame 2 =
    /// η + max_k(W2(x) + b2)_k (≤ 0 where the frame accepts x). score() is the max of the two.
    /// Throws NotFittedError, DataError (wrong number of columns, non-finite), ParamError (frame ∉ {1,2}).
    Eigen::VectorXd frameScore(const Eigen::MatrixXd& X, int frame) const;

    /// Fitted duals in the paper's layout (K×n): Y (→ W2, eq. 20) and Z (→ W1, eq. 19).
    const Eigen::MatrixXd& Y() const { return m_Y; }
    const Eigen::MatrixXd& Z() const { return m_Z; }
    const Eigen::VectorXd& b1() const { return m_b1; }
    const Eigen::VectorXd& b2() const { return m_b2; }
    /// Bandwidth actually used (σ = 0 resolved to the median distance).
    double sigma() const { return m_kernel.sigma; }
    /// 𝕂 + εI on the training rows (the matrix of the manifold constraint Y𝕂Yᵀ = I). Requires fit.
    Eigen::MatrixXd regularizedGram() const;
    const std::vector<double>& lossHistory() const { return m_lossHistory; }
    /// The objective (eq. 18) and the Riemannian gradient norm per CG iteration.
    std::vector<Trace> traces() const override
    {
        return {{"objective (eq. 18)", m_lossHistory}, {"Riemannian gradient norm", m_gradHistory}};
    }
    /// The two frames of eq. 23 as separate fields (fig. 1e–f): component k = frameScore(X, k + 1).
    std::vector<std::string> scoreComponents() const override { return {"frame 1 (W1)", "frame 2 (W2)"}; }
    Eigen::VectorXd scoreComponent(const Eigen::MatrixXd& X, int k) const override { return frameScore(X, k + 1); }

    /// Eq. 18 at (Y, Z) (K×n each) for the n×n kernel matrix Kmat; Euclidean gradients (K×n) are
    /// written when the pointers are non-null.
    static double objective(const Eigen::MatrixXd& Kmat, const Eigen::MatrixXd& Y, const Eigen::MatrixXd& Z,
                            double eta, double lambda, Eigen::MatrixXd* gY = nullptr, Eigen::MatrixXd* gZ = nullptr);

    /// Largest fit_rows accepted: the n×n Gram matrix and its Cholesky factor (16n² bytes: 1.6 GB).
    static constexpr int kMaxTrainingRows = 10000;
    /// fit_rows auto: all rows up to this many, else a random subset of this size.
    static constexpr int kAutoFitRows = 2000;

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    Eigen::VectorXi doIsOutlier(const Eigen::MatrixXd& X) const override;
    double doThreshold(const Eigen::VectorXd& trainingScores) const override;
    std::string constantScoresAdvice() const override
    {
        return "lower sigma toward the spread of the data (auto chooses it from them): with a very large sigma every row looks alike to the kernel";
    }
    nlohmann::json saveState() const override;
    /// A recorded iteration holds the duals Y, Z only; the primal recovery (eq. 19–22) runs here.
    std::unique_ptr<Detector> replayStep(const nlohmann::json& state, const Eigen::MatrixXd& trainingRows) const override;
    void loadState(const nlohmann::json& state) override;

private:
    /// Raw responses r1 = W1(x) + b1 and r2 = W2(x) + b2 (rows of X × K each), computed in chunks.
    void responses(const Eigen::MatrixXd& X, Eigen::MatrixXd* R1, Eigen::MatrixXd* R2) const;
    /// Rows of X as the kernel sees them (rbf: centred on the training mean; chi2/hik: clamped at 0).
    Eigen::MatrixXd prepare(const Eigen::MatrixXd& X) const;

    KodsKernel m_kernel;
    Eigen::MatrixXd m_train;  // n×p training rows, prepared (see prepare())
    Eigen::RowVectorXd m_shift; // subtracted before the kernel (rbf: training mean; else 0)
    Eigen::MatrixXd m_Y, m_Z; // K×n
    Eigen::MatrixXd m_A, m_B; // Y∘Y, Z∘Z
    Eigen::VectorXd m_b1, m_b2;     // eq. 21–22: b1 = η − m_min1, b2 = m_min2 − η
    Eigen::VectorXd m_min1, m_min2; // rowmin(B𝕂), rowmin(A𝕂) over the training points
    double m_eta = 0.0, m_ridge = 0.0; // m_ridge = ε (absolute)
    double m_objective = 0.0, m_gradNorm = 0.0, m_feasibility = 0.0;
    int m_iterations = 0;
    std::string m_stopReason;
    std::vector<double> m_lossHistory, m_gradHistory;
};

} // namespace olens
