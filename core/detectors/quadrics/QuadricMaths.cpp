// One quadric f(x) = xᵀAx + bᵀx + c: evaluation, the distance approximations of sec. 4.1–4.2, the
// HS inner product (eq. 12) and composition with a rigid motion (App. A.6).
#include "detectors/quadrics/QuadricsDetector.h"

#include "base/Errors.h"

#include <cmath>
#include <limits>

namespace olens {

// ---- distances of one quadric (sec. 4.1–4.2) ------------------------------------------------------

QuadricDistance parseQuadricDistance(const std::string& name)
{
    if (name == "d2")
        return QuadricDistance::D2;
    if (name == "d1")
        return QuadricDistance::D1;
    if (name == "algebraic")
        return QuadricDistance::Algebraic;
    throw ParamError("unknown quadric distance '" + name + "' (available: d2, d1, algebraic)");
}

double evaluateQuadric(const Quadric& f, const Eigen::VectorXd& p)
{
    return p.dot(f.A * p) + f.b.dot(p) + f.c;
}

double quadricDistance(const Quadric& f, const Eigen::VectorXd& p, QuadricDistance kind)
{
    const double af = std::abs(evaluateQuadric(f, p));
    if (kind == QuadricDistance::Algebraic)
        return af; // sec. 4.1: d_alg = |f(p)|
    const double gn = (2.0 * f.A * p + f.b).norm(); // ‖∇f(p)‖, ∇f = 2Ap + b
    if (kind == QuadricDistance::D1)
        return af / gn; // sec. 4.2: d1 = |f|/‖∇f‖ (may be infinite)
    // eq. 8: (√(h² + |f|N) − h)/N with h = ‖∇f‖/2, N = ‖f‖_HS = ‖A‖_F; multiplied out to avoid the
    // cancellation: |f| / (√(h² + |f|N) + h).
    const double h = gn / 2.0;
    const double N = f.A.norm();
    const double s = std::sqrt(h * h + af * N);
    return s + h > 0.0 ? af / (s + h) : (af == 0.0 ? 0.0 : std::numeric_limits<double>::infinity());
}

double hsInner(const Quadric& f, const Quadric& g)
{
    return (f.A.array() * g.A.array()).sum(); // eq. 12
}

Quadric composeWithIsometry(const Quadric& f, const Eigen::MatrixXd& Q, const Eigen::VectorXd& v)
{
    // f(Qx + v) = xᵀQᵀAQx + (Qᵀ(2Av + b))ᵀx + vᵀAv + bᵀv + c (App. A.6: matrix QᵀAQ).
    Quadric g;
    g.A = Q.transpose() * f.A * Q;
    g.b = Q.transpose() * (2.0 * f.A * v + f.b);
    g.c = v.dot(f.A * v) + f.b.dot(v) + f.c;
    return g;
}

} // namespace olens
