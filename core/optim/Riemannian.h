#pragma once
// Riemannian optimisation on products of Stiefel-type manifolds and Euclidean factors (GODS paper
// sec. 6.1-6.2; Absil, Mahony & Sepulchre, "Optimization Algorithms on Matrix Manifolds" [26]).
//
// A point of the product manifold is a list of matrices, one per factor; a tangent vector has the
// same shape. Factors:
//   Stiefel St(n,p) = {X ∈ ℝ^{n×p} : XᵀX = I_p} (p = 1: the unit sphere S^{n−1}),
//   Oblique OB(n,p) = {X ∈ ℝ^{n×p} : diag(XᵀX) = 1} (GODS eq. 12; a product of p unit spheres),
//   generalized Stiefel G_B(n,p) = {U ∈ ℝ^{n×p} : UᵀBU = I_p}, B ∈ ℝ^{n×n} symmetric positive
//     definite (GODS sec. 4.4 / Theorem 1 for KODS). The paper writes its points as K×n matrices
//     Λ with Λ𝕂Λᵀ = I (one row per hyperplane); here they are stored transposed, U = Λᵀ (n×K,
//     one column per hyperplane), so that every factor uses the same column convention,
//   Euclidean ℝ^{n×p} (the GODS biases; also the radii r of the non-compact Stiefel manifold).
// The non-compact Stiefel manifold of GODS_N (eq. 11) is parametrised as in the paper by
// (Q, r) ∈ St(n,p) × ℝ^p, W = Q diag(r): a product of existing factors, so it has no kind of its own.
//
// Stiefel operations:
//   tangent projection  P_X(Z) = Z − X sym(XᵀZ)                (orthogonal, embedded metric)
//   Riemannian gradient  Euclidean metric: P_X(∇F)  (ManOpt's stiefelfactory, which the paper used)
//                        canonical metric: ∇F − X ∇Fᵀ X           (GODS eq. 26)
//   retraction           R_X(V) = qf(X + V), Q of the thin QR with diag(R) > 0 ([26] Ex. 4.1.2)
//   vector transport     T_{X→Y}(V) = P_Y(V)                      ([26] sec. 8.1.3)
// Eq. 26 is not an orthogonal projection (it doubles the skew part XΩ of a tangent vector): it is
// the gradient for the canonical metric g_c(ξ,ζ) = tr(ξᵀ(I − ½XXᵀ)ζ). Both metrics are offered; the
// conjugate gradient below uses the factor's own inner product consistently.
//
// Oblique operations (embedded Euclidean metric, ManOpt's obliquefactory):
//   tangent space {V : diag(XᵀV) = 0};  P_X(Z) = Z − X diag(diag(XᵀZ)) (column by column),
//   Riemannian gradient P_X(∇F), retraction by column normalisation R_X(V) = (X + V) diag(‖·‖)⁻¹,
//   transport by projection. Dimension p(n − 1).
//
// Generalized Stiefel operations. Metric: the B-metric g_B(ξ,ζ) = tr(ξᵀBζ) (ManOpt's
// stiefelgeneralizedfactory) by default, or the canonical metric of Theorem 1 (StiefelMetric::Canonical).
//   tangent space {V : VᵀBU + UᵀBV = 0}
//   tangent projection  P_U(Z) = Z − U sym(UᵀBZ)       (orthogonal in the B-metric, for both choices)
//   Riemannian gradient  B-metric: P_U(B⁻¹∇F)
//                        canonical: B⁻¹∇F − U ∇Fᵀ U     (GODS eq. 29, transposed to columns), the
//                        gradient for g_c(ξ,ζ) = tr(ξᵀBζ) − ½ tr((UᵀBξ)ᵀ(UᵀBζ))
//   retraction           generalized polar decomposition Y = U H, U = Y (YᵀBY)^{−1/2}, Y = X + V
//                        (GODS sec. 6.2, [104]); first order because YᵀBY = I + VᵀBV for tangent V
//   vector transport     T_{X→Y}(V) = P_Y(V)
//   feasibilityError     max |UᵀBU − I|. Dimension np − p(p+1)/2.
// B is factorised once (Cholesky) when the factor is added; B⁻¹∇F costs two triangular solves.
#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace olens::riemannian {

using Point = std::vector<Eigen::MatrixXd>;
using Tangent = std::vector<Eigen::MatrixXd>;

enum class FactorKind { Stiefel, Euclidean, Oblique, GeneralizedStiefel };
/// Stiefel and generalized Stiefel factors: Euclidean = the embedded metric (for the generalized
/// Stiefel manifold the B-metric tr(ξᵀBζ)); Canonical = eq. 26 / eq. 29.
enum class StiefelMetric { Euclidean, Canonical };
/// Stiefel factors: QR = the Q factor of x + tξ (default); Polar = (x + tξ)((x + tξ)ᵀ(x + tξ))^{-1/2},
/// the image of the generalized polar retraction under U = L⁻ᵀQ (B = LLᵀ), so that a generalized
/// Stiefel problem can be solved on the plain Stiefel manifold with the same iterates.
enum class StiefelRetraction { QR, Polar };

struct Factor {
    FactorKind kind = FactorKind::Euclidean;
    Eigen::Index rows = 0;
    Eigen::Index cols = 0;
    StiefelMetric metric = StiefelMetric::Euclidean;  ///< Stiefel and GeneralizedStiefel only
    StiefelRetraction retraction = StiefelRetraction::QR; ///< Stiefel only
    std::shared_ptr<const Eigen::MatrixXd> B;         ///< GeneralizedStiefel only (rows×rows, SPD)
    std::shared_ptr<const Eigen::LLT<Eigen::MatrixXd>> Bllt; ///< Cholesky of B (GeneralizedStiefel)
};

class ProductManifold {
public:
    ProductManifold() = default;
    /// Appends a factor; returns its index. Stiefel requires 1 ≤ p ≤ n (std::invalid_argument).
    int addStiefel(Eigen::Index n, Eigen::Index p, StiefelMetric metric = StiefelMetric::Euclidean,
                   StiefelRetraction retraction = StiefelRetraction::QR);
    int addEuclidean(Eigen::Index rows, Eigen::Index cols);
    /// Oblique manifold OB(n,p): n×p matrices with unit-norm columns. Requires n ≥ 1, p ≥ 1.
    int addOblique(Eigen::Index n, Eigen::Index p);
    /// Generalized Stiefel manifold {U ∈ ℝ^{n×p} : UᵀBU = I_p}, n = B.rows(). B must be square,
    /// symmetric (to 1e-10 relative) and positive definite, and 1 ≤ p ≤ n; otherwise
    /// std::invalid_argument. B is copied (and symmetrised) and factorised once.
    int addGeneralizedStiefel(const Eigen::MatrixXd& B, Eigen::Index p,
                              StiefelMetric metric = StiefelMetric::Euclidean);

    const std::vector<Factor>& factors() const { return m_factors; }
    /// Total dimension of the manifold (Stiefel and generalized Stiefel: np − p(p+1)/2, oblique: p(n−1)).
    Eigen::Index dimension() const;

    /// Orthogonal projection onto T_x (embedded metric; B-metric on generalized Stiefel factors);
    /// identity on Euclidean factors.
    Tangent projectTangent(const Point& x, const Tangent& z) const;
    /// Euclidean gradient → Riemannian gradient for each factor's metric.
    Tangent egradToRgrad(const Point& x, const Tangent& egrad) const;
    /// Riemannian metric (sum over factors).
    double inner(const Point& x, const Tangent& a, const Tangent& b) const;
    double norm(const Point& x, const Tangent& a) const { return std::sqrt(std::max(0.0, inner(x, a, a))); }
    /// QR retraction on Stiefel factors, column normalisation on oblique ones, generalized polar
    /// decomposition on generalized Stiefel ones, x + v on Euclidean ones.
    Point retract(const Point& x, const Tangent& v, double t = 1.0) const;
    /// Vector transport by projection onto T_y.
    Tangent transport(const Point& y, const Tangent& v) const;
    /// Largest constraint violation over the factors (0 for an exact point): ‖XᵀX − I‖_max on
    /// Stiefel, max_j |‖x_j‖² − 1| on oblique, ‖UᵀBU − I‖_max on generalized Stiefel factors.
    double feasibilityError(const Point& x) const;
    /// Throws std::invalid_argument when shapes do not match the factors.
    void checkShape(const Point& x, const char* what) const;

private:
    std::vector<Factor> m_factors;
};

/// Q factor of the thin QR of A (n×p, p ≤ n) with the signs fixed so that diag(R) ≥ 0.
Eigen::MatrixXd qf(const Eigen::MatrixXd& A);

/// Generalized polar factor U = Y (YᵀBY)^{−1/2} of Y (n×p) in the B inner product: UᵀBU = I
/// (GODS sec. 6.2, [104]). Throws std::invalid_argument when YᵀBY is not positive definite
/// (Y rank deficient). With B = I it is the ordinary polar factor.
Eigen::MatrixXd generalizedPolar(const Eigen::MatrixXd& Y, const Eigen::MatrixXd& B);

/// Cost and Euclidean gradient at x. When egrad is non-null it must be filled (same shapes as x).
using CostFunction = std::function<double(const Point& x, Tangent* egrad)>;

struct CgIterate {
    int iteration = 0;   ///< 0 = the starting point
    double cost = 0.0;
    double gradNorm = 0.0; ///< Riemannian gradient norm
    double step = 0.0;     ///< accepted step length t (0 at iteration 0)
    const Point* x = nullptr;
};
/// Called after every iteration (and once at the start); return true to stop. May throw
/// (e.g. olens::Cancelled), which propagates out of conjugateGradient().
using CgCallback = std::function<bool(const CgIterate&)>;

enum class LineSearch { Armijo, Wolfe };

struct CgOptions {
    int maxIterations = 200;
    double gradientTolerance = 1e-6;
    double minStep = 1e-14;       ///< stop when the accepted step · ‖d‖ falls below this
    /// Stop when the cost fell by at most progressTolerance × its whole decrease so far
    /// (f₀ − f_k) over the last progressWindow iterations (0: off). Scale-free, and meaningful for
    /// the hinge objectives of GODS/KODS whose gradient norm need not vanish at a minimiser and
    /// whose value tends to 0 (a change relative to |f| never stops there; docs/benchmarks.md).
    double progressTolerance = 0.0;
    int progressWindow = 10;
    double c1 = 1e-4;             ///< sufficient decrease (Armijo)
    double c2 = 0.9;              ///< curvature (weak Wolfe, with LineSearch::Wolfe)
    double backtrack = 0.5;       ///< step shrink factor
    int maxLineSearchSteps = 60;
    LineSearch lineSearch = LineSearch::Armijo;
};

struct CgResult {
    Point x;
    double cost = 0.0;
    double gradNorm = 0.0;
    int iterations = 0;
    std::string stopReason; ///< "gradient norm", "objective change", "max iterations", "callback", "step size", "line search"
    std::vector<double> costHistory;     ///< per iteration including the start
    std::vector<double> gradNormHistory; ///< per iteration including the start
};

/// Riemannian conjugate gradient ([26] Alg. 13; GODS eq. 25): d_k = −grad f(x_k) + β_k T(d_{k−1}),
/// β by Polak–Ribière+ with transported gradients, restart with −grad when d is not a descent
/// direction; step by backtracking to the Armijo condition (or weak Wolfe with bracketing).
CgResult conjugateGradient(const ProductManifold& M, const CostFunction& f, Point x0, const CgOptions& options = {},
                           const CgCallback& callback = {});

} // namespace olens::riemannian
