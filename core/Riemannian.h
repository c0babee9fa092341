#pragma once
// Riemannian optimisation on products of Stiefel manifolds and Euclidean factors (GODS paper
// sec. 6.1; Absil, Mahony & Sepulchre, "Optimization Algorithms on Matrix Manifolds" [26]).
//
// A point of the product manifold is a list of matrices, one per factor; a tangent vector has the
// same shape. Factors:
//   Stiefel St(n,p) = {X ∈ ℝ^{n×p} : XᵀX = I_p} (p = 1: the unit sphere S^{n−1}),
//   Euclidean ℝ^{n×p} (the GODS biases).
// Stiefel operations:
//   tangent projection  P_X(Z) = Z − X sym(XᵀZ)                (orthogonal, embedded metric)
//   Riemannian gradient  Euclidean metric: P_X(∇F)  (ManOpt's stiefelfactory, which the paper used)
//                        canonical metric: ∇F − X ∇Fᵀ X           (GODS eq. 26)
//   retraction           R_X(V) = qf(X + V), Q of the thin QR with diag(R) > 0 ([26] Ex. 4.1.2)
//   vector transport     T_{X→Y}(V) = P_Y(V)                      ([26] sec. 8.1.3)
// Eq. 26 is not an orthogonal projection (it doubles the skew part XΩ of a tangent vector): it is
// the gradient for the canonical metric g_c(ξ,ζ) = tr(ξᵀ(I − ½XXᵀ)ζ). Both metrics are offered; the
// conjugate gradient below uses the factor's own inner product consistently.
#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

namespace olens::riemannian {

using Point = std::vector<Eigen::MatrixXd>;
using Tangent = std::vector<Eigen::MatrixXd>;

enum class FactorKind { Stiefel, Euclidean };
enum class StiefelMetric { Euclidean, Canonical };

struct Factor {
    FactorKind kind = FactorKind::Euclidean;
    Eigen::Index rows = 0;
    Eigen::Index cols = 0;
    StiefelMetric metric = StiefelMetric::Euclidean; ///< Stiefel only
};

class ProductManifold {
public:
    ProductManifold() = default;
    /// Appends a factor; returns its index. Stiefel requires 1 ≤ p ≤ n (std::invalid_argument).
    int addStiefel(Eigen::Index n, Eigen::Index p, StiefelMetric metric = StiefelMetric::Euclidean);
    int addEuclidean(Eigen::Index rows, Eigen::Index cols);

    const std::vector<Factor>& factors() const { return m_factors; }
    /// Total dimension of the manifold (Stiefel: np − p(p+1)/2).
    Eigen::Index dimension() const;

    /// Orthogonal projection onto T_x (embedded metric); identity on Euclidean factors.
    Tangent projectTangent(const Point& x, const Tangent& z) const;
    /// Euclidean gradient → Riemannian gradient for each factor's metric.
    Tangent egradToRgrad(const Point& x, const Tangent& egrad) const;
    /// Riemannian metric (sum over factors).
    double inner(const Point& x, const Tangent& a, const Tangent& b) const;
    double norm(const Point& x, const Tangent& a) const { return std::sqrt(std::max(0.0, inner(x, a, a))); }
    /// QR retraction on Stiefel factors, x + v on Euclidean ones.
    Point retract(const Point& x, const Tangent& v, double t = 1.0) const;
    /// Vector transport by projection onto T_y.
    Tangent transport(const Point& y, const Tangent& v) const;
    /// Largest ‖XᵀX − I‖_max over the Stiefel factors (0 for an exact point).
    double feasibilityError(const Point& x) const;
    /// Throws std::invalid_argument when shapes do not match the factors.
    void checkShape(const Point& x, const char* what) const;

private:
    std::vector<Factor> m_factors;
};

/// Q factor of the thin QR of A (n×p, p ≤ n) with the signs fixed so that diag(R) ≥ 0.
Eigen::MatrixXd qf(const Eigen::MatrixXd& A);

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
    std::string stopReason; ///< "gradient norm", "max iterations", "callback", "step size", "line search"
    std::vector<double> costHistory;     ///< per iteration including the start
    std::vector<double> gradNormHistory; ///< per iteration including the start
};

/// Riemannian conjugate gradient ([26] Alg. 13; GODS eq. 25): d_k = −grad f(x_k) + β_k T(d_{k−1}),
/// β by Polak–Ribière+ with transported gradients, restart with −grad when d is not a descent
/// direction; step by backtracking to the Armijo condition (or weak Wolfe with bracketing).
CgResult conjugateGradient(const ProductManifold& M, const CostFunction& f, Point x0, const CgOptions& options = {},
                           const CgCallback& callback = {});

} // namespace olens::riemannian
