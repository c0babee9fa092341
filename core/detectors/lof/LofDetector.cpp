#include "detectors/lof/LofDetector.h"

#include "base/Errors.h"
#include "detectors/DetectorInfo.h"

#include "linalg/PointIndex.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace olens {

namespace {
constexpr double kLrdEpsilon = 1e-10; // scikit-learn's _local_reachability_density
const char* kPaper = "Breunig et al., LOF, SIGMOD 2000";
} // namespace

// Points are stored as the columns of a p×n matrix so that each point is contiguous (as knn).
struct LofDetector::Model {
    Model(Eigen::MatrixXd pointsAsColumns, int kk) : index(std::move(pointsAsColumns)), k(kk) {}
    PointIndex index;
    int k;               // neighbours used (min(k, n - 1), as scikit-learn's n_neighbors_)
    Eigen::VectorXd kdist; // k-distance of each training point (self excluded)
    Eigen::VectorXd lrd;   // local reachability density of each training point
};

DetectorInfo LofDetector::info()
{
    DetectorInfo d;
    d.id = "lof";
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
    d.params = {k, contaminationParam()};
    d.make = [](ParamSet p) { return std::make_unique<LofDetector>(std::move(p)); };
    return d;
}

LofDetector::LofDetector(ParamSet params) : Detector(std::move(params)) {}
LofDetector::~LofDetector() = default;

void LofDetector::neighbours(const Eigen::MatrixXd& X, Eigen::MatrixXd& dist, Eigen::MatrixXi& index) const
{
    m_model->index.query(X, m_model->k, dist, index);
}

static Eigen::VectorXd reachabilityDensity(const Eigen::MatrixXd& dist, const Eigen::MatrixXi& index,
                                           const Eigen::VectorXd& kdist)
{
    Eigen::VectorXd lrd(dist.rows());
    for (Eigen::Index i = 0; i < dist.rows(); ++i) {
        double sum = 0.0;
        for (Eigen::Index j = 0; j < dist.cols(); ++j)
            sum += std::max(dist(i, j), kdist(index(i, j)));
        lrd(i) = 1.0 / (sum / static_cast<double>(dist.cols()) + kLrdEpsilon);
    }
    return lrd;
}

static Eigen::VectorXd outlierFactor(const Eigen::VectorXd& ownLrd, const Eigen::MatrixXi& index,
                                     const Eigen::VectorXd& trainLrd)
{
    Eigen::VectorXd lof(index.rows());
    for (Eigen::Index i = 0; i < index.rows(); ++i) {
        double sum = 0.0;
        for (Eigen::Index j = 0; j < index.cols(); ++j)
            sum += trainLrd(index(i, j));
        lof(i) = sum / static_cast<double>(index.cols()) / ownLrd(i);
    }
    return lof;
}

Eigen::VectorXd LofDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const Eigen::Index n = X.rows();
    const int k = static_cast<int>(std::min<Eigen::Index>(params().getInt("k"), n - 1));
    auto model = std::make_unique<Model>(X.transpose(), k);
    progress.report(0.3, "kd-tree built; neighbours of the training points");

    // k neighbours of each training point without the point itself: query k + 1 and drop its own
    // index; when duplicates push it out of the k + 1, drop the first (scikit-learn's kneighbors()).
    const auto kk = static_cast<std::size_t>(k + 1);
    std::vector<Eigen::Index> idx(kk);
    std::vector<double> d2(kk);
    Eigen::MatrixXd dist(n, k);
    Eigen::MatrixXi index(n, k);
    for (Eigen::Index i = 0; i < n; ++i) {
        model->index.nearest(model->index.points().col(i).data(), kk, idx.data(), d2.data());
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
        if ((i & 255) == 0)
            progress.report(0.3 + 0.6 * static_cast<double>(i) / static_cast<double>(n), "neighbours");
    }
    model->kdist = dist.col(k - 1);
    model->lrd = reachabilityDensity(dist, index, model->kdist);
    Eigen::VectorXd train = outlierFactor(model->lrd, index, model->lrd);
    m_model = std::move(model);
    return train;
}

Eigen::VectorXd LofDetector::doScore(const Eigen::MatrixXd& X) const
{
    Eigen::MatrixXd dist;
    Eigen::MatrixXi index;
    neighbours(X, dist, index);
    return outlierFactor(reachabilityDensity(dist, index, m_model->kdist), index, m_model->lrd);
}

std::vector<std::string> LofDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    Eigen::MatrixXd dist;
    Eigen::MatrixXi index;
    // The training matrix itself is explained as it was scored (each row without itself).
    const bool training = trainedOn(X);
    Eigen::VectorXd own;
    if (training) {
        own = m_model->lrd;
    } else {
        neighbours(X, dist, index);
        own = reachabilityDensity(dist, index, m_model->kdist);
    }
    std::vector<std::string> out(static_cast<std::size_t>(X.rows()));
    char buf[128];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        double mean = 0.0;
        if (training) {
            mean = trainingScores()(i) * own(i); // LOF = mean neighbour lrd / own lrd
        } else {
            for (Eigen::Index j = 0; j < index.cols(); ++j)
                mean += m_model->lrd(index(i, j));
            mean /= static_cast<double>(index.cols());
        }
        std::snprintf(buf, sizeof buf, "density %.3g vs. %.3g of its %d neighbours", own(i), mean, m_model->k);
        out[static_cast<std::size_t>(i)] = buf;
    }
    return out;
}

std::map<std::string, double> LofDetector::figures() const
{
    requireFitted("figures");
    return {{"k_used", static_cast<double>(m_model->k)}};
}

nlohmann::json LofDetector::saveState() const
{
    const Eigen::MatrixXd& P = m_model->index.points();
    return {{"points", std::vector<double>(P.data(), P.data() + P.size())},
            {"rows", P.cols()},
            {"k", m_model->k},
            {"kdist", std::vector<double>(m_model->kdist.data(), m_model->kdist.data() + m_model->kdist.size())},
            {"lrd", std::vector<double>(m_model->lrd.data(), m_model->lrd.data() + m_model->lrd.size())}};
}

void LofDetector::loadState(const nlohmann::json& state)
{
    const auto v = state.at("points").get<std::vector<double>>();
    const auto n = static_cast<Eigen::Index>(jsonInt(state.at("rows"), "lof model: rows"));
    const auto k = jsonInt(state.at("k"), "lof model: k");
    const auto kdist = state.at("kdist").get<std::vector<double>>();
    const auto lrd = state.at("lrd").get<std::vector<double>>();
    const int p = inputDimension();
    if (n <= 1 || static_cast<Eigen::Index>(v.size()) != n * p)
        throw DataError("lof model: " + std::to_string(v.size()) + " stored values do not form " + std::to_string(n)
                        + " points of dimension " + std::to_string(p));
    if (k < 1 || k >= n || static_cast<Eigen::Index>(kdist.size()) != n || static_cast<Eigen::Index>(lrd.size()) != n)
        throw DataError("lof model: k = " + std::to_string(k) + ", " + std::to_string(kdist.size()) + " k-distances and "
                        + std::to_string(lrd.size()) + " densities do not fit " + std::to_string(n) + " points");
    auto model = std::make_unique<Model>(Eigen::Map<const Eigen::MatrixXd>(v.data(), p, n), static_cast<int>(k));
    model->kdist = Eigen::Map<const Eigen::VectorXd>(kdist.data(), n);
    model->lrd = Eigen::Map<const Eigen::VectorXd>(lrd.data(), n);
    m_model = std::move(model);
}

} // namespace olens
