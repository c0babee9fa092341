#include "linalg/PointIndex.h"

#include "base/Errors.h"
#include "base/ParallelFor.h"

#include <nanoflann.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace olens {

struct PointIndex::Tree {
    using Kd = nanoflann::KDTreeEigenMatrixAdaptor<Eigen::MatrixXd, -1, nanoflann::metric_L2, false>;
    explicit Tree(const Eigen::MatrixXd& P) : kd(P.rows(), std::cref(P), 16) { kd.index->buildIndex(); }
    Kd kd;
};

PointIndex::PointIndex(Eigen::MatrixXd pointsAsColumns)
    : m_points(std::move(pointsAsColumns)), m_tree(std::make_unique<Tree>(m_points))
{
}

PointIndex::~PointIndex() = default;

std::size_t PointIndex::nearest(const double* q, std::size_t k, Eigen::Index* idx, double* d2) const
{
    if (k == 0)
        return 0; // nanoflann's result set reads its last slot: with none, before the array
    nanoflann::KNNResultSet<double, Eigen::Index> result(k);
    result.init(idx, d2);
    m_tree->kd.index->findNeighbors(result, q, nanoflann::SearchParams());
    return result.size();
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
        std::vector<Eigen::Index> idx(static_cast<std::size_t>(k));
        std::vector<double> d2(static_cast<std::size_t>(k));
        Eigen::VectorXd q(X.cols());
        for (Eigen::Index i = begin; i < end; ++i) {
            q = X.row(i).transpose();
            nearest(q.data(), static_cast<std::size_t>(k), idx.data(), d2.data());
            for (int j = 0; j < k; ++j) {
                dist(i, j) = std::sqrt(std::max(0.0, d2[static_cast<std::size_t>(j)]));
                index(i, j) = static_cast<int>(idx[static_cast<std::size_t>(j)]);
            }
        }
    });
}

} // namespace olens
