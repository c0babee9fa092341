#pragma once
// Exact Euclidean k-nearest-neighbour queries over a fixed set of points: the one index of knn, lof
// and acdt (graph and tangent score). A nanoflann kd-tree in low dimension; above kBruteMinDim
// features, where a kd-tree prunes little, brute force through BLAS distance blocks (scikit-learn's
// 'auto' makes the same switch at p > 15; docs/benchmarks.md has the measurements).
#include <Eigen/Core>

#include <cstddef>
#include <memory>

namespace olens {

/// Query rows per chunk handed to a thread (parallelChunks): a second thread starts only with a
/// second chunk (a query takes a few microseconds, a thread start tens), and a chunk of a few ms
/// keeps the threads' shares even when one of them is slowed by other work.
constexpr long kRowsPerChunk = 2048;
/// Dimensions from which the index searches by brute force instead of the kd-tree.
constexpr Eigen::Index kBruteMinDim = 16;

class PointIndex {
public:
    /// Points as the columns of a p×n matrix (each point contiguous for the tree).
    explicit PointIndex(Eigen::MatrixXd pointsAsColumns);
    ~PointIndex();
    PointIndex(const PointIndex&) = delete;
    PointIndex& operator=(const PointIndex&) = delete;

    const Eigen::MatrixXd& points() const { return m_points; }
    Eigen::Index size() const { return m_points.cols(); }
    /// True when queries are answered by brute force (p ≥ kBruteMinDim) rather than the kd-tree.
    bool bruteForce() const { return !m_tree; }
    /// The k nearest points of q (p values) in ascending squared distance into idx[] / d2[]
    /// (room for k each); returns how many were found (min(k, size()); 0 for k = 0). Thread-safe.
    std::size_t nearest(const double* q, std::size_t k, Eigen::Index* idx, double* d2) const;
    /// nearest() for the m queries that are the columns of Q (p×m): query i's results at
    /// idx[i·k …], d2[i·k …]. Brute force computes the distances of a block of queries with one
    /// matrix product, which is where its speed comes from (it orders ties by index); the tree
    /// answers one query at a time. Returns min(k, size()). Thread-safe.
    std::size_t nearestMany(const Eigen::Ref<const Eigen::MatrixXd>& Q, std::size_t k, Eigen::Index* idx,
                            double* d2) const;
    /// Distances (ascending) and indices of the k nearest points of each row of X; ParamError
    /// unless 1 ≤ k ≤ size().
    /// Uses every worker thread (base/ParallelFor) for large X.
    void query(const Eigen::MatrixXd& X, int k, Eigen::MatrixXd& dist, Eigen::MatrixXi& index) const;

private:
    struct Tree;
    struct Duplicates;
    /// Groups equal columns of P (−0 equals +0); null when all are distinct.
    static std::unique_ptr<Duplicates> findDuplicates(const Eigen::MatrixXd& P);
    Eigen::MatrixXd m_points;
    /// Repeated points (kd-tree only): the tree holds each distinct point once and a query
    /// expands a distinct neighbour into its copies. A tree cannot split equal points, so 200 000
    /// copies made one leaf that every query scanned: 69 s, now linear. Null without repeats.
    std::unique_ptr<Duplicates> m_dups;
    Eigen::VectorXd m_norms; ///< ‖x_j‖² (brute force)
    std::unique_ptr<Tree> m_tree; ///< null in brute-force mode
};

} // namespace olens
