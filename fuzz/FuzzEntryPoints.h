#pragma once
// The entry points shared by the libFuzzer targets (fuzz/*.cpp, clang) and the regression test
// tests/TestFuzzRegressions.cpp (gcc, Qt Test): each takes arbitrary bytes and drives one reader of
// untrusted input as far as it goes. DataError and ParamError are the expected outcomes of bad
// input and propagate to the caller; anything else that escapes (std::out_of_range, bad_alloc,
// nlohmann::json exceptions, FuzzInvariant) is a bug, and so is any sanitizer report.
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "base/Errors.h"
#include "data/Normalizer.h"
#include "data/PlyReader.h"
#include "registry/Registry.h"
#include "session/Session.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace olens::fuzz {

/// A property the code promises was violated (not an input error).
class FuzzInvariant : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

inline void require(bool ok, const std::string& what)
{
    if (!ok)
        throw FuzzInvariant("fuzz invariant violated: " + what);
}

/// A few cheap, deterministic probe rows of dimension p (values around the unit cube, one far point).
inline Eigen::MatrixXd probeRows(Eigen::Index p)
{
    Eigen::MatrixXd Q(4, p);
    for (Eigen::Index j = 0; j < p; ++j) {
        Q(0, j) = 0.0;
        Q(1, j) = 0.5 + 0.25 * std::sin(static_cast<double>(j));
        Q(2, j) = -1.0 + 0.1 * static_cast<double>(j % 7);
        Q(3, j) = 1e3;
    }
    return Q;
}

// ---- data loader ----------------------------------------------------------------------------

inline void checkDataset(const Dataset& d, bool allowMissing)
{
    require(d.rows() > 0 && d.cols() > 0, "parsed data set is empty");
    require(static_cast<Eigen::Index>(d.featureNames.size()) == d.cols(), "one feature name per column");
    require(!d.hasLabels() || d.labels.size() == d.rows(), "one label per row");
    require(!d.hasSigma() || (d.sigma.rows() == d.rows() && d.sigma.cols() == d.cols()), "sigma is n x p");
    for (Eigen::Index i = 0; i < d.X.size(); ++i)
        require(std::isfinite(d.X.data()[i]) || (allowMissing && std::isnan(d.X.data()[i])),
                "feature values are finite (NaN only with allowMissing)");
    for (Eigen::Index i = 0; i < d.labels.size(); ++i)
        require(std::isfinite(d.labels(i)), "labels are finite");
    for (Eigen::Index i = 0; i < d.sigma.size(); ++i)
        require(std::isfinite(d.sigma.data()[i]) && d.sigma.data()[i] >= 0, "sigma values are finite and >= 0");
    if (!d.labelNames.empty())
        for (Eigen::Index i = 0; i < d.labels.size(); ++i)
            require(d.labels(i) >= 0 && d.labels(i) < static_cast<double>(d.labelNames.size()),
                    "text labels map to ids 0..k-1");
}

/// A header cell the loader would take for a number (then the header line reads as data).
inline bool looksNumeric(const std::string& s)
{
    const char* first = s.data();
    const char* last = first + s.size();
    if (first != last && *first == '+') ++first;
    double v;
    const auto r = std::from_chars(first, last, v, std::chars_format::general);
    return first != last && r.ptr == last;
}

/// writeCsv output must parse back to the same numbers.
inline void checkRoundTrip(const Dataset& d, bool allowMissing)
{
    // A header made only of numbers cannot be told from a data row (a limit of the format).
    bool header = d.hasLabels() && !looksNumeric(d.labelName.empty() ? "label" : d.labelName);
    for (const std::string& n : d.featureNames)
        header = header || !looksNumeric(n);
    if (!header)
        return;
    std::ostringstream out;
    writeCsv(out, d);
    LoadOptions o;
    o.labelColumn = d.hasLabels() ? (d.labelName.empty() ? std::string("label") : d.labelName) : std::string();
    o.allowMissing = allowMissing;
    o.sigmaPrefix = d.hasSigma() ? "sigma_" : "";
    for (const CarriedColumn& c : d.carried) // written back as they were read: ignored again
        o.excludeColumns.push_back(c.name);
    Dataset back;
    try {
        back = parseDataset(out.str(), "round-trip", o);
    } catch (const DataError& e) {
        throw FuzzInvariant(std::string("writeCsv output does not parse back: ") + e.what());
    }
    require(back.rows() == d.rows() && back.cols() == d.cols(), "round trip keeps the shape");
    for (Eigen::Index i = 0; i < d.X.size(); ++i) {
        const double a = d.X.data()[i], b = back.X.data()[i];
        require(a == b || (std::isnan(a) && std::isnan(b)), "round trip keeps the values");
    }
    require(back.hasSigma() == d.hasSigma(), "round trip keeps sigma");
    require(back.hasLabels() == d.hasLabels(), "round trip keeps the labels");
}

inline void normalizeProbe(const Dataset& d)
{
    if (!d.X.allFinite())
        return;
    for (const char* kind : {"zscore", "minmax", "l2"}) {
        Normalizer n(parseNormalization(kind));
        const Eigen::MatrixXd T = n.fitTransform(d.X);
        require(T.rows() == d.rows(), "normalisation keeps the rows");
        const Normalizer back = Normalizer::fromJson(n.toJson());
        const Eigen::MatrixXd T2 = back.transform(d.X);
        require(T2.rows() == T.rows() && T2.cols() == T.cols(), "normaliser JSON round trip keeps the shape");
    }
}

/// parseDataset with several option variants; throws DataError/ParamError on bad input.
inline void runLoader(std::string_view text)
{
    std::vector<LoadOptions> variants(5);
    // 0: defaults. 1: missing values allowed, label by number. 2: excluded column, short sigma
    // prefix, label required. 3: no label, no sigma. 4: label by header name of digits.
    variants[1].allowMissing = true;
    variants[1].labelColumn = "2";
    variants[2].excludeColumns = {"1", "x"};
    variants[2].sigmaPrefix = "s";
    variants[2].labelRequired = true;
    variants[3].labelColumn.clear();
    variants[3].sigmaPrefix.clear();
    variants[4].labelColumn = "1";
    variants[4].allowMissing = true;
    bool anyParsed = false;
    std::string lastError;
    for (std::size_t v = 0; v < variants.size(); ++v) {
        try {
            const Dataset d = parseDataset(text, "fuzz", variants[v]);
            checkDataset(d, variants[v].allowMissing);
            checkRoundTrip(d, variants[v].allowMissing);
            if (v == 0)
                normalizeProbe(d);
            anyParsed = true;
        } catch (const DataError& e) {
            lastError = e.what();
            require(!lastError.empty(), "DataError has a message");
        }
    }
    if (!anyParsed)
        throw DataError(lastError);
}

// ---- PLY reader --------------------------------------------------------------------------------

/// parsePly with default, label-required and class-id options; throws DataError on bad input.
/// Besides the data set invariants: never more vertices than bytes (no fabricated points).
inline void runPly(std::string_view bytes)
{
    std::vector<LoadOptions> variants(3);
    variants[1].labelRequired = true;
    variants[1].outlierLabel = "1";
    variants[2].labelMeaning = LoadOptions::LabelMeaning::ClassIds;
    variants[2].labelColumn = "intensity";
    bool anyParsed = false;
    std::string lastError;
    for (const LoadOptions& o : variants) {
        try {
            const Dataset d = parsePly(bytes, "fuzz.ply", o);
            checkDataset(d, false);
            require(static_cast<std::size_t>(d.rows()) <= bytes.size(), "no more vertices than bytes");
            require(d.cols() >= 3 && d.featureNames[0] == "x" && d.featureNames[1] == "y" && d.featureNames[2] == "z",
                    "x, y, z come first");
            anyParsed = true;
        } catch (const DataError& e) {
            lastError = e.what();
            require(!lastError.empty() && lastError.find('\n') == std::string::npos, "DataError is one line");
        }
    }
    if (!anyParsed)
        throw DataError(lastError);
}

// ---- saved models (Registry::load) ------------------------------------------------------------

/// Uses a loaded model the way the CLI and the GUI do: score, decide, draw, explain, save again.
inline void exerciseDetector(const Detector& d)
{
    const int p = d.inputDimension();
    require(p > 0, "a loaded model has a positive dimension");
    if (p > 512)
        return; // plausible in principle; not worth the fuzzer's time
    const Eigen::MatrixXd Q = probeRows(p);
    const Eigen::VectorXd s = d.score(Q);
    require(s.size() == Q.rows(), "one score per row");
    const Eigen::VectorXi o = d.isOutlier(Q);
    require(o.size() == Q.rows(), "one decision per row");
    (void)d.geometry();
    (void)d.figures();
    const std::vector<std::string> why = d.explain(Q);
    require(why.empty() || static_cast<Eigen::Index>(why.size()) == Q.rows(), "explain: one reason per row");
    (void)d.trainingScores();
    (void)d.toJson().dump();
}

/// Parses JSON (a syntax error is reported as DataError, as the readers of model files do).
inline nlohmann::json parseJson(std::string_view text, const char* what)
{
    nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded())
        throw DataError(std::string(what) + ": not valid JSON");
    return j;
}

/// Legitimate but expensive models (KIC/IC rebuild an n×n kernel or a large moment matrix on
/// load) would only make the fuzzer report timeouts: keep to small arrays, and skip dimensions
/// 17..2000. Larger dimensions still go through (every model stores a p-sized array, so with at
/// most 2000 values they must be rejected, cheaply: that is what the regression inputs check).
inline bool withinFuzzBudget(const nlohmann::json& j, int depth = 0)
{
    if (depth > 64)
        return false;
    if (j.is_array() && j.size() > 2000)
        return false;
    if (j.is_object()) {
        const auto d = j.find("dimension");
        if (d != j.end() && d->is_number() && d->get<double>() > 16 && d->get<double>() <= 2000)
            return false;
    }
    if (j.is_structured())
        for (const auto& e : j)
            if (!withinFuzzBudget(e, depth + 1))
                return false;
    return true;
}

inline void runModel(std::string_view text)
{
    const nlohmann::json j = parseJson(text, "model");
    if (!withinFuzzBudget(j))
        return;
    const std::unique_ptr<Detector> d = Registry::instance().load(j);
    require(d && d->isFitted(), "Registry::load returns a fitted detector");
    exerciseDetector(*d);
    // The saved model reloads.
    const std::unique_ptr<Detector> again = Registry::instance().load(d->toJson());
    require(again->inputDimension() == d->inputDimension(), "model JSON round trip keeps the dimension");
    if (j.is_object() && j.contains("normalizer")) {
        const Normalizer n = Normalizer::fromJson(j.at("normalizer"));
        if (n.isFitted() && !n.keptColumns().empty() && n.keptColumns().size() <= 512) {
            int cols = 0;
            for (int c : n.keptColumns())
                cols = std::max(cols, c + 1);
            (void)n.transform(probeRows(cols));
        }
    }
}

// ---- sessions (parseSession) ------------------------------------------------------------------

inline void runSession(std::string_view text)
{
    const Session s = parseSession(std::string(text));
    // What the app does next: serialise (autosave) and re-read, and rebuild the model.
    const std::string again = serializeSession(s);
    Session s2;
    try {
        s2 = parseSession(again);
    } catch (const DataError& e) {
        throw FuzzInvariant(std::string("serializeSession output does not parse back: ") + e.what());
    }
    require(s2.embedded == s.embedded && s2.dataPath == s.dataPath, "session round trip keeps the data source");
    if (s.embedded)
        require(s2.data.rows() == s.data.rows() && s2.data.cols() == s.data.cols(),
                "session round trip keeps the embedded data shape");
    if (!s.model.is_null() && withinFuzzBudget(s.model)) {
        // The data's column count: embedded rows, else what the model's normaliser was fitted on.
        long long cols = s.embedded ? static_cast<long long>(s.data.cols()) : 0;
        if (!s.embedded && s.model.is_object()) {
            const auto n = s.model.find("normalizer");
            if (n != s.model.end() && n->is_object()) {
                const auto c = n->find("inputCols");
                if (c != n->end() && c->is_number_integer())
                    cols = c->get<long long>();
            }
        }
        if (cols <= 0 || cols > 512)
            return;
        RestoredModel m = restoreSessionModel(s.model, static_cast<int>(cols));
        require(m.detector != nullptr, "restoreSessionModel returns a detector");
        exerciseDetector(*m.detector);
        const Eigen::MatrixXd Q = probeRows(static_cast<Eigen::Index>(cols));
        const Eigen::MatrixXd T = m.normalizer.isFitted() ? m.normalizer.transform(Q) : Q;
        if (T.cols() == m.detector->inputDimension())
            (void)m.detector->score(T);
    }
}

} // namespace olens::fuzz
