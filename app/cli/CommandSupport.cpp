#include "CommandSupport.h"

#include "Args.h"
#include "CliProgress.h"

#include "base/AtomicWriter.h"
#include "base/Json.h"
#include "base/Errors.h"
#include "base/Format.h"
#include "base/Messages.h"
#include "data/Normalizer.h"
#include "metrics/Thresholds.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"
#include "session/Session.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <ostream>
#include <sstream>
#include <utility>
#include <nlohmann/json.hpp>

namespace olens::cli {

namespace {

/// --quiet / --progress / --timeout S of score and evaluate.
CliProgress makeProgress(const Args& a, std::ostream& err)
{
    if (a.flags.count("quiet") && a.flags.count("progress"))
        throw ParamError("--quiet and --progress contradict each other; give one");
    double timeout = 0.0;
    if (a.options.count("timeout")) {
        const std::string& t = a.options.at("timeout");
        if (!parseReal(t, timeout) || !(timeout > 0.0) || !std::isfinite(timeout))
            throw ParamError("--timeout: '" + displayValue(t, 40) + "' is not a positive number of seconds");
    }
    CliProgress::Mode mode = CliProgress::Mode::Off;
    if (a.flags.count("progress"))
        mode = a.errIsTerminal ? CliProgress::Mode::Terminal : CliProgress::Mode::Lines;
    else if (!a.flags.count("quiet") && a.errIsTerminal)
        mode = CliProgress::Mode::Terminal;
    return CliProgress(err, mode, timeout, !a.flags.count("quiet"));
}

/// rows:FILE of --fit-on: 0-based row indices separated by whitespace or commas. Through the
/// bounded regular-file reader: rows:/dev/zero read until killed (3.9 GB), a FIFO blocked.
std::vector<int> readRowsFile(const std::string& path)
{
    const std::string text = readRegularFile(path, std::uint64_t(1) << 30, "--fit-on rows file");
    std::vector<int> rows;
    std::string token;
    char c;
    auto flush = [&] {
        if (token.empty())
            return;
        const long long v = parseInteger(token, "--fit-on rows file '" + path + "'");
        if (v < 0 || v > (1LL << 31) - 1)
            throw DataError("--fit-on rows file '" + path + "': row " + token + " is not a 0-based row index");
        rows.push_back(static_cast<int>(v));
        token.clear();
    };
    for (const char ch : text) {
        c = ch;
        if (std::isspace(static_cast<unsigned char>(c)) || c == ',')
            flush();
        else
            token += c;
    }
    flush();
    return rows;
}

std::optional<FitSubset> fitOnOption(const Args& a)
{
    if (!a.options.count("fit-on"))
        return std::nullopt;
    const std::string& text = a.options.at("fit-on");
    if (text.rfind("rows:", 0) == 0) {
        FitSubset s;
        s.kind = FitSubset::Kind::Rows;
        s.rows = readRowsFile(text.substr(5));
        if (s.rows.empty())
            throw DataError("--fit-on rows: '" + text.substr(5) + "' lists no rows");
        return s;
    }
    return parseFitSubset(text);
}

} // namespace

LoadOptions loadOptions(const Args& a)
{
    LoadOptions lo;
    lo.labelColumn = option(a, "label-column", "label");
    lo.outlierLabel = option(a, "outlier-label", "");
    if (a.options.count("outlier-label") && lo.outlierLabel.empty())
        throw ParamError("--outlier-label needs a non-empty VALUE");
    if (a.options.count("max-input-mb")) {
        const long long mb = parseInteger(a.options.at("max-input-mb"), "--max-input-mb");
        if (mb < 1 || mb > 1'000'000)
            throw ParamError("--max-input-mb: " + std::to_string(mb) + " is outside [1, 1000000]");
        lo.maxBytes = static_cast<std::uint64_t>(mb) << 20;
    }
    return lo;
}

std::vector<std::string> inputPaths(const Args& a)
{
    std::vector<std::string> in;
    for (const char* k : {"input", "fit-input", "calibrate", "train", "test", "model"})
        if (a.options.count(k)) in.push_back(a.options.at(k));
    if (a.options.count("fit-on") && a.options.at("fit-on").rfind("rows:", 0) == 0)
        in.push_back(a.options.at("fit-on").substr(5)); // --fit-on rows:FILE
    return in;
}

namespace {
// --threshold-rule: a label-free rule on the model's training scores replaces the contamination
// quantile for the decisions on --input (the saved model keeps the detector's own threshold).
void applyThresholdRule(const Args& a, FitResult& r, std::ostream& err)
{
    if (!a.options.count("threshold-rule"))
        return;
    const ThresholdRule rule = parseThresholdRule(a.options.at("threshold-rule"));
    const double t = labelFreeThreshold(r.detector->trainingScores(), rule, r.threshold);
    r.threshold = t;
    r.outlier = (r.scores.array() > t).cast<int>().matrix();
    err << "outlierlens-cli: threshold " << toString(rule) << ": " << formatNumber("%.17g", t) << ", "
        << r.outlier.sum() << " of " << r.outlier.size() << " rows flagged\n";
}
} // namespace

Prepared fitAndScore(const Args& a, std::ostream& err, bool labelRequired,
                     const std::function<void(const Dataset&)>& checkInput)
{
    Prepared r;
    r.fitOn = fitOnOption(a);
    LoadOptions lo = loadOptions(a);
    lo.labelRequired = labelRequired || a.options.count("label-column") || a.options.count("outlier-label")
                       || (r.fitOn && r.fitOn->kind == FitSubset::Kind::Label);
    r.input = loadDataset(require(a, "input"), lo);
    if (checkInput)
        checkInput(r.input);
    for (const auto& w : r.input.warnings)
        err << "outlierlens-cli: warning: " << w << "\n";

    // Flags that only mean something with --model: refused without it (they were ignored, exit 0).
    for (const char* flag : {"training-rows", "allow-data-outside"})
        if (a.flags.count(flag) && !a.options.count("model"))
            throw ParamError(std::string("--") + flag + " applies to a saved model: add --model M.json");
    if (a.options.count("model")) {
        // A saved model (score --save-model, Python's save_model, a session's "model"): no fit, the
        // stored normaliser and detector score --input (restoreSessionModel checks the columns).
        for (const char* clash : {"detector", "fit-input", "normalize", "calibrate", "fit-on"})
            if (a.options.count(clash))
                throw ParamError(std::string("--model replaces --") + clash);
        if (!a.params.empty())
            throw ParamError("--model: the parameters are the model's; --param does not apply");
        // Bounded and regular files only (a FIFO or /dev/zero is refused at once, issue #34); a
        // GUI session (autosave or File → Save session) is read through the strict session parser
        // and its fitted model used (issue #36: the README promises that sessions are read).
        const std::string& path = a.options.at("model");
        const std::string text = readRegularFile(path, kMaxSessionFileBytes, "model");
        // Depth-bounded as sessions are: a parameter nested 1 000 000 arrays deep crashed the CLI
        // (the stack overflowed while the bad value was formatted for the error message).
        nlohmann::json j = parseUntrustedJson(text, "model '" + path + "'");
        if (j.is_object() && j.value("format", std::string()) == "outlierlens-session") {
            const Session s = parseSession(text);
            if (s.model.is_null())
                throw DataError("model '" + path + "': the session holds no fitted model (train a detector in the "
                                "GUI and save the session again)");
            try {
                // knn and lof: training rows from the session's data, in the session's folder
                // unless the user allows another (#51: a session may name any file).
                DataPermission permission;
                permission.outsideAllowed = a.flags.count("allow-data-outside") > 0;
                permission.howToAllow = "add --allow-data-outside";
                j = sessionModel(s, path, permission);
            } catch (const DataError& e) {
                throw DataError("model '" + path + "': " + e.what());
            }
        }
        RestoredModel m;
        try {
            m = restoreSessionModel(j, static_cast<int>(r.input.cols())); // the sessions' checked reader
        } catch (const DataError& e) {
            throw DataError("model '" + a.options.at("model") + "': " + e.what());
        }
        const std::shared_ptr<const Detector> detector(std::move(m.detector));
        r.result = resultForRows(detector, std::move(m.normalizer), r.input.X, false);
        // One convention in every front end (#53): a saved model scores the input's rows as new rows
        // (Python's score_samples); the model's ranking of its own training rows (for knn, lof, ksp,
        // acdt, consensus leave-one-out: each row without itself; Python's decision_scores_) only
        // when --training-rows asks for it. The CLI used to switch silently on the input being the
        // training file: one appended row changed every score.
        const Eigen::MatrixXd Xn = r.result->normalizer.transform(r.input.X);
        if (a.flags.count("training-rows")) {
            if (!detector->trainedOn(Xn))
                throw DataError("--training-rows: '" + displayValue(require(a, "input"), 200) +
                                "' holds other rows than the model was fitted on; drop --training-rows to score "
                                "its rows as new");
        } else if (detector->trainedOn(Xn)) { // other rows are scored as new rows by resultForRows already
            r.result->scores = detector->score(Xn);
            r.result->outlier = detector->isOutlier(Xn);
            // Scored as new rows, a leave-one-out model finds each training row as its own nearest
            // neighbour (knn k=1: every score 0), against a threshold set on the training ranking.
            if (Registry::instance().info(detector->id()).leaveOneOutTraining)
                err << "outlierlens-cli: warning: " << detector->id() << ": these are the rows the model was "
                    << "fitted on, scored as new rows (each is its own neighbour); --training-rows gives the "
                       "training ranking, each row without itself\n";
        }
        applyThresholdRule(a, *r.result, err);
        return r;
    }

    const std::string id = require(a, "detector");
    std::shared_ptr<Detector> detector = Registry::instance().create(id, a.params);
    detector->setRecordHistory(a.flags.count("record-history") > 0);

    const bool separateFit = a.options.count("fit-input") > 0;
    if (separateFit && r.fitOn)
        throw ParamError("--fit-on chooses rows of --input to fit on; --fit-input fits on another file (give one)");
    std::vector<int> part; // --fit-on: the rows of --input fitted on (empty = all)
    if (r.fitOn) {
        part = resolveFitSubset(*r.fitOn, r.input);
        if (static_cast<Eigen::Index>(part.size()) == r.input.rows())
            part.clear();
    }
    Dataset train;
    if (separateFit) {
        LoadOptions tl = lo;
        tl.labelRequired = false;
        // The fit file's labels are not used: no outlier mapping needed (it may hold inliers only).
        tl.labelMeaning = LoadOptions::LabelMeaning::ClassIds;
        train = loadDataset(a.options.at("fit-input"), tl);
        if (train.featureNames != r.input.featureNames)
            throw DataError("--fit-input has features (" + std::to_string(train.cols())
                            + ") that differ from --input's (" + std::to_string(r.input.cols()) + ")");
    }
    const Eigen::MatrixXd& trainX = separateFit ? train.X : r.input.X;

    // fitPipeline fits it on the training rows (all, or the --fit-on part); its warnings are printed
    // as soon as it is fitted, before the detector trains.
    const Normalizer normalizer(parseNormalization(option(a, "normalize", "none")));
    FitOptions options;
    options.explanations = false;
    options.trainingRows = part;
    options.featureNames = r.input.featureNames;
    options.normalizerFitted = [&err](const Normalizer& n) {
        for (const auto& w : n.warnings())
            err << "outlierlens-cli: warning: " << w << "\n";
    };
    if (a.options.count("calibrate")) {
        // E.g. GODS eq. 24: η' = η + Δη from the responses on a labelled validation set.
        if (!detector->calibration())
            throw ParamError("--calibrate applies to gods and bods (GODS eq. 24), not to '" + id + "'");
        LoadOptions vl = lo;
        vl.labelRequired = true;
        const Dataset val = loadDataset(a.options.at("calibrate"), vl);
        if (val.featureNames != r.input.featureNames)
            throw DataError("--calibrate has features that differ from --input's");
        options.calibrationX = val.X;
        options.calibrationOutlier = val.outlierFlags();
    }
    {
        CliProgress progress = makeProgress(a, err);
        try {
            r.result = fitPipeline(detector, normalizer, trainX, options, progress.callback());
        } catch (const Cancelled&) {
            if (!progress.timedOut())
                throw;
            std::ostringstream msg;
            msg << id << ": stopped by --timeout " << progress.timeoutSeconds() << " s at " << progress.lastReport()
                << "; allow more time or choose cheaper parameters (see 'outlierlens-cli list')";
            throw DataError(msg.str());
        }
    }
    if (r.result->calibration)
        err << "outlierlens-cli: " << r.result->calibration->summary << "\n";
    for (const auto& w : r.result->warnings) // label-free checks of the fit (FitDiagnostics)
        err << "outlierlens-cli: warning: " << id << ": " << w.message << "\n";
    if (separateFit) {
        auto scored = resultForRows(r.result->detector, r.result->normalizer, r.input.X, false);
        scored->fitSeconds = r.result->fitSeconds;
        scored->calibration = r.result->calibration;
        scored->warnings = r.result->warnings;
        r.result = scored;
    }
    applyThresholdRule(a, *r.result, err);
    return r;
}

nlohmann::json numberOrNull(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

} // namespace olens::cli
