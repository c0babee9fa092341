#include "detectors/iforest/IforestDetector.h"

#include "base/Errors.h"
#include "base/Rng.h"
#include "detectors/DetectorInfo.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace olens {

namespace {
const char* kPaper = "Liu, Ting, Zhou, Isolation Forest, ICDM 2008";

struct Builder {
    const Eigen::MatrixXd& X;
    Rng& rng;
    int limit;
    std::vector<int>& feature;
    std::vector<double>& split;
    std::vector<int>& left;
    std::vector<int>& right;
    std::vector<int>& size;
    std::vector<int> candidates;
    std::vector<double> lo, hi;

    int leaf(int count)
    {
        feature.push_back(-1);
        split.push_back(0.0);
        left.push_back(-1);
        right.push_back(-1);
        size.push_back(count);
        return static_cast<int>(feature.size()) - 1;
    }

    // Alg. 2 (iTree) on rows[begin, end).
    int grow(std::vector<int>& rows, int begin, int end, int depth)
    {
        const int count = end - begin;
        if (depth >= limit || count <= 1)
            return leaf(count);
        const Eigen::Index p = X.cols();
        candidates.clear();
        lo.assign(static_cast<std::size_t>(p), 0.0);
        hi.assign(static_cast<std::size_t>(p), 0.0);
        for (Eigen::Index j = 0; j < p; ++j) {
            double a = X(rows[static_cast<std::size_t>(begin)], j), b = a;
            for (int r = begin + 1; r < end; ++r) {
                const double v = X(rows[static_cast<std::size_t>(r)], j);
                a = std::min(a, v);
                b = std::max(b, v);
            }
            lo[static_cast<std::size_t>(j)] = a;
            hi[static_cast<std::size_t>(j)] = b;
            if (b > a)
                candidates.push_back(static_cast<int>(j));
        }
        if (candidates.empty())
            return leaf(count); // all rows identical: nothing can isolate them
        const int q = candidates[static_cast<std::size_t>(rng.index(candidates.size()))];
        const double a = lo[static_cast<std::size_t>(q)], b = hi[static_cast<std::size_t>(q)];
        const double u = rng.uniform();
        double t = std::isfinite(b - a) ? a + u * (b - a) : a * (1.0 - u) + b * u;
        if (!(t < b))
            t = a; // rounding reached the maximum: keep both sides non-empty
        const auto mid = std::partition(rows.begin() + begin, rows.begin() + end,
                                        [&](int r) { return X(r, q) <= t; });
        const int m = static_cast<int>(mid - rows.begin());
        const int node = leaf(count);
        feature[static_cast<std::size_t>(node)] = q;
        split[static_cast<std::size_t>(node)] = t;
        const int l = grow(rows, begin, m, depth + 1);
        const int r = grow(rows, m, end, depth + 1);
        left[static_cast<std::size_t>(node)] = l;
        right[static_cast<std::size_t>(node)] = r;
        return node;
    }
};
} // namespace

DetectorInfo IforestDetector::info()
{
    DetectorInfo d;
    d.id = "iforest";
    d.title = "Isolation Forest";
    d.summary = "Score = 2^(−E[h(x)]/c(ψ)): points isolated by few random axis-parallel splits score near 1, "
                "the bulk below 0.5.";
    d.reference = std::string(kPaper) + " (alg. 1-3, eq. 1-2)";
    d.normalization = "none"; // axis-parallel splits at uniform positions: invariant to per-feature scaling
    ParamSpec t;
    t.name = "trees";
    t.type = ParamType::Int;
    t.defaultValue = "100";
    t.minValue = 1;
    t.maxValue = 100000;
    t.help = "Number of isolation trees t (scikit-learn's n_estimators).";
    t.reference = std::string(kPaper) + " sec. 4 (t = 100)";
    ParamSpec psi;
    psi.name = "psi";
    psi.type = ParamType::Int;
    psi.defaultValue = "256";
    psi.minValue = 2;
    psi.maxValue = 1000000;
    psi.help = "Subsample size ψ per tree, drawn without replacement and capped at n (scikit-learn's "
               "max_samples); the height limit is ⌈log2 ψ⌉.";
    psi.reference = std::string(kPaper) + " sec. 4 (ψ = 256)";
    d.params = {t, psi, seedParam("Seed of the subsamples and the random splits: same seed, same data → same scores."),
                contaminationParam("s > 0.5, Liu et al. sec. 2: s near 1 is an anomaly, s well below 0.5 normal; scikit-learn's auto")};
    d.make = [](ParamSet p) { return std::make_unique<IforestDetector>(std::move(p)); };
    return d;
}

IforestDetector::IforestDetector(ParamSet params) : Detector(std::move(params)) {}

double IforestDetector::averagePathLength(double n)
{
    if (n <= 1.0)
        return 0.0;
    if (n <= 2.0)
        return 1.0;
    constexpr double euler = 0.5772156649015329;
    return 2.0 * (std::log(n - 1.0) + euler) - 2.0 * (n - 1.0) / n;
}

Eigen::VectorXd IforestDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const int n = static_cast<int>(X.rows());
    const int t = params().getInt("trees");
    const int psi = limitInt("psi", params().getInt("psi"), n, "a subsample is at most the " + std::to_string(n) + " rows");
    const int limit = static_cast<int>(std::ceil(std::log2(static_cast<double>(psi))));
    Rng rng(static_cast<std::uint64_t>(params().getInt("seed")));
    std::vector<Tree> trees(static_cast<std::size_t>(t));
    std::vector<int> all(static_cast<std::size_t>(n));
    for (int k = 0; k < t; ++k) {
        // Subsample of ψ rows without replacement (partial Fisher–Yates).
        std::iota(all.begin(), all.end(), 0);
        for (int i = 0; i < psi; ++i) {
            const int j = i + static_cast<int>(rng.index(static_cast<std::uint64_t>(n - i)));
            std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
        }
        std::vector<int> rows(all.begin(), all.begin() + psi);
        Tree& tree = trees[static_cast<std::size_t>(k)];
        Builder b{X, rng, limit, tree.feature, tree.split, tree.left, tree.right, tree.size, {}, {}, {}};
        b.grow(rows, 0, psi, 0);
        progress.report(0.9 * static_cast<double>(k + 1) / static_cast<double>(t), "isolation trees");
    }
    const double treeWork = static_cast<double>(t);
    // Training rows are scored by the whole forest (as scikit-learn's score_samples on X).
    std::vector<Tree> previous;
    previous.swap(m_trees);
    const int previousPsi = m_psi;
    m_trees.swap(trees);
    m_psi = psi;
    Eigen::VectorXd train(n);
    try {
        // In blocks, each a stop point: 100 000 trees over the training rows ignored --timeout and
        // Esc (#51). Rows are scored independently, so the blocks give doScore's values exactly.
        const Eigen::Index rowsPerBlock = std::max<Eigen::Index>(1, static_cast<Eigen::Index>(2e6 / treeWork));
        for (Eigen::Index r0 = 0; r0 < n; r0 += rowsPerBlock) {
            const Eigen::Index h = std::min<Eigen::Index>(rowsPerBlock, n - r0);
            train.segment(r0, h) = doScore(X.middleRows(r0, h));
            progress.report(0.9 + 0.1 * static_cast<double>(r0 + h) / static_cast<double>(n), "scoring the training rows");
        }
    } catch (...) {
        m_trees.swap(previous);
        m_psi = previousPsi;
        throw;
    }
    return train;
}

double IforestDetector::pathLength(const Tree& t, const double* x, Eigen::Index stride) const
{
    int node = 0;
    int depth = 0;
    while (t.feature[static_cast<std::size_t>(node)] >= 0) {
        const auto s = static_cast<std::size_t>(node);
        node = x[t.feature[s] * stride] <= t.split[s] ? t.left[s] : t.right[s];
        ++depth;
    }
    return depth + averagePathLength(t.size[static_cast<std::size_t>(node)]);
}

Eigen::VectorXd IforestDetector::meanPathLength(const Eigen::MatrixXd& X) const
{
    Eigen::VectorXd h = Eigen::VectorXd::Zero(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        double sum = 0.0;
        for (const Tree& t : m_trees)
            sum += pathLength(t, &X(i, 0), X.rows());
        h(i) = sum / static_cast<double>(m_trees.size());
    }
    return h;
}

Eigen::VectorXd IforestDetector::doScore(const Eigen::MatrixXd& X) const
{
    const double c = averagePathLength(m_psi);
    const Eigen::VectorXd h = meanPathLength(X);
    return h.unaryExpr([c](double e) { return std::exp2(-e / c); });
}

std::vector<std::string> IforestDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    const Eigen::VectorXd h = meanPathLength(X);
    std::vector<std::string> out(static_cast<std::size_t>(X.rows()));
    char buf[96];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        std::snprintf(buf, sizeof buf, "isolated after %.2f splits on average (c(ψ) = %.2f)", h(i),
                      averagePathLength(m_psi));
        out[static_cast<std::size_t>(i)] = buf;
    }
    return out;
}

std::map<std::string, double> IforestDetector::figures() const
{
    requireFitted("figures");
    return {{"psi_used", static_cast<double>(m_psi)}, {"c_psi", averagePathLength(m_psi)}};
}

nlohmann::json IforestDetector::saveState() const
{
    nlohmann::json trees = nlohmann::json::array();
    for (const Tree& t : m_trees)
        trees.push_back({{"feature", t.feature}, {"split", t.split}, {"left", t.left}, {"right", t.right}, {"size", t.size}});
    return {{"psi", m_psi}, {"trees", trees}};
}

void IforestDetector::loadState(const nlohmann::json& state)
{
    const auto psi = jsonInt(state.at("psi"), "iforest model: psi");
    if (psi < 2)
        throw DataError("iforest model: psi = " + std::to_string(psi) + " must be at least 2");
    const int p = inputDimension();
    std::vector<Tree> trees;
    for (const auto& j : state.at("trees")) {
        Tree t;
        t.feature = j.at("feature").get<std::vector<int>>();
        t.split = j.at("split").get<std::vector<double>>();
        t.left = j.at("left").get<std::vector<int>>();
        t.right = j.at("right").get<std::vector<int>>();
        t.size = j.at("size").get<std::vector<int>>();
        const auto m = static_cast<int>(t.feature.size());
        bool ok = m > 0 && t.split.size() == t.feature.size() && t.left.size() == t.feature.size()
                  && t.right.size() == t.feature.size() && t.size.size() == t.feature.size();
        // Children must come after their parent (the order grow() writes), so traversal terminates.
        for (int k = 0; ok && k < m; ++k) {
            const auto s = static_cast<std::size_t>(k);
            if (t.feature[s] >= 0)
                ok = t.feature[s] < p && t.left[s] > k && t.left[s] < m && t.right[s] > k && t.right[s] < m;
            else
                ok = t.size[s] >= 0;
        }
        if (!ok)
            throw DataError("iforest model: tree " + std::to_string(trees.size()) + " is malformed");
        trees.push_back(std::move(t));
    }
    if (trees.empty())
        throw DataError("iforest model: no trees");
    m_trees = std::move(trees);
    m_psi = static_cast<int>(psi);
}

std::optional<double> IforestDetector::naturalThreshold() const
{
    return 0.5; // eq. 1: s = 2^(−E[h]/c(ψ)); above 0.5 means shorter paths than an average point
}

} // namespace olens
