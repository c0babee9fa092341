#include "linalg/SpdSolvers.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>
#include <Eigen/Dense>

namespace olens {

void lowerSolveInPlace(const Eigen::MatrixXd& L, Eigen::Index offset, Eigen::Ref<Eigen::MatrixXd> B,
                       const SolveTick& tick)
{
    const Eigen::Index m = B.rows();
    // Rows per step: the GEMM of a step costs 2·chunk·r0·cols ≤ ~2e8 flops (~20 ms).
    const Eigen::Index chunk = std::clamp<Eigen::Index>(
        100'000'000 / std::max<Eigen::Index>(1, m * std::max<Eigen::Index>(1, B.cols())), 128, 512);
    for (Eigen::Index r0 = 0; r0 < m; r0 += chunk) {
        const Eigen::Index h = std::min(chunk, m - r0);
        if (r0 > 0)
            B.middleRows(r0, h).noalias() -= L.block(offset + r0, offset, h, r0) * B.topRows(r0);
        L.block(offset + r0, offset + r0, h, h).triangularView<Eigen::Lower>().solveInPlace(B.middleRows(r0, h));
        const double done = static_cast<double>(r0 + h) / static_cast<double>(m);
        if (tick)
            tick(done * done);
    }
}

Eigen::VectorXd diagonalOfInverse(const Eigen::MatrixXd& L, const SolveTick& tick)
{
    const Eigen::Index n = L.rows();
    constexpr Eigen::Index nb = 512; // wide blocks: BLAS-3 products big enough for both cores
    Eigen::VectorXd d(n);
    const double total = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
    for (Eigen::Index c = 0; c < n; c += nb) {
        const Eigen::Index b = std::min(nb, n - c), m = n - c;
        Eigen::MatrixXd Y = Eigen::MatrixXd::Zero(m, b);
        Y.topRows(b).setIdentity();
        const double before = static_cast<double>(m), after = static_cast<double>(m - b);
        const double lo = 1.0 - before * before * before / total, hi = 1.0 - after * after * after / total;
        SolveTick blockTick;
        if (tick)
            blockTick = [&tick, lo, hi](double f) { tick(lo + (hi - lo) * f); };
        lowerSolveInPlace(L, c, Y, blockTick);
        d.segment(c, b) = Y.colwise().squaredNorm().transpose();
    }
    return d;
}

bool jitteredCholesky(const Eigen::MatrixXd& A, double first, double last, double growth, Eigen::MatrixXd& L,
                      double& jitter)
{
    Eigen::LLT<Eigen::MatrixXd> llt;
    for (double eps = first;; eps *= growth) {
        Eigen::MatrixXd Ae = A;
        Ae.diagonal().array() += eps;
        llt.compute(Ae);
        if (llt.info() == Eigen::Success) {
            jitter = eps;
            L = llt.matrixL();
            return true;
        }
        if (eps > last)
            return false;
    }
}

Eigen::VectorXd cgQuadraticForms(const Eigen::MatrixXd& K, double lambda, double scale, const Eigen::MatrixXd& B,
                                 const Eigen::VectorXd& offset, CgStats& stats, const SolveTick& tick)
{
    const Eigen::Index n = K.rows(), m = B.cols();
    const int maxIter = static_cast<int>(std::min<Eigen::Index>(3 * n + 100, 20000));
    constexpr double tol = 1e-10;
    const Eigen::ArrayXd dinv = 1.0 / (K.diagonal().array() + lambda);
    Eigen::MatrixXd X = Eigen::MatrixXd::Zero(n, m), R = B;
    Eigen::MatrixXd P = (R.array().colwise() * dinv).matrix();
    Eigen::VectorXd rz = (R.array() * P.array()).colwise().sum().transpose();
    std::vector<Eigen::Index> active(static_cast<std::size_t>(m));
    std::iota(active.begin(), active.end(), Eigen::Index(0));
    std::vector<int> iters(static_cast<std::size_t>(m), 0);
    Eigen::VectorXd quad(m);
    // r must be the true residual when `store` is set (the estimate bᵀα + αᵀr is then kept).
    auto converged = [&](Eigen::Index j, const Eigen::VectorXd& r, bool store) {
        const double q = B.col(j).dot(X.col(j)) + (store ? X.col(j).dot(r) : 0.0);
        const double value = (offset(j) - q) / scale; // the caller's quantity (kic: the score)
        const bool ok = r.squaredNorm() / (lambda * scale) <= tol * (1.0 + std::abs(value));
        if (ok && store)
            quad(j) = q;
        return ok;
    };
    for (int it = 1; it <= maxIter && !active.empty(); ++it) {
        const auto na = static_cast<Eigen::Index>(active.size());
        Eigen::MatrixXd Pa(n, na);
        for (Eigen::Index a = 0; a < na; ++a)
            Pa.col(a) = P.col(active[static_cast<std::size_t>(a)]);
        Eigen::MatrixXd APa;
        APa.noalias() = K * Pa;
        APa += lambda * Pa;
        std::vector<Eigen::Index> still;
        std::vector<Eigen::Index> candidates;
        for (Eigen::Index a = 0; a < na; ++a) {
            const Eigen::Index j = active[static_cast<std::size_t>(a)];
            const double pAp = Pa.col(a).dot(APa.col(a));
            if (!(pAp > 0)) { // exact solution reached (P = 0) or breakdown
                candidates.push_back(j);
                continue;
            }
            const double step = rz(j) / pAp;
            X.col(j) += step * Pa.col(a);
            R.col(j) -= step * APa.col(a);
            iters[static_cast<std::size_t>(j)] = it;
            if (converged(j, R.col(j), false) || it % 50 == 0)
                candidates.push_back(j);
            else
                still.push_back(j);
        }
        if (!candidates.empty()) {
            // Check on the true residual b − (K + λI)x; restart the direction from it otherwise.
            const auto nc = static_cast<Eigen::Index>(candidates.size());
            Eigen::MatrixXd Xc(n, nc);
            for (Eigen::Index a = 0; a < nc; ++a)
                Xc.col(a) = X.col(candidates[static_cast<std::size_t>(a)]);
            Eigen::MatrixXd AXc;
            AXc.noalias() = K * Xc;
            AXc += lambda * Xc;
            for (Eigen::Index a = 0; a < nc; ++a) {
                const Eigen::Index j = candidates[static_cast<std::size_t>(a)];
                const Eigen::VectorXd r = B.col(j) - AXc.col(a);
                if (converged(j, r, true))
                    continue;
                const bool restart = it % 50 != 0 || (R.col(j) - r).norm() > 1e-3 * r.norm();
                R.col(j) = r;
                if (restart) {
                    P.col(j) = (r.array() * dinv).matrix();
                    rz(j) = r.dot(P.col(j));
                    still.push_back(-1 - j); // marks "direction already reset"
                } else {
                    still.push_back(j);
                }
            }
        }
        std::vector<Eigen::Index> next;
        next.reserve(still.size());
        for (Eigen::Index code : still) {
            if (code < 0) {
                next.push_back(-1 - code);
                continue;
            }
            const Eigen::Index j = code;
            const Eigen::VectorXd z = (R.col(j).array() * dinv).matrix();
            const double rzNew = R.col(j).dot(z);
            const double beta = rzNew / rz(j);
            P.col(j) = z + beta * P.col(j);
            rz(j) = rzNew;
            next.push_back(j);
        }
        std::sort(next.begin(), next.end());
        active = std::move(next);
        if (tick)
            tick(static_cast<double>(it) / static_cast<double>(maxIter));
    }
    // Columns that hit the iteration cap: the same corrected estimate, without the guarantee.
    for (Eigen::Index j : active) {
        const Eigen::VectorXd r = B.col(j) - K * X.col(j) - lambda * X.col(j);
        quad(j) = B.col(j).dot(X.col(j)) + X.col(j).dot(r);
    }
    stats.unconverged += static_cast<long>(active.size());
    for (int i : iters)
        stats.iterations = std::max(stats.iterations, i);
    return quad;
}

} // namespace olens
