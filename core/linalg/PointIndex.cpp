#include "linalg/PointIndex.h"

#include "base/Errors.h"
#include "base/ParallelFor.h"

#include <nanoflann.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <string>
#include <vector>

namespace olens {

struct PointIndex::Tree {
    using Kd = nanoflann::KDTreeEigenMatrixAdaptor<Eigen::MatrixXd, -1, nanoflann::metric_L2, false>;
    explicit Tree(const Eigen::MatrixXd& P) : kd(P.rows(), std::cref(P), 16) { kd.index->buildIndex(); }
    Kd kd;
};

PointIndex::PointIndex(Eigen::MatrixXd pointsAsColumns) : m_points(std::move(pointsAsColumns))
{
    if (m_points.rows() >= kBruteMinDim)
        m_norms = m_points.colwise().squaredNorm().transpose();
    else
        m_tree = std::make_unique<Tree>(m_points);
}

PointIndex::~PointIndex() = default;

std::size_t PointIndex::nearest(const double* q, std::size_t k, Eigen::Index* idx, double* d2) const
{
    if (k == 0)
        return 0; // nanoflann's result set reads its last slot: with none, before the array
    if (bruteForce())
        return nearestMany(Eigen::Map<const Eigen::MatrixXd>(q, m_points.rows(), 1), k, idx, d2);
    nanoflann::KNNResultSet<double, Eigen::Index> result(k);
    result.init(idx, d2);
    m_tree->kd.index->findNeighbors(result, q, nanoflann::SearchParams());
    return result.size();
}

std::size_t PointIndex::nearestMany(const Eigen::Ref<const Eigen::MatrixXd>& Q, std::size_t k, Eigen::Index* idx,
                                    double* d2) const
{
    const Eigen::Index m = Q.cols(), n = size();
    const std::size_t found = std::min<std::size_t>(k, static_cast<std::size_t>(n));
    if (found == 0)
        return 0;
    if (!bruteForce()) {
        for (Eigen::Index i = 0; i < m; ++i)
            nearest(Q.col(i).data(), k, idx + i * static_cast<Eigen::Index>(k), d2 + i * static_cast<Eigen::Index>(k));
        return found;
    }
    // ‖q − x‖² = ‖q‖² + ‖x‖² − 2 qᵀx: one product G = Xᵀ Q per block of queries (BLAS-3). The
    // expansion loses digits to cancellation for near points, so it only preselects: the
    // `found + kRefine` smallest are recomputed exactly as Σ (q − x)² and those decide, with ties
    // ordered by index.
    constexpr std::size_t kRefine = 16;
    const std::size_t cand = std::min<std::size_t>(found + kRefine, static_cast<std::size_t>(n));
    // A block's n×b product stays within ~2 MB, so it is still in cache when the selection reads it
    // (measured on Satellite, 6435 × 36: 13 MB blocks spent a third of the time zeroing and faulting
    // in fresh pages); b ≥ 8 keeps the product a matrix product.
    const Eigen::Index block = std::clamp<Eigen::Index>((Eigen::Index(1) << 18) / std::max<Eigen::Index>(1, n), 8, 256);
    Eigen::MatrixXd G;
    Eigen::VectorXd approx(n);
    std::vector<std::pair<double, Eigen::Index>> heap, best;
    heap.reserve(cand);
    for (Eigen::Index b0 = 0; b0 < m; b0 += block) {
        const Eigen::Index bm = std::min(block, m - b0);
        G.noalias() = m_points.transpose() * Q.middleCols(b0, bm);
        for (Eigen::Index c = 0; c < bm; ++c) {
            approx.noalias() = m_norms - 2.0 * G.col(c); // ‖q − x‖² − ‖q‖² (‖q‖² is common)
            // The cand smallest in one pass: a max-heap of (value, index) whose top is replaced only
            // by something smaller — rare after the first rows, so this is a plain scan.
            heap.clear();
            for (Eigen::Index j = 0; j < n; ++j) {
                const std::pair<double, Eigen::Index> e{approx(j), j};
                if (heap.size() < cand) {
                    heap.push_back(e);
                    std::push_heap(heap.begin(), heap.end());
                } else if (e < heap.front()) {
                    std::pop_heap(heap.begin(), heap.end());
                    heap.back() = e;
                    std::push_heap(heap.begin(), heap.end());
                }
            }
            const auto q = Q.col(b0 + c);
            best.clear();
            for (const auto& e : heap)
                best.emplace_back((m_points.col(e.second) - q).squaredNorm(), e.second);
            std::partial_sort(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(found), best.end());
            const Eigen::Index row = (b0 + c) * static_cast<Eigen::Index>(k);
            for (std::size_t t = 0; t < found; ++t) {
                d2[row + static_cast<Eigen::Index>(t)] = best[t].first;
                idx[row + static_cast<Eigen::Index>(t)] = best[t].second;
            }
        }
    }
    return found;
}

void PointIndex::query(const Eigen::MatrixXd& X, int k, Eigen::MatrixXd& dist, Eigen::MatrixXi& index) const
{
    // A k beyond the points would leave columns of a row holding the previous row's neighbours.
    if (k < 1 || k > size())
        throw ParamError("k-nearest-neighbour query: k = " + std::to_string(k) + " must lie in [1, "
                         + std::to_string(size()) + "] (the number of points indexed)");
    const Eigen::Index n = X.rows();
    dist.resize(n, k);
    index.resize(n, k);
    // Rows are independent: chunks over the cores (the same result for any number of threads).
    parallelChunks(n, kRowsPerChunk, [&](std::int64_t begin, std::int64_t end) {
        const Eigen::Index rows = end - begin;
        const Eigen::MatrixXd Q = X.middleRows(begin, rows).transpose(); // queries as columns
        std::vector<Eigen::Index> idx(static_cast<std::size_t>(rows * k));
        std::vector<double> d2(static_cast<std::size_t>(rows * k));
        nearestMany(Q, static_cast<std::size_t>(k), idx.data(), d2.data());
        for (Eigen::Index i = 0; i < rows; ++i)
            for (int j = 0; j < k; ++j) {
                const auto at = static_cast<std::size_t>(i * k + j);
                dist(begin + i, j) = std::sqrt(std::max(0.0, d2[at]));
                index(begin + i, j) = static_cast<int>(idx[at]);
            }
    });
}

} // namespace olens
