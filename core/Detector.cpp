#include "Detector.h"

#include "Errors.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace olens {

ParamSpec contaminationParam()
{
    ParamSpec s;
    s.name = "contamination";
    s.type = ParamType::Real;
    s.defaultValue = "0.1";
    s.minValue = 0.0;
    s.maxValue = 0.5;
    s.help = "Expected fraction of outliers: isOutlier flags scores above the (1 - contamination) "
             "quantile of the training scores.";
    s.reference = "scikit-learn convention (contamination)";
    return s;
}

ParamSpec seedParam(const std::string& help)
{
    ParamSpec s;
    s.name = "seed";
    s.type = ParamType::Int;
    s.defaultValue = "0";
    s.minValue = 0;
    s.maxValue = 2147483647;
    s.help = help;
    s.reference = "OutlierLens (reproducibility)";
    return s;
}

double quantile(const Eigen::VectorXd& values, double q)
{
    if (values.size() == 0)
        return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> v(values.data(), values.data() + values.size());
    std::sort(v.begin(), v.end());
    const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, v.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    return v[lo] + frac * (v[hi] - v[lo]);
}

long long jsonInt(const nlohmann::json& v, const std::string& what, long long lo, long long hi)
{
    long long x = 0;
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi))
            throw DataError(what + ": " + v.dump() + " is out of range [" + std::to_string(lo) + ", "
                            + std::to_string(hi) + "]");
        x = v.get<long long>();
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        // Range check before the conversion (converting an out-of-range double is undefined).
        if (!(d >= static_cast<double>(lo) && d < static_cast<double>(hi) + 1.0) || d != std::floor(d))
            throw DataError(what + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi)
                            + "], found " + v.dump());
        x = static_cast<long long>(d);
    } else {
        throw DataError(what + ": expected an integer, found " + std::string(v.type_name()));
    }
    if (x < lo || x > hi)
        throw DataError(what + ": " + std::to_string(x) + " is out of range [" + std::to_string(lo) + ", "
                        + std::to_string(hi) + "]");
    return x;
}

long long jsonIntOr(const nlohmann::json& obj, const char* key, long long fallback, const std::string& what)
{
    if (!obj.is_object())
        return fallback;
    const auto it = obj.find(key);
    return it == obj.end() ? fallback : jsonInt(*it, what + " \"" + key + "\"");
}

std::vector<int> jsonInts(const nlohmann::json& v, const std::string& what, int lo, int hi)
{
    if (!v.is_array())
        throw DataError(what + ": expected an array of integers, found " + std::string(v.type_name()));
    std::vector<int> out;
    out.reserve(v.size());
    for (const auto& e : v)
        out.push_back(static_cast<int>(jsonInt(e, what, lo, hi)));
    return out;
}

void Detector::Progress::report(double fraction, const std::string& message, std::optional<double> loss,
                                std::shared_ptr<const Geometry> snapshot) const
{
    if (!m_cb)
        return;
    ProgressInfo info;
    info.fraction = std::clamp(fraction, 0.0, 1.0);
    info.message = message;
    info.loss = loss;
    info.snapshot = std::move(snapshot);
    if (m_cb(info))
        throw Cancelled();
}

static void validateMatrix(const Eigen::MatrixXd& X, const std::string& who)
{
    if (X.rows() == 0 || X.cols() == 0)
        throw DataError(who + ": no data (" + std::to_string(X.rows()) + " rows, " + std::to_string(X.cols())
                        + " columns)");
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            if (!std::isfinite(X(i, j))) {
                std::ostringstream s;
                s << who << ": value " << X(i, j) << " at row " << i + 1 << ", column " << j + 1
                  << " is not finite";
                throw DataError(s.str());
            }
}

void Detector::fit(const Eigen::MatrixXd& X, const ProgressCallback& progress)
{
    validateMatrix(X, id() + " fit");
    if (X.rows() < minSamples())
        throw DataError(id() + " needs at least " + std::to_string(minSamples()) + " samples, got "
                        + std::to_string(X.rows()));
    const Progress p(progress);
    p.report(0.0, "fitting " + id());
    Eigen::VectorXd train = doFit(X, p);
    // Commit only after the method's work succeeded (doFit commits its own members last).
    m_dim = static_cast<int>(X.cols());
    m_trainingScores = std::move(train);
    m_threshold = doThreshold(m_trainingScores);
    m_fitted = true;
    p.report(1.0, "done");
}

void Detector::requireFitted(const char* what) const
{
    if (!m_fitted)
        throw NotFittedError(std::string(what) + ": detector '" + id() + "' has not been fitted");
}

Eigen::VectorXd Detector::score(const Eigen::MatrixXd& X) const
{
    requireFitted("score");
    if (X.rows() == 0)
        return Eigen::VectorXd();
    if (X.cols() != m_dim)
        throw DataError(id() + " score: data has " + std::to_string(X.cols()) + " columns, the model was fitted on "
                        + std::to_string(m_dim));
    validateMatrix(X, id() + " score");
    return doScore(X);
}

Eigen::VectorXi Detector::isOutlier(const Eigen::MatrixXd& X) const
{
    requireFitted("isOutlier");
    if (X.rows() > 0 && X.cols() != m_dim)
        throw DataError(id() + " isOutlier: data has " + std::to_string(X.cols())
                        + " columns, the model was fitted on " + std::to_string(m_dim));
    return doIsOutlier(X);
}

Eigen::VectorXi Detector::doIsOutlier(const Eigen::MatrixXd& X) const
{
    const Eigen::VectorXd s = score(X);
    return (s.array() > m_threshold).cast<int>().matrix();
}

double Detector::doThreshold(const Eigen::VectorXd& trainingScores) const
{
    return quantile(trainingScores, 1.0 - params().getReal("contamination"));
}

const Eigen::VectorXd& Detector::trainingScores() const
{
    requireFitted("trainingScores");
    return m_trainingScores;
}

double Detector::threshold() const
{
    requireFitted("threshold");
    return m_threshold;
}

nlohmann::json Detector::toJson() const
{
    requireFitted("toJson");
    nlohmann::json j;
    j["format"] = "outlierlens-model";
    j["version"] = 1;
    j["detector"] = id();
    j["params"] = m_params.toJson();
    j["dimension"] = m_dim;
    j["threshold"] = m_threshold;
    j["training_scores"] = std::vector<double>(m_trainingScores.data(), m_trainingScores.data() + m_trainingScores.size());
    j["state"] = saveState();
    return j;
}

void Detector::restore(const nlohmann::json& j)
{
    try {
        m_dim = static_cast<int>(jsonInt(j.at("dimension"), "model JSON for '" + id() + "': dimension"));
        m_threshold = j.at("threshold").get<double>();
        const auto ts = j.at("training_scores").get<std::vector<double>>();
        m_trainingScores = Eigen::Map<const Eigen::VectorXd>(ts.data(), static_cast<Eigen::Index>(ts.size()));
        loadState(j.at("state"));
    } catch (const nlohmann::json::exception& e) {
        throw DataError("model JSON for '" + id() + "' is malformed: " + e.what());
    }
    if (m_dim <= 0)
        throw DataError("model JSON for '" + id() + "': dimension must be positive");
    m_fitted = true;
}

} // namespace olens
