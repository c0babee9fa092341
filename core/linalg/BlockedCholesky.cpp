#include "linalg/BlockedCholesky.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <Eigen/Dense>

namespace olens {

bool choleskyInPlace(Eigen::MatrixXd& A, const FactorTick& tick)
{
    const Eigen::Index n = A.rows();
    // Panels of 256 columns keep the trailing updates large enough for a multi-threaded BLAS.
    constexpr Eigen::Index nb = 256, slab = 512;
    // Work left after column c ∝ (n − c)³: the fraction done is 1 − ((n − c)/n)³.
    const double dn = static_cast<double>(n);
    auto doneAt = [dn](Eigen::Index c) {
        const double left = (dn - static_cast<double>(c)) / dn;
        return 1.0 - left * left * left;
    };
    for (Eigen::Index k = 0; k < n; k += nb) {
        const Eigen::Index b = std::min(nb, n - k), r = n - k - b;
        Eigen::Ref<Eigen::MatrixXd> A11 = A.block(k, k, b, b);
        Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(A11);
        if (llt.info() != Eigen::Success || !(A11.diagonal().minCoeff() > 0.0))
            return false;
        if (r == 0)
            break;
        auto A21 = A.block(k + b, k, r, b);
        // A21 := A21 · L11⁻ᵀ
        A.block(k, k, b, b).triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(A21);
        // A22 −= A21·A21ᵀ (lower part), slab by slab of columns.
        for (Eigen::Index j0 = 0; j0 < r; j0 += slab) {
            const Eigen::Index w = std::min(slab, r - j0), below = r - j0 - w;
            A.block(k + b + j0, k + b + j0, w, w).selfadjointView<Eigen::Lower>().rankUpdate(A21.middleRows(j0, w), -1.0);
            if (below > 0)
                A.block(k + b + j0 + w, k + b + j0, below, w).noalias()
                    -= A21.bottomRows(below) * A21.middleRows(j0, w).transpose();
            if (tick) {
                const double slabs = static_cast<double>(j0 + w) / static_cast<double>(r);
                tick(doneAt(k) + (doneAt(k + b) - doneAt(k)) * slabs);
            }
        }
    }
    if (tick)
        tick(1.0);
    return true;
}

} // namespace olens
