#include "detectors/Detector.h"

#include "base/BlasThreads.h"

#include "base/Errors.h"
#include "base/Format.h"
#include "base/Json.h"
#include "base/Messages.h"
#include "base/Stats.h"
#include "detectors/TrainingHistory.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace olens {

ParamSpec contaminationParam(const std::string& naturalRule)
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
    if (!naturalRule.empty()) {
        s.help += " auto: the method's own cut-off instead (" + naturalRule + ").";
        s.autoRule = "the method's own cut-off: " + naturalRule
                     + "; resolves to the share of training rows it flags (at most 0.5)";
    }
    return s;
}

ParamSpec objectiveTolParam(const std::string& defaultValue)
{
    ParamSpec s;
    s.name = "tol";
    s.type = ParamType::Real;
    s.defaultValue = defaultValue;
    s.minValue = 0;
    s.maxValue = 1;
    s.help = "Stop when the objective fell by at most tol × its whole decrease so far over the last 10 iterations "
             "(0: run to max_iter or the gradient tolerance). The hinge objective need not reach a zero gradient, and "
             "its value tends to 0, so the decrease is measured against the progress made.";
    s.reference = "GODS paper sec. 7.5, Fig. 9 (convergence judged on the objective); tol chosen on 21 real sets and "
                  "11 toys (docs/benchmarks.md)";
    s.paperValue = "0"; // the paper runs its ~200 iterations (sec. 7.3)
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
    useSerialBlasByDefault();
    validateMatrix(X, id() + " fit");
    if (X.rows() < minSamples())
        throw DataError(id() + " needs at least " + std::to_string(minSamples()) + " samples, got "
                        + std::to_string(X.rows()));
    const Progress p(progress);
    p.report(0.0, "fitting " + id());
    // `auto` parameters are resolved anew from this data; a failed fit keeps the previous ones.
    const ParamSet previous = m_params;
    const std::vector<std::string> previousAdjustments = m_adjustments;
    m_params.clearResolved();
    m_adjustments.clear();
    const std::string unit = historyUnit();
    m_recorder = m_recordHistory && !unit.empty() ? std::make_shared<HistoryRecorder>(unit) : nullptr;
    Eigen::VectorXd train;
    try {
        train = doFit(X, p);
    } catch (...) {
        m_params = previous;
        m_adjustments = previousAdjustments;
        m_recorder.reset();
        throw;
    }
    // Commit only after the method's work succeeded (doFit commits its own members last).
    commitFit(static_cast<int>(X.cols()), std::move(train), matrixFingerprint(X));
    m_history = m_recorder && !m_recorder->empty() ? std::make_shared<TrainingHistory>(m_recorder->take()) : nullptr;
    m_recorder.reset();
    p.report(1.0, "done");
}

void Detector::commitFit(int dimension, Eigen::VectorXd trainingScores, std::uint64_t fingerprint)
{
    m_dim = dimension;
    m_trainingScores = std::move(trainingScores);
    const std::optional<double> natural = m_params.has("contamination") && m_params.isAuto("contamination")
                                              ? naturalThreshold()
                                              : std::nullopt;
    if (natural) {
        // contamination = auto (scikit-learn's): the method's own cut-off; what it flags on the
        // training rows is recorded as the resolved contamination.
        m_threshold = *natural;
        const double share = m_trainingScores.size()
                                 ? (m_trainingScores.array() > m_threshold).cast<double>().mean()
                                 : 0.0;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", std::min(share, 0.5));
        m_params.resolve("contamination", buf);
    } else {
        m_threshold = doThreshold(m_trainingScores);
    }
    m_fingerprint = fingerprint;
    m_fitted = true;
}

MatrixFingerprint::MatrixFingerprint(Eigen::Index rows, Eigen::Index cols)
{
    const std::int64_t shape[2] = {static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)};
    mix(shape, sizeof shape);
}

void MatrixFingerprint::add(const double* values, std::size_t count)
{
    mix(values, sizeof(double) * count);
}

void MatrixFingerprint::mix(const void* data, std::size_t bytes)
{
    const auto* b = static_cast<const unsigned char*>(data);
    std::uint64_t h = m_h;
    for (std::size_t i = 0; i < bytes; ++i) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    m_h = h;
}

std::uint64_t matrixFingerprint(const Eigen::MatrixXd& X)
{
    MatrixFingerprint f(X.rows(), X.cols());
    f.add(X.data(), static_cast<std::size_t>(X.size()));
    return f.value();
}

bool Detector::trainedOn(const Eigen::MatrixXd& X) const
{
    return trainedOn(X.rows(), matrixFingerprint(X));
}

bool Detector::trainedOn(Eigen::Index rows, std::uint64_t fingerprint) const
{
    return m_fitted && m_fingerprint != 0 && rows == m_trainingScores.size() && fingerprint == m_fingerprint;
}

int Detector::autoInt(const std::string& name, int value)
{
    if (m_params.isAuto(name))
        m_params.resolve(name, std::to_string(value));
    return m_params.getInt(name);
}

int Detector::limitInt(const std::string& name, int value, int most, const std::string& why)
{
    if (value <= most)
        return value;
    if (m_params.isAuto(name)) { // the rule's value, fitted to these data: nothing the user set
        m_params.resolve(name, std::to_string(most));
        return most;
    }
    const std::string set = m_params.text(name);
    m_params.adjust(name, std::to_string(most));
    // The schema's default (iforest's psi = 256, inf's k_max = 500 on 40 rows) limited to the data
    // is what scikit-learn's max_samples="auto" does too: used and reported in the model, no warning.
    if (set == m_params.spec(name).defaultValue)
        return most;
    m_adjustments.push_back(name + " = " + set + " is more than these data allow; " + std::to_string(most) +
                            " was used (" + why + ")");
    return most;
}

double Detector::autoReal(const std::string& name, double value)
{
    if (m_params.isAuto(name)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", value);
        m_params.resolve(name, buf);
    }
    return m_params.getReal(name);
}

std::string Detector::autoChoice(const std::string& name, const std::string& value)
{
    if (m_params.isAuto(name))
        m_params.resolve(name, value);
    return m_params.getChoice(name);
}

void Detector::requireFitted(const char* what) const
{
    if (!m_fitted)
        throw NotFittedError(std::string(what) + ": detector '" + id() + "' has not been fitted");
}

Eigen::VectorXd Detector::score(const Eigen::MatrixXd& X) const
{
    useSerialBlasByDefault();
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

nlohmann::json Detector::toJson(bool withHistory, bool rowsByReference, bool packed) const
{
    requireFitted("toJson");
    nlohmann::json j;
    j["format"] = "outlierlens-model";
    j["version"] = 1;
    j["detector"] = id();
    j["params"] = m_params.toJson();
    if (!m_params.resolvedJson().empty())
        j["resolved"] = m_params.resolvedJson(); // what each `auto` parameter became on the training data
    j["dimension"] = m_dim;
    j["threshold"] = m_threshold;
    const double* ts = m_trainingScores.data();
    const auto n = static_cast<std::size_t>(m_trainingScores.size());
    j["training_scores"] = packed ? packedDoubles(ts, n) : nlohmann::json(std::vector<double>(ts, ts + n));
    const MemorisedRows* memorised = rowsByReference && m_fingerprint != 0 ? memorisedRows() : nullptr;
    if (memorised) {
        j["state"] = memorised->stateWithoutRows();
        j["rows_by_reference"] = memorised->rowsKey();
    } else {
        j["state"] = saveState();
    }
    if (m_fingerprint != 0)
        j["training_fingerprint"] = std::to_string(m_fingerprint);
    if (withHistory && m_history)
        j["history"] = m_history->toJson();
    if (packed) {
        j["state"] = packArrays(std::move(j["state"]));
        if (j.contains("history"))
            j["history"] = packArrays(std::move(j["history"]));
    }
    return j;
}

std::unique_ptr<Detector> Detector::modelAtStep(int index, const Eigen::MatrixXd& trainingRows) const
{
    requireFitted("modelAtStep");
    if (!m_history || m_history->empty())
        throw ParamError(id() + ": this model has no recorded training history (train it in the app, or with "
                         "history recording on)");
    if (!m_remake)
        throw ParamError(id() + ": modelAtStep needs a detector built by the registry");
    if (index < 0 || index >= m_history->size())
        throw ParamError(id() + ": recorded step " + std::to_string(index) + " does not exist (0.."
                         + std::to_string(m_history->size() - 1) + ")");
    if (trainingRows.cols() != m_dim)
        throw DataError(id() + ": modelAtStep got rows with " + std::to_string(trainingRows.cols())
                        + " columns, the model has " + std::to_string(m_dim));
    const nlohmann::json& state = m_history->steps[static_cast<std::size_t>(index)].state;
    if (std::unique_ptr<Detector> replayed = replayStep(state, trainingRows)) {
        replayed->m_remake = m_remake;
        return replayed; // fitted by the method itself (its own training scores)
    }
    // A sibling with the same parameters (auto values as this fit resolved them) and the state of
    // that step; its training scores and threshold are those of that state on the training rows.
    std::unique_ptr<Detector> d = m_remake(m_params);
    d->m_remake = m_remake;
    d->m_dim = m_dim;
    d->loadState(state);
    d->m_fitted = true;
    Eigen::VectorXd s = d->doScore(trainingRows);
    d->commitFit(m_dim, std::move(s), matrixFingerprint(trainingRows));
    return d;
}

namespace {
// A model file may come from anyone (#51): a NaN planted in a packed array (sessions store doubles
// as base64, which can hold any bit pattern) scored with exit 0, or surfaced as "arithmetic
// overflowed". A model saved by this program holds finite numbers only (JSON text cannot even
// write the others), so any other is refused, naming where it is.
void requireFinite(const nlohmann::json& v, const std::string& where, const std::string& id)
{
    if (v.is_number_float()) {
        const double x = v.get<double>();
        if (!std::isfinite(x))
            throw DataError("model JSON for '" + id + "': " + where + " is " + formatNumber("%g", x) +
                            ", not a finite number (the file was altered or damaged: train the detector again)");
    } else if (v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i)
            requireFinite(v[i], where + "/" + std::to_string(i), id);
    } else if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it)
            requireFinite(it.value(), where + "/" + displayValue(it.key(), 60), id);
    }
}
} // namespace

void Detector::restore(const nlohmann::json& j)
{
    for (const char* field : {"threshold", "training_scores", "state"})
        if (j.contains(field))
            requireFinite(j.at(field), field, id());
    try {
        m_dim = static_cast<int>(jsonInt(j.at("dimension"), "model JSON for '" + id() + "': dimension"));
        m_threshold = j.at("threshold").get<double>();
        const auto ts = j.at("training_scores").get<std::vector<double>>();
        m_trainingScores = Eigen::Map<const Eigen::VectorXd>(ts.data(), static_cast<Eigen::Index>(ts.size()));
        if (j.contains("resolved"))
            m_params.setResolvedFromJson(j.at("resolved"));
        loadState(j.at("state"));
        m_history = j.contains("history") ? std::make_shared<TrainingHistory>(TrainingHistory::fromJson(j.at("history")))
                                          : nullptr;
        if (j.contains("training_fingerprint") && j["training_fingerprint"].is_string()) {
            try {
                m_fingerprint = std::stoull(j["training_fingerprint"].get<std::string>());
            } catch (const std::exception&) {
                m_fingerprint = 0; // unknown: sessions then re-score instead of trusting stored scores
            }
        }
    } catch (const nlohmann::json::exception& e) {
        throw DataError("model JSON for '" + id() + "' is malformed: " + e.what());
    }
    if (m_dim <= 0)
        throw DataError("model JSON for '" + id() + "': dimension must be positive");
    m_fitted = true;
}

} // namespace olens
