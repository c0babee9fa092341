#include "detectors/knn/KnnDetector.h"

#include "base/Errors.h"
#include "detectors/DetectorInfo.h"

#include "linalg/PointIndex.h"
#include "base/ParallelFor.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <atomic>
#include <thread>
#include <cmath>

namespace olens {

DetectorInfo KnnDetector::info()
{
    DetectorInfo d;
    d.compareSlot = 1;
    d.leaveOneOutTraining = true;
    d.id = "knn";
    d.title = "k-nearest-neighbour distance";
    d.summary = "Score = Euclidean distance to the k-th nearest training point (the point itself "
                "excluded when scoring the training set).";
    d.reference = "KIC paper sec. 4.1 (baseline KNN, k=5)";
    ParamSpec k;
    k.name = "k";
    k.type = ParamType::Int;
    k.defaultValue = "5";
    k.minValue = 1;
    k.maxValue = 10000;
    k.help = "Which neighbour's distance is the score.";
    k.reference = "KIC paper sec. 4.1 (k=5)";
    d.params = {k, contaminationParam()};
    d.make = [](ParamSet p) { return std::make_unique<KnnDetector>(std::move(p)); };
    return d;
}

KnnDetector::KnnDetector(ParamSet params) : Detector(std::move(params)) {}
KnnDetector::~KnnDetector() = default;

int KnnDetector::minSamples() const
{
    return params().getInt("k") + 1;
}

void KnnDetector::neighbours(const Eigen::MatrixXd& X, int k, Eigen::MatrixXd& dist, Eigen::MatrixXi& index) const
{
    requireFitted("neighbours");
    m_index->query(X, static_cast<int>(std::min<Eigen::Index>(k, m_index->size())), dist, index);
}

Eigen::VectorXd KnnDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const int k = params().getInt("k");
    auto index = std::make_unique<PointIndex>(X.transpose());
    progress.report(0.5, "kd-tree built; scoring training points");

    // Training scores: query k+1 neighbours and drop the point itself. With duplicate points the
    // point may not come first among equal distances, so remove its own index wherever it is.
    const Eigen::Index n = X.rows();
    Eigen::VectorXd train(n);
    // The label-free check's reference (the 40th neighbour, FitDiagnostics) comes with the same
    // search when it is free: k ≥ 40, or brute force, where the product with every point is the
    // cost and a few more candidates are not (Spambase, Python, medians of 9: the fit 0.137 →
    // 0.100 s without the second search and with PointIndex's faster scan; docs/benchmarks.md). The
    // kd-tree pays per neighbour, so there the check searches a sample afterwards instead.
    const bool reference = n > kReferenceNeighbour && (k >= kReferenceNeighbour || index->bruteForce());
    const int far = reference ? std::max(k, kReferenceNeighbour) : k;
    const auto kk = static_cast<std::size_t>(far + 1);
    Eigen::VectorXd ref(reference ? n : 0);
    // Rows are independent: the cores take chunks of rows in turn (parallelChunks: one slowed by
    // other work, e.g. the GUI drawing, takes fewer), the same scores for any number of threads.
    // Only the caller's thread reports progress (and so meets a cancellation first); a failure or
    // cancellation stops the handing out of chunks.
    const auto caller = std::this_thread::get_id();
    std::atomic<std::int64_t> done{0};
    parallelChunks(n, kRowsPerChunk, [&](std::int64_t begin, std::int64_t end) {
        if (std::this_thread::get_id() == caller)
            progress.report(0.5 + 0.5 * static_cast<double>(done.load()) / static_cast<double>(n),
                            "scoring training points");
        // One batch per chunk: brute force (p ≥ 16) computes the chunk's distances with one product.
        std::vector<Eigen::Index> all(static_cast<std::size_t>(end - begin) * kk);
        std::vector<double> all2(all.size());
        index->nearestMany(index->points().middleCols(begin, end - begin), kk, all.data(), all2.data());
        for (Eigen::Index i = begin; i < end; ++i) {
            const Eigen::Index* idx = all.data() + (i - begin) * static_cast<Eigen::Index>(kk);
            const double* d2 = all2.data() + (i - begin) * static_cast<Eigen::Index>(kk);
            int seen = 0;
            double kth = d2[kk - 1];
            for (std::size_t j = 0; j < kk; ++j) {
                if (idx[j] == i)
                    continue;
                ++seen;
                if (seen == k)
                    kth = d2[j];
                if (reference && seen == kReferenceNeighbour)
                    ref(i) = std::sqrt(std::max(0.0, d2[j]));
                if (seen == far)
                    break;
            }
            train(i) = std::sqrt(std::max(0.0, kth));
        }
        done += end - begin;
    });
    m_index = std::move(index);
    m_reference = std::move(ref);
    return train;
}

std::map<std::string, double> KnnDetector::figures() const
{
    if (!isFitted())
        return {};
    return {{"neighbours", static_cast<double>(params().getInt("k"))}};
}

Eigen::VectorXd KnnDetector::trainingNeighbourDistance(int j) const
{
    requireFitted("trainingNeighbourDistance");
    if (j == params().getInt("k"))
        return trainingScores();
    return j == kReferenceNeighbour ? m_reference : Eigen::VectorXd();
}

Eigen::VectorXd KnnDetector::attribute(const Eigen::VectorXd& x, int trainingRow) const
{
    requireFitted("attribute");
    if (x.size() != inputDimension())
        throw DataError("knn: attribution needs " + std::to_string(inputDimension()) + " features");
    const int k = params().getInt("k");
    const bool self = trainingRow >= 0 && trainingRow < m_index->size();
    // The same neighbour search as the scores (doFit for training rows, doScore otherwise).
    const auto kk = static_cast<std::size_t>(std::min<Eigen::Index>(k + (self ? 1 : 0), m_index->size()));
    std::vector<Eigen::Index> idx(kk);
    std::vector<double> d2(kk);
    m_index->nearest(x.data(), kk, idx.data(), d2.data());
    Eigen::Index kth = idx[kk - 1];
    int seen = 0;
    for (std::size_t j = 0; j < kk; ++j) {
        if (self && idx[j] == trainingRow)
            continue;
        if (++seen == k) {
            kth = idx[j];
            break;
        }
    }
    return (x - m_index->points().col(kth)).array().square();
}

Eigen::VectorXd KnnDetector::doScore(const Eigen::MatrixXd& X) const
{
    Eigen::MatrixXd dist;
    Eigen::MatrixXi index;
    neighbours(X, params().getInt("k"), dist, index);
    return dist.col(dist.cols() - 1);
}

std::vector<std::string> KnnDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    const int k = params().getInt("k");
    Eigen::MatrixXd dist;
    Eigen::MatrixXi index;
    // One extra neighbour so a training point can skip itself (distance 0, same coordinates).
    neighbours(X, k + 1, dist, index);
    const Eigen::MatrixXd& P = m_index->points();
    std::vector<std::string> out(static_cast<std::size_t>(X.rows()));
    char buf[96];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        int seen = 0;
        for (Eigen::Index j = 0; j < index.cols(); ++j) {
            const bool self = dist(i, j) == 0.0 && j == 0 && (P.col(index(i, j)) - X.row(i).transpose()).norm() == 0.0;
            if (self && index.cols() > k)
                continue;
            if (++seen == k) {
                std::snprintf(buf, sizeof buf, "%d-th neighbour: sample %d at %.4g", k, index(i, j), dist(i, j));
                out[static_cast<std::size_t>(i)] = buf;
                break;
            }
        }
    }
    return out;
}

nlohmann::json KnnDetector::saveState() const
{
    nlohmann::json j = stateWithoutRows();
    const Eigen::MatrixXd& P = m_index->points();
    j["points"] = std::vector<double>(P.data(), P.data() + P.size());
    return j;
}

nlohmann::json KnnDetector::stateWithoutRows() const
{
    requireFitted("stateWithoutRows");
    return {{"rows", m_index->points().cols()}};
}

void KnnDetector::loadState(const nlohmann::json& state)
{
    const auto v = state.at("points").get<std::vector<double>>();
    const auto n = static_cast<Eigen::Index>(jsonInt(state.at("rows"), "knn model: rows"));
    const int p = inputDimension();
    if (n <= 0 || static_cast<Eigen::Index>(v.size()) != n * p)
        throw DataError("knn model: " + std::to_string(v.size()) + " stored values do not form " + std::to_string(n)
                        + " points of dimension " + std::to_string(p));
    // A fit needs k + 1 rows (minSamples); a model file saying k = 5000 over 200 points was
    // accepted and scored with fewer neighbours than it claims (#51).
    const int k = params().getInt("k");
    if (k >= n)
        throw DataError("knn model: k = " + std::to_string(k) + " needs at least " + std::to_string(k + 1) +
                        " stored points, the model has " + std::to_string(n) + " (the file was altered: train again)");
    m_index = std::make_unique<PointIndex>(Eigen::Map<const Eigen::MatrixXd>(v.data(), p, n));
    m_reference.resize(0); // not stored: a restored fit's check searches again
}

} // namespace olens
