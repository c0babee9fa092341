#include "optim/Riemannian.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <Eigen/Dense>

namespace olens::riemannian {

int ProductManifold::addStiefel(Eigen::Index n, Eigen::Index p, StiefelMetric metric, StiefelRetraction retraction)
{
    if (p < 1 || n < p)
        throw std::invalid_argument("Stiefel manifold St(" + std::to_string(n) + ", " + std::to_string(p)
                                    + ") needs 1 <= p <= n");
    Factor f;
    f.kind = FactorKind::Stiefel;
    f.rows = n;
    f.cols = p;
    f.metric = metric;
    f.retraction = retraction;
    m_factors.push_back(std::move(f));
    return static_cast<int>(m_factors.size()) - 1;
}

int ProductManifold::addEuclidean(Eigen::Index rows, Eigen::Index cols)
{
    if (rows < 1 || cols < 1)
        throw std::invalid_argument("Euclidean factor needs positive sizes");
    Factor f;
    f.kind = FactorKind::Euclidean;
    f.rows = rows;
    f.cols = cols;
    m_factors.push_back(std::move(f));
    return static_cast<int>(m_factors.size()) - 1;
}

int ProductManifold::addOblique(Eigen::Index n, Eigen::Index p)
{
    if (n < 1 || p < 1)
        throw std::invalid_argument("Oblique manifold OB(" + std::to_string(n) + ", " + std::to_string(p)
                                    + ") needs positive sizes");
    Factor f;
    f.kind = FactorKind::Oblique;
    f.rows = n;
    f.cols = p;
    m_factors.push_back(std::move(f));
    return static_cast<int>(m_factors.size()) - 1;
}

int ProductManifold::addGeneralizedStiefel(const Eigen::MatrixXd& B, Eigen::Index p, StiefelMetric metric)
{
    const Eigen::Index n = B.rows();
    if (B.cols() != n || n < 1)
        throw std::invalid_argument("generalized Stiefel manifold: B must be a non-empty square matrix, got "
                                    + std::to_string(B.rows()) + "x" + std::to_string(B.cols()));
    if (p < 1 || n < p)
        throw std::invalid_argument("generalized Stiefel manifold: needs 1 <= p <= n, got p = " + std::to_string(p)
                                    + ", n = " + std::to_string(n));
    if (!B.allFinite())
        throw std::invalid_argument("generalized Stiefel manifold: B has non-finite entries");
    const double scale = std::max(B.cwiseAbs().maxCoeff(), 1e-300);
    if ((B - B.transpose()).cwiseAbs().maxCoeff() > 1e-10 * scale)
        throw std::invalid_argument("generalized Stiefel manifold: B is not symmetric");
    auto Bs = std::make_shared<Eigen::MatrixXd>(0.5 * (B + B.transpose()));
    auto llt = std::make_shared<Eigen::LLT<Eigen::MatrixXd>>(*Bs);
    if (llt->info() != Eigen::Success || !(llt->matrixLLT().diagonal().minCoeff() > 0.0))
        throw std::invalid_argument("generalized Stiefel manifold: B is not positive definite");
    Factor f;
    f.kind = FactorKind::GeneralizedStiefel;
    f.rows = n;
    f.cols = p;
    f.metric = metric;
    f.B = std::move(Bs);
    f.Bllt = std::move(llt);
    m_factors.push_back(std::move(f));
    return static_cast<int>(m_factors.size()) - 1;
}

Eigen::Index ProductManifold::dimension() const
{
    Eigen::Index d = 0;
    for (const auto& f : m_factors)
        switch (f.kind) {
        case FactorKind::Stiefel:
        case FactorKind::GeneralizedStiefel: d += f.rows * f.cols - f.cols * (f.cols + 1) / 2; break;
        case FactorKind::Oblique: d += (f.rows - 1) * f.cols; break;
        case FactorKind::Euclidean: d += f.rows * f.cols; break;
        }
    return d;
}

void ProductManifold::checkShape(const Point& x, const char* what) const
{
    if (x.size() != m_factors.size())
        throw std::invalid_argument(std::string(what) + ": point has " + std::to_string(x.size())
                                    + " components, the manifold " + std::to_string(m_factors.size()));
    for (std::size_t i = 0; i < x.size(); ++i)
        if (x[i].rows() != m_factors[i].rows || x[i].cols() != m_factors[i].cols)
            throw std::invalid_argument(std::string(what) + ": component " + std::to_string(i) + " is "
                                        + std::to_string(x[i].rows()) + "x" + std::to_string(x[i].cols())
                                        + ", expected " + std::to_string(m_factors[i].rows) + "x"
                                        + std::to_string(m_factors[i].cols));
}

static Eigen::MatrixXd sym(const Eigen::MatrixXd& A) { return 0.5 * (A + A.transpose()); }

namespace {

// Orthogonal projection onto the tangent space of one factor (embedded metric; B-metric for the
// generalized Stiefel manifold).
Eigen::MatrixXd projectFactor(const Factor& f, const Eigen::MatrixXd& x, const Eigen::MatrixXd& z)
{
    switch (f.kind) {
    case FactorKind::Stiefel: return z - x * sym(x.transpose() * z);
    case FactorKind::Oblique: // per column: z_j − x_j (x_jᵀ z_j)
        return z - x * (x.transpose() * z).diagonal().asDiagonal();
    case FactorKind::GeneralizedStiefel: return z - x * sym(x.transpose() * (*f.B * z));
    case FactorKind::Euclidean: break;
    }
    return z;
}

} // namespace

Tangent ProductManifold::projectTangent(const Point& x, const Tangent& z) const
{
    Tangent out(z.size());
    for (std::size_t i = 0; i < m_factors.size(); ++i)
        out[i] = projectFactor(m_factors[i], x[i], z[i]);
    return out;
}

Tangent ProductManifold::egradToRgrad(const Point& x, const Tangent& g) const
{
    Tangent out(g.size());
    for (std::size_t i = 0; i < m_factors.size(); ++i) {
        const Factor& f = m_factors[i];
        switch (f.kind) {
        case FactorKind::Euclidean: out[i] = g[i]; break;
        case FactorKind::Oblique: out[i] = projectFactor(f, x[i], g[i]); break;
        case FactorKind::Stiefel:
            if (f.metric == StiefelMetric::Canonical)
                out[i] = g[i] - x[i] * (g[i].transpose() * x[i]); // GODS eq. 26 (the p×p product first: never n×n)
            else
                out[i] = g[i] - x[i] * sym(x[i].transpose() * g[i]);
            break;
        case FactorKind::GeneralizedStiefel: {
            const Eigen::MatrixXd Binvg = f.Bllt->solve(g[i]);
            if (f.metric == StiefelMetric::Canonical)
                out[i] = Binvg - x[i] * (g[i].transpose() * x[i]); // GODS eq. 29 (transposed: U = Λᵀ)
            else
                out[i] = Binvg - x[i] * sym(x[i].transpose() * g[i]); // P_U(B⁻¹g), since UᵀB B⁻¹g = Uᵀg
            break;
        }
        }
    }
    return out;
}

double ProductManifold::inner(const Point& x, const Tangent& a, const Tangent& b) const
{
    double s = 0.0;
    for (std::size_t i = 0; i < m_factors.size(); ++i) {
        const Factor& f = m_factors[i];
        if (f.kind == FactorKind::GeneralizedStiefel) {
            const Eigen::MatrixXd Bb = *f.B * b[i];
            s += (a[i].array() * Bb.array()).sum(); // tr(aᵀBb)
            if (f.metric == StiefelMetric::Canonical) {
                // g_c(a, b) = tr(aᵀBb) − ½ tr((UᵀBa)ᵀ (UᵀBb))
                const Eigen::MatrixXd xBa = x[i].transpose() * (*f.B * a[i]);
                const Eigen::MatrixXd xBb = x[i].transpose() * Bb;
                s -= 0.5 * (xBa.array() * xBb.array()).sum();
            }
            continue;
        }
        s += (a[i].array() * b[i].array()).sum();
        if (f.kind == FactorKind::Stiefel && f.metric == StiefelMetric::Canonical) {
            // g_c(a, b) = tr(aᵀ b) − ½ tr((xᵀa)ᵀ (xᵀb))
            const Eigen::MatrixXd xa = x[i].transpose() * a[i];
            const Eigen::MatrixXd xb = x[i].transpose() * b[i];
            s -= 0.5 * (xa.array() * xb.array()).sum();
        }
    }
    return s;
}

Eigen::MatrixXd qf(const Eigen::MatrixXd& A)
{
    const Eigen::Index n = A.rows(), p = A.cols();
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(A);
    Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(n, p);
    const Eigen::MatrixXd& R = qr.matrixQR();
    for (Eigen::Index j = 0; j < p; ++j)
        if (R(j, j) < 0)
            Q.col(j) *= -1.0;
    return Q;
}

namespace {
/// Y·M^{-1/2} for the p×p Gram matrix M = YᵀBY (B = I: the polar factor of Y).
Eigen::MatrixXd timesInverseSqrt(const Eigen::MatrixXd& Y, const Eigen::MatrixXd& M)
{
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M);
    if (es.info() != Eigen::Success || !(es.eigenvalues().minCoeff() > 0.0))
        throw std::invalid_argument("generalizedPolar: YᵀBY is not positive definite");
    const Eigen::VectorXd isq = es.eigenvalues().array().rsqrt();
    return Y * (es.eigenvectors() * isq.asDiagonal() * es.eigenvectors().transpose());
}
} // namespace

Eigen::MatrixXd generalizedPolar(const Eigen::MatrixXd& Y, const Eigen::MatrixXd& B)
{
    if (B.rows() != Y.rows() || B.cols() != Y.rows())
        throw std::invalid_argument("generalizedPolar: B must be square with as many rows as Y");
    return timesInverseSqrt(Y, sym(Y.transpose() * (B * Y))); // YᵀBY, p×p
}

Point ProductManifold::retract(const Point& x, const Tangent& v, double t) const
{
    Point y(x.size());
    for (std::size_t i = 0; i < m_factors.size(); ++i) {
        Eigen::MatrixXd moved = x[i] + t * v[i];
        switch (m_factors[i].kind) {
        case FactorKind::Stiefel:
            y[i] = m_factors[i].retraction == StiefelRetraction::Polar
                       ? timesInverseSqrt(moved, sym(moved.transpose() * moved))
                       : qf(moved);
            break;
        case FactorKind::Oblique: moved.colwise().normalize(); y[i] = std::move(moved); break;
        case FactorKind::GeneralizedStiefel: y[i] = generalizedPolar(moved, *m_factors[i].B); break;
        case FactorKind::Euclidean: y[i] = std::move(moved); break;
        }
    }
    return y;
}

Tangent ProductManifold::transport(const Point& y, const Tangent& v) const { return projectTangent(y, v); }

double ProductManifold::feasibilityError(const Point& x) const
{
    double e = 0.0;
    for (std::size_t i = 0; i < m_factors.size(); ++i) {
        const Factor& f = m_factors[i];
        const Eigen::Index p = f.cols;
        switch (f.kind) {
        case FactorKind::Stiefel:
            e = std::max(e, (x[i].transpose() * x[i] - Eigen::MatrixXd::Identity(p, p)).cwiseAbs().maxCoeff());
            break;
        case FactorKind::Oblique:
            e = std::max(e, (x[i].colwise().squaredNorm().array() - 1.0).abs().maxCoeff());
            break;
        case FactorKind::GeneralizedStiefel:
            e = std::max(e,
                         (x[i].transpose() * (*f.B * x[i]) - Eigen::MatrixXd::Identity(p, p)).cwiseAbs().maxCoeff());
            break;
        case FactorKind::Euclidean: break;
        }
    }
    return e;
}

namespace {

Tangent axpy(double a, const Tangent& x, const Tangent& y) // a·x + y
{
    Tangent out(y.size());
    for (std::size_t i = 0; i < y.size(); ++i)
        out[i] = a * x[i] + y[i];
    return out;
}

Tangent scaled(double a, const Tangent& x)
{
    Tangent out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        out[i] = a * x[i];
    return out;
}

struct Eval {
    Point x;
    double cost = 0.0;
    Tangent rgrad;
};

Eval evaluate(const ProductManifold& M, const CostFunction& f, Point x)
{
    Eval e;
    Tangent g(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        g[i] = Eigen::MatrixXd::Zero(x[i].rows(), x[i].cols());
    e.cost = f(x, &g);
    e.rgrad = M.egradToRgrad(x, g);
    e.x = std::move(x);
    return e;
}

} // namespace

CgResult conjugateGradient(const ProductManifold& M, const CostFunction& f, Point x0, const CgOptions& o,
                           const CgCallback& callback)
{
    M.checkShape(x0, "conjugateGradient");
    CgResult r;
    Eval cur = evaluate(M, f, std::move(x0));
    double gnorm = M.norm(cur.x, cur.rgrad);
    r.costHistory.push_back(cur.cost);
    r.gradNormHistory.push_back(gnorm);
    Tangent d = scaled(-1.0, cur.rgrad);
    double prevStep = 0.0; // for the initial step guess
    double prevCostDrop = 0.0;
    int k = 0;
    auto finish = [&](const std::string& why) {
        r.cost = cur.cost;
        r.gradNorm = gnorm;
        r.iterations = k;
        r.stopReason = why;
        r.x = std::move(cur.x);
        return r;
    };
    if (callback && callback({0, cur.cost, gnorm, 0.0, &cur.x}))
        return finish("callback");
    if (!std::isfinite(cur.cost))
        throw std::runtime_error("conjugateGradient: cost is not finite at the starting point");
    while (true) {
        if (gnorm <= o.gradientTolerance)
            return finish("gradient norm");
        if (k >= o.maxIterations)
            return finish("max iterations");
        double deriv = M.inner(cur.x, cur.rgrad, d); // directional derivative along d
        if (!(deriv < 0.0)) {                          // not a descent direction: restart
            d = scaled(-1.0, cur.rgrad);
            deriv = -gnorm * gnorm;
        }
        const double dnorm = M.norm(cur.x, d);
        // Initial step: Nocedal & Wright (3.60) from the previous decrease, 1/‖d‖ on the first step.
        double t = 1.0 / std::max(dnorm, 1e-300);
        if (prevStep > 0.0 && prevCostDrop > 0.0)
            t = 2.02 * prevCostDrop / -deriv;
        if (!(t > 0.0) || !std::isfinite(t))
            t = 1.0 / std::max(dnorm, 1e-300);

        Eval next;
        bool accepted = false;
        if (o.lineSearch == LineSearch::Armijo) {
            for (int s = 0; s < o.maxLineSearchSteps; ++s) {
                next = evaluate(M, f, M.retract(cur.x, d, t));
                if (std::isfinite(next.cost) && next.cost <= cur.cost + o.c1 * t * deriv) {
                    accepted = true;
                    break;
                }
                t *= o.backtrack;
            }
        } else {
            // Weak Wolfe by bracketing (Lewis & Overton): φ'(t) ≈ ⟨grad f(y), T_{x→y} d⟩.
            double lo = 0.0, hi = std::numeric_limits<double>::infinity();
            for (int s = 0; s < o.maxLineSearchSteps; ++s) {
                next = evaluate(M, f, M.retract(cur.x, d, t));
                if (!std::isfinite(next.cost) || next.cost > cur.cost + o.c1 * t * deriv) {
                    hi = t;
                } else {
                    const double dt = M.inner(next.x, next.rgrad, M.transport(next.x, d));
                    if (dt >= o.c2 * deriv) {
                        accepted = true;
                        break;
                    }
                    lo = t;
                }
                t = std::isfinite(hi) ? 0.5 * (lo + hi) : 2.0 * lo;
            }
            // Fall back to any point with sufficient decrease found on the way.
            if (!accepted && lo > 0.0) {
                next = evaluate(M, f, M.retract(cur.x, d, lo));
                t = lo;
                accepted = true;
            }
        }
        if (!accepted) {
            if (M.inner(cur.x, d, d) > 0 && std::abs(deriv + gnorm * gnorm) > 1e-12 * gnorm * gnorm) {
                d = scaled(-1.0, cur.rgrad); // retry once along steepest descent
                prevStep = 0.0;
                continue;
            }
            return finish("line search");
        }
        ++k;
        const double stepLength = t * dnorm;
        // Polak–Ribière+ with transported previous gradient and direction.
        const Tangent gOld = M.transport(next.x, cur.rgrad);
        const Tangent dOld = M.transport(next.x, d);
        const double gOldSq = gnorm * gnorm;
        prevCostDrop = cur.cost - next.cost;
        prevStep = t;
        cur = std::move(next);
        gnorm = M.norm(cur.x, cur.rgrad);
        const double beta
            = std::max(0.0, M.inner(cur.x, cur.rgrad, axpy(-1.0, gOld, cur.rgrad)) / std::max(gOldSq, 1e-300));
        d = axpy(beta, dOld, scaled(-1.0, cur.rgrad));
        r.costHistory.push_back(cur.cost);
        r.gradNormHistory.push_back(gnorm);
        if (callback && callback({k, cur.cost, gnorm, t, &cur.x}))
            return finish("callback");
        if (stepLength < o.minStep)
            return finish("step size");
        if (o.progressTolerance > 0.0 && k >= o.progressWindow) {
            const double recent = r.costHistory[static_cast<std::size_t>(k - o.progressWindow)] - cur.cost;
            const double total = r.costHistory.front() - cur.cost;
            if (total > 0.0 && recent <= o.progressTolerance * total)
                return finish("objective change");
        }
    }
}

} // namespace olens::riemannian
