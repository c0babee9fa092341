#include "detectors/acdt/AcdtDetector.h"
#include "detectors/TrainingHistory.h"

#include "base/Errors.h"
#include "linalg/Grassmann.h"
#include "metrics/Metrics.h"
#include "detectors/DetectorInfo.h"

#include "linalg/PointIndex.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

namespace olens {

namespace acdt {

Graph symmetricKnnGraph(const PointIndex& index, int k)
{
    const auto n = static_cast<int>(index.size());
    Graph g(static_cast<std::size_t>(n));
    k = std::min(k, n - 1);
    if (k <= 0)
        return g;
    const auto kk = static_cast<std::size_t>(k + 1);
    std::vector<Eigen::Index> idx(kk);
    std::vector<double> d2(kk);
    for (int i = 0; i < n; ++i) {
        const std::size_t found = index.nearest(index.points().col(i).data(), kk, idx.data(), d2.data());
        // Drop the point itself wherever it appears (duplicates may come first); keep k others.
        int taken = 0;
        for (std::size_t j = 0; j < found && taken < k; ++j) {
            const auto y = static_cast<int>(idx[j]);
            if (y == i)
                continue;
            g[static_cast<std::size_t>(i)].push_back(y);
            g[static_cast<std::size_t>(y)].push_back(i); // symmetrise
            ++taken;
        }
    }
    for (auto& adj : g) {
        std::sort(adj.begin(), adj.end());
        adj.erase(std::unique(adj.begin(), adj.end()), adj.end());
    }
    return g;
}

Eigen::MatrixXd tangentSpaces(const Eigen::MatrixXd& X, const Graph& graph, int d,
                              const std::function<void(int)>& tick)
{
    const Eigen::Index n = X.rows(), N = X.cols();
    Eigen::MatrixXd T(N, d * n);
    Eigen::MatrixXd D;
    for (Eigen::Index i = 0; i < n; ++i) {
        // Lines 3–5: [N_x^0] = the neighbours y − x as columns; M_x = its d leading left
        // singular vectors (Eckart–Young).
        const auto& nb = graph[static_cast<std::size_t>(i)];
        D.resize(N, static_cast<Eigen::Index>(nb.size()));
        for (std::size_t j = 0; j < nb.size(); ++j)
            D.col(static_cast<Eigen::Index>(j)) = (X.row(nb[j]) - X.row(i)).transpose();
        T.middleCols(d * i, d) = grassmann::leadingLeftSingularVectors(D, d);
        if (tick && (i & 63) == 63)
            tick(static_cast<int>(i + 1));
    }
    return T;
}

Graph symmetricKnnGraph(const Eigen::MatrixXd& X, int k)
{
    return symmetricKnnGraph(PointIndex(X.transpose()), k);
}

TangentIndex::TangentIndex(std::shared_ptr<const PointIndex> points, Eigen::MatrixXd tangents, int d)
    : m_index(std::move(points)), m_tangents(std::move(tangents)), m_d(d)
{
}

Eigen::VectorXd TangentIndex::residual(const Eigen::MatrixXd& X, int m, bool excludeSelf) const
{
    const Eigen::MatrixXd& P = m_index->points();
    const Eigen::Index n = P.cols();
    m = static_cast<int>(std::min<Eigen::Index>(m, n - (excludeSelf ? 1 : 0)));
    Eigen::VectorXd out(X.rows());
    if (m <= 0) {
        out.setZero();
        return out;
    }
    const auto kk = static_cast<std::size_t>(m + (excludeSelf ? 1 : 0));
    std::vector<Eigen::Index> idx(kk);
    std::vector<double> d2(kk);
    std::vector<double> r;
    Eigen::VectorXd y, v;
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        y = X.row(i).transpose();
        const std::size_t found = m_index->nearest(y.data(), kk, idx.data(), d2.data());
        r.clear();
        for (std::size_t j = 0; j < found && static_cast<int>(r.size()) < m; ++j) {
            if (excludeSelf && idx[j] == i)
                continue;
            const Eigen::Index x = idx[j];
            v = y - P.col(x);
            const auto M = m_tangents.middleCols(m_d * x, m_d);
            r.push_back((v - M * (M.transpose() * v)).norm());
        }
        if (r.empty()) {
            out(i) = 0.0;
            continue;
        }
        const auto mid = r.begin() + static_cast<std::ptrdiff_t>(r.size() / 2);
        std::nth_element(r.begin(), mid, r.end());
        double med = *mid;
        if (r.size() % 2 == 0)
            med = 0.5 * (med + *std::max_element(r.begin(), mid));
        out(i) = med;
    }
    return out;
}

namespace {

/// Heap entry: candidate merge of live clusters a > b with bound d̃ = cost. Cluster ids are
/// never reused (merge i creates id n + i), so the pair of ids is the entry's version stamp: an
/// entry is stale exactly when one of its clusters has been merged since it was pushed (lazy
/// deletion on pop).
struct Candidate {
    double cost;
    int a;
    int b;
};

/// Min-heap order on (cost, a, b): deterministic tie-breaking.
struct LaterCandidate {
    bool operator()(const Candidate& x, const Candidate& y) const
    {
        if (x.cost != y.cost)
            return x.cost > y.cost;
        if (x.a != y.a)
            return x.a > y.a;
        return x.b > y.b;
    }
};

/// d̃ (last slide, appendix (2)).
double mergeBound(int sizeA, int sizeB, double dist, double sumA, double sumB)
{
    return static_cast<double>(sizeA + sizeB) * dist * dist + 2.0 * dist * (sumA + sumB);
}

} // namespace

std::vector<Merge> greedyMerge(const Eigen::MatrixXd& T, int d, const Graph& graph, const MergeObserver& observer)
{
    const auto n = static_cast<int>(graph.size());
    std::vector<Merge> history;
    if (n <= 1)
        return history;
    const auto total = static_cast<std::size_t>(2 * n - 1);
    history.reserve(static_cast<std::size_t>(n - 1));

    std::vector<char> alive(total, 0);
    std::vector<int> parent(total);            // union-find over cluster ids (dead id → its merger)
    std::vector<int> size(total, 1);
    std::vector<double> sumDist(total, 0.0);   // Σ_{x∈C} D_T(M_x, M_C)
    std::vector<double> sumSq(total, 0.0);     // p(C) = Σ_{x∈C} D_T²(M_x, M_C)
    std::vector<grassmann::ProjectorSum> proj(total); // Σ projectors + flag mean of each live cluster
    std::vector<int> head(total), tail(total), next(static_cast<std::size_t>(n), -1); // member lists
    Graph adj(total);
    for (int i = 0; i < n; ++i) {
        alive[static_cast<std::size_t>(i)] = 1;
        parent[static_cast<std::size_t>(i)] = i;
        head[static_cast<std::size_t>(i)] = tail[static_cast<std::size_t>(i)] = i;
        adj[static_cast<std::size_t>(i)] = graph[static_cast<std::size_t>(i)];
    }
    auto find = [&parent](int c) {
        while (parent[static_cast<std::size_t>(c)] != c) {
            parent[static_cast<std::size_t>(c)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(c)])];
            c = parent[static_cast<std::size_t>(c)];
        }
        return c;
    };
    auto pointBasis = [&T, d](int x) { return T.middleCols(static_cast<Eigen::Index>(d) * x, d); };
    for (int i = 0; i < n; ++i)
        proj[static_cast<std::size_t>(i)] = grassmann::ProjectorSum::of(pointBasis(i));

    // Line 7: singletons. For them Σ D_T(M_x, M_C) = 0, so d̃ = 2 D_T²(M_x, M_y).
    std::vector<Candidate> heap;
    for (int i = 0; i < n; ++i) {
        if (observer && (i & 255) == 255)
            observer(history); // still empty: lets the caller report progress and cancel
        for (int j : graph[static_cast<std::size_t>(i)])
            if (j < i) {
                const double D = grassmann::distance(pointBasis(i), pointBasis(j));
                heap.push_back({mergeBound(1, 1, D, 0.0, 0.0), i, j});
            }
    }
    std::make_heap(heap.begin(), heap.end(), LaterCandidate());

    double partition = 0.0; // P(C) of the current partition (0 for singletons)
    std::vector<int> neighbours;
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), LaterCandidate());
        const Candidate top = heap.back();
        heap.pop_back();
        if (!alive[static_cast<std::size_t>(top.a)] || !alive[static_cast<std::size_t>(top.b)])
            continue; // stale: one side was merged after this entry was pushed
        // Lines 9–11: merge the cheapest pair; M_{C_a ∪ C_b} from the summed projectors (Chang).
        const int a = top.b, b = top.a; // a < b
        const int c = n + static_cast<int>(history.size());
        const auto uc = static_cast<std::size_t>(c), ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
        proj[uc] = grassmann::ProjectorSum::merged(proj[ua], proj[ub], d);
        size[uc] = size[ua] + size[ub];
        head[uc] = head[ua];
        tail[uc] = tail[ub];
        next[static_cast<std::size_t>(tail[ua])] = head[ub];
        double s = 0.0, s2 = 0.0;
        for (int x = head[uc]; x >= 0; x = next[static_cast<std::size_t>(x)]) {
            const double D = grassmann::distance(pointBasis(x), proj[uc].mean());
            s += D;
            s2 += D * D;
        }
        sumDist[uc] = s;
        sumSq[uc] = s2;
        partition += s2 - sumSq[ua] - sumSq[ub];
        alive[ua] = alive[ub] = 0;
        alive[uc] = 1;
        parent[ua] = parent[ub] = parent[uc] = c;
        proj[ua] = proj[ub] = grassmann::ProjectorSum();

        // Neighbouring clusters of the union (Ψ: joined by at least one edge).
        neighbours.clear();
        for (int u : adj[ua])
            neighbours.push_back(find(u));
        for (int u : adj[ub])
            neighbours.push_back(find(u));
        std::sort(neighbours.begin(), neighbours.end());
        neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
        neighbours.erase(std::remove(neighbours.begin(), neighbours.end(), c), neighbours.end());
        adj[uc] = neighbours;
        Graph::value_type().swap(adj[ua]);
        Graph::value_type().swap(adj[ub]);
        // Only the pairs involving the new cluster change: push them (old entries go stale).
        for (int u : neighbours) {
            const auto uu = static_cast<std::size_t>(u);
            const double D = grassmann::distance(proj[uc].mean(), proj[uu].mean());
            heap.push_back({mergeBound(size[uc], size[uu], D, sumDist[uc], sumDist[uu]), c, u});
            std::push_heap(heap.begin(), heap.end(), LaterCandidate());
        }
        history.push_back({a, b, top.cost, size[uc], std::max(0.0, partition)});
        if (observer)
            observer(history);
    }
    return history;
}

std::vector<int> labelsAfterMerges(int n, const std::vector<Merge>& history, int merges)
{
    merges = std::clamp(merges, 0, static_cast<int>(history.size()));
    std::vector<int> parent(static_cast<std::size_t>(n));
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&parent](int x) {
        while (parent[static_cast<std::size_t>(x)] != x) {
            parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
            x = parent[static_cast<std::size_t>(x)];
        }
        return x;
    };
    // rep[c]: one point of cluster c (points are their own representatives).
    std::vector<int> rep(static_cast<std::size_t>(n + merges));
    std::iota(rep.begin(), rep.begin() + n, 0);
    for (int i = 0; i < merges; ++i) {
        const Merge& m = history[static_cast<std::size_t>(i)];
        const int ra = find(rep[static_cast<std::size_t>(m.a)]);
        const int rb = find(rep[static_cast<std::size_t>(m.b)]);
        parent[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);
        rep[static_cast<std::size_t>(n + i)] = std::min(ra, rb);
    }
    std::vector<int> labels(static_cast<std::size_t>(n), -1);
    std::vector<int> labelOfRoot(static_cast<std::size_t>(n), -1);
    int next = 0;
    for (int x = 0; x < n; ++x) {
        const int r = find(x);
        int& l = labelOfRoot[static_cast<std::size_t>(r)];
        if (l < 0)
            l = next++;
        labels[static_cast<std::size_t>(x)] = l;
    }
    return labels;
}

std::vector<Flat> flatsOf(const Eigen::MatrixXd& X, const std::vector<int>& labels, int clusters, int d,
                          int minMembers)
{
    const Eigen::Index N = X.cols();
    // Members of each cluster by a counting sort.
    std::vector<int> start(static_cast<std::size_t>(clusters) + 1, 0);
    for (int l : labels)
        ++start[static_cast<std::size_t>(l) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<int> order(labels.size());
    {
        std::vector<int> fill(start.begin(), start.end() - 1);
        for (std::size_t x = 0; x < labels.size(); ++x)
            order[static_cast<std::size_t>(fill[static_cast<std::size_t>(labels[x])]++)] = static_cast<int>(x);
    }
    std::vector<Flat> flats;
    flats.reserve(static_cast<std::size_t>(clusters));
    Eigen::MatrixXd C;
    for (int c = 0; c < clusters; ++c) {
        const int b = start[static_cast<std::size_t>(c)], e = start[static_cast<std::size_t>(c) + 1];
        if (e - b < minMembers)
            continue;
        Flat& f = flats.emplace_back();
        f.cluster = c;
        if (e == b) { // cannot happen for labels from labelsAfterMerges; keep the flat well-formed
            f.origin = Eigen::VectorXd::Zero(N);
            f.basis = grassmann::leadingLeftSingularVectors(Eigen::MatrixXd::Zero(N, 0), d);
            f.lower = f.upper = Eigen::VectorXd::Zero(d);
            continue;
        }
        // Line 15: [C^0_{m_i}] = members shifted by the sample mean m_i (as columns).
        f.origin = Eigen::VectorXd::Zero(N);
        for (int j = b; j < e; ++j)
            f.origin += X.row(order[static_cast<std::size_t>(j)]).transpose();
        f.origin /= static_cast<double>(e - b);
        C.resize(N, e - b);
        for (int j = b; j < e; ++j)
            C.col(j - b) = X.row(order[static_cast<std::size_t>(j)]).transpose() - f.origin;
        // Line 16: F_i = d leading left singular vectors.
        f.basis = grassmann::leadingLeftSingularVectors(C, d);
        const Eigen::MatrixXd t = f.basis.transpose() * C; // d×m coordinates
        f.lower = t.rowwise().minCoeff();
        f.upper = t.rowwise().maxCoeff();
    }
    return flats;
}

Eigen::MatrixXd reconstruct(const Eigen::MatrixXd& X, const std::vector<int>& labels, const std::vector<Flat>& flats)
{
    Eigen::MatrixXd Xhat(X.rows(), X.cols());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const Flat& f = flats[static_cast<std::size_t>(labels[static_cast<std::size_t>(i)])];
        const Eigen::VectorXd r = X.row(i).transpose() - f.origin;
        Xhat.row(i) = (f.origin + f.basis * (f.basis.transpose() * r)).transpose();
    }
    return Xhat;
}

Eigen::VectorXd patchDistance(const Eigen::MatrixXd& X, const std::vector<Flat>& flats, double margin,
                              std::vector<int>* nearest)
{
    Eigen::VectorXd best = Eigen::VectorXd::Constant(X.rows(), std::numeric_limits<double>::infinity());
    if (nearest)
        nearest->assign(static_cast<std::size_t>(X.rows()), -1);
    for (std::size_t fi = 0; fi < flats.size(); ++fi) {
        const Flat& f = flats[fi];
        const Eigen::MatrixXd R = X.rowwise() - f.origin.transpose();
        const Eigen::MatrixXd t = R * f.basis; // coordinates along the flat
        // Orthogonal part ‖r − U t‖² plus the part of U t outside the widened extent: U has
        // orthonormal columns, so ‖r − U clamp(t)‖² = ‖r − U t‖² + ‖t − clamp(t)‖².
        Eigen::VectorXd d2 = (R - t * f.basis.transpose()).rowwise().squaredNorm();
        for (Eigen::Index j = 0; j < t.cols(); ++j) {
            const double w = margin * (f.upper(j) - f.lower(j));
            const double lo = f.lower(j) - w, hi = f.upper(j) + w;
            for (Eigen::Index i = 0; i < t.rows(); ++i) {
                const double v = t(i, j);
                const double out = v < lo ? lo - v : (v > hi ? v - hi : 0.0);
                d2(i) += out * out;
            }
        }
        for (Eigen::Index i = 0; i < d2.size(); ++i)
            if (d2(i) < best(i)) {
                best(i) = d2(i);
                if (nearest)
                    (*nearest)[static_cast<std::size_t>(i)] = static_cast<int>(fi);
            }
    }
    return best.cwiseSqrt();
}

std::vector<Flat> supportedFlats(const std::vector<Flat>& flats, const std::vector<int>& labels, int minSupport)
{
    std::vector<int> count;
    for (int l : labels) {
        if (static_cast<std::size_t>(l) >= count.size())
            count.resize(static_cast<std::size_t>(l) + 1, 0);
        ++count[static_cast<std::size_t>(l)];
    }
    std::vector<Flat> kept;
    for (const Flat& f : flats)
        if (f.cluster >= 0 && static_cast<std::size_t>(f.cluster) < count.size()
            && count[static_cast<std::size_t>(f.cluster)] >= minSupport)
            kept.push_back(f);
    return kept.empty() ? flats : kept;
}

} // namespace acdt

// ---- detector -------------------------------------------------------------------------------

DetectorInfo AcdtDetector::info()
{
    DetectorInfo info;
    info.compareSlot = 6;
    info.id = "acdt";
    info.leaveOneOutTraining = true; // the tangent rule skips a training point's own flat
    info.title = "ACDT flats (tangent-space clustering)";
    info.summary = "Clusters points by merging graph-connected groups with similar tangent spaces into "
                   "L affine d-flats; score = distance to the nearest flat patch.";
    info.reference = "ACDT slides (Karygianni & Frossard): algorithm box lines 1-17, bound d~ of the last slide, "
                     "MSRE";
    ParamSpec k;
    k.name = "k";
    k.type = ParamType::Int;
    k.defaultValue = "15";
    k.minValue = 1;
    k.maxValue = 10000;
    k.help = "Neighbours per point in the symmetric kNN graph (tangent spaces and merge adjacency).";
    k.reference = "ACDT slides, algorithm line 1; k=15 in the Swiss roll / S-curve experiments";
    // A tangent space from k neighbours in p dimensions is mostly noise when k is not well above p
    // (8-D blobs: AUROC 0.65 at k = 15, 0.98 at k = 32); 15 is the slides' value in 3-D and 50 caps
    // the O(n k) merge graph and the O(p k²) local SVDs.
    k.defaultValue = "auto";
    k.autoRule = "min(max(15, 4p), 50, n − 1) for n rows of p features (the slides' k = 15 up to p = 3)";
    k.paperValue = "15";
    ParamSpec d;
    d.name = "d";
    d.type = ParamType::Int;
    d.defaultValue = "2";
    d.minValue = 1;
    d.maxValue = 1000;
    d.help = "Dimension of the tangent spaces and of the flats (must be smaller than the number of features "
             "and at most k).";
    d.reference = "ACDT slides, algorithm lines 4 and 15; d=2 for the Swiss roll / S-curve";
    ParamSpec L;
    L.name = "L";
    L.type = ParamType::Int;
    L.defaultValue = "12";
    L.minValue = 1;
    L.maxValue = 1000000;
    L.help = "Number of clusters (flats) where the dendrogram is cut; below the number of kNN-graph components "
             "it gives one cluster per component. Only flats of clusters with at least k points score.";
    L.reference = "ACDT slides, algorithm line 8 (L); L=12 for the reconstructions in the slides";
    d.defaultValue = "auto";
    d.autoRule = "min(2, p − 1) for p features (the slides' d = 2 where the data allow it)";
    d.paperValue = "2";
    ParamSpec score;
    score.name = "score_rule"; // not "score": a Python estimator attribute of that name would hide methods
    score.type = ParamType::Choice;
    score.defaultValue = "tangent";
    score.choices = {"tangent", "patch"};
    score.help = "Outlier score: tangent = median residual from the tangent d-flats of the 5 nearest training points "
                 "(independent of L); patch = distance to the nearest bounded flat patch of the cut at L.";
    score.reference = "ACDT slides lines 3–5 (tangent spaces) and 14–17 (flats); the scores are OutlierLens' own";
    score.paperValue = "patch";
    info.params = {k, d, L, score, contaminationParam()};
    info.make = [](ParamSet p) { return std::make_unique<AcdtDetector>(std::move(p)); };
    return info;
}

int AcdtDetector::minSamples() const
{
    // The auto k adapts to n (at most n − 1): a small sample is fitted with fewer neighbours instead
    // of refused (scikit-learn's checks fit 10-row sets; 16 rows were needed, #53).
    return params().isAuto("k") ? 6 : params().getInt("k") + 1;
}

Eigen::VectorXd AcdtDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    if (params().isAuto("k"))
        autoInt("k", static_cast<int>(std::min<Eigen::Index>(std::clamp<Eigen::Index>(4 * X.cols(), 15, 50), X.rows() - 1)));
    const int k = params().getInt("k");
    if (params().isAuto("d"))
        autoInt("d", static_cast<int>(std::max<Eigen::Index>(1, std::min<Eigen::Index>(2, X.cols() - 1))));
    const int d = params().getInt("d");
    const auto n = static_cast<int>(X.rows());
    // A cut into more clusters than points: limited to n (the default 12 silently on a small sample,
    // a value the user set with the "clamped" warning); it was refused, so Acdt() could not fit 10 rows.
    const int Lparam = limitInt("L", params().getInt("L"), n, "a cut gives at most one cluster per point");
    const auto N = static_cast<int>(X.cols());
    if (d >= N)
        throw ParamError("acdt: d=" + std::to_string(d) + " must be smaller than the number of features ("
                         + std::to_string(N) + ")");
    if (d > k)
        throw ParamError("acdt: d=" + std::to_string(d) + " exceeds k=" + std::to_string(k)
                         + " (a neighbourhood of k points spans at most k directions)");

    // Step 1: pre-processing (lines 1–6).
    auto pointIndex = std::make_shared<const PointIndex>(X.transpose());
    acdt::Graph graph = acdt::symmetricKnnGraph(*pointIndex, k);
    progress.report(0.05, "kNN graph built; computing tangent spaces");
    Eigen::MatrixXd T = acdt::tangentSpaces(X, graph, d, [&](int done) {
        progress.report(0.05 + 0.10 * done / n, "tangent spaces: " + std::to_string(done) + "/" + std::to_string(n));
    });
    progress.report(0.15, "tangent spaces computed; merging");

    // Step 2: greedy merging (lines 7–13), the whole dendrogram.
    using Clock = std::chrono::steady_clock;
    constexpr auto reportEvery = std::chrono::milliseconds(50);
    constexpr auto snapshotEvery = std::chrono::milliseconds(250);
    auto lastReport = Clock::now();
    auto lastSnapshot = lastReport - snapshotEvery;
    const auto observer = [&](const std::vector<acdt::Merge>& history) {
        const auto now = Clock::now();
        if (now - lastReport < reportEvery)
            return;
        lastReport = now;
        if (history.empty()) {
            progress.report(0.15, "initial merge costs");
            return;
        }
        const int clusters = n - static_cast<int>(history.size());
        std::shared_ptr<const Geometry> snapshot;
        if (now - lastSnapshot >= snapshotEvery) {
            // Every point's current cluster, and the flats of the clusters that already have k
            // points (thousands of one- or two-point "flats" early on would only be noise).
            auto g = std::make_shared<Geometry>();
            g->clusterOfPoint = acdt::labelsAfterMerges(n, history, static_cast<int>(history.size()));
            g->flats = acdt::flatsOf(X, g->clusterOfPoint, clusters, d, k);
            snapshot = std::move(g);
            lastSnapshot = now;
        }
        progress.report(0.15 + 0.8 * static_cast<double>(n - clusters) / std::max(1, n - 1),
                        StepMark{"clusters", double(clusters)}, "merging: " + std::to_string(clusters) + " clusters", history.back().partitionCost,
                        std::move(snapshot));
    };
    std::vector<acdt::Merge> history = acdt::greedyMerge(T, d, graph, observer);

    // Final flats (lines 14–17) at the chosen L, reconstruction error and scores.
    const int minL = n - static_cast<int>(history.size());
    const int L = std::clamp(Lparam, minL, n);
    if (HistoryRecorder* rec = recorder()) {
        // The timeline: the last 60 merges one by one, down to the L clusters kept — where patches
        // join into flats, what a class watches. Earlier ones join single points: thousands of
        // one-point "flats" to draw and nothing to see (the live snapshots skip them too), and a
        // step's score field costs grid × flats (2 000 flats: 5 s for a 48³ grid, 12: 0.1 s).
        const int merges = n - L;
        for (int m = std::max(0, merges - 60); m <= merges; ++m)
            rec->record(m, m == 0 ? 0.0 : history[static_cast<std::size_t>(m - 1)].partitionCost, {{"clusters", n - m}},
                        true);
    }
    std::vector<int> labels = acdt::labelsAfterMerges(n, history, n - L);
    std::vector<Flat> flats = acdt::flatsOf(X, labels, L, d);
    const double err = msre(X, acdt::reconstruct(X, labels, flats));
    progress.report(0.97, std::to_string(L) + " flats; scoring training points");
    std::vector<Flat> scoring = acdt::supportedFlats(flats, labels, k);
    auto tangentIndex = std::make_shared<const acdt::TangentIndex>(pointIndex, std::move(T), d);
    Eigen::VectorXd train = params().getChoice("score_rule") == "tangent"
                                ? tangentIndex->residual(X, std::min(5, k), true)
                                : acdt::patchDistance(X, scoring, kPatchMargin);

    m_tangentIndex = std::move(tangentIndex);
    m_points = X;
    m_graph = std::move(graph);
    m_history = std::move(history);
    m_L = L;
    m_labels = std::move(labels);
    m_flats = std::move(flats);
    m_scoring = std::move(scoring);
    m_msre = err;
    return train;
}

Eigen::VectorXd AcdtDetector::doScore(const Eigen::MatrixXd& X) const
{
    return scoreRows(X, false);
}

Eigen::VectorXd AcdtDetector::scoreRows(const Eigen::MatrixXd& X, bool training) const
{
    if (params().getChoice("score_rule") == "tangent")
        return m_tangentIndex->residual(X, std::min(5, params().getInt("k")), training);
    return acdt::patchDistance(X, m_scoring, kPatchMargin);
}

Geometry AcdtDetector::geometry() const
{
    Geometry g;
    if (!isFitted())
        return g;
    g.flats = m_flats;
    g.clusterOfPoint = m_labels;
    return g;
}

std::map<std::string, double> AcdtDetector::figures() const
{
    if (!isFitted())
        return {};
    const int n = static_cast<int>(m_points.rows());
    const int merges = n - m_L;
    return {{"msre", m_msre},
            {"clusters", m_L},
            {"scoring_flats", static_cast<double>(m_scoring.size())},
            {"partition_cost", merges > 0 ? m_history[static_cast<std::size_t>(merges - 1)].partitionCost : 0.0},
            {"graph_components", minClusterCount()},
            {"neighbours", static_cast<double>(params().getInt("k"))}};
}

std::vector<std::string> AcdtDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    if (X.cols() != inputDimension())
        throw DataError("acdt explain: data has " + std::to_string(X.cols()) + " columns, the model was fitted on "
                        + std::to_string(inputDimension()));
    std::vector<int> nearest;
    const Eigen::VectorXd s = acdt::patchDistance(X, m_scoring, kPatchMargin, &nearest);
    const bool tangent = params().getChoice("score_rule") == "tangent";
    const Eigen::VectorXd t = tangent ? scoreRows(X, trainedOn(X)) : s;
    std::vector<std::string> out;
    out.reserve(nearest.size());
    for (std::size_t i = 0; i < nearest.size(); ++i) {
        char buf[128];
        if (tangent)
            std::snprintf(buf, sizeof buf, "tangent residual %.3g; nearest flat %d at %.3g", t(static_cast<Eigen::Index>(i)),
                          m_scoring[static_cast<std::size_t>(nearest[i])].cluster, s(static_cast<Eigen::Index>(i)));
        else
            std::snprintf(buf, sizeof buf, "nearest flat %d, distance %.3g",
                          m_scoring[static_cast<std::size_t>(nearest[i])].cluster, s(static_cast<Eigen::Index>(i)));
        out.emplace_back(buf);
    }
    return out;
}

const std::vector<acdt::Merge>& AcdtDetector::mergeHistory() const
{
    requireFitted("mergeHistory");
    return m_history;
}

const acdt::Graph& AcdtDetector::graph() const
{
    requireFitted("graph");
    return m_graph;
}

int AcdtDetector::minClusterCount() const
{
    requireFitted("minClusterCount");
    return static_cast<int>(m_points.rows()) - static_cast<int>(m_history.size());
}

int AcdtDetector::maxClusterCount() const
{
    requireFitted("maxClusterCount");
    return static_cast<int>(m_points.rows());
}

int AcdtDetector::clusterCount() const
{
    requireFitted("clusterCount");
    return m_L;
}

int AcdtDetector::resolveClusterCount(int L) const
{
    return std::clamp(L, minClusterCount(), static_cast<int>(m_points.rows()));
}

std::vector<int> AcdtDetector::labelsForClusterCount(int L) const
{
    requireFitted("labelsForClusterCount");
    L = resolveClusterCount(L);
    if (L == m_L)
        return m_labels;
    const int n = static_cast<int>(m_points.rows());
    return acdt::labelsAfterMerges(n, m_history, n - L);
}

std::vector<Flat> AcdtDetector::flatsForClusterCount(int L) const
{
    requireFitted("flatsForClusterCount");
    L = resolveClusterCount(L);
    if (L == m_L)
        return m_flats;
    return acdt::flatsOf(m_points, labelsForClusterCount(L), L, params().getInt("d"));
}

Eigen::MatrixXd AcdtDetector::reconstruction(int L) const
{
    requireFitted("reconstruction");
    L = resolveClusterCount(L);
    if (L == m_L)
        return acdt::reconstruct(m_points, m_labels, m_flats);
    const std::vector<int> labels = labelsForClusterCount(L);
    return acdt::reconstruct(m_points, labels, acdt::flatsOf(m_points, labels, L, params().getInt("d")));
}

double AcdtDetector::msreForClusterCount(int L) const
{
    requireFitted("msreForClusterCount");
    if (resolveClusterCount(L) == m_L)
        return m_msre;
    return msre(m_points, reconstruction(L));
}

nlohmann::json AcdtDetector::saveState() const
{
    std::vector<int> a, b, size;
    std::vector<double> cost, partition;
    for (const auto& m : m_history) {
        a.push_back(m.a);
        b.push_back(m.b);
        size.push_back(m.size);
        cost.push_back(m.cost);
        partition.push_back(m.partitionCost);
    }
    const Eigen::MatrixXd P = m_points.transpose(); // points contiguous
    return {{"rows", m_points.rows()},
            {"points", std::vector<double>(P.data(), P.data() + P.size())},
            {"clusters", m_L},
            {"merge_a", a},
            {"merge_b", b},
            {"merge_size", size},
            {"merge_cost", cost},
            {"merge_partition_cost", partition}};
}

void AcdtDetector::loadState(const nlohmann::json& s)
{
    const int p = inputDimension();
    const auto n = static_cast<int>(jsonInt(s.at("rows"), "acdt model: rows"));
    const auto v = s.at("points").get<std::vector<double>>();
    if (n <= 0 || static_cast<Eigen::Index>(v.size()) != static_cast<Eigen::Index>(n) * p)
        throw DataError("acdt model: " + std::to_string(v.size()) + " stored values do not form " + std::to_string(n)
                        + " points of dimension " + std::to_string(p));
    const int k = params().getInt("k");
    const int d = params().getInt("d");
    if (n < k + 1 || d >= p || d > k)
        throw DataError("acdt model: parameters k=" + std::to_string(k) + ", d=" + std::to_string(d)
                        + " do not fit the stored " + std::to_string(n) + " points of dimension " + std::to_string(p));
    const auto a = jsonInts(s.at("merge_a"), "acdt model: merge_a");
    const auto b = jsonInts(s.at("merge_b"), "acdt model: merge_b");
    const auto size = jsonInts(s.at("merge_size"), "acdt model: merge_size");
    const auto cost = s.at("merge_cost").get<std::vector<double>>();
    const auto part = s.at("merge_partition_cost").get<std::vector<double>>();
    const std::size_t m = a.size();
    if (b.size() != m || size.size() != m || cost.size() != m || part.size() != m || m > static_cast<std::size_t>(n - 1))
        throw DataError("acdt model: merge history arrays are inconsistent");
    // Every merge joins two existing, not yet merged clusters and adds up their sizes.
    std::vector<int> clusterSize(static_cast<std::size_t>(n) + m, 1);
    std::vector<char> used(static_cast<std::size_t>(n) + m, 0);
    std::vector<acdt::Merge> history(m);
    for (std::size_t i = 0; i < m; ++i) {
        const int created = n + static_cast<int>(i);
        if (a[i] < 0 || b[i] <= a[i] || b[i] >= created || used[static_cast<std::size_t>(a[i])]
            || used[static_cast<std::size_t>(b[i])]
            || size[i] != clusterSize[static_cast<std::size_t>(a[i])] + clusterSize[static_cast<std::size_t>(b[i])])
            throw DataError("acdt model: merge " + std::to_string(i) + " is not a valid dendrogram step");
        used[static_cast<std::size_t>(a[i])] = used[static_cast<std::size_t>(b[i])] = 1;
        clusterSize[static_cast<std::size_t>(created)] = size[i];
        history[i] = {a[i], b[i], cost[i], size[i], part[i]};
    }
    const int L = static_cast<int>(jsonInt(s.at("clusters"), "acdt model: clusters"));
    if (L < n - static_cast<int>(m) || L > n)
        throw DataError("acdt model: " + std::to_string(L) + " clusters cannot be reached with "
                        + std::to_string(m) + " merges of " + std::to_string(n) + " points");
    Eigen::MatrixXd X = Eigen::Map<const Eigen::MatrixXd>(v.data(), p, n).transpose();
    auto pointIndex = std::make_shared<const PointIndex>(X.transpose());
    acdt::Graph graph = acdt::symmetricKnnGraph(*pointIndex, k);
    auto tangentIndex = std::make_shared<const acdt::TangentIndex>(pointIndex, acdt::tangentSpaces(X, graph, d, {}), d);
    m_tangentIndex = std::move(tangentIndex);
    m_points = std::move(X);
    m_graph = std::move(graph);
    m_history = std::move(history);
    installCut(L);
}

void AcdtDetector::installCut(int L)
{
    const auto n = static_cast<int>(m_points.rows());
    const int k = params().getInt("k");
    const int d = params().getInt("d");
    std::vector<int> labels = acdt::labelsAfterMerges(n, m_history, n - L);
    std::vector<Flat> flats = acdt::flatsOf(m_points, labels, L, d);
    const double err = msre(m_points, acdt::reconstruct(m_points, labels, flats));
    std::vector<Flat> scoring = acdt::supportedFlats(flats, labels, k);
    m_L = L;
    m_labels = std::move(labels);
    m_flats = std::move(flats);
    m_scoring = std::move(scoring);
    m_msre = err;
}

std::unique_ptr<Detector> AcdtDetector::replayStep(const nlohmann::json& state, const Eigen::MatrixXd&) const
{
    try {
        return cutAt(static_cast<int>(jsonInt(state.at("clusters"), "acdt recorded step: clusters")));
    } catch (const nlohmann::json::exception& e) {
        throw DataError(std::string("acdt recorded step is malformed: ") + e.what());
    }
}

std::unique_ptr<Detector> AcdtDetector::cutAt(int L) const
{
    requireFitted("cutAt");
    L = resolveClusterCount(L);
    ParamSet p = params();
    p.set("L", std::to_string(L));
    auto cut = std::make_unique<AcdtDetector>(std::move(p));
    cut->m_points = m_points;
    cut->m_tangentIndex = m_tangentIndex;
    cut->m_graph = m_graph;
    cut->m_history = m_history;
    cut->installCut(L);
    // Training rows are scored as in fit (the tangent rule excludes each point itself).
    cut->commitFit(inputDimension(), cut->scoreRows(cut->m_points, true), trainingFingerprint());
    return cut;
}

} // namespace olens
