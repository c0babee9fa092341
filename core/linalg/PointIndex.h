#pragma once
// Exact Euclidean k-nearest-neighbour queries over a fixed set of points (nanoflann kd-tree): the
// one index of knn, lof and acdt (graph and tangent score).
#include <Eigen/Core>

#include <cstddef>
#include <memory>

namespace olens {

/// Query rows per chunk handed to a thread (parallelChunks): a second thread starts only with a
/// second chunk (a query takes a few microseconds, a thread start tens), and a chunk of a few ms
/// keeps the threads' shares even when one of them is slowed by other work.
constexpr long kRowsPerChunk = 2048;

class PointIndex {
public:
    /// Points as the columns of a p×n matrix (each point contiguous for the tree).
    explicit PointIndex(Eigen::MatrixXd pointsAsColumns);
    ~PointIndex();
    PointIndex(const PointIndex&) = delete;
    PointIndex& operator=(const PointIndex&) = delete;

    const Eigen::MatrixXd& points() const { return m_points; }
    Eigen::Index size() const { return m_points.cols(); }
    /// The k nearest points of q (p values) in ascending squared distance into idx[] / d2[]
    /// (room for k each); returns how many were found (min(k, size()); 0 for k = 0). Thread-safe.
    std::size_t nearest(const double* q, std::size_t k, Eigen::Index* idx, double* d2) const;
    /// Distances (ascending) and indices of the k nearest points of each row of X; ParamError
    /// unless 1 ≤ k ≤ size().
    /// Uses every worker thread (base/ParallelFor) for large X.
    void query(const Eigen::MatrixXd& X, int k, Eigen::MatrixXd& dist, Eigen::MatrixXi& index) const;

private:
    struct Tree;
    Eigen::MatrixXd m_points;
    std::unique_ptr<Tree> m_tree;
};

} // namespace olens
