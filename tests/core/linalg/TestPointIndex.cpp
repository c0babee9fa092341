// The kd-tree point index (core/linalg/PointIndex) against an independent brute-force search written
// here: every point's distance to the query, sorted. On an integer lattice with duplicated points
// (every squared distance is a small multiple of 1/4, so both computations are exact and ties are
// real ties) the k nearest are compared exactly, for k from 1 to beyond the number of points; on
// Gaussian data with a tolerance, through query() on one and on several threads.
#include "RandomData.h"
#include "base/ParallelFor.h"
#include "base/Errors.h"
#include "linalg/PointIndex.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace olens;
using olens::test::gaussianMatrix;

namespace {

/// Restores the thread count when a test ends, failing or not.
struct ThreadsGuard {
    ~ThreadsGuard() { setWorkerThreads(0); }
};

/// Squared distances of q to every column of P (the brute-force reference).
std::vector<double> allSquaredDistances(const Eigen::MatrixXd& P, const Eigen::VectorXd& q)
{
    std::vector<double> d2(static_cast<std::size_t>(P.cols()));
    for (Eigen::Index j = 0; j < P.cols(); ++j)
        d2[static_cast<std::size_t>(j)] = (P.col(j) - q).squaredNorm();
    return d2;
}

/// The integer lattice {0..4}³ (125 points) followed by copies of every 13th of them (10 duplicates).
Eigen::MatrixXd latticeWithDuplicates()
{
    std::vector<Eigen::Vector3d> pts;
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 5; ++y)
            for (int z = 0; z < 5; ++z)
                pts.emplace_back(double(x), double(y), double(z));
    const std::size_t lattice = pts.size();
    for (std::size_t i = 0; i < lattice; i += 13)
        pts.push_back(pts[i]);
    Eigen::MatrixXd P(3, static_cast<Eigen::Index>(pts.size()));
    for (std::size_t i = 0; i < pts.size(); ++i)
        P.col(static_cast<Eigen::Index>(i)) = pts[i];
    return P;
}

/// Queries on the lattice, between lattice points (half-integers: centres of cells and faces,
/// equidistant from 8 or 4 points) and outside the box.
std::vector<Eigen::Vector3d> latticeQueries()
{
    using V = Eigen::Vector3d;
    return {V(0, 0, 0),      V(2, 2, 2),     V(4, 4, 4),  V(1.5, 1.5, 1.5), V(0.5, 2.5, 3.5),
            V(2, 2.5, 2.5),  V(3, 1, 0.5),   V(-3, 7, 2), V(10, 10, 10),    V(2, -1.5, 4),
            V(0, 0, 6.5)};
}

} // namespace

class TestPointIndex : public QObject {
    Q_OBJECT
private slots:
    void nearestEqualsBruteForceWithTiesDuplicatesAndKBeyondN()
    {
        const Eigen::MatrixXd P = latticeWithDuplicates();
        const PointIndex index(P);
        const auto n = static_cast<std::size_t>(P.cols());
        QCOMPARE(index.size(), P.cols());
        QVERIFY(index.points() == P);
        for (const Eigen::Vector3d& q : latticeQueries()) {
            const std::vector<double> ref = allSquaredDistances(P, q);
            std::vector<double> sortedRef = ref;
            std::sort(sortedRef.begin(), sortedRef.end());
            for (std::size_t k : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(27), n - 1, n, n + 5}) {
                const QString where = QString("q=(%1,%2,%3) k=%4").arg(q.x()).arg(q.y()).arg(q.z()).arg(k);
                std::vector<Eigen::Index> idx(k, -1);
                std::vector<double> d2(k, -1.0);
                const std::size_t found = index.nearest(q.data(), k, idx.data(), d2.data());
                QVERIFY2(found == std::min(k, n), qPrintable(where));
                std::set<Eigen::Index> seen;
                for (std::size_t j = 0; j < found; ++j) {
                    // The j-th reported distance is the j-th smallest of all (ascending, exact on the
                    // lattice), and the reported point really is at that distance: with distinct
                    // indices this is a valid k-nearest set whichever of several tied points it holds.
                    QVERIFY2(d2[j] == sortedRef[j], qPrintable(where + QString(" j=%1").arg(j)));
                    QVERIFY2(idx[j] >= 0 && idx[j] < P.cols(), qPrintable(where));
                    QVERIFY2(ref[static_cast<std::size_t>(idx[j])] == d2[j], qPrintable(where));
                    QVERIFY2(seen.insert(idx[j]).second, qPrintable(where + " repeats an index"));
                }
                if (k >= n)
                    QCOMPARE(seen.size(), n); // every point once
            }
        }
        // A lattice point that was duplicated: both copies at distance 0 come first.
        Eigen::Index idx[3];
        double d2[3];
        QCOMPARE(index.nearest(P.col(13).data(), 3, idx, d2), std::size_t(3));
        QCOMPARE(d2[0], 0.0);
        QCOMPARE(d2[1], 0.0);
        QCOMPARE(d2[2], 1.0);
        // Point 13 = (0, 2, 3) was copied to column 125 + 1 (the second duplicate); its five lattice
        // neighbours are at squared distance 1.
        QVERIFY((std::set<Eigen::Index>{idx[0], idx[1]}) == (std::set<Eigen::Index>{13, 126}));
    }

    void manyCopiesOfOnePointExpandInOrder()
    {
        // Issue #34: 200 000 copies of a point made one kd-tree leaf that every query scanned
        // (quadratic). The tree now holds distinct points; a query expands each into its copies.
        // The lattice (its origin already copied once, to column 125) plus 500 copies of the origin:
        // 502 points at 0, then the origin's three lattice neighbours at 1, each index once, copies
        // in ascending index order.
        Eigen::MatrixXd P = latticeWithDuplicates();
        const Eigen::Index lattice = P.cols();
        P.conservativeResize(3, lattice + 500);
        P.rightCols(500).setZero();
        P(0, lattice + 7) = -0.0; // −0 is the same point
        const PointIndex index(P);
        const std::size_t k = 505;
        std::vector<Eigen::Index> idx(k);
        std::vector<double> d2(k);
        const Eigen::Vector3d origin(0, 0, 0);
        QCOMPARE(index.nearest(origin.data(), k, idx.data(), d2.data()), k);
        for (std::size_t j = 0; j < 502; ++j)
            QCOMPARE(d2[j], 0.0);
        for (std::size_t j = 502; j < k; ++j)
            QCOMPARE(d2[j], 1.0);
        QCOMPARE(idx[0], Eigen::Index(0)); // the lattice's origin, then its copies in order
        QCOMPARE(idx[1], Eigen::Index(125));
        QCOMPARE(idx[2], lattice);
        QCOMPARE(idx[501], lattice + 499);
        QCOMPARE(std::set<Eigen::Index>(idx.begin(), idx.end()).size(), k);
        // The many-queries path and query() agree with nearest().
        Eigen::MatrixXd dist;
        Eigen::MatrixXi nn;
        index.query(P.transpose(), 3, dist, nn);
        for (Eigen::Index i = lattice; i < P.cols(); ++i)
            QCOMPARE(dist.row(i).maxCoeff(), 0.0);
    }

    void bruteForceAtHighDimensionEqualsTheReference()
    {
        // p ≥ kBruteMinDim: brute force through BLAS blocks (issue #33 item 7). The lattice with its
        // duplicates, padded with zero coordinates to 18 dimensions (squared distances stay exact
        // small integers and quarters), asked all at once with nearestMany: exactly the reference's
        // k smallest, ties ordered by index.
        const Eigen::MatrixXd P3 = latticeWithDuplicates();
        Eigen::MatrixXd P = Eigen::MatrixXd::Zero(18, P3.cols());
        P.topRows(3) = P3;
        const PointIndex index(P);
        QVERIFY(index.bruteForce());
        QVERIFY(!PointIndex(P3).bruteForce());
        const std::vector<Eigen::Vector3d> qs = latticeQueries();
        Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(18, static_cast<Eigen::Index>(qs.size()));
        for (std::size_t i = 0; i < qs.size(); ++i)
            Q.col(static_cast<Eigen::Index>(i)).head(3) = qs[i];
        const auto n = static_cast<std::size_t>(P.cols());
        for (std::size_t k : {std::size_t(1), std::size_t(9), std::size_t(27), n, n + 3}) {
            std::vector<Eigen::Index> idx(qs.size() * k, -1);
            std::vector<double> d2(qs.size() * k, -1.0);
            QCOMPARE(index.nearestMany(Q, k, idx.data(), d2.data()), std::min(k, n));
            for (std::size_t i = 0; i < qs.size(); ++i) {
                const std::vector<double> ref = allSquaredDistances(P, Q.col(static_cast<Eigen::Index>(i)));
                std::vector<std::pair<double, Eigen::Index>> order;
                for (std::size_t j = 0; j < n; ++j)
                    order.emplace_back(ref[j], static_cast<Eigen::Index>(j));
                std::sort(order.begin(), order.end()); // by distance, then index
                for (std::size_t j = 0; j < std::min(k, n); ++j) {
                    const QString where = QString("query %1 k=%2 j=%3").arg(i).arg(k).arg(j);
                    QVERIFY2(d2[i * k + j] == order[j].first, qPrintable(where));
                    QVERIFY2(idx[i * k + j] == order[j].second, qPrintable(where));
                }
            }
        }
        // Gaussian data in 24 dimensions through query(), on one and on two threads: the distances of
        // an independent search to 1e-12, the same numbers whatever the thread count.
        ThreadsGuard guard;
        const Eigen::MatrixXd G = gaussianMatrix(600, 24, 5);
        const Eigen::MatrixXd X = gaussianMatrix(300, 24, 6);
        const PointIndex gi(G.transpose());
        QVERIFY(gi.bruteForce());
        Eigen::MatrixXd d1, d2m;
        Eigen::MatrixXi i1, i2;
        setWorkerThreads(1);
        gi.query(X, 6, d1, i1);
        setWorkerThreads(2);
        gi.query(X, 6, d2m, i2);
        QVERIFY(d1 == d2m && i1 == i2);
        for (Eigen::Index r = 0; r < X.rows(); ++r) {
            std::vector<double> ref = allSquaredDistances(G.transpose(), X.row(r).transpose());
            std::sort(ref.begin(), ref.end());
            for (int j = 0; j < 6; ++j)
                QVERIFY(std::abs(d1(r, j) - std::sqrt(ref[static_cast<std::size_t>(j)])) <= 1e-12 * d1(r, j));
        }
    }

    void degenerateSets()
    {
        // One point: any k finds exactly that point.
        {
            const Eigen::Vector2d only(0.5, -2.0);
            const PointIndex index{Eigen::MatrixXd(only)};
            Eigen::Index idx[4];
            double d2[4];
            const double q[2] = {3.5, 2.0};
            QCOMPARE(index.nearest(q, 4, idx, d2), std::size_t(1));
            QCOMPARE(idx[0], Eigen::Index(0));
            QCOMPARE(d2[0], 25.0); // 3² + 4²
        }
        // Forty identical points (a tree whose boxes have no extent): all at the same distance.
        {
            Eigen::MatrixXd P(2, 40);
            P.colwise() = Eigen::Vector2d(1.0, 1.0);
            const PointIndex index(P);
            const double q[2] = {1.0, 3.0};
            std::vector<Eigen::Index> idx(40);
            std::vector<double> d2(40);
            QCOMPARE(index.nearest(q, 40, idx.data(), d2.data()), std::size_t(40));
            for (double v : d2)
                QCOMPARE(v, 4.0);
            QCOMPARE(std::set<Eigen::Index>(idx.begin(), idx.end()).size(), std::size_t(40));
        }
        // One feature: the index is ordinary sorting. Points 0, 1, …, 29 in a scrambled order.
        {
            Eigen::MatrixXd P(1, 30);
            for (Eigen::Index j = 0; j < 30; ++j)
                P(0, j) = static_cast<double>((j * 7) % 30); // 7 is coprime with 30: a permutation
            const PointIndex index(P);
            Eigen::MatrixXd X(1, 1);
            X(0, 0) = 11.25;
            Eigen::MatrixXd dist;
            Eigen::MatrixXi nn;
            index.query(X, 4, dist, nn);
            // Nearest values 11, 12, 10, 13 at distances 0.25, 0.75, 1.25, 1.75.
            const double expectedValue[4] = {11, 12, 10, 13};
            const double expectedDist[4] = {0.25, 0.75, 1.25, 1.75};
            for (int j = 0; j < 4; ++j) {
                QCOMPARE(dist(0, j), expectedDist[j]);
                QCOMPARE(P(0, nn(0, j)), expectedValue[j]);
            }
        }
    }

    void kOutsideItsRangeIsRefusedOrEmpty()
    {
        // Before: k = 0 read nanoflann's result slot -1 (before the array); query() with k > size()
        // left the extra columns of a row holding the previous row's neighbours.
        Eigen::MatrixXd P(2, 3);
        P << 0, 1, 2,
             0, 0, 0;
        const PointIndex index(P);
        const double q[2] = {0.2, 0.0};
        Eigen::Index idx[1] = {-7};
        double d2[1] = {-7.0};
        QCOMPARE(index.nearest(q, 0, idx, d2), std::size_t(0));
        QCOMPARE(idx[0], Eigen::Index(-7)); // untouched
        Eigen::MatrixXd dist;
        Eigen::MatrixXi nn;
        QVERIFY_THROWS_EXCEPTION(ParamError, index.query(P.transpose(), 0, dist, nn));
        try {
            index.query(P.transpose(), 4, dist, nn);
            QFAIL("expected ParamError for k = 4 > 3 points");
        } catch (const ParamError& e) {
            QVERIFY2(QString(e.what()).contains("k = 4"), e.what());
        }
        index.query(P.transpose(), 3, dist, nn); // k = size() is fine
        QCOMPARE(dist(0, 2), 2.0);
    }

    void queryEqualsBruteForceOnAnyNumberOfThreads()
    {
        // 4500 query rows = 3 chunks of kRowsPerChunk: several threads take part.
        ThreadsGuard guard;
        const Eigen::MatrixXd P = gaussianMatrix(5, 3000, 41); // points as columns
        const Eigen::MatrixXd X = gaussianMatrix(4500, 5, 42);
        const int k = 6;
        const PointIndex index(P);
        Eigen::MatrixXd dist[2];
        Eigen::MatrixXi nn[2];
        for (int t : {1, 3}) {
            setWorkerThreads(t);
            index.query(X, k, dist[t == 1 ? 0 : 1], nn[t == 1 ? 0 : 1]);
        }
        QCOMPARE(dist[0].rows(), X.rows());
        QCOMPARE(dist[0].cols(), Eigen::Index(k));
        QCOMPARE(nn[0].rows(), X.rows());
        QCOMPARE(nn[0].cols(), Eigen::Index(k));
        QVERIFY(dist[0] == dist[1]); // bit for bit, whatever the split
        QVERIFY(nn[0] == nn[1]);
        for (Eigen::Index i = 0; i < X.rows(); i += 3) { // every third row of each chunk: keeps Debug builds fast
            const Eigen::VectorXd q = X.row(i).transpose();
            std::vector<double> ref = allSquaredDistances(P, q);
            const std::vector<double> byIndex = ref;
            std::partial_sort(ref.begin(), ref.begin() + k, ref.end());
            std::set<int> seen;
            for (int j = 0; j < k; ++j) {
                const double expected = std::sqrt(ref[static_cast<std::size_t>(j)]);
                QVERIFY2(std::abs(dist[0](i, j) - expected) <= 1e-12 * (1.0 + expected),
                         qPrintable(QString("row %1, neighbour %2: %3 vs %4").arg(i).arg(j).arg(dist[0](i, j)).arg(expected)));
                const int at = nn[0](i, j);
                QVERIFY(at >= 0 && at < P.cols());
                QVERIFY(std::abs(std::sqrt(byIndex[static_cast<std::size_t>(at)]) - dist[0](i, j)) <= 1e-12 * (1.0 + expected));
                QVERIFY(seen.insert(at).second);
                if (j > 0)
                    QVERIFY(dist[0](i, j) >= dist[0](i, j - 1));
            }
        }
    }

    void everyPointIsItsOwnNearestNeighbour()
    {
        // Distinct (Gaussian) points queried as themselves: k = 1 gives the point at distance 0;
        // k = size() gives every point once, the farthest last (checked against brute force).
        const Eigen::MatrixXd P = gaussianMatrix(3, 200, 43);
        const PointIndex index(P);
        const Eigen::MatrixXd X = P.transpose();
        Eigen::MatrixXd dist;
        Eigen::MatrixXi nn;
        index.query(X, 1, dist, nn);
        for (Eigen::Index i = 0; i < X.rows(); ++i) {
            QCOMPARE(nn(i, 0), static_cast<int>(i));
            QCOMPARE(dist(i, 0), 0.0);
        }
        const int n = static_cast<int>(P.cols());
        index.query(X, n, dist, nn);
        for (Eigen::Index i = 0; i < X.rows(); i += 17) {
            std::set<int> all;
            for (int j = 0; j < n; ++j)
                all.insert(nn(i, j));
            QCOMPARE(static_cast<int>(all.size()), n);
            const std::vector<double> ref = allSquaredDistances(P, X.row(i).transpose());
            const double farthest = std::sqrt(*std::max_element(ref.begin(), ref.end()));
            QVERIFY(std::abs(dist(i, n - 1) - farthest) <= 1e-12 * (1.0 + farthest));
        }
    }
};

QTEST_APPLESS_MAIN(TestPointIndex)
#include "TestPointIndex.moc"
