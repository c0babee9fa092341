// The Q-FULL objective (QuadricsObjective, see QuadricsDetector.h): the parametrisation θ ↔ quadrics
// in HS coordinates (sec. 4.3), the data term and its gradient in double and in mixed precision
// (eq. 8, 14), the orthonormality penalty (eq. 15), the loss and the distances of many points.
#include "detectors/quadrics/QuadricsInternal.h"

#include "base/Errors.h"
#include "base/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace olens {

using quadrics_detail::kChunk;

namespace {

constexpr double kSqrt2 = 1.41421356237309504880168872420969808;

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

// ---- the Q-FULL objective -------------------------------------------------------------------------

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

} // namespace olens
