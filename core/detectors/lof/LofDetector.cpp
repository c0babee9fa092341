#include "detectors/lof/LofDetector.h"

#include "base/Errors.h"
#include "base/ParallelFor.h"
#include "detectors/DetectorInfo.h"

#include "linalg/PointIndex.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>

namespace olens {

namespace {
constexpr double kLrdEpsilon = 1e-10; // scikit-learn's _local_reachability_density
const char* kPaper = "Breunig et al., LOF, SIGMOD 2000";
} // namespace

// Points are stored as the columns of a p×n matrix so that each point is contiguous (as knn).
struct LofDetector::Model {
    Model(Eigen::MatrixXd pointsAsColumns, int kk, int kl) : index(std::move(pointsAsColumns)), k(kk), kMin(kl) {}
    PointIndex index;
    int k;    // largest MinPts used (min(k, n - 1), as scikit-learn's n_neighbors_)
    int kMin; // smallest MinPts of the range (= k: one LOF)
    // Column j: MinPts = kMin + j. k-distance and local reachability density of each training point
    // (self excluded).
    Eigen::MatrixXd kdist;
    Eigen::MatrixXd lrd;
    // The label-free check's reference (kReferenceNeighbour-th distance) when k reaches it but the
    // k-distances kept for MinPts k_min … k do not (k_min > 40); the fit has it from its own
    // search (FitDiagnostics then does not search again). Not stored.
    Eigen::VectorXd reference;
};

DetectorInfo LofDetector::info()
{
    DetectorInfo d;
    d.id = "lof";
    d.leaveOneOutTraining = true;
    d.title = "Local Outlier Factor";
    d.summary = "Score = LOF: the mean local reachability density of a point's k neighbours divided by "
                "its own (≈ 1 inside clusters, larger for outliers).";
    d.reference = std::string(kPaper) + " (def. 5-7); scikit-learn LocalOutlierFactor";
    d.normalization = "zscore";
    ParamSpec k;
    k.name = "k";
    k.type = ParamType::Int;
    k.defaultValue = "20";
    k.minValue = 1;
    k.maxValue = 10000;
    k.help = "MinPts: the number of neighbours defining the reachability distance and the local density "
             "(capped at n - 1).";
    k.reference = std::string(kPaper) + " sec. 7 (MinPts); scikit-learn n_neighbors=20";
    ParamSpec kl;
    kl.name = "k_min";
    kl.type = ParamType::Int;
    kl.defaultValue = "10";
    kl.minValue = 0;
    kl.maxValue = 10000;
    kl.help = "MinPtsLB: the score is the largest LOF over MinPts = k_min … k (the paper's heuristic against "
              "a single MinPts' fluctuations); 0 or ≥ k: the single LOF with k neighbours (scikit-learn).";
    kl.reference = std::string(kPaper) + " sec. 7 (range MinPtsLB … MinPtsUB, MinPtsLB ≥ 10)";
    d.params = {k, kl, contaminationParam("LOF > 1.5, scikit-learn's auto offset")};
    d.make = [](ParamSet p) { return std::make_unique<LofDetector>(std::move(p)); };
    return d;
}

LofDetector::LofDetector(ParamSet params) : Detector(std::move(params)) {}
LofDetector::~LofDetector() = default;

void LofDetector::neighbours(const Eigen::MatrixXd& X, Eigen::MatrixXd& dist, Eigen::MatrixXi& index) const
{
    m_model->index.query(X, m_model->k, dist, index);
}

// lrd with the first m neighbours (MinPts = m) of each row; kdist = the training k-distances for m.
static Eigen::VectorXd reachabilityDensity(const Eigen::MatrixXd& dist, const Eigen::MatrixXi& index,
                                           const Eigen::Ref<const Eigen::VectorXd>& kdist, int m)
{
    Eigen::VectorXd lrd(dist.rows());
    for (Eigen::Index i = 0; i < dist.rows(); ++i) {
        double sum = 0.0;
        for (Eigen::Index j = 0; j < m; ++j)
            sum += std::max(dist(i, j), kdist(index(i, j)));
        lrd(i) = 1.0 / (sum / static_cast<double>(m) + kLrdEpsilon);
    }
    return lrd;
}

static Eigen::VectorXd outlierFactor(const Eigen::VectorXd& ownLrd, const Eigen::MatrixXi& index,
                                     const Eigen::Ref<const Eigen::VectorXd>& trainLrd, int m)
{
    Eigen::VectorXd lof(index.rows());
    for (Eigen::Index i = 0; i < index.rows(); ++i) {
        double sum = 0.0;
        for (Eigen::Index j = 0; j < m; ++j)
            sum += trainLrd(index(i, j));
        lof(i) = sum / static_cast<double>(m) / ownLrd(i);
    }
    return lof;
}

Eigen::VectorXd LofDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const Eigen::Index n = X.rows();
    const int k = limitInt("k", params().getInt("k"), static_cast<int>(n - 1),
                           "n − 1 = " + std::to_string(n - 1) + ": the other rows of these " + std::to_string(n));
    const int kl = params().getInt("k_min");
    const int klUsed = kl >= 1 ? limitInt("k_min", kl, k, "k_min is at most k = " + std::to_string(k)) : k;
    auto model = std::make_unique<Model>(X.transpose(), k, klUsed);
    progress.report(0.3, "kd-tree built; neighbours of the training points");

    // k neighbours of each training point without the point itself: query k + 1 and drop its own
    // index; when duplicates push it out of the k + 1, drop the first (scikit-learn's kneighbors()).
    const auto kk = static_cast<std::size_t>(k + 1);
    Eigen::MatrixXd dist(n, k);
    Eigen::MatrixXi index(n, k);
    // Rows are independent: chunks over the cores, one batch query each (brute force for p ≥ 16
    // computes a chunk's distances with one product); only the caller's thread reports progress.
    const auto caller = std::this_thread::get_id();
    std::atomic<std::int64_t> done{0};
    parallelChunks(n, kRowsPerChunk, [&](std::int64_t begin, std::int64_t end) {
        if (std::this_thread::get_id() == caller)
            progress.report(0.3 + 0.6 * static_cast<double>(done.load()) / static_cast<double>(n), "neighbours");
        std::vector<Eigen::Index> all(static_cast<std::size_t>(end - begin) * kk);
        std::vector<double> all2(all.size());
        model->index.nearestMany(model->index.points().middleCols(begin, end - begin), kk, all.data(), all2.data());
        for (Eigen::Index i = begin; i < end; ++i) {
            const Eigen::Index* idx = all.data() + (i - begin) * static_cast<Eigen::Index>(kk);
            const double* d2 = all2.data() + (i - begin) * static_cast<Eigen::Index>(kk);
            std::size_t skip = 0;
            for (std::size_t j = 0; j < kk; ++j)
                if (idx[j] == i) {
                    skip = j;
                    break;
                }
            int c = 0;
            for (std::size_t j = 0; j < kk; ++j) {
                if (j == skip)
                    continue;
                dist(i, c) = std::sqrt(std::max(0.0, d2[j]));
                index(i, c) = static_cast<int>(idx[j]);
                ++c;
            }
        }
        done += end - begin;
    });
    // Sec. 7: LOF for every MinPts of the range from the same neighbour lists, the maximum scores.
    const int range = k - model->kMin + 1;
    model->kdist.resize(n, range);
    model->lrd.resize(n, range);
    Eigen::VectorXd train = Eigen::VectorXd::Zero(n);
    for (int r = 0; r < range; ++r) {
        const int m = model->kMin + r;
        model->kdist.col(r) = dist.col(m - 1);
        model->lrd.col(r) = reachabilityDensity(dist, index, model->kdist.col(r), m);
        train = train.cwiseMax(outlierFactor(model->lrd.col(r), index, model->lrd.col(r), m));
    }
    if (k >= kReferenceNeighbour && model->kMin > kReferenceNeighbour)
        model->reference = dist.col(kReferenceNeighbour - 1);
    m_model = std::move(model);
    return train;
}

Eigen::VectorXd LofDetector::trainingNeighbourDistance(int j) const
{
    requireFitted("trainingNeighbourDistance");
    if (j >= m_model->kMin && j <= m_model->k) // MinPts = j's k-distance (def. 3)
        return m_model->kdist.col(j - m_model->kMin);
    return j == kReferenceNeighbour ? m_model->reference : Eigen::VectorXd();
}

Eigen::VectorXd LofDetector::doScore(const Eigen::MatrixXd& X) const
{
    Eigen::MatrixXd dist;
    Eigen::MatrixXi index;
    neighbours(X, dist, index);
    Eigen::VectorXd out = Eigen::VectorXd::Zero(X.rows());
    for (Eigen::Index r = 0; r < m_model->lrd.cols(); ++r) {
        const int m = m_model->kMin + static_cast<int>(r);
        out = out.cwiseMax(outlierFactor(reachabilityDensity(dist, index, m_model->kdist.col(r), m), index,
                                         m_model->lrd.col(r), m));
    }
    return out;
}

std::vector<std::string> LofDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    Eigen::MatrixXd dist;
    Eigen::MatrixXi index;
    // The training matrix itself is explained as it was scored (each row without itself); the
    // densities are those of the largest MinPts (k).
    const bool training = trainedOn(X);
    const Eigen::Index last = m_model->lrd.cols() - 1;
    const int k = m_model->k;
    Eigen::VectorXd own;
    if (training) {
        own = m_model->lrd.col(last);
    } else {
        neighbours(X, dist, index);
        own = reachabilityDensity(dist, index, m_model->kdist.col(last), k);
    }
    const Eigen::VectorXd lof = training ? trainingScores() : Eigen::VectorXd(score(X));
    std::vector<std::string> out(static_cast<std::size_t>(X.rows()));
    char buf[160];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        if (last > 0) {
            std::snprintf(buf, sizeof buf, "LOF %.3g (largest over MinPts %d-%d); density %.3g at MinPts %d", lof(i),
                          m_model->kMin, k, own(i), k);
        } else {
            double mean = 0.0;
            if (training) {
                mean = lof(i) * own(i); // LOF = mean neighbour lrd / own lrd
            } else {
                for (Eigen::Index j = 0; j < k; ++j)
                    mean += m_model->lrd(index(i, j), last);
                mean /= static_cast<double>(k);
            }
            std::snprintf(buf, sizeof buf, "density %.3g vs. %.3g of its %d neighbours", own(i), mean, k);
        }
        out[static_cast<std::size_t>(i)] = buf;
    }
    return out;
}

std::map<std::string, double> LofDetector::figures() const
{
    requireFitted("figures");
    return {{"k_used", static_cast<double>(m_model->k)}, {"k_min_used", static_cast<double>(m_model->kMin)},
            {"neighbours", static_cast<double>(m_model->k)}};
}

nlohmann::json LofDetector::saveState() const
{
    nlohmann::json j = stateWithoutRows();
    const Eigen::MatrixXd& P = m_model->index.points();
    j["points"] = std::vector<double>(P.data(), P.data() + P.size());
    return j;
}

nlohmann::json LofDetector::stateWithoutRows() const
{
    requireFitted("stateWithoutRows");
    return {{"rows", m_model->index.points().cols()},
            {"k", m_model->k},
            {"k_min", m_model->kMin},
            {"kdist", std::vector<double>(m_model->kdist.data(), m_model->kdist.data() + m_model->kdist.size())},
            {"lrd", std::vector<double>(m_model->lrd.data(), m_model->lrd.data() + m_model->lrd.size())}};
}

void LofDetector::loadState(const nlohmann::json& state)
{
    const auto v = state.at("points").get<std::vector<double>>();
    const auto n = static_cast<Eigen::Index>(jsonInt(state.at("rows"), "lof model: rows"));
    const auto k = jsonInt(state.at("k"), "lof model: k");
    const auto kl = state.contains("k_min") ? jsonInt(state.at("k_min"), "lof model: k_min") : k; // older models: one LOF
    const auto range = static_cast<Eigen::Index>(k - kl + 1);
    const auto kdist = state.at("kdist").get<std::vector<double>>();
    const auto lrd = state.at("lrd").get<std::vector<double>>();
    const int p = inputDimension();
    if (n <= 1 || static_cast<Eigen::Index>(v.size()) != n * p)
        throw DataError("lof model: " + std::to_string(v.size()) + " stored values do not form " + std::to_string(n)
                        + " points of dimension " + std::to_string(p));
    if (k < 1 || k >= n || kl < 1 || kl > k || static_cast<Eigen::Index>(kdist.size()) != n * range
        || static_cast<Eigen::Index>(lrd.size()) != n * range)
        throw DataError("lof model: k = " + std::to_string(k) + ", k_min = " + std::to_string(kl) + ", "
                        + std::to_string(kdist.size()) + " k-distances and " + std::to_string(lrd.size())
                        + " densities do not fit " + std::to_string(n) + " points");
    auto model = std::make_unique<Model>(Eigen::Map<const Eigen::MatrixXd>(v.data(), p, n), static_cast<int>(k),
                                         static_cast<int>(kl));
    model->kdist = Eigen::Map<const Eigen::MatrixXd>(kdist.data(), n, range);
    model->lrd = Eigen::Map<const Eigen::MatrixXd>(lrd.data(), n, range);
    m_model = std::move(model);
}

std::optional<double> LofDetector::naturalThreshold() const
{
    return 1.5; // LOF ≈ 1 inside a cluster (Breunig et al. lemma 1); scikit-learn's contamination="auto"
}

} // namespace olens
