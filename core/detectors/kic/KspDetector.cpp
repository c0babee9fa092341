#include "detectors/kic/KspDetector.h"

#include "base/Errors.h"
#include "detectors/DetectorInfo.h"
#include "base/Rng.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

namespace olens {

DetectorInfo KspDetector::info()
{
    DetectorInfo d;
    d.id = "ksp";
    d.leaveOneOutTraining = true;
    d.title = "Nearest neighbour in a random sample (KSP)";
    d.summary = "Score = distance to the nearest point of a random sample S of the training data "
                "(the point itself excluded), averaged over repeats; optional KSP2 filtering.";
    d.reference = "KIC paper sec. 4.1 (KSP, KSP2); Sugiyama & Borgwardt 2013";

    ParamSpec size;
    size.name = "sample_size";
    size.type = ParamType::Int;
    size.defaultValue = "20";
    size.minValue = 1;
    size.maxValue = 1e7;
    size.help = "|S|: sampled with replacement; sample_size ≥ n uses every training point once "
                "(the score is then the 1-NN distance).";
    size.reference = "KIC paper sec. 4.1 (|S| = 20)";

    const ParamSpec seed = seedParam("Seed of the random samples (same seed, same data → same scores).");

    ParamSpec repeats;
    repeats.name = "repeats";
    repeats.type = ParamType::Int;
    repeats.defaultValue = "1";
    repeats.minValue = 1;
    repeats.maxValue = 1000;
    repeats.help = "Number of independent samples whose scores are averaged.";
    repeats.reference = "KIC paper Table 2 (30 trials)";

    ParamSpec alpha;
    alpha.name = "filter_alpha";
    alpha.type = ParamType::Real;
    alpha.defaultValue = "0";
    alpha.minValue = 0;
    alpha.maxValue = 1;
    alpha.help = "KSP2: 0 = off; otherwise draw the final sample from the ⌊α·n⌋ points with the "
                 "lowest first-pass scores (paper: 0.5).";
    alpha.reference = "KIC paper sec. 4.1 (KSP2, α = 0.5)";

    d.params = {size, seed, repeats, alpha, contaminationParam()};
    d.normalization = "zscore"; // KIC paper sec. 4.1: zero mean, unit variance per feature
    d.make = [](ParamSet p) { return std::make_unique<KspDetector>(std::move(p)); };
    return d;
}

namespace {

/// Indices of the sample: with replacement from pool, or the whole pool when size ≥ |pool|.
std::vector<Eigen::Index> drawSample(const std::vector<Eigen::Index>& pool, Eigen::Index size, Rng& rng)
{
    if (size >= static_cast<Eigen::Index>(pool.size()))
        return pool;
    std::vector<Eigen::Index> s(static_cast<std::size_t>(size));
    for (auto& i : s)
        i = pool[static_cast<std::size_t>(rng.index(pool.size()))];
    return s;
}

/// For each training row i: distance to the nearest sampled row other than i itself
/// (Sugiyama & Borgwardt's q(x) = min_{x' ∈ S∖{x}} d(x, x')). When S holds only i, the 1-NN
/// distance over the whole training set stands in.
Eigen::VectorXd trainingDistances(const Eigen::MatrixXd& X, const std::vector<Eigen::Index>& sample,
                                  const std::function<void(double)>& tick)
{
    const Eigen::Index n = X.rows();
    const double inf = std::numeric_limits<double>::infinity();
    Eigen::VectorXd best = Eigen::VectorXd::Constant(n, inf);
    Eigen::VectorXd d(n);
    for (std::size_t k = 0; k < sample.size(); ++k) {
        const Eigen::Index j = sample[k];
        d = (X.rowwise() - X.row(j)).rowwise().squaredNorm();
        d(j) = inf; // the point itself is not its own neighbour
        best = best.cwiseMin(d);
        if ((k & 63) == 63)
            tick(static_cast<double>(k + 1) / static_cast<double>(sample.size()));
    }
    for (Eigen::Index i = 0; i < n; ++i)
        if (std::isinf(best(i))) {
            d = (X.rowwise() - X.row(i)).rowwise().squaredNorm();
            d(i) = inf;
            best(i) = d.minCoeff();
        }
    return best.cwiseSqrt();
}

} // namespace

Eigen::VectorXd KspDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const Eigen::Index n = X.rows();
    const auto size = static_cast<Eigen::Index>(
        limitInt("sample_size", params().getInt("sample_size"), static_cast<int>(n), "a sample is at most the " + std::to_string(n) + " rows"));
    const int repeats = params().getInt("repeats");
    const double alpha = params().getReal("filter_alpha");
    Rng rng(static_cast<std::uint64_t>(params().getInt("seed")));
    Eigen::Index keep = n;
    if (alpha > 0) {
        keep = static_cast<Eigen::Index>(std::floor(alpha * static_cast<double>(n) + 1e-9));
        if (keep < 2)
            throw ParamError("ksp: filter_alpha = " + params().text("filter_alpha") + " keeps ⌊αn⌋ = "
                             + std::to_string(keep) + " of " + std::to_string(n) + " points; need at least 2");
    }
    std::vector<Eigen::Index> all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), Eigen::Index(0));

    Eigen::VectorXd sum = Eigen::VectorXd::Zero(n);
    std::vector<Eigen::MatrixXd> samples;
    for (int r = 0; r < repeats; ++r) {
        const double f0 = static_cast<double>(r) / static_cast<double>(repeats);
        const double span = 1.0 / static_cast<double>(repeats);
        auto tick = [&](double f) { progress.report(f0 + span * (alpha > 0 ? 0.5 * f : f), "sampling"); };
        auto tick2 = [&](double f) { progress.report(f0 + span * (0.5 + 0.5 * f), "sampling (KSP2)"); };
        std::vector<Eigen::Index> sample = drawSample(all, size, rng);
        Eigen::VectorXd s = trainingDistances(X, sample, tick);
        if (alpha > 0) {
            // KSP2: X' = the ⌊αn⌋ points of lowest first-pass score (ties by row order), a new
            // sample S' ⊆ X', and the scores recomputed with S'.
            std::vector<Eigen::Index> order = all;
            std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return s(a) < s(b); });
            std::vector<Eigen::Index> filtered(order.begin(), order.begin() + keep);
            std::sort(filtered.begin(), filtered.end());
            sample = drawSample(filtered, size, rng);
            s = trainingDistances(X, sample, tick2);
        }
        sum += s;
        Eigen::MatrixXd S(static_cast<Eigen::Index>(sample.size()), X.cols());
        for (std::size_t i = 0; i < sample.size(); ++i)
            S.row(static_cast<Eigen::Index>(i)) = X.row(sample[i]);
        samples.push_back(std::move(S));
        progress.report(static_cast<double>(r + 1) / static_cast<double>(repeats), "sampling");
    }
    m_samples = std::move(samples);
    m_fitPoints = keep;
    return sum / static_cast<double>(repeats);
}

Eigen::VectorXd KspDetector::doScore(const Eigen::MatrixXd& X) const
{
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(X.rows());
    for (const Eigen::MatrixXd& S : m_samples) {
        Eigen::VectorXd best = Eigen::VectorXd::Constant(X.rows(), std::numeric_limits<double>::infinity());
        for (Eigen::Index j = 0; j < S.rows(); ++j)
            best = best.cwiseMin((X.rowwise() - S.row(j)).rowwise().squaredNorm());
        sum += best.cwiseSqrt();
    }
    return sum / static_cast<double>(m_samples.size());
}

std::map<std::string, double> KspDetector::figures() const
{
    if (!isFitted() || m_samples.empty())
        return {};
    return {{"sample_size", static_cast<double>(m_samples.front().rows())},
            {"repeats", static_cast<double>(m_samples.size())},
            {"fit_points", static_cast<double>(m_fitPoints)}};
}

nlohmann::json KspDetector::saveState() const
{
    nlohmann::json samples = nlohmann::json::array();
    for (const Eigen::MatrixXd& S : m_samples)
        samples.push_back({{"rows", S.rows()}, {"points", std::vector<double>(S.data(), S.data() + S.size())}});
    return {{"samples", samples}, {"fit_points", m_fitPoints}};
}

void KspDetector::loadState(const nlohmann::json& state)
{
    const int p = inputDimension();
    std::vector<Eigen::MatrixXd> samples;
    for (const auto& s : state.at("samples")) {
        const auto rows = static_cast<Eigen::Index>(jsonInt(s.at("rows"), "ksp model: rows"));
        const auto v = s.at("points").get<std::vector<double>>();
        if (rows <= 0 || static_cast<Eigen::Index>(v.size()) != rows * p)
            throw DataError("ksp model: a stored sample of " + std::to_string(v.size()) + " values does not form "
                            + std::to_string(rows) + " points of dimension " + std::to_string(p));
        samples.push_back(Eigen::Map<const Eigen::MatrixXd>(v.data(), rows, p));
    }
    if (samples.empty())
        throw DataError("ksp model: no samples");
    m_samples = std::move(samples);
    m_fitPoints = static_cast<Eigen::Index>(jsonInt(state.at("fit_points"), "ksp model: fit_points", 0, std::numeric_limits<long long>::max()));
}

} // namespace olens
