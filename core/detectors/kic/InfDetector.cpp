#include "detectors/kic/InfDetector.h"

#include "base/Errors.h"
#include "detectors/DetectorInfo.h"
#include "base/Rng.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace olens {

DetectorInfo InfDetector::info()
{
    DetectorInfo d;
    d.id = "inf";
    d.title = "Influence w.r.t. k-means (INF)";
    d.summary = "Score = the influence (sensitivity upper bound) of each point for a D²-sampled "
                "k-means solution, averaged over k = ⌊min(500, 0.8n)/i⌋, i = 1..15.";
    d.reference = "KIC paper sec. 4.1 (INF); Lucic, Bachem & Krause 2016";

    const ParamSpec seed = seedParam("Seed of the D² (k-means++) sampling of the centres.");

    ParamSpec kmax;
    kmax.name = "k_max";
    kmax.type = ParamType::Int;
    kmax.defaultValue = "500";
    kmax.minValue = 1;
    kmax.maxValue = 100000;
    kmax.help = "Largest number of centres K before the cap 0.8n: k = ⌊min(K, 0.8n)/i⌋.";
    kmax.reference = "KIC paper sec. 4.1 (500, replaced by min(500, 0.8n))";

    ParamSpec count;
    count.name = "num_k";
    count.type = ParamType::Int;
    count.defaultValue = "15";
    count.minValue = 1;
    count.maxValue = 1000;
    count.help = "i = 1..num_k in k = ⌊min(K, 0.8n)/i⌋; repeated k values count once.";
    count.reference = "KIC paper sec. 4.1 (i = 1..15)";

    ParamSpec lloyd;
    lloyd.name = "lloyd_iters";
    lloyd.type = ParamType::Int;
    lloyd.defaultValue = "0";
    lloyd.minValue = 0;
    lloyd.maxValue = 1000;
    lloyd.help = "Lloyd iterations after the D² seeding; 0 = the seeding alone, as in Lucic et al. "
                 "(any approximate solution keeps the bound valid).";
    lloyd.reference = "Lucic et al. 2016 (bicriteria solution by D²-sampling)";

    d.params = {seed, kmax, count, lloyd, contaminationParam()};
    d.normalization = "zscore"; // KIC paper sec. 4.1: zero mean, unit variance per feature
    d.make = [](ParamSet p) { return std::make_unique<InfDetector>(std::move(p)); };
    return d;
}

std::vector<int> InfDetector::kValues(Eigen::Index n, int kMax, int count)
{
    const double K = std::min(static_cast<double>(kMax), 0.8 * static_cast<double>(n));
    std::set<int, std::greater<int>> ks;
    for (int i = 1; i <= count; ++i) {
        const auto k = static_cast<int>(std::floor(K / static_cast<double>(i) + 1e-9));
        if (k >= 1 && k <= n)
            ks.insert(k);
    }
    return {ks.begin(), ks.end()};
}

namespace {

/// Squared distances of the rows of X to the rows of C (|X|×|C|), clamped at 0.
Eigen::MatrixXd squaredDistances(const Eigen::MatrixXd& X, const Eigen::MatrixXd& C)
{
    Eigen::MatrixXd d2 = -2.0 * X * C.transpose();
    d2.colwise() += X.rowwise().squaredNorm();
    d2.rowwise() += C.rowwise().squaredNorm().transpose();
    return d2.cwiseMax(0.0);
}

double alphaOf(int k)
{
    return 16.0 * (std::log(static_cast<double>(k)) + 2.0); // α = 16(log k + 2)
}

} // namespace

Eigen::VectorXd InfDetector::influence(const Clustering& c, const Eigen::MatrixXd& X)
{
    const double alpha = alphaOf(c.k);
    // c_φ = 0 only when every training point is a centre; then the distance terms use scale 1.
    const double cphi = c.cphi > 0 ? c.cphi : 1.0;
    Eigen::VectorXd s(X.rows());
    constexpr Eigen::Index block = 4096;
    for (Eigen::Index r0 = 0; r0 < X.rows(); r0 += block) {
        const Eigen::Index rows = std::min(block, X.rows() - r0);
        const Eigen::MatrixXd d2 = squaredDistances(X.middleRows(r0, rows), c.centers);
        for (Eigen::Index i = 0; i < rows; ++i) {
            Eigen::Index b = 0;
            const double d = d2.row(i).minCoeff(&b);
            const double size = std::max(c.size(b), 1.0);
            s(r0 + i) = alpha * d / cphi + 2.0 * alpha * c.cost(b) / (size * cphi) + 4.0 * c.n / size;
        }
    }
    return s;
}

Eigen::VectorXd InfDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const Eigen::Index n = X.rows();
    // kValues uses at most 0.8·n clusters (the largest k that leaves clusters of a few points).
    const int kMax = limitInt("k_max", params().getInt("k_max"), std::max(1, static_cast<int>(0.8 * static_cast<double>(n))),
                              "at most 0.8·n clusters for these " + std::to_string(n) + " rows");
    const std::vector<int> ks = kValues(n, kMax, params().getInt("num_k"));
    const int lloyd = params().getInt("lloyd_iters");
    Rng rng(static_cast<std::uint64_t>(params().getInt("seed")));
    double totalWork = 0, done = 0;
    for (int k : ks)
        totalWork += k;

    std::vector<Clustering> out;
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(n);
    for (int k : ks) {
        // D²-sampling (k-means++ seeding): the first centre uniformly, each next one with
        // probability d(x, B)²/Σ d(x', B)².
        Eigen::MatrixXd C(k, X.cols());
        Eigen::VectorXd d2 = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
        Eigen::VectorXi assign = Eigen::VectorXi::Zero(n);
        Eigen::Index pick = static_cast<Eigen::Index>(rng.index(static_cast<std::uint64_t>(n)));
        for (int j = 0; j < k; ++j) {
            if (j > 0) {
                const double total = d2.sum();
                if (total > 0) {
                    const double u = rng.uniform() * total;
                    double acc = 0;
                    pick = -1;
                    Eigen::Index lastPositive = 0;
                    for (Eigen::Index i = 0; i < n; ++i) {
                        if (!(d2(i) > 0))
                            continue;
                        lastPositive = i;
                        acc += d2(i);
                        if (u < acc) {
                            pick = i;
                            break;
                        }
                    }
                    if (pick < 0) // u ≥ the rounded running sum: the last eligible point
                        pick = lastPositive;
                } else {
                    pick = static_cast<Eigen::Index>(rng.index(static_cast<std::uint64_t>(n)));
                }
            }
            C.row(j) = X.row(pick);
            const Eigen::VectorXd dj = (X.rowwise() - C.row(j)).rowwise().squaredNorm();
            for (Eigen::Index i = 0; i < n; ++i)
                if (dj(i) < d2(i)) {
                    d2(i) = dj(i);
                    assign(i) = j;
                }
            if ((j & 31) == 31)
                progress.report((done + j) / totalWork, "D² sampling, k = " + std::to_string(k));
        }
        // Optional Lloyd iterations (not in Lucic et al.; any solution keeps the bound valid).
        for (int it = 0; it < lloyd; ++it) {
            Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(k, X.cols());
            Eigen::VectorXd counts = Eigen::VectorXd::Zero(k);
            for (Eigen::Index i = 0; i < n; ++i) {
                sums.row(assign(i)) += X.row(i);
                counts(assign(i)) += 1;
            }
            for (int j = 0; j < k; ++j)
                if (counts(j) > 0)
                    C.row(j) = sums.row(j) / counts(j);
            const Eigen::MatrixXd D = squaredDistances(X, C);
            for (Eigen::Index i = 0; i < n; ++i) {
                Eigen::Index b = 0;
                d2(i) = D.row(i).minCoeff(&b);
                assign(i) = static_cast<int>(b);
            }
            progress.report((done + k * (it + 1.0) / (lloyd + 1.0)) / totalWork, "Lloyd iterations, k = " + std::to_string(k));
        }
        Clustering c;
        c.k = k;
        c.centers = C;
        c.cost = Eigen::VectorXd::Zero(k);
        c.size = Eigen::VectorXd::Zero(k);
        for (Eigen::Index i = 0; i < n; ++i) {
            c.cost(assign(i)) += d2(i);
            c.size(assign(i)) += 1;
        }
        c.cphi = d2.sum() / static_cast<double>(n);
        c.n = static_cast<double>(n);
        // Training scores with the training assignment (the same as influence(c, X) up to ties).
        const double alpha = alphaOf(k);
        const double cphi = c.cphi > 0 ? c.cphi : 1.0;
        for (Eigen::Index i = 0; i < n; ++i) {
            const int b = assign(i);
            const double size = std::max(c.size(b), 1.0);
            sum(i) += alpha * d2(i) / cphi + 2.0 * alpha * c.cost(b) / (size * cphi) + 4.0 * c.n / size;
        }
        out.push_back(std::move(c));
        done += k;
        progress.report(done / totalWork, "influence, k = " + std::to_string(k));
    }
    m_clusterings = std::move(out);
    return sum / static_cast<double>(ks.size());
}

Eigen::VectorXd InfDetector::doScore(const Eigen::MatrixXd& X) const
{
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(X.rows());
    for (const Clustering& c : m_clusterings)
        sum += influence(c, X);
    return sum / static_cast<double>(m_clusterings.size());
}

std::map<std::string, double> InfDetector::figures() const
{
    if (!isFitted() || m_clusterings.empty())
        return {};
    return {{"k_values", static_cast<double>(m_clusterings.size())},
            {"k_largest", static_cast<double>(m_clusterings.front().k)},
            {"k_smallest", static_cast<double>(m_clusterings.back().k)}};
}

static std::vector<double> flat(const Eigen::MatrixXd& M)
{
    return std::vector<double>(M.data(), M.data() + M.size());
}

nlohmann::json InfDetector::saveState() const
{
    nlohmann::json arr = nlohmann::json::array();
    for (const Clustering& c : m_clusterings)
        arr.push_back({{"k", c.k}, {"centers", flat(c.centers)}, {"cost", flat(c.cost)}, {"size", flat(c.size)},
                       {"cphi", c.cphi}, {"n", c.n}});
    return {{"clusterings", arr}};
}

void InfDetector::loadState(const nlohmann::json& state)
{
    const int p = inputDimension();
    std::vector<Clustering> out;
    for (const auto& j : state.at("clusterings")) {
        Clustering c;
        c.k = static_cast<int>(jsonInt(j.at("k"), "inf model: k"));
        const auto centers = j.at("centers").get<std::vector<double>>();
        const auto cost = j.at("cost").get<std::vector<double>>();
        const auto size = j.at("size").get<std::vector<double>>();
        c.cphi = j.at("cphi").get<double>();
        c.n = j.at("n").get<double>();
        if (c.k < 1 || static_cast<long>(centers.size()) != static_cast<long>(c.k) * p
            || static_cast<int>(cost.size()) != c.k || static_cast<int>(size.size()) != c.k || !(c.n >= 1)
            || !(c.cphi >= 0))
            throw DataError("inf model: a stored clustering does not match k = " + std::to_string(c.k)
                            + " and dimension " + std::to_string(p));
        c.centers = Eigen::Map<const Eigen::MatrixXd>(centers.data(), c.k, p);
        c.cost = Eigen::Map<const Eigen::VectorXd>(cost.data(), c.k);
        c.size = Eigen::Map<const Eigen::VectorXd>(size.data(), c.k);
        out.push_back(std::move(c));
    }
    if (out.empty())
        throw DataError("inf model: no clusterings");
    m_clusterings = std::move(out);
}

} // namespace olens
