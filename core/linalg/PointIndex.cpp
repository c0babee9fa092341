#include "linalg/PointIndex.h"

#include "base/Errors.h"
#include "base/ParallelFor.h"

#include <nanoflann.hpp>
#ifdef OLENS_OPENBLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <cmath>
#include <utility>
#include <string>
#include <vector>

namespace olens {

/// The tree over the columns of P. nanoflann's own Eigen adaptor indexes with Eigen::Index, so its
/// permutation of the points took 8 B a point (160 MB at 20 M points, issue #54); this dataset view
/// indexes with 32 bits. nanoflann builds the tree in its constructor (it was built a second time).
struct PointIndex::Tree {
    struct Columns { // nanoflann's dataset interface
        const Eigen::MatrixXd& P;
        std::size_t kdtree_get_point_count() const { return static_cast<std::size_t>(P.cols()); }
        double kdtree_get_pt(std::uint32_t i, std::size_t d) const { return P(static_cast<Eigen::Index>(d), i); }
        template <class Box> bool kdtree_get_bbox(Box&) const { return false; }
    };
    using Kd = nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Adaptor<double, Columns, double, std::uint32_t>, Columns, -1,
                                                   std::uint32_t>;
    explicit Tree(const Eigen::MatrixXd& P)
        : points{checkedSize(P)}, kd(static_cast<int>(P.rows()), points, nanoflann::KDTreeSingleIndexAdaptorParams(16))
    {
    }
    static const Eigen::MatrixXd& checkedSize(const Eigen::MatrixXd& P)
    {
        if (P.cols() > static_cast<Eigen::Index>(std::numeric_limits<std::uint32_t>::max()))
            throw ParamError("the neighbour index holds at most 4 294 967 295 points; got " + std::to_string(P.cols()));
        return P;
    }
    Columns points;
    Kd kd;
};

struct PointIndex::Duplicates {
    Eigen::MatrixXd distinct;              ///< p×u, each distinct point once (the tree's points)
    std::vector<Eigen::Index> start;       ///< u+1: copies of distinct point r are members[start[r] …]
    std::vector<Eigen::Index> members;     ///< original indices, grouped, ascending in a group
};

PointIndex::PointIndex(Eigen::MatrixXd pointsAsColumns) : m_points(std::move(pointsAsColumns))
{
    if (m_points.rows() >= kBruteMinDim) {
        m_norms = m_points.colwise().squaredNorm().transpose();
    } else {
        m_dups = findDuplicates(m_points);
        m_tree = std::make_unique<Tree>(m_dups ? m_dups->distinct : m_points);
    }
}

std::unique_ptr<PointIndex::Duplicates> PointIndex::findDuplicates(const Eigen::MatrixXd& P)
{
    // Hash each point, sort (hash, index) pairs and compare values only inside runs of equal
    // hashes: ~0.1 s for a million points (an unordered_map took ~0.9 s, 18 % of a knn fit).
    const Eigen::Index p = P.rows(), n = P.cols();
    std::vector<std::pair<std::uint64_t, Eigen::Index>> keyed(static_cast<std::size_t>(n));
    for (Eigen::Index j = 0; j < n; ++j) {
        std::uint64_t h = 1469598103934665603ull;
        for (Eigen::Index r = 0; r < p; ++r) {
            const double v = P(r, j) + 0.0; // −0 → +0
            std::uint64_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            h = (h ^ bits) * 1099511628211ull;
        }
        keyed[static_cast<std::size_t>(j)] = {h, j};
    }
    std::sort(keyed.begin(), keyed.end());
    bool any = false;
    for (std::size_t i = 1; i < keyed.size() && !any; ++i)
        any = keyed[i].first == keyed[i - 1].first && P.col(keyed[i].second) == P.col(keyed[i - 1].second);
    if (!any)
        return nullptr;
    // Group ids in order of each group's first (smallest) index, so copies stay in index order.
    std::vector<Eigen::Index> group(static_cast<std::size_t>(n), -1);
    for (std::size_t a = 0; a < keyed.size();) {
        std::size_t b = a + 1;
        while (b < keyed.size() && keyed[b].first == keyed[a].first)
            ++b;
        // [a, b): equal hashes; within them, equal points (a run is almost always one point).
        for (std::size_t i = a; i < b; ++i) {
            const Eigen::Index ji = keyed[i].second;
            if (group[static_cast<std::size_t>(ji)] >= 0)
                continue;
            group[static_cast<std::size_t>(ji)] = ji; // provisional: the group's smallest index
            for (std::size_t t = i + 1; t < b; ++t) {
                const Eigen::Index jt = keyed[t].second;
                if (group[static_cast<std::size_t>(jt)] < 0 && P.col(jt) == P.col(ji))
                    group[static_cast<std::size_t>(jt)] = ji;
            }
        }
        a = b;
    }
    // keyed is sorted by index within equal hashes, so ji above is the smallest index of its
    // group; number the groups by that index.
    std::vector<Eigen::Index> number(static_cast<std::size_t>(n), -1);
    Eigen::Index u = 0;
    for (Eigen::Index j = 0; j < n; ++j)
        if (group[static_cast<std::size_t>(j)] == j)
            number[static_cast<std::size_t>(j)] = u++;
    auto d = std::make_unique<PointIndex::Duplicates>();
    d->distinct.resize(p, u);
    d->start.assign(static_cast<std::size_t>(u) + 1, 0);
    for (Eigen::Index j = 0; j < n; ++j)
        ++d->start[static_cast<std::size_t>(number[static_cast<std::size_t>(group[static_cast<std::size_t>(j)])]) + 1];
    for (std::size_t r = 1; r < d->start.size(); ++r)
        d->start[r] += d->start[r - 1];
    std::vector<Eigen::Index> fill(d->start.begin(), d->start.end() - 1);
    d->members.resize(static_cast<std::size_t>(n));
    for (Eigen::Index j = 0; j < n; ++j) {
        const auto g = static_cast<std::size_t>(number[static_cast<std::size_t>(group[static_cast<std::size_t>(j)])]);
        if (fill[g] == d->start[g])
            d->distinct.col(static_cast<Eigen::Index>(g)) = P.col(j);
        d->members[static_cast<std::size_t>(fill[g]++)] = j;
    }
    return d;
}

PointIndex::~PointIndex() = default;

std::size_t PointIndex::nearest(const double* q, std::size_t k, Eigen::Index* idx, double* d2) const
{
    if (k == 0)
        return 0; // nanoflann's result set reads its last slot: with none, before the array
    if (bruteForce())
        return nearestMany(Eigen::Map<const Eigen::MatrixXd>(q, m_points.rows(), 1), k, idx, d2);
    if (!m_dups) {
        nanoflann::KNNResultSet<double, Eigen::Index> result(k);
        result.init(idx, d2);
        m_tree->kd.findNeighbors(result, q, nanoflann::SearchParams());
        return result.size();
    }
    // k distinct neighbours hold at least k points: search them, then write out their copies.
    const std::size_t kq = std::min<std::size_t>(k, static_cast<std::size_t>(m_dups->distinct.cols()));
    thread_local std::vector<Eigen::Index> uidx;
    thread_local std::vector<double> ud2;
    uidx.resize(kq);
    ud2.resize(kq);
    nanoflann::KNNResultSet<double, Eigen::Index> result(kq);
    result.init(uidx.data(), ud2.data());
    m_tree->kd.findNeighbors(result, q, nanoflann::SearchParams());
    std::size_t out = 0;
    for (std::size_t t = 0; t < result.size() && out < k; ++t) {
        const auto g = static_cast<std::size_t>(uidx[t]);
        for (Eigen::Index m = m_dups->start[g]; m < m_dups->start[g + 1] && out < k; ++m, ++out) {
            idx[out] = m_dups->members[static_cast<std::size_t>(m)];
            d2[out] = ud2[t];
        }
    }
    return out;
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
    // ‖q − x‖² = ‖q‖² + ‖x‖² − 2 qᵀx: products G = ‖x‖² − 2 Xᵀ Q of a tile of points by a block of
    // queries (BLAS-3; ‖q‖² is common to a query and left out). The expansion loses digits to
    // cancellation for near points, so it only preselects: each query keeps its `found + kRefine`
    // smallest across the tiles, which are recomputed exactly as Σ (q − x)² and decide, ties by index.
    // Tiles of 512 points × 256 queries (1 MB) stay in cache between the product and the scan, and
    // OpenBLAS packs a tile once per 256 queries (a first version took all n points by 40 queries: it
    // re-packed the whole point set every 40 queries and ran 20–50 % behind scikit-learn's ArgKmin).
    constexpr std::size_t kRefine = 16;
    constexpr Eigen::Index kQueryBlock = 256, kPointTile = 512;
    const std::size_t cand = std::min<std::size_t>(found + kRefine, static_cast<std::size_t>(n));
    const Eigen::Index p = m_points.rows();
    Eigen::MatrixXd G(std::min(kPointTile, n), std::min(kQueryBlock, m));
    using Entry = std::pair<double, Eigen::Index>;
    std::vector<Entry> heaps;       // cand entries per query of the block, each a max-heap
    std::vector<std::size_t> sizes; // entries in use per query
    std::vector<Entry> best;
    for (Eigen::Index b0 = 0; b0 < m; b0 += kQueryBlock) {
        const Eigen::Index bm = std::min(kQueryBlock, m - b0);
        heaps.assign(static_cast<std::size_t>(bm) * cand, Entry{});
        sizes.assign(static_cast<std::size_t>(bm), 0);
        for (Eigen::Index t0 = 0; t0 < n; t0 += kPointTile) {
            const Eigen::Index tn = std::min(kPointTile, n - t0);
#ifdef OLENS_OPENBLAS
            // C = ‖x‖² broadcast, then C = −2 XᵀQ + C in the one call (β = 1): no zeroing pass
            // (Eigen's product clears its destination first) and no second pass for the norms.
            for (Eigen::Index c = 0; c < bm; ++c)
                G.col(c).head(tn) = m_norms.segment(t0, tn);
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, static_cast<int>(tn), static_cast<int>(bm),
                        static_cast<int>(p), -2.0, m_points.data() + t0 * p, static_cast<int>(p),
                        Q.data() + b0 * Q.outerStride(), static_cast<int>(Q.outerStride()), 1.0, G.data(),
                        static_cast<int>(G.rows()));
#else
            G.topLeftCorner(tn, bm).noalias() = -2.0 * m_points.middleCols(t0, tn).transpose() * Q.middleCols(b0, bm);
            G.topLeftCorner(tn, bm).colwise() += m_norms.segment(t0, tn);
#endif
            for (Eigen::Index c = 0; c < bm; ++c) {
                // The cand smallest so far: a max-heap whose top is replaced only by something
                // smaller — rare after the first tile, so this is a plain scan against the top's
                // value held in a register. Point indices only grow along the scan, so a value equal
                // to the top's never precedes it (ties by index) and the value alone decides. (The
                // scan compared (value, index) pairs against the heap in memory: perf put it at 31 %
                // of knn's fit on Spambase beside 38 % in the product.)
                Entry* h = heaps.data() + static_cast<std::size_t>(c) * cand;
                std::size_t& size = sizes[static_cast<std::size_t>(c)];
                const double* g = G.col(c).data();
                Eigen::Index j = 0;
                for (; j < tn && size < cand; ++j) {
                    h[size++] = Entry{g[j], t0 + j};
                    std::push_heap(h, h + size);
                }
                double worst = size == cand ? h[0].first : std::numeric_limits<double>::infinity();
                for (; j < tn; ++j) {
                    if (!(g[j] < worst))
                        continue;
                    std::pop_heap(h, h + cand);
                    h[cand - 1] = Entry{g[j], t0 + j};
                    std::push_heap(h, h + cand);
                    worst = h[0].first;
                }
            }
        }
        for (Eigen::Index c = 0; c < bm; ++c) {
            const auto q = Q.col(b0 + c);
            const Entry* h = heaps.data() + static_cast<std::size_t>(c) * cand;
            best.clear();
            for (std::size_t t = 0; t < cand; ++t)
                best.emplace_back((m_points.col(h[t].second) - q).squaredNorm(), h[t].second);
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
