#include "Riemannian.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace olens::riemannian {

int ProductManifold::addStiefel(Eigen::Index n, Eigen::Index p, StiefelMetric metric)
{
    if (p < 1 || n < p)
        throw std::invalid_argument("Stiefel manifold St(" + std::to_string(n) + ", " + std::to_string(p)
                                    + ") needs 1 <= p <= n");
    m_factors.push_back({FactorKind::Stiefel, n, p, metric});
    return static_cast<int>(m_factors.size()) - 1;
}

int ProductManifold::addEuclidean(Eigen::Index rows, Eigen::Index cols)
{
    if (rows < 1 || cols < 1)
        throw std::invalid_argument("Euclidean factor needs positive sizes");
    m_factors.push_back({FactorKind::Euclidean, rows, cols, StiefelMetric::Euclidean});
    return static_cast<int>(m_factors.size()) - 1;
}

Eigen::Index ProductManifold::dimension() const
{
    Eigen::Index d = 0;
    for (const auto& f : m_factors)
        d += f.kind == FactorKind::Stiefel ? f.rows * f.cols - f.cols * (f.cols + 1) / 2 : f.rows * f.cols;
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

Tangent ProductManifold::projectTangent(const Point& x, const Tangent& z) const
{
    Tangent out(z.size());
    for (std::size_t i = 0; i < m_factors.size(); ++i)
        out[i] = m_factors[i].kind == FactorKind::Stiefel ? Eigen::MatrixXd(z[i] - x[i] * sym(x[i].transpose() * z[i]))
                                                          : z[i];
    return out;
}

Tangent ProductManifold::egradToRgrad(const Point& x, const Tangent& g) const
{
    Tangent out(g.size());
    for (std::size_t i = 0; i < m_factors.size(); ++i) {
        const Factor& f = m_factors[i];
        if (f.kind == FactorKind::Euclidean)
            out[i] = g[i];
        else if (f.metric == StiefelMetric::Canonical)
            out[i] = g[i] - x[i] * g[i].transpose() * x[i]; // GODS eq. 26
        else
            out[i] = g[i] - x[i] * sym(x[i].transpose() * g[i]);
    }
    return out;
}

double ProductManifold::inner(const Point& x, const Tangent& a, const Tangent& b) const
{
    double s = 0.0;
    for (std::size_t i = 0; i < m_factors.size(); ++i) {
        const Factor& f = m_factors[i];
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

Point ProductManifold::retract(const Point& x, const Tangent& v, double t) const
{
    Point y(x.size());
    for (std::size_t i = 0; i < m_factors.size(); ++i) {
        const Eigen::MatrixXd moved = x[i] + t * v[i];
        y[i] = m_factors[i].kind == FactorKind::Stiefel ? qf(moved) : moved;
    }
    return y;
}

Tangent ProductManifold::transport(const Point& y, const Tangent& v) const { return projectTangent(y, v); }

double ProductManifold::feasibilityError(const Point& x) const
{
    double e = 0.0;
    for (std::size_t i = 0; i < m_factors.size(); ++i)
        if (m_factors[i].kind == FactorKind::Stiefel) {
            const Eigen::Index p = m_factors[i].cols;
            e = std::max(e, (x[i].transpose() * x[i] - Eigen::MatrixXd::Identity(p, p)).cwiseAbs().maxCoeff());
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
    }
}

} // namespace olens::riemannian
