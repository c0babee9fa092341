#include "detectors/quadrics/QuadricsDetector.h"

#include "base/Errors.h"
#include "base/Messages.h"
#include "optim/Optimizers.h"
#include "detectors/DetectorInfo.h"
#include "base/ParallelFor.h"
#include "base/Rng.h"

#include <algorithm>
#include <type_traits>
#include <chrono>
#include <cstdint>
#include <cmath>
#include <limits>
#include <sstream>

namespace olens {

namespace {

constexpr double kSqrt2 = 1.41421356237309504880168872420969808;
constexpr Eigen::Index kChunk = 1024; // rows per block when scoring / accumulating moments

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}


ParamSpec quadricsCountParam()
{
    return makeParamSpec("m", ParamType::Int, "0", 0, 100000,
                "Number of quadrics in the intersection; 0 = auto: p - 1 (at least 1, at most 50). "
                "App. B.4: read the decay of the moment/PCA spectrum to choose it.",
                "Quadrics paper sec. 4.4 (m quadrics), App. B.4 (choosing m)");
}

std::vector<double> flat(const Eigen::MatrixXd& M)
{
    return std::vector<double>(M.data(), M.data() + M.size());
}

/// Memory the quadrics detectors may allocate for their dense D×D / D×m matrices.
constexpr std::uint64_t kMemoryBudget = std::uint64_t(1) << 30;

/// T = p(p+1)/2 and D = T + p + 1 in 64-bit arithmetic (an int overflows from p = 46341 on).
std::int64_t hsSize64(std::int64_t p) { return p * (p + 1) / 2; }
std::int64_t blockSize64(std::int64_t p) { return hsSize64(p) + p + 1; }

/// Deterministic sign: the entry of largest magnitude is positive.
void fixSign(Eigen::Ref<Eigen::VectorXd> v)
{
    Eigen::Index arg = 0;
    v.cwiseAbs().maxCoeff(&arg);
    if (v(arg) < 0)
        v = -v;
}

/// (1/n) Σ φ(p_j)φ(p_j)ᵀ accumulated in chunks (the D×D moment matrix of App. A.1); with unitRows
/// each φ(p_j) is scaled to unit length first (Q-BASE's `weights=unit`).
Eigen::MatrixXd momentMatrix(const Eigen::MatrixXd& X, const std::function<void(double)>& tick, bool unitRows = false)
{
    const Eigen::Index n = X.rows();
    const Eigen::Index D = QuadricsObjective::blockSize(static_cast<int>(X.cols()));
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(D, D);
    for (Eigen::Index r = 0; r < n; r += kChunk) {
        const Eigen::Index len = std::min(kChunk, n - r);
        Eigen::MatrixXd Phi = QuadricsBaseDetector::featureMap(X.middleRows(r, len));
        if (unitRows) // ‖φ‖ ≥ 1: the constant monomial
            Phi.array().colwise() /= Phi.rowwise().norm().array();
        M.selfadjointView<Eigen::Lower>().rankUpdate(Phi.transpose());
        if (tick)
            tick(static_cast<double>(r + len) / static_cast<double>(n));
    }
    M.triangularView<Eigen::StrictlyUpper>() = M.transpose();
    return M / static_cast<double>(std::max<Eigen::Index>(n, 1));
}

/// Quadric with coefficient vector v = v(f) of eq. 6 (ordered as φ of eq. 20): A_ii = α_ii,
/// A_ij = A_ji = α_ij/2 (sec. 4.3), b = α', c = α''.
Quadric quadricFromCoefficients(const Eigen::Ref<const Eigen::VectorXd>& v, int d)
{
    Quadric q;
    q.A.resize(d, d);
    Eigen::Index idx = 0;
    for (int i = 0; i < d; ++i)
        for (int j = i; j < d; ++j, ++idx) {
            if (i == j)
                q.A(i, i) = v(idx);
            else
                q.A(i, j) = q.A(j, i) = v(idx) / 2.0;
        }
    q.b = v.segment(idx, d);
    q.c = v(idx + d);
    return q;
}

} // namespace

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

namespace {

template <typename S>
using MatrixOf = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

/// The isometry ṽ ↔ A of sec. 4.3 written into existing storage (no allocation per training step),
/// in the precision of the products (S).
template <typename S>
void hsToMatrixInto(const Eigen::Ref<const Eigen::VectorXd>& v, int d, Eigen::Ref<MatrixOf<S>> A)
{
    Eigen::Index idx = 0;
    for (int i = 0; i < d; ++i)
        for (int j = i; j < d; ++j, ++idx) {
            if (i == j)
                A(i, i) = static_cast<S>(v(idx));
            else
                A(i, j) = A(j, i) = static_cast<S>(v(idx) / kSqrt2); // ṽ holds α_ij/√2 = √2·A_ij (sec. 4.3)
        }
}

template <typename S>
void matrixToHsInto(const Eigen::Ref<const MatrixOf<S>>& M, Eigen::Ref<Eigen::VectorXd> v)
{
    const auto d = static_cast<int>(M.rows());
    Eigen::Index idx = 0;
    for (int i = 0; i < d; ++i)
        for (int j = i; j < d; ++j, ++idx)
            v(idx) = i == j ? double(M(i, i)) : (double(M(i, j)) + double(M(j, i))) / kSqrt2;
}

} // namespace

// ---- the Q-FULL objective ----------------------------------------------------------------------

QuadricsObjective::QuadricsObjective(int dim, int quadrics, QuadricDistance distance, double lambda)
    : m_d(dim), m_m(quadrics), m_distance(distance), m_lambda(lambda), m_ws(std::make_shared<Workspace<double>>()),
      m_wsSingle(std::make_shared<Workspace<float>>())
{
    if (dim < 1 || quadrics < 1)
        throw ParamError("quadrics objective: need dimension >= 1 and at least one quadric");
}

Eigen::MatrixXd QuadricsObjective::hsToMatrix(const Eigen::Ref<const Eigen::VectorXd>& v, int dim)
{
    Eigen::MatrixXd A(dim, dim);
    hsToMatrixInto<double>(v, dim, A);
    return A;
}

Eigen::VectorXd QuadricsObjective::matrixToHs(const Eigen::MatrixXd& M)
{
    Eigen::VectorXd v(hsSize(static_cast<int>(M.rows())));
    matrixToHsInto<double>(M, v);
    return v;
}

std::vector<Quadric> QuadricsObjective::toQuadrics(const Eigen::VectorXd& theta) const
{
    const int T = hsSize(m_d), D = blockSize(m_d);
    Eigen::Map<const Eigen::MatrixXd> Th(theta.data(), D, m_m);
    std::vector<Quadric> out(static_cast<std::size_t>(m_m));
    for (int k = 0; k < m_m; ++k) {
        out[static_cast<std::size_t>(k)].A = hsToMatrix(Th.col(k).head(T), m_d);
        out[static_cast<std::size_t>(k)].b = Th.col(k).segment(T, m_d);
        out[static_cast<std::size_t>(k)].c = Th(T + m_d, k);
    }
    return out;
}

Eigen::VectorXd QuadricsObjective::fromQuadrics(const std::vector<Quadric>& quadrics) const
{
    if (static_cast<int>(quadrics.size()) != m_m)
        throw DataError("quadrics objective: expected " + std::to_string(m_m) + " quadrics");
    const int T = hsSize(m_d), D = blockSize(m_d);
    Eigen::VectorXd theta(parameterCount());
    Eigen::Map<Eigen::MatrixXd> Th(theta.data(), D, m_m);
    for (int k = 0; k < m_m; ++k) {
        const Quadric& q = quadrics[static_cast<std::size_t>(k)];
        if (q.A.rows() != m_d || q.A.cols() != m_d || q.b.size() != m_d)
            throw DataError("quadrics objective: quadric " + std::to_string(k) + " has the wrong dimension");
        Th.col(k).head(T) = matrixToHs(q.A);
        Th.col(k).segment(T, m_d) = q.b;
        Th(T + m_d, k) = q.c;
    }
    return theta;
}

namespace {

/// The quadrics are processed in groups of this many, each group with its own products (B × d
/// times d × 5d). The grouping is fixed, so the threads only decide which thread runs a group and
/// the sums are the same for any number of threads (a BLAS product of another width may round
/// differently, and minibatch training amplifies a last-digit difference into another model).
constexpr Eigen::Index kQuadricsPerGroup = 5;
/// Floating-point operations per thread below which a second thread costs more than it saves.
constexpr double kMinFlopsPerThread = 2e6;

} // namespace

double QuadricsObjective::dataTerm(const Eigen::VectorXd& theta, const Eigen::MatrixXd& P, Eigen::VectorXd* grad,
                                   Eigen::MatrixXd* dist) const
{
    return dataTermIn<double>(theta, P, grad, dist, *m_ws);
}

double QuadricsObjective::dataTerm(const Eigen::VectorXd& theta, const Eigen::MatrixXf& P, Eigen::VectorXd* grad) const
{
    return dataTermIn<float>(theta, P, grad, nullptr, *m_wsSingle);
}

template <typename S>
double QuadricsObjective::dataTermIn(const Eigen::VectorXd& theta, const MatrixOf<S>& P, Eigen::VectorXd* grad,
                                     Eigen::MatrixXd* dist, Workspace<S>& ws) const
{
    using ArrayS = Eigen::Array<S, Eigen::Dynamic, 1>;
    using VectorS = Eigen::Matrix<S, Eigen::Dynamic, 1>;
    const int d = m_d, m = m_m, T = hsSize(d), Db = blockSize(d);
    const Eigen::Index B = P.rows();
    if (theta.size() != parameterCount() || P.cols() != d)
        throw DataError("quadrics objective: parameter or data size mismatch");
    Eigen::Map<const Eigen::MatrixXd> Th(theta.data(), Db, m);
    if (grad) {
        grad->resize(parameterCount());
        if (B == 0)
            grad->setZero();
    }
    if (dist)
        dist->resize(B, m);
    if (B == 0)
        return 0.0;

    // Buffers are kept between calls (minibatches of one size): no allocation per step. Every
    // quadric's forward and backward pass is independent of the others, so the quadrics are split
    // into contiguous groups, one per thread, each writing only its own columns: the result does
    // not depend on the number of threads.
    const Eigen::Index dm = static_cast<Eigen::Index>(d) * m;
    ws.Astack.resize(d, dm);
    ws.W.resize(B, dm);
    ws.F.resize(B, m);
    ws.phiF.resize(B, m);
    ws.phiG.resize(B, m);
    ws.N.resize(m);
    ws.phiN.resize(m);
    ws.totals.resize(m);
    const bool useGradient = m_distance != QuadricDistance::Algebraic;
    if (useGradient)
        ws.GN.resize(B, m);
    if (grad)
        ws.GA.resize(d, dm);

    auto group = [&](Eigen::Index k0, Eigen::Index k1) {
        const Eigen::Index nk = k1 - k0, c0 = k0 * d, cols = nk * d;
        // Forward: W = [P·A_k0, …] in one product; f_k(p) = pᵀA_k p + b_kᵀp + c_k.
        for (Eigen::Index k = k0; k < k1; ++k) {
            hsToMatrixInto<S>(Th.col(k).head(T), d, ws.Astack.middleCols(k * d, d));
            ws.N(k) = static_cast<S>(Th.col(k).head(T).norm()); // ‖f_k‖_HS = ‖ṽ(f_k)‖ (eq. 12 and sec. 4.3)
        }
        auto Wg = ws.W.middleCols(c0, cols);
        Wg.noalias() = P * ws.Astack.middleCols(c0, cols);
        auto Fg = ws.F.middleCols(k0, nk);
        Fg.noalias() = P * Th.block(T, k0, d, nk).template cast<S>();
        Fg.rowwise() += Th.row(T + d).segment(k0, nk).template cast<S>();
        for (Eigen::Index k = k0; k < k1; ++k) {
            auto Fk = ws.F.col(k);
            auto Wk = ws.W.middleCols(k * d, d);
            for (int c = 0; c < d; ++c) // column by column: contiguous, vectorised
                Fk += P.col(c).cwiseProduct(Wk.col(c));
            if (!useGradient)
                continue;
            // Gradients of the quadric at the points: G_k = 2 P A_k + b_k (kept in W), norms GN.
            auto GNk = ws.GN.col(k);
            GNk.setZero();
            for (int c = 0; c < d; ++c) {
                auto g = Wk.col(c);
                g = S(2) * g.array() + static_cast<S>(Th(T + c, k));
                GNk += g.cwiseAbs2();
            }
            GNk = GNk.cwiseSqrt();
        }

        // Distances and their partial derivatives with respect to the signed value f (phiF), the
        // gradient norm g = ‖∇f‖ (phiG) and the HS norm N (phiN); whole columns at a time (vectorised).
        ArrayS value(B);
        for (Eigen::Index k = k0; k < k1; ++k) {
            const auto f = ws.F.col(k).array();
            const ArrayS af = f.abs();
            const ArrayS sg = f.sign();
            auto dF = ws.phiF.col(k).array();
            auto dG = ws.phiG.col(k).array();
            S sumN = 0;
            switch (m_distance) {
            case QuadricDistance::Algebraic: // sec. 4.1: |f|
                value = af;
                dF = sg;
                dG.setZero();
                break;
            case QuadricDistance::D1: { // sec. 4.2: |f|/g (g floored: d1 is infinite where ∇f = 0)
                const ArrayS g = ws.GN.col(k).array().max(S(1e-12));
                value = af / g;
                dF = sg / g;
                dG = -af / g.square();
                break;
            }
            case QuadricDistance::D2: { // eq. 8 as |f| / (s + h), s = √(h² + |f|N), h = g/2
                const S Nk = ws.N(k);
                const ArrayS h = ws.GN.col(k).array() / S(2);
                const ArrayS sq = (h.square() + af * Nk).sqrt();
                const ArrayS den = sq + h;
                const auto ok = sq > S(0); // s = 0 only where f = 0 and ∇f = 0: distance 0
                value = ok.select(af / den, S(0));
                // ∂/∂|f| = 1/den − |f|N/(2 s den²); ∂/∂h = −|f|/(den s); ∂/∂N = −|f|²/(2 s den²)
                const ArrayS twoSDen2 = S(2) * sq * den.square();
                dF = ok.select(sg * (S(1) / den - af * Nk / twoSDen2), S(0));
                dG = ok.select(S(0.5) * (-af / (den * sq)), S(0));
                sumN = ok.select(-af.square() / twoSDen2, S(0)).sum();
                break;
            }
            }
            if (dist)
                dist->col(k) = value.matrix().template cast<double>();
            ws.totals(k) = value.sum();
            ws.phiN(k) = sumN;
        }
        if (!grad)
            return;

        // Backward. With u = ∇f/g: ∂f = ψ(p)ᵀ∂ṽ + pᵀ∂b + ∂c, ∂g = uᵀ(2 ∂A p + ∂b), ∂N = ṽᵀ∂ṽ/N, so
        // the gradient with respect to the matrix A_k is Σ_j [phiF·p pᵀ + 2 phiG/g · G pᵀ] = Pᵀ R_k
        // with R_k = diag(phiF) P + diag(2 phiG/g) G_k, mapped to HS coordinates by matrixToHs.
        Eigen::Map<Eigen::MatrixXd> Gr(grad->data(), Db, m);
        VectorS wG(B); // phiG/g
        for (Eigen::Index k = k0; k < k1; ++k) {
            auto Wk = ws.W.middleCols(k * d, d);
            const auto phiFk = ws.phiF.col(k);
            // b: Σ_j phiF p + phiG u ; c: Σ_j phiF.
            if constexpr (std::is_same_v<S, double>) // straight into the gradient (no temporary)
                Gr.col(k).segment(T, d).noalias() = P.transpose() * phiFk;
            else
                Gr.col(k).segment(T, d) = (P.transpose() * phiFk).template cast<double>();
            Gr(T + d, k) = double(phiFk.sum());
            if (useGradient) {
                for (Eigen::Index j = 0; j < B; ++j)
                    wG(j) = ws.GN(j, k) > S(0) ? ws.phiG(j, k) / ws.GN(j, k) : S(0);
                if constexpr (std::is_same_v<S, double>)
                    Gr.col(k).segment(T, d).noalias() += Wk.transpose() * wG;
                else
                    Gr.col(k).segment(T, d) += (Wk.transpose() * wG).template cast<double>();
                wG *= S(2);
                for (int c = 0; c < d; ++c)
                    Wk.col(c) = phiFk.cwiseProduct(P.col(c)) + wG.cwiseProduct(Wk.col(c));
            } else {
                for (int c = 0; c < d; ++c)
                    Wk.col(c) = phiFk.cwiseProduct(P.col(c));
            }
        }
        auto GAg = ws.GA.middleCols(c0, cols);
        GAg.noalias() = P.transpose() * Wg;
        for (Eigen::Index k = k0; k < k1; ++k) {
            matrixToHsInto<S>(ws.GA.middleCols(k * d, d), Gr.col(k).head(T));
            if (ws.N(k) > S(0) && ws.phiN(k) != S(0))
                Gr.col(k).head(T) += (double(ws.phiN(k)) / double(ws.N(k))) * Th.col(k).head(T);
        }
    };
    const Eigen::Index groups = (m + kQuadricsPerGroup - 1) / kQuadricsPerGroup;
    const double flopsPerGroup = (grad ? 4.0 : 2.0) * static_cast<double>(B) * d * d * kQuadricsPerGroup;
    parallelFor(groups, static_cast<std::int64_t>(std::ceil(kMinFlopsPerThread / flopsPerGroup)),
                [&](std::int64_t g0, std::int64_t g1) {
                    for (Eigen::Index g = g0; g < g1; ++g)
                        group(g * kQuadricsPerGroup, std::min<Eigen::Index>((g + 1) * kQuadricsPerGroup, m));
                });

    const double invB = 1.0 / static_cast<double>(B);
    if (grad)
        *grad *= invB;
    return ws.totals.template cast<double>().sum() * invB;
}

double QuadricsObjective::orthonormalityError(const Eigen::VectorXd& theta, Eigen::VectorXd* grad,
                                              double gradWeight) const
{
    const int T = hsSize(m_d), Db = blockSize(m_d);
    Eigen::Map<const Eigen::MatrixXd> Th(theta.data(), Db, m_m);
    const auto V = Th.topRows(T); // Ṽ(F): T×m, columns ṽ(f_k)
    Eigen::MatrixXd E = Eigen::MatrixXd::Zero(m_m, m_m);
    E.selfadjointView<Eigen::Lower>().rankUpdate(V.transpose()); // ṼᵀṼ (symmetric: half the work)
    E.triangularView<Eigen::StrictlyUpper>() = E.transpose();
    E.diagonal().array() -= 1.0;
    if (grad) {
        if (gradWeight == 0.0)
            grad->setZero(parameterCount());
        Eigen::Map<Eigen::MatrixXd> Gr(grad->data(), Db, m_m);
        if (gradWeight == 0.0) // ∂‖VᵀV − I‖²_F/∂V = 4V(VᵀV − I)
            Gr.topRows(T).noalias() = 4.0 * V * E;
        else // added to a gradient already in grad (the data term's): no second D×m buffer
            Gr.topRows(T).noalias() += (4.0 * gradWeight) * V * E;
    }
    return E.squaredNorm();
}

template <typename Matrix>
double QuadricsObjective::lossWith(const Eigen::VectorXd& theta, const Matrix& P, Eigen::VectorXd* grad) const
{
    if (!grad)
        return dataTerm(theta, P) + m_lambda * orthonormalityError(theta);
    const double data = dataTerm(theta, P, grad);
    const double pen = m_lambda != 0.0 ? orthonormalityError(theta, grad, m_lambda) : orthonormalityError(theta);
    return data + m_lambda * pen; // eq. 15 (data term per point, see the class comment)
}

double QuadricsObjective::loss(const Eigen::VectorXd& theta, const Eigen::MatrixXd& P, Eigen::VectorXd* grad) const
{
    return lossWith(theta, P, grad);
}

double QuadricsObjective::loss(const Eigen::VectorXd& theta, const Eigen::MatrixXf& P, Eigen::VectorXd* grad) const
{
    return lossWith(theta, P, grad);
}

Eigen::MatrixXd QuadricsObjective::distances(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const
{
    Eigen::MatrixXd out(X.rows(), m_m);
    Eigen::MatrixXd block;
    for (Eigen::Index r = 0; r < X.rows(); r += kChunk) {
        const Eigen::Index len = std::min(kChunk, X.rows() - r);
        dataTerm(theta, X.middleRows(r, len), nullptr, &block);
        out.middleRows(r, len) = block;
    }
    return out;
}

// ---- Q-FULL ---------------------------------------------------------------------------------------

namespace {
/// App. B.4: m from the eigenvalue decay of the data's PCA (shown beside the quadrics forms).
std::string quadricsGuidance(const Eigen::MatrixXd& X)
{
    if (X.rows() < 2 || X.cols() > 300) // a p×p eigen-decomposition on the caller's (GUI) thread
        return {};
    const Eigen::VectorXd decay = QuadricsDetector::pcaLogDecay(X);
    std::ostringstream s;
    s.precision(2);
    s << std::fixed << "Choosing m (quadrics paper App. B.4): \u2212log(\u03bb\u1d62/\u03bb\u2081) of the PCA eigenvalues: ";
    const Eigen::Index shown = std::min<Eigen::Index>(decay.size(), 8);
    for (Eigen::Index i = 0; i < shown; ++i)
        s << decay(i) << (i + 1 < shown ? ", " : "");
    s << ". A jump after i = k suggests a k-dimensional manifold: m \u2248 p \u2212 k quadrics (auto: m = p \u2212 1).";
    return s.str();
}
} // namespace

DetectorInfo QuadricsDetector::info()
{
    DetectorInfo d;
    d.compareSlot = 3;
    d.guidance = quadricsGuidance;
    d.id = "quadrics";
    d.title = "Quadric intersection (Q-FULL)";
    d.summary = "Fits an intersection of m quadrics by minibatch optimisation of the l1 sum of 2-distances "
                "with soft Hilbert-Schmidt orthonormality; score = mean distance to the quadrics.";
    d.reference = "Quadrics paper eq. 8, 14-16 (Q-FULL), sec. 4.3 (HS inner product)";
    const std::string paper = "Quadrics paper ";
    // Wider batches make the per-step products (B × p times p × p·m) efficient at large n and
    // converge in as many epochs (Spambase: 104 epochs at 64, 91 at 256, 1.45× faster);
    // up to 1 024 rows the batch stays 64 (Ionosphere at 256: AUROC 0.87 → 0.82).
    ParamSpec batch = makeParamSpec("batch", ParamType::Int, "auto", 1, 1e8, "Minibatch size.",
        "OutlierLens default (the paper gives none; authors' code: 256; 64 was the fixed default)");
    batch.autoRule = "clamp(n/16, 64, 256) for n rows (256 as in the authors' code from 4 096 rows)";
    batch.paperValue = "64";
    d.params = {
        quadricsCountParam(),
        makeParamSpec("distance", ParamType::Choice, "d2", 0, 0,
             "Distance to each quadric in the loss and the score: d2 (2-distance, eq. 8), d1 (|f|/|grad f|), "
             "algebraic (|f|).",
             paper + "eq. 8 (d2), sec. 4.1 (algebraic), sec. 4.2 (d1)", {"d2", "d1", "algebraic"}),
        makeParamSpec("lambda", ParamType::Real, "1", 0.0, 1e6,
             "Weight of the soft HS-orthonormality penalty ||V^T V - I||^2 (per point of the data term).",
             paper + "eq. 15, App. B.5 (lambda = 1)"),
        makeParamSpec("optimizer", ParamType::Choice, "adam", 0, 0,
             "Minibatch optimiser: adam (Kingma & Ba, beta = 0.9/0.999) or plain sgd.",
             paper + "sec. 4.4 (stochastic gradient descent)", {"adam", "sgd"}),
        makeParamSpec("lr", ParamType::Real, "0.01", 1e-12, 100.0,
             "Learning rate (step size) of the optimiser; coordinates are normalised to unit RMS radius first.",
             "OutlierLens default (the paper gives none; authors' code: SGD 0.1)"),
        makeParamSpec("epochs", ParamType::Int, "500", 1, 1e7,
             "Largest number of passes over the training data (training stops earlier when tol says it converged).",
             "OutlierLens default (the paper gives none)"),
        makeParamSpec("tol", ParamType::Real, "1e-3", 0.0, 1.0,
             "Convergence stop: end training after 'patience' epochs in a row whose mean loss improves on the "
             "best by less than this fraction. 0 = always run all epochs.",
             "OutlierLens default (scikit-learn's SGD estimators: tol 1e-3; the paper gives none)"),
        makeParamSpec("patience", ParamType::Int, "5", 1, 1e6,
             "Epochs in a row without an improvement by 'tol' before training stops.",
             "OutlierLens default (scikit-learn's SGD estimators: n_iter_no_change 5; the paper gives none)"),
        batch,
        makeParamSpec("precision", ParamType::Choice, "single", 0, 0,
             "Arithmetic of the minibatch products: single (32-bit floats: twice the SIMD width, about "
             "1.6x faster training; parameters, optimiser and scores stay 64-bit) or double.",
             "OutlierLens default (mixed precision, as 32-bit deep-learning frameworks train; the paper gives none)",
             {"single", "double"}),
        makeParamSpec("seed", ParamType::Int, "0", 0, 2147483647.0,
             "Seed of the random orthonormal initialisation and of the minibatch order.",
             "OutlierLens convention (seeded runs are reproducible)"),
        contaminationParam(),
    };
    d.make = [](ParamSet p) { return std::make_unique<QuadricsDetector>(std::move(p)); };
    return d;
}

int QuadricsDetector::autoQuadrics(int p)
{
    return std::clamp(p - 1, 1, 50);
}

Eigen::VectorXd QuadricsDetector::momentSpectrum(const Eigen::MatrixXd& X)
{
    if (X.rows() == 0 || X.cols() == 0)
        throw DataError("momentSpectrum: no data");
    const Eigen::MatrixXd M = momentMatrix(X, {});
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M, Eigen::EigenvaluesOnly);
    return es.eigenvalues(); // ascending
}

Eigen::VectorXd QuadricsDetector::pcaLogDecay(const Eigen::MatrixXd& X)
{
    if (X.rows() == 0 || X.cols() == 0)
        throw DataError("pcaLogDecay: no data");
    const Eigen::MatrixXd C = X.rowwise() - X.colwise().mean();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(C.transpose() * C / static_cast<double>(X.rows()),
                                                      Eigen::EigenvaluesOnly);
    const Eigen::VectorXd ev = es.eigenvalues().reverse(); // descending
    const double l1 = ev(0);
    Eigen::VectorXd out(ev.size());
    for (Eigen::Index i = 0; i < ev.size(); ++i)
        out(i) = l1 > 0.0 ? -std::log(std::max(ev(i), l1 * 1e-300) / l1) : 0.0; // App. B.4: −log λ_i/λ_1
    return out;
}

namespace {

/// Quadrics of θ (normalised coordinates y = (x − μ)/s) in the original coordinates, multiplied by s²
/// so that A is unchanged: s² f((x − μ)/s) has A' = A, b' = s b − 2Aμ, c' = μᵀAμ − s bᵀμ + s² c.
std::vector<Quadric> toOriginal(const QuadricsObjective& obj, const Eigen::VectorXd& theta, const Eigen::VectorXd& mu,
                                double s)
{
    std::vector<Quadric> qs = obj.toQuadrics(theta);
    for (Quadric& q : qs) {
        const Eigen::VectorXd Amu = q.A * mu;
        const double c = mu.dot(Amu) - s * q.b.dot(mu) + s * s * q.c;
        q.b = s * q.b - 2.0 * Amu;
        q.c = c;
    }
    return qs;
}

} // namespace

Eigen::VectorXd QuadricsDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const auto p = static_cast<int>(X.cols());
    const Eigen::Index n = X.rows();
    const int m = params().getInt("m") == 0 ? autoQuadrics(p) : params().getInt("m");
    const std::int64_t T64 = hsSize64(p);
    if (m > T64)
        throw ParamError("quadrics: m=" + std::to_string(m) + " HS-orthonormal quadrics do not exist in dimension "
                         + std::to_string(p) + " (at most p(p+1)/2 = " + std::to_string(T64) + ")");
    {
        // The coefficients (D×m), the initial T×m QR, the optimizer's state and gradients: ~8 copies.
        const std::uint64_t need = 8ULL * static_cast<std::uint64_t>(blockSize64(p)) * static_cast<std::uint64_t>(m)
                                   * sizeof(double);
        if (T64 > (std::int64_t(1) << 30) || need > kMemoryBudget)
            throw ParamError("quadrics: dimension p=" + std::to_string(p) + " with m=" + std::to_string(m)
                             + " needs D=(p+1)(p+2)/2=" + std::to_string(blockSize64(p)) + " coefficients per quadric, about "
                             + formatBytes(need) + " (limit " + formatBytes(kMemoryBudget)
                             + "); reduce the features first (e.g. PCA) or lower parameter 'm'");
    }
    const int T = static_cast<int>(T64);
    const QuadricDistance kind = parseQuadricDistance(params().getChoice("distance"));
    const double lambda = params().getReal("lambda");
    const int epochs = params().getInt("epochs");
    const auto seed = static_cast<std::uint64_t>(params().getInt("seed"));

    // Normalised coordinates (see the class comment): centre at the mean, unit RMS radius.
    const Eigen::VectorXd mu = X.colwise().mean().transpose();
    Eigen::MatrixXd Y = X.rowwise() - mu.transpose();
    double s = std::sqrt(Y.squaredNorm() / static_cast<double>(n));
    if (!(s > 0.0))
        s = 1.0; // all points equal
    Y /= s;

    const QuadricsObjective obj(p, m, kind, lambda);
    const int Db = QuadricsObjective::blockSize(p);

    // Initialisation as in the authors' implementation: HS-weighted quadratic coefficients Ṽ with
    // random orthonormal columns (QR of a Gaussian matrix, signs fixed by diag R), b and c uniform in [-1, 1].
    Rng rng(seed);
    Eigen::MatrixXd Gauss(T, m);
    for (Eigen::Index i = 0; i < Gauss.size(); ++i)
        Gauss.data()[i] = rng.normal();
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(Gauss);
    Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(T, m);
    for (int k = 0; k < m; ++k)
        if (qr.matrixQR()(k, k) < 0)
            Q.col(k) = -Q.col(k);
    Eigen::VectorXd theta(obj.parameterCount());
    {
        Eigen::Map<Eigen::MatrixXd> Th(theta.data(), Db, m);
        Th.topRows(T) = Q;
        for (int k = 0; k < m; ++k)
            for (int r = T; r < Db; ++r)
                Th(r, k) = rng.uniform(-1.0, 1.0);
    }

    std::unique_ptr<Optimizer> optimizer;
    try {
        optimizer = makeOptimizer(params().getChoice("optimizer"), params().getReal("lr"));
    } catch (const std::invalid_argument& e) {
        throw ParamError(std::string("quadrics: ") + e.what());
    }
    MinibatchOptions opts;
    if (params().isAuto("batch"))
        autoInt("batch", static_cast<int>(std::clamp<Eigen::Index>(n / 16, 64, 256)));
    opts.batchSize = std::min<Eigen::Index>(params().getInt("batch"), n);
    opts.epochs = epochs;
    opts.seed = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL; // a stream apart from the init's
    opts.shuffle = true;
    opts.tolerance = params().getReal("tol");
    opts.patience = params().getInt("patience");

    // Progress: the loss after every epoch, mid-epoch reports for long epochs (every 50 ms), and
    // geometry snapshots at most every 50 ms (≤ 20 per second).
    std::vector<double> history;
    history.reserve(static_cast<std::size_t>(std::min(epochs, 1'000'000)));
    const auto start = Clock::now();
    auto lastReport = start, lastSnapshot = start;
    double runningSum = 0.0;
    Eigen::Index runningCount = 0;
    auto snapshot = [&]() {
        auto g = std::make_shared<Geometry>();
        g->quadrics = toOriginal(obj, theta, mu, s);
        lastSnapshot = Clock::now();
        return std::shared_ptr<const Geometry>(std::move(g));
    };
    auto message = [&](int e) { return "epoch " + std::to_string(e + 1) + "/" + std::to_string(epochs); };

    Eigen::MatrixXd P;
    Eigen::MatrixXf Ysingle, Psingle;
    const bool single = params().getChoice("precision") == "single";
    if (single)
        Ysingle = Y.cast<float>();
    auto gradient = [&](const Eigen::VectorXd& th, const std::vector<Eigen::Index>& rows, Eigen::VectorXd& g) {
        if (single) {
            Psingle = Ysingle(rows, Eigen::all);
            return obj.loss(th, Psingle, &g);
        }
        P = Y(rows, Eigen::all);
        return obj.loss(th, P, &g);
    };
    auto afterBatch = [&](const BatchInfo& b) {
        runningSum += b.loss;
        ++runningCount;
        if (msSince(lastReport) < 50.0 || b.batch + 1 == b.batchesPerEpoch)
            return;
        const double frac = (static_cast<double>(b.epoch)
                             + static_cast<double>(b.batch + 1) / static_cast<double>(b.batchesPerEpoch))
                            / static_cast<double>(epochs);
        lastReport = Clock::now();
        progress.report(frac, message(b.epoch), runningSum / static_cast<double>(runningCount),
                        msSince(lastSnapshot) >= 50.0 ? snapshot() : nullptr);
    };
    auto afterEpoch = [&](const EpochInfo& e) {
        history.push_back(e.meanLoss);
        runningSum = 0.0;
        runningCount = 0;
        const bool last = e.epoch + 1 == epochs;
        lastReport = Clock::now();
        progress.report(static_cast<double>(e.epoch + 1) / static_cast<double>(epochs), message(e.epoch),
                        e.meanLoss, (last || msSince(lastSnapshot) >= 50.0) ? snapshot() : nullptr);
    };
    minimizeMinibatch(*optimizer, theta, n, opts, gradient, afterBatch, afterEpoch);
    if (static_cast<int>(history.size()) < epochs) // converged early (tol): the final state for the live view
        progress.report(1.0, "converged after " + std::to_string(history.size()) + " epochs",
                        history.empty() ? 0.0 : history.back(), snapshot());

    if (!theta.allFinite())
        throw ParamError("quadrics: the optimisation diverged (non-finite coefficients); lower lr");
    const Eigen::MatrixXd dist = obj.distances(theta, Y);
    const double dataTerm = dist.rowwise().sum().mean();
    const double ortho = obj.orthonormalityError(theta);

    // Commit.
    m_mean = mu;
    m_scale = s;
    m_m = m;
    m_theta = std::move(theta);
    m_history = std::move(history);
    m_dataTerm = dataTerm;
    m_orthoError = ortho;
    const double unit = kind == QuadricDistance::Algebraic ? s * s : s;
    return unit * dist.rowwise().mean(); // eq. 16 (in the data's units)
}

Eigen::MatrixXd QuadricsDetector::distances(const Eigen::MatrixXd& X) const
{
    requireFitted("distances");
    if (X.cols() != m_mean.size())
        throw DataError("quadrics distances: data has " + std::to_string(X.cols()) + " columns, the model "
                        + std::to_string(m_mean.size()));
    const QuadricDistance kind = parseQuadricDistance(params().getChoice("distance"));
    const QuadricsObjective obj(static_cast<int>(m_mean.size()), m_m, kind, params().getReal("lambda"));
    const Eigen::MatrixXd Y = (X.rowwise() - m_mean.transpose()) / m_scale;
    // d2 and d1 scale like lengths (s·d(y)); |f| of the output quadric s²f(y) scales by s².
    const double unit = kind == QuadricDistance::Algebraic ? m_scale * m_scale : m_scale;
    return unit * obj.distances(m_theta, Y);
}

Eigen::VectorXd QuadricsDetector::doScore(const Eigen::MatrixXd& X) const
{
    return distances(X).rowwise().mean(); // eq. 16: o(p) = (1/m) Σ_k d(p, Z(f_k))
}

std::vector<Quadric> QuadricsDetector::quadrics() const
{
    requireFitted("quadrics");
    const QuadricsObjective obj(static_cast<int>(m_mean.size()), m_m, QuadricDistance::D2, 1.0);
    return toOriginal(obj, m_theta, m_mean, m_scale);
}

Geometry QuadricsDetector::geometry() const
{
    Geometry g;
    if (isFitted())
        g.quadrics = quadrics();
    return g;
}

std::map<std::string, double> QuadricsDetector::figures() const
{
    if (!isFitted())
        return {};
    const double lambda = params().getReal("lambda");
    return {{"quadrics", m_m},
            {"final_loss", m_dataTerm + lambda * m_orthoError},
            {"mean_distance_sum", m_dataTerm},
            {"orthonormality_error", m_orthoError},
            {"epochs_run", static_cast<double>(m_history.size())}};
}

nlohmann::json QuadricsDetector::saveState() const
{
    return {{"m", m_m},
            {"mean", flat(m_mean)},
            {"scale", m_scale},
            {"theta", flat(m_theta)},
            {"loss_history", m_history},
            {"data_term", m_dataTerm},
            {"orthonormality_error", m_orthoError}};
}

void QuadricsDetector::loadState(const nlohmann::json& s)
{
    const int p = inputDimension();
    const int m = static_cast<int>(jsonInt(s.at("m"), "quadrics model: m"));
    const auto mean = s.at("mean").get<std::vector<double>>();
    const auto theta = s.at("theta").get<std::vector<double>>();
    const double scale = s.at("scale").get<double>();
    // D = (p² + 3p)/2 + 1 in 64 bits and compared by division: a stored dimension and m can be
    // anything (blockSize() is int, D * m could overflow).
    const Eigen::Index D = static_cast<Eigen::Index>(p) * (p + 3) / 2 + 1;
    const auto thetaSize = static_cast<Eigen::Index>(theta.size());
    if (m < 1 || static_cast<Eigen::Index>(mean.size()) != p || thetaSize % D != 0 || thetaSize / D != m
        || !(scale > 0.0) || !std::isfinite(scale))
        throw DataError("quadrics model: stored arrays do not match dimension " + std::to_string(p) + " and m="
                        + std::to_string(m));
    m_m = m;
    m_mean = Eigen::Map<const Eigen::VectorXd>(mean.data(), p);
    m_scale = scale;
    m_theta = Eigen::Map<const Eigen::VectorXd>(theta.data(), thetaSize);
    m_history = s.value("loss_history", std::vector<double>{});
    m_dataTerm = s.value("data_term", 0.0);
    m_orthoError = s.value("orthonormality_error", 0.0);
}

// ---- Q-BASE ---------------------------------------------------------------------------------------

DetectorInfo QuadricsBaseDetector::info()
{
    DetectorInfo d;
    d.guidance = quadricsGuidance;
    d.id = "quadrics-base";
    d.title = "Quadric intersection, algebraic (Q-BASE)";
    d.summary = "Exact solution of problem (7): the m smallest eigenvectors of the moment matrix of the degree-2 "
                "feature map (non-centred kernel PCA); score = sqrt(sum_k f_k(p)^2).";
    d.reference = "Quadrics paper eq. 7, 20-26 (App. A.1-A.2), non-equivariance App. A.3";
    ParamSpec dims = makeParamSpec(
        "dims", ParamType::Int, "auto", 0, 100000,
        "Coordinates the quadrics are fitted in: the first k principal axes (centred), so that the D = (k+1)(k+2)/2 "
        "monomials are estimated from enough rows; 0 = all p features (the paper).",
        "Quadrics paper eq. 7, App. A.1 (D×D moment matrix); the reduction is OutlierLens' own");
    dims.autoRule = "the largest k <= p with (k+1)(k+2)/2 <= n/10 (ten rows per monomial); k = p: no projection";
    dims.paperValue = "0";
    ParamSpec weights = makeParamSpec(
        "weights", ParamType::Choice, "unit", 0, 0,
        "Row weights of problem (7): unit = each point's monomial vector phi(p) scaled to length 1, so that far points "
        "(whose degree-4 moments dominate the sum) cannot pull the smallest eigenvectors through themselves and "
        "mask as inliers; none = the paper's plain sum. The score is the paper's algebraic distance either way.",
        "Quadrics paper eq. 7, 20-22 (App. A.1); the weighting is OutlierLens' own", {"unit", "none"});
    weights.paperValue = "none";
    d.params = {quadricsCountParam(), dims, weights, contaminationParam()};
    // Q-BASE is not equivariant (App. A.3): the unit row weights depend on where the origin and the
    // units are. z-scores put the origin at the mean (2-D blobs with 5 % outliers, raw coordinates
    // 0.66, z-scored 0.91; the real-data table is z-scored).
    d.normalization = "zscore";
    d.make = [](ParamSet p) { return std::make_unique<QuadricsBaseDetector>(std::move(p)); };
    return d;
}

Eigen::MatrixXd QuadricsBaseDetector::featureMap(const Eigen::MatrixXd& X)
{
    const auto d = static_cast<int>(X.cols());
    const int D = QuadricsObjective::blockSize(d);
    Eigen::MatrixXd Phi(X.rows(), D);
    Eigen::Index idx = 0;
    for (int i = 0; i < d; ++i) // eq. 20: pairwise products p_i p_j, i ≤ j
        for (int j = i; j < d; ++j, ++idx)
            Phi.col(idx) = X.col(i).cwiseProduct(X.col(j));
    Phi.middleCols(idx, d) = X; // coordinates
    Phi.col(D - 1).setOnes();   // constant
    return Phi;
}

int QuadricsBaseDetector::autoDims(Eigen::Index n, int p)
{
    int k = std::max(1, p);
    while (k > 1 && 10 * blockSize64(k) > n)
        --k;
    return k;
}

Eigen::MatrixXd QuadricsBaseDetector::fitCoordinates(const Eigen::MatrixXd& X) const
{
    if (m_axes.size() == 0)
        return X;
    return (X.rowwise() - m_mean.transpose()) * m_axes;
}

Eigen::VectorXd QuadricsBaseDetector::doFit(const Eigen::MatrixXd& Xin, const Progress& progress)
{
    const auto pin = static_cast<int>(Xin.cols());
    const int dims = autoInt("dims", autoDims(Xin.rows(), pin));
    // dims < p: the centred coordinates on the first `dims` principal axes (covariance eigenvectors).
    Eigen::VectorXd mean;
    Eigen::MatrixXd axes;
    if (dims > 0 && dims < pin) {
        mean = Xin.colwise().mean().transpose();
        const Eigen::MatrixXd C = Xin.rowwise() - mean.transpose();
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> pca(C.transpose() * C);
        if (pca.info() != Eigen::Success)
            throw DataError("quadrics-base: the principal axes of the data could not be computed");
        axes = pca.eigenvectors().rightCols(dims).rowwise().reverse(); // largest variance first
        for (int k = 0; k < dims; ++k)
            fixSign(axes.col(k));
    }
    const Eigen::MatrixXd X = axes.size() == 0 ? Xin : Eigen::MatrixXd((Xin.rowwise() - mean.transpose()) * axes);
    const auto p = static_cast<int>(X.cols());
    const int m = params().getInt("m") == 0 ? QuadricsDetector::autoQuadrics(p) : params().getInt("m");
    {
        // Size guard before the O(D²) moment matrix and the O(D³) eigen-decomposition (App. A.1):
        // the matrix, its eigenvectors and the solver's workspace, three D×D doubles.
        const std::int64_t D64 = blockSize64(p);
        const std::uint64_t need = 3ULL * static_cast<std::uint64_t>(D64) * static_cast<std::uint64_t>(D64) * sizeof(double);
        if (D64 > 100000 || need > kMemoryBudget)
            throw ParamError("quadrics-base: dimension p=" + std::to_string(p) + " gives D=(p+1)(p+2)/2="
                             + std::to_string(D64) + " monomials; the D×D moment matrix and its eigen-decomposition need "
                             + formatBytes(need) + " (limit " + formatBytes(kMemoryBudget)
                             + ", about p <= 114); reduce the features first (e.g. PCA) or use detector 'quadrics' "
                               "(stochastic, memory O(D·m))");
    }
    const int D = QuadricsObjective::blockSize(p);
    if (m >= D)
        throw ParamError("quadrics-base: m=" + std::to_string(m) + " must be smaller than the number of monomials D = "
                         + std::to_string(D) + " (dimension " + std::to_string(p) + ")");
    // Fewer rows than monomials: at least D − n quadrics pass through every training point (the
    // moment matrix has rank ≤ n), so the m smallest eigenvectors fit the data exactly and their
    // training "scores" are rounding noise (was AUROC 0.05 on Ionosphere, n = 351 < D = 595, and
    // flipped with the BLAS thread count). Problem (7) does not determine the quadrics: refuse.
    if (X.rows() < D)
        throw DataError("quadrics-base: " + std::to_string(X.rows()) + " rows cannot determine quadrics in dimension "
                        + std::to_string(p) + ": the degree-2 moment matrix needs at least D = (p+1)(p+2)/2 = "
                        + std::to_string(D) + " rows (with fewer, " + std::to_string(D - X.rows())
                        + " quadrics pass through every point and cannot rank them). Use 'quadrics' (learned, eq. 8) "
                          "or reduce the features first (e.g. PCA)");
    // App. A.1–A.2: Σ_j Σ_k f_k(p_j)² = Σ_k v(f_k)ᵀ (Σ_j φ(p_j)φ(p_j)ᵀ) v(f_k) under ⟨v(f_k), v(f_l)⟩ = δ_kl
    // is minimised by the eigenvectors of the m smallest eigenvalues (non-centred PCA in feature space).
    const Eigen::MatrixXd M = momentMatrix(X, [&](double f) { progress.report(0.6 * f, "moment matrix"); },
                                           params().getChoice("weights") == "unit");
    if (!M.allFinite()) {
        // M holds degree-4 moments (App. A.1): |x| above ~1e77 overflows double precision.
        std::ostringstream msg;
        msg << "quadrics-base: the degree-4 moment matrix overflows (largest |value| in the data is "
            << X.cwiseAbs().maxCoeff() << "); normalise the data (e.g. --normalize zscore)";
        throw DataError(msg.str());
    }
    progress.report(0.6, "eigen-decomposition of the " + std::to_string(D) + "x" + std::to_string(D) + " moment matrix (one library step without a cancellation point: Cancel and quit take effect after it)");
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M);
    if (es.info() != Eigen::Success)
        throw DataError("quadrics-base: the eigen-decomposition of the moment matrix did not converge");
    // The number of eigenvalues at rounding level of the largest, reported as "moment_null_space":
    // quadrics through every training point. With n ≥ D that is what Q-BASE is for (points exactly
    // on m quadrics, e.g. the circle of TestQuadrics); with n < D it is forced by the row count and
    // refused above.
    const Eigen::VectorXd& ev = es.eigenvalues();
    const double tol = 1e-10 * std::max(ev(D - 1), 0.0);
    Eigen::Index null = 0;
    while (null < D && ev(null) <= tol)
        ++null;
    Eigen::MatrixXd V = es.eigenvectors().leftCols(m);
    for (int k = 0; k < m; ++k)
        fixSign(V.col(k));
    // Commit.
    m_mean = std::move(mean);
    m_axes = std::move(axes);
    m_V = std::move(V);
    m_eigenvalues = es.eigenvalues();
    m_nullSpace = static_cast<int>(null);
    return doScore(Xin);
}

Eigen::VectorXd QuadricsBaseDetector::doScore(const Eigen::MatrixXd& Xin) const
{
    // Sec. 4.1: d(p, Z(F)) ≈ (Σ_k |f_k(p)|²)^{1/2} = ‖Vᵀφ(p)‖ = d(φ(p), V_m^⊥) (eq. 22, 25).
    const Eigen::MatrixXd X = fitCoordinates(Xin);
    Eigen::VectorXd out(X.rows());
    for (Eigen::Index r = 0; r < X.rows(); r += kChunk) {
        const Eigen::Index len = std::min(kChunk, X.rows() - r);
        out.segment(r, len) = (featureMap(X.middleRows(r, len)) * m_V).rowwise().norm();
    }
    return out;
}

std::vector<Quadric> QuadricsBaseDetector::quadrics() const
{
    requireFitted("quadrics");
    std::vector<Quadric> qs;
    const int k = m_axes.size() == 0 ? inputDimension() : static_cast<int>(m_axes.cols());
    for (Eigen::Index j = 0; j < m_V.cols(); ++j) {
        Quadric q = quadricFromCoefficients(m_V.col(j), k);
        if (m_axes.size() != 0) {
            // f(Pᵀ(x − μ)) = xᵀA'x + b'ᵀx + c' with A' = PAPᵀ, b' = Pb − 2A'μ, c' = μᵀA'μ − (Pb)ᵀμ + c.
            Quadric out;
            out.A = m_axes * q.A * m_axes.transpose();
            const Eigen::VectorXd Pb = m_axes * q.b;
            out.b = Pb - 2.0 * out.A * m_mean;
            out.c = m_mean.dot(out.A * m_mean) - Pb.dot(m_mean) + q.c;
            q = std::move(out);
        }
        qs.push_back(std::move(q));
    }
    return qs;
}

Geometry QuadricsBaseDetector::geometry() const
{
    Geometry g;
    if (isFitted())
        g.quadrics = quadrics();
    return g;
}

std::map<std::string, double> QuadricsBaseDetector::figures() const
{
    if (!isFitted())
        return {};
    const Eigen::Index m = m_V.cols();
    const Eigen::Index first = 0;
    const double objective = m_eigenvalues.segment(first, m).sum(); // (1/n) Σ_j Σ_k f_k(p_j)² (eq. 7)
    std::map<std::string, double> f{{"quadrics", static_cast<double>(m)},
                                    {"final_loss", objective},
                                    {"moment_null_space", static_cast<double>(m_nullSpace)},
                                    {"moment_eigenvalue_min", m_eigenvalues(first)},
                                    {"moment_eigenvalue_m", m_eigenvalues(first + m - 1)}};
    if (first + m < m_eigenvalues.size())
        f["moment_eigenvalue_next"] = m_eigenvalues(first + m); // a large jump from _m to _next supports this m (App. B.4)
    return f;
}

nlohmann::json QuadricsBaseDetector::saveState() const
{
    nlohmann::json j = {{"m", m_V.cols()}, {"coefficients", flat(m_V)}, {"eigenvalues", flat(m_eigenvalues)},
                        {"null_space", m_nullSpace}};
    if (m_axes.size() != 0) {
        j["dims"] = m_axes.cols();
        j["mean"] = flat(m_mean);
        j["axes"] = flat(m_axes);
    }
    return j;
}

void QuadricsBaseDetector::loadState(const nlohmann::json& s)
{
    const int pin = inputDimension();
    // Models without "dims" (older ones, or dims = p) fit the input coordinates themselves.
    const auto dims = s.contains("dims") ? jsonInt(s.at("dims"), "quadrics-base model: dims") : pin;
    if (dims < 1 || dims > pin)
        throw DataError("quadrics-base model: dims " + std::to_string(dims) + " does not fit dimension " + std::to_string(pin));
    Eigen::VectorXd mean;
    Eigen::MatrixXd axes;
    if (dims < pin) {
        const auto mu = s.at("mean").get<std::vector<double>>();
        const auto P = s.at("axes").get<std::vector<double>>();
        if (static_cast<Eigen::Index>(mu.size()) != pin || static_cast<Eigen::Index>(P.size()) != pin * dims)
            throw DataError("quadrics-base model: mean/axes do not match dimension " + std::to_string(pin) + " and dims "
                            + std::to_string(dims));
        mean = Eigen::Map<const Eigen::VectorXd>(mu.data(), pin);
        axes = Eigen::Map<const Eigen::MatrixXd>(P.data(), pin, dims);
    }
    const int p = static_cast<int>(dims);
    if (p > 4096) // D = (p² + 3p)/2 + 1 coefficients per quadric would overflow an int
        throw DataError("quadrics-base model: dimension " + std::to_string(p) + " is too large");
    const int D = QuadricsObjective::blockSize(p);
    const auto m = static_cast<Eigen::Index>(jsonInt(s.at("m"), "quadrics-base model: m"));
    const auto V = s.at("coefficients").get<std::vector<double>>();
    const auto ev = s.at("eigenvalues").get<std::vector<double>>();
    if (m < 1 || m >= D || static_cast<Eigen::Index>(V.size()) != D * m || static_cast<Eigen::Index>(ev.size()) != D)
        throw DataError("quadrics-base model: stored arrays do not match dimension " + std::to_string(p) + " and m="
                        + std::to_string(m));
    const auto null = s.value("null_space", 0);
    if (null < 0 || null > D)
        throw DataError("quadrics-base model: null_space " + std::to_string(null) + " does not fit D=" + std::to_string(D));
    m_mean = std::move(mean);
    m_axes = std::move(axes);
    m_V = Eigen::Map<const Eigen::MatrixXd>(V.data(), D, m);
    m_eigenvalues = Eigen::Map<const Eigen::VectorXd>(ev.data(), D);
    m_nullSpace = static_cast<int>(null);
}

} // namespace olens
