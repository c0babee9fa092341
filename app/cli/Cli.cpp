#include "Cli.h"
#include "CliProgress.h"

#include "base/AtomicWriter.h"
#include "base/Messages.h"
#include "data/DataLoader.h"
#include "base/Errors.h"
#include "data/FitSubset.h"
#include "data/Generators.h"
#include "display/ColourScale.h"
#include "pipeline/FitPipeline.h"
#include "similarity/Imputation.h"
#include "metrics/Metrics.h"
#include "data/Normalizer.h"
#include "data/NoiseProtocol.h"
#include "data/PointExport.h"
#include "registry/Registry.h"
#include "session/Session.h"
#include "similarity/Verification.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <new>
#include <numeric>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

namespace olens {

namespace {

const char* kUsage = R"(outlierlens-cli — geometric outlier detectors from the command line

usage:
  outlierlens-cli list [--json]
      detectors and their parameters (name, type, default, range, help, paper reference)
  outlierlens-cli generate NAME --n N --seed S [--param k=v]... --output F.csv
      toy data (NAME: see 'outlierlens-cli list'); label column 1 = outlier ('classes': class id,
      with sigma_ columns)
  outlierlens-cli score --input F.csv --detector ID [--param k=v]... [--fit-input T.csv]
                        [--normalize none|zscore|l2|minmax] [--label-column C]
                        [--calibrate V.csv] [--save-model M.json] [--outlier-label VALUE]
                        --output S.csv|-
      writes index,score,outlier[,label] (index = 0-based data row; score: higher = more outlying);
      '--output -' writes to standard output; the scores and the model are replaced together or not
      at all
  outlierlens-cli score|evaluate ... --fit-on all|label:VALUE|fraction:F[:SEED]|rows:FILE
      fit on a part of --input, score every row: the rows with one label value (label:0 = the
      inliers, the GODS paper's one-class protocol), a seeded random fraction, or the 0-based row
      indices in FILE (whitespace or comma separated); the normaliser is fitted on those rows too.
      Training rows get the method's training scores (knn, lof exclude the point itself), the
      others are scored as new data. score adds a 'training' column (1 = fitted on); evaluate adds
      fit_on, n_fit and the metrics of the held-out rows (auroc_held_out, auprc_held_out, ...)
  outlierlens-cli score ... --percentile
      adds a 'percentile' column: each score's percentile (0-100, mid-rank) among the training
      rows' scores, the scale on which compare mode colours every detector alike
  outlierlens-cli score --input F.csv --model M.json [--label-column C] --output S.csv|-
      scores with a saved model (--save-model, Python's save_model) without fitting
  outlierlens-cli score ... [--inliers I.csv|I.ply] [--outliers O.csv|O.ply]
      also (or, without --output, only) writes the rows the detector keeps (the cleaned cloud) /
      flags, with every input column (features, sigma_, label) + score, outlier; .ply = binary PLY
  outlierlens-cli score ... --explain N
      (also without --output) prints the features that drive row N's score, largest first:
      feature,contribution,share — pca: squared residual per feature (sum = score^2), knn: squared
      difference to the k-th neighbour (sum = score^2), mcd: delta_j (S^-1 delta)_j (sum = score);
      contributions are in the normalised space (--normalize); other detectors refuse it
  outlierlens-cli evaluate --input F.csv --detector ID [--param k=v]... [--fit-input T.csv]
                        [--normalize none|zscore|l2|minmax] [--label-column label]
                        [--outlier-label VALUE] --json
      prints one JSON object: detector, params, n, p, auroc, auprc, fit_seconds, score_seconds, ...
  outlierlens-cli verify --train T.csv --test U.csv [--class-column label] [--sigma-prefix sigma_]
                        --method uajb|jb [--dim K] [--pairs N] [--seed S]
                        [--reduction auto|none|pca|uappca] [--projection auto|probabilistic|linear]
                        [--max-iter 200] [--tol 1e-5] [--impute-missing] --json
      Joint Bayesian similarity (uajb: uncertainty-aware, sigma_ columns = per-feature standard
      deviations; jb: plain, sigma ignored) trained on T, scored on all pairs of U (or N seeded
      random pairs when there are more than N, default 200000); prints one JSON object: eer,
      fnr_at_fpr_0.001, auc, n_pairs, fit_seconds, method, dim, ... (--dim 0 = automatic).
      --impute-missing: empty/NaN feature cells are filled by Gaussian conditioning on the
      complete training rows, their conditional standard deviation becomes their sigma.
  outlierlens-cli perturb --input F.csv --t T --seed S [--label-column C] --output G.csv
      noise protocol of the uncertainty paper (sec. 5.1): per sample and feature sigma ~ U[0, T],
      noise N(0, sigma^2) added; writes the features, sigma_<feature> columns and the label column

--calibrate V.csv (gods, bods): after fitting, recalibrate eta on the labelled validation file with
GODS eq. 24 (2-means on the responses); scores and, with --param decision=eq23, the outlier
column then use eta' = eta + delta.
Labels: numeric labels 0 = inlier, other values = outlier. Text labels need to say which value is
the outlier class: --outlier-label VALUE (e.g. --outlier-label anomaly); without it a single
value reading 'outlier', 'anomaly', 'anomalous', 'abnormal', 'novelty', '1', 'true' or 'yes' is
used (or, with two values, the one that is not 'inlier', 'normal', '0', 'false', 'no'); otherwise
evaluate refuses the file and score ignores the labels (never numbered by order of appearance).
Inputs: CSV/TSV/whitespace text or PLY (ascii, binary); at most 1024 MB unless --max-input-mb N.
Outputs are written atomically (temporary file, fsync, rename); an output that is a symlink,
device, FIFO or one of the input files is refused.
Progress (score, evaluate): drawn on stderr when it is a terminal; --progress also prints it to a
log or pipe (a line a second), --quiet never. --timeout S stops a fit after S seconds (exit 1).
Without --fit-input the detector is fitted on --input itself and the training scores are used
(e.g. knn excludes each point from its own neighbours). Label values other than 0 count as
outliers. Any error exits non-zero with a one-line reason.
)";

struct Args {
    std::string command;
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
    ParamAssignments params;
    std::set<std::string> flags;
    bool errIsTerminal = false; // stderr is a terminal: progress is drawn in place by default
};

Args parseArgs(const std::vector<std::string>& args, const std::set<std::string>& valueOptions,
               const std::set<std::string>& flagOptions)
{
    Args a;
    a.command = args.empty() ? "" : args[0];
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& s = args[i];
        if (s.rfind("--", 0) == 0) {
            std::string name = s.substr(2), value;
            bool hasValue = false;
            if (const auto eq = name.find('='); eq != std::string::npos && name != "param") {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                hasValue = true;
            }
            if (flagOptions.count(name)) {
                a.flags.insert(name);
                continue;
            }
            if (!valueOptions.count(name) && name != "param")
                throw ParamError("unknown option '--" + name + "' for '" + a.command + "' (see --help)");
            if (!hasValue) {
                if (i + 1 >= args.size())
                    throw ParamError("option '--" + name + "' needs a value");
                value = args[++i];
            }
            if (name == "param")
                a.params.push_back(splitAssignment(value));
            else
                a.options[name] = value;
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

LoadOptions loadOptions(const Args& a);

const std::string& require(const Args& a, const std::string& name)
{
    const auto it = a.options.find(name);
    if (it == a.options.end())
        throw ParamError("'" + a.command + "' needs --" + name);
    return it->second;
}

std::string option(const Args& a, const std::string& name, const std::string& fallback)
{
    const auto it = a.options.find(name);
    return it == a.options.end() ? fallback : it->second;
}

long long parseInteger(const std::string& text, const std::string& what)
{
    std::size_t pos = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &pos);
    } catch (const std::exception&) {
        pos = 0;
    }
    if (pos == 0 || pos != text.size())
        throw ParamError(what + ": expected an integer, got '" + text + "'");
    return v;
}

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

/// The input files named on the command line (an output must be none of them).
std::vector<std::string> inputPaths(const Args& a)
{
    std::vector<std::string> in;
    for (const char* k : {"input", "fit-input", "calibrate", "train", "test", "model"})
        if (a.options.count(k)) in.push_back(a.options.at(k));
    if (a.options.count("fit-on") && a.options.at("fit-on").rfind("rows:", 0) == 0)
        in.push_back(a.options.at("fit-on").substr(5)); // --fit-on rows:FILE
    return in;
}

/// A whole-string number; from_chars, not stod, which throws for subnormal values such as 1e-310.
bool parseReal(const std::string& text, double& value)
{
    const char* b = text.data();
    const char* e = b + text.size();
    if (b != e && *b == '+') ++b;
    const auto r = std::from_chars(b, e, value);
    if (b == e || r.ptr != e) return false;
    if (r.ec == std::errc::result_out_of_range) value = std::strtod(text.c_str(), nullptr);
    else if (r.ec != std::errc()) return false;
    return true;
}

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

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
    return CliProgress(err, mode, timeout);
}

nlohmann::json numberOrNull(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

int cmdList(const Args& a, std::ostream& out)
{
    const Registry& reg = Registry::instance();
    if (a.flags.count("json")) {
        nlohmann::json gens = nlohmann::json::array();
        for (const auto& g : generators()) {
            nlohmann::json ps = nlohmann::json::array();
            for (const auto& s : g.params)
                ps.push_back({{"name", s.name}, {"type", toString(s.type)}, {"default", s.defaultValue}, {"help", s.help}});
            gens.push_back({{"id", g.id}, {"summary", g.summary}, {"params", ps}});
        }
        out << nlohmann::json{{"detectors", reg.toJson()}, {"generators", gens}}.dump(2) << "\n";
        return 0;
    }
    out << "Detectors (use --detector ID, --param name=value):\n";
    for (const auto& d : reg.detectors()) {
        out << "\n  " << d.id << " — " << d.title << "\n      " << d.summary << "\n      [" << d.reference << "]\n";
        for (const auto& s : d.params) {
            out << "      " << std::left << std::setw(16) << s.name << std::setw(7) << toString(s.type)
                << " default " << s.defaultValue;
            if (s.type == ParamType::Choice) {
                out << " {";
                for (std::size_t i = 0; i < s.choices.size(); ++i)
                    out << (i ? "|" : "") << s.choices[i];
                out << "}";
            }
            if (!s.autoRule.empty())
                out << " (auto: " << s.autoRule << ")";
            if (!s.paperValue.empty())
                out << " [paper: " << s.paperValue << "]";
            out << " — " << s.help << "\n";
        }
    }
    out << "\nGenerators (outlierlens-cli generate NAME --n N --seed S [--param k=v]):\n";
    for (const auto& g : generators()) {
        out << "  " << std::left << std::setw(10) << g.id << " " << g.summary << "\n";
        for (const auto& s : g.params)
            out << "      " << std::setw(12) << s.name << " default " << s.defaultValue << " — " << s.help << "\n";
    }
    return 0;
}

int cmdGenerate(const Args& a, std::ostream& out)
{
    if (a.positional.size() != 1)
        throw ParamError("'generate' needs exactly one generator NAME (see 'outlierlens-cli list')");
    const long long n = parseInteger(require(a, "n"), "--n");
    const long long seed = parseInteger(option(a, "seed", "0"), "--seed");
    if (n < 1 || n > 10'000'000)
        throw ParamError("--n: " + std::to_string(n) + " is outside [1, 10000000]");
    const std::string path = require(a, "output");
    if (path != "-")
        checkOutputPath(path, {}, "--output"); // before the work, and the old file stays until the rename
    const Dataset d = generate(a.positional[0], static_cast<int>(n), static_cast<std::uint64_t>(seed), a.params);
    if (path == "-")
        writeCsv(out, d);
    else
        writeCsv(path, d);
    return 0;
}

struct Prepared {
    Dataset input;
    std::shared_ptr<FitResult> result; // for the rows of --input
    std::optional<FitSubset> fitOn;    // --fit-on, when given
};

/// rows:FILE of --fit-on: 0-based row indices separated by whitespace or commas.
std::vector<int> readRowsFile(const std::string& path)
{
    std::ifstream f(path);
    if (!f)
        throw DataError("--fit-on rows: cannot read '" + path + "'");
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
    while (f.get(c)) {
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

// Shared by score and evaluate: load, then the fit pipeline (normaliser fitted on the training
// data, fit, optional calibration, scores of --input: the training scores themselves when
// --input is the training set, so nothing the fit produced is computed again).
Prepared fitAndScore(const Args& a, std::ostream& err, bool labelRequired)
{
    Prepared r;
    r.fitOn = fitOnOption(a);
    LoadOptions lo = loadOptions(a);
    lo.labelRequired = labelRequired || a.options.count("label-column") || a.options.count("outlier-label")
                       || (r.fitOn && r.fitOn->kind == FitSubset::Kind::Label);
    r.input = loadDataset(require(a, "input"), lo);
    for (const auto& w : r.input.warnings)
        err << "outlierlens-cli: warning: " << w << "\n";

    if (a.options.count("model")) {
        // A saved model (score --save-model, Python's save_model, a session's "model"): no fit, the
        // stored normaliser and detector score --input (restoreSessionModel checks the columns).
        for (const char* clash : {"detector", "fit-input", "normalize", "calibrate", "fit-on"})
            if (a.options.count(clash))
                throw ParamError(std::string("--model replaces --") + clash);
        if (!a.params.empty())
            throw ParamError("--model: the parameters are the model's; --param does not apply");
        std::ifstream f(a.options.at("model"));
        if (!f)
            throw DataError("cannot read model '" + a.options.at("model") + "'");
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(f, nullptr, true, false);
        } catch (const nlohmann::json::exception& e) {
            throw DataError("model '" + a.options.at("model") + "': not JSON: " + e.what());
        }
        RestoredModel m;
        try {
            m = restoreSessionModel(j, static_cast<int>(r.input.cols())); // the sessions' checked reader
        } catch (const DataError& e) {
            throw DataError("model '" + a.options.at("model") + "': " + e.what());
        }
        r.result = resultForRows(std::shared_ptr<const Detector>(std::move(m.detector)), std::move(m.normalizer),
                                 r.input.X, false);
        return r;
    }

    const std::string id = require(a, "detector");
    std::shared_ptr<Detector> detector = Registry::instance().create(id, a.params);

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

    Normalizer normalizer(parseNormalization(option(a, "normalize", "none")));
    if (part.empty()) {
        normalizer.fit(trainX);
    } else { // fitted on the training rows, applied to all
        Eigen::MatrixXd fitRows(static_cast<Eigen::Index>(part.size()), trainX.cols());
        for (std::size_t j = 0; j < part.size(); ++j)
            fitRows.row(static_cast<Eigen::Index>(j)) = trainX.row(part[j]);
        normalizer.fit(fitRows);
    }
    for (const auto& w : normalizer.warnings())
        err << "outlierlens-cli: warning: " << w << "\n";

    FitOptions options;
    options.explanations = false;
    options.trainingRows = part;
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
    if (separateFit) {
        auto scored = resultForRows(r.result->detector, r.result->normalizer, r.input.X, false);
        scored->fitSeconds = r.result->fitSeconds;
        scored->calibration = r.result->calibration;
        r.result = scored;
    }
    return r;
}

// score --explain N: one line per feature, largest |contribution| first, after a comment line
// naming what the contributions add up to.
void writeDrivers(std::ostream& out, const Prepared& r, int row, const Eigen::VectorXd& c)
{
    const FeatureAttribution* fa = r.result->detector->featureAttribution();
    std::vector<int> order(static_cast<std::size_t>(c.size()));
    for (std::size_t j = 0; j < order.size(); ++j)
        order[j] = static_cast<int>(j);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return std::abs(c(x)) > std::abs(c(y)); });
    const double total = c.sum();
    out << std::setprecision(10) << "# row " << row << ": score " << r.result->scores(row) << "; contributions to "
        << fa->attributionTotal() << " (sum " << total << ")\n";
    out << "feature,contribution,share\n";
    for (int j : order)
        out << r.input.featureNames[static_cast<std::size_t>(j)] << "," << c(j) << ","
            << (total != 0.0 ? c(j) / total : 0.0) << "\n";
    out.flush();
}

int cmdScore(const Args& a, std::ostream& out, std::ostream& err)
{
    // --inliers / --outliers: the rows themselves (every column + score, outlier), CSV or PLY.
    std::vector<std::pair<std::string, bool>> pointFiles; // path, flagged rows?
    for (const auto& [opt, flagged] : {std::pair<const char*, bool>{"inliers", false}, {"outliers", true}})
        if (a.options.count(opt))
            pointFiles.emplace_back(a.options.at(opt), flagged);
    const bool explain = a.options.count("explain") > 0;
    const long long explainRow = explain ? parseInteger(a.options.at("explain"), "--explain") : -1;
    const std::string outPath =
        (pointFiles.empty() && !explain) || a.options.count("output") ? require(a, "output") : std::string();
    if (explain && outPath == "-")
        throw ParamError("--explain prints to standard output; write the scores to a file with --output");
    const bool modelWanted = a.options.count("save-model") > 0;
    const std::string modelPath = modelWanted ? a.options.at("save-model") : std::string();
    const std::vector<std::string> inputs = inputPaths(a);
    // Refuse bad outputs before minutes of fitting, not after.
    if (!outPath.empty() && outPath != "-")
        checkOutputPath(outPath, inputs, "--output");
    if (modelWanted) {
        if (modelPath == "-")
            throw ParamError("--save-model needs a file path ('-' is only for --output)");
        checkOutputPath(modelPath, inputs, "--save-model");
        if (modelPath == outPath)
            throw ParamError("--save-model and --output name the same file '" + outPath + "'");
    }
    for (const auto& [path, flagged] : pointFiles) {
        const char* opt = flagged ? "--outliers" : "--inliers";
        if (path == "-" || path == outPath || path == modelPath
            || (pointFiles.size() == 2 && pointFiles[0].first == pointFiles[1].first))
            throw ParamError(std::string(opt) + " needs its own file path, not '" + path + "'");
        checkOutputPath(path, inputs, opt);
    }
    Prepared r = fitAndScore(a, err, false);
    std::vector<int> training = r.result->trainingRows; // --fit-on: the 'training' column
    if (training.empty()) {
        training.resize(static_cast<std::size_t>(r.input.rows()));
        std::iota(training.begin(), training.end(), 0);
    }
    Eigen::VectorXd drivers;
    if (explain) {
        // Checked before anything is written: a refused --explain leaves no half-done outputs.
        if (explainRow < 0 || explainRow >= r.input.rows())
            throw ParamError("--explain " + std::to_string(explainRow) + ": rows are 0.."
                             + std::to_string(r.input.rows() - 1));
        if (!r.result->detector->featureAttribution())
            throw ParamError("--explain: " + r.result->detector->id() + " cannot split its score by feature");
        drivers = featureContributions(*r.result, r.input.X, static_cast<int>(explainRow));
    }
    // --percentile: each row's score as a percentile (0–100, mid-rank) of the training rows'
    // scores — the common scale compare mode colours every detector by.
    Eigen::VectorXd percentiles;
    if (a.flags.count("percentile")) {
        Eigen::VectorXd trainingScores(static_cast<Eigen::Index>(training.size()));
        for (std::size_t k = 0; k < training.size(); ++k)
            trainingScores(static_cast<Eigen::Index>(k)) = r.result->scores(training[k]);
        percentiles = 100.0 * percentileRanks(trainingScores, r.result->scores);
    }
    auto scores = [&](std::ostream& f) {
        writeScores(f, r.result->scores, r.result->outlier, r.input.hasLabels() ? &r.input.labels : nullptr,
                    r.fitOn ? &training : nullptr, a.flags.count("percentile") ? &percentiles : nullptr);
    };
    // Scores and model together: both are written in full before either replaces its file.
    AtomicWriter writer;
    if (!outPath.empty() && outPath != "-")
        writer.add(outPath, scores, inputs);
    for (const auto& file : pointFiles) {
        const PointExport e{r.input, r.result->scores, r.result->outlier, rowsWithFlag(r.result->outlier, file.second)};
        const bool ply = pointFormatFor(file.first) == PointFormat::Ply;
        writer.add(file.first, [&](std::ostream& f) { ply ? writePointsPly(f, e) : writePointsCsv(f, e); }, inputs);
    }
    if (modelWanted) {
        nlohmann::json model = r.result->detector->toJson();
        model["normalizer"] = r.result->normalizer.toJson();
        const std::string text = model.dump(1) + "\n";
        writer.add(modelPath, [&](std::ostream& m) { m << text; }, inputs);
    }
    writer.commit();
    if (outPath == "-") {
        scores(out);
        out.flush();
    }
    if (explain)
        writeDrivers(out, r, static_cast<int>(explainRow), drivers);
    return 0;
}

int cmdEvaluate(const Args& a, std::ostream& out, std::ostream& err)
{
    if (!a.flags.count("json"))
        throw ParamError("'evaluate' prints JSON only; add --json");
    const Prepared prepared = fitAndScore(a, err, true);
    const FitResult& r = *prepared.result;
    const Eigen::VectorXi y = prepared.input.outlierFlags();
    const Confusion c = confusion(r.outlier, y);
    nlohmann::json j;
    j["detector"] = r.detector->id();
    j["params"] = r.detector->params().toJson();
    j["resolved"] = r.detector->params().resolvedJson(); // what each `auto` parameter became on this data
    j["normalize"] = toString(r.normalizer.kind());
    j["n"] = prepared.input.rows();
    j["p"] = prepared.input.cols();
    j["outliers"] = y.sum();
    j["flagged"] = r.outlier.sum(); // what the detector's own decision marks (issue #17: never 0 or all)
    j["auroc"] = numberOrNull(auroc(r.scores, y));
    j["auprc"] = numberOrNull(averagePrecision(r.scores, y));
    j["f1"] = f1(c);
    j["f1_bar"] = f1Bar(c);
    j["threshold"] = r.detector->threshold();
    j["fit_seconds"] = r.fitSeconds;
    j["score_seconds"] = r.scoreSeconds;
    if (prepared.fitOn) {
        // Fit on a part: the metrics above are over every row; these over the rows not fitted on.
        const Eigen::Index n = prepared.input.rows();
        const bool part = !r.trainingRows.empty();
        j["fit_on"] = describe(*prepared.fitOn);
        j["n_fit"] = part ? static_cast<Eigen::Index>(r.trainingRows.size()) : n;
        std::vector<char> training(static_cast<std::size_t>(n), part ? 0 : 1);
        for (int i : r.trainingRows)
            training[static_cast<std::size_t>(i)] = 1;
        std::vector<Eigen::Index> held;
        for (Eigen::Index i = 0; i < n; ++i)
            if (!training[static_cast<std::size_t>(i)])
                held.push_back(i);
        const auto m = static_cast<Eigen::Index>(held.size());
        Eigen::VectorXd hs(m);
        Eigen::VectorXi hy(m), ho(m);
        for (Eigen::Index k = 0; k < m; ++k) {
            hs(k) = r.scores(held[static_cast<std::size_t>(k)]);
            hy(k) = y(held[static_cast<std::size_t>(k)]);
            ho(k) = r.outlier(held[static_cast<std::size_t>(k)]);
        }
        j["n_held_out"] = m;
        j["outliers_held_out"] = hy.sum();
        j["flagged_held_out"] = ho.sum();
        const bool bothClasses = m > 0 && hy.sum() > 0 && hy.sum() < m;
        j["auroc_held_out"] = bothClasses ? numberOrNull(auroc(hs, hy)) : nlohmann::json();
        j["auprc_held_out"] = bothClasses ? numberOrNull(averagePrecision(hs, hy)) : nlohmann::json();
        j["f1_held_out"] = m > 0 ? nlohmann::json(f1(confusion(ho, hy))) : nlohmann::json();
    }
    for (const auto& [k, v] : r.detector->figures())
        j[k] = numberOrNull(v);
    out << j.dump() << "\n";
    return 0;
}

JointBayesianParams::Method parseMethod(const std::string& text)
{
    if (text == "uajb")
        return JointBayesianParams::Method::UaJb;
    if (text == "jb")
        return JointBayesianParams::Method::Jb;
    throw ParamError("--method: expected uajb or jb, got '" + text + "'");
}

int cmdVerify(const Args& a, std::ostream& out, std::ostream& err)
{
    if (!a.flags.count("json"))
        throw ParamError("'verify' prints JSON only; add --json");
    VerificationOptions vo;
    const std::string methodText = require(a, "method");
    vo.model.method = parseMethod(methodText);
    const long long dim = parseInteger(option(a, "dim", "0"), "--dim");
    if (dim < 0 || dim > 100000)
        throw ParamError("--dim: " + std::to_string(dim) + " is outside [0, 100000] (0 = automatic)");
    vo.model.dim = static_cast<int>(dim);
    vo.maxPairs = parseInteger(option(a, "pairs", "200000"), "--pairs");
    if (vo.maxPairs < 1)
        throw ParamError("--pairs must be >= 1");
    vo.seed = static_cast<std::uint64_t>(parseInteger(option(a, "seed", "0"), "--seed"));
    const long long maxIter = parseInteger(option(a, "max-iter", "200"), "--max-iter");
    if (maxIter < 0 || maxIter > 1000000)
        throw ParamError("--max-iter must be in [0, 1000000]");
    vo.model.maxIter = static_cast<int>(maxIter);
    if (a.options.count("tol")) {
        double tol = -1;
        if (!parseReal(a.options.at("tol"), tol) || !(tol >= 0))
            throw ParamError("--tol: expected a number >= 0, got '" + a.options.at("tol") + "'");
        vo.model.tol = tol;
    }
    const std::string red = option(a, "reduction", "auto");
    using R = JointBayesianParams::Reduction;
    if (red == "auto") vo.model.reduction = R::Auto;
    else if (red == "none") vo.model.reduction = R::None;
    else if (red == "pca") vo.model.reduction = R::Pca;
    else if (red == "uappca") vo.model.reduction = R::UaPpca;
    else throw ParamError("--reduction: expected auto, none, pca or uappca, got '" + red + "'");
    const std::string proj = option(a, "projection", "auto");
    if (proj == "probabilistic") vo.model.projection = LatentProjection::Probabilistic;
    else if (proj == "linear") vo.model.projection = LatentProjection::Linear;
    else if (proj != "auto") throw ParamError("--projection: expected auto, probabilistic or linear, got '" + proj + "'");

    LoadOptions lo = loadOptions(a);
    lo.labelColumn = option(a, "class-column", "label");
    lo.labelMeaning = LoadOptions::LabelMeaning::ClassIds; // classes, not outlier flags
    lo.labelRequired = true;
    lo.sigmaPrefix = option(a, "sigma-prefix", "sigma_");
    const bool impute = a.flags.count("impute-missing") > 0;
    lo.allowMissing = impute;
    Dataset train = loadDataset(require(a, "train"), lo);
    Dataset test = loadDataset(require(a, "test"), lo);
    for (const Dataset* d : {&train, &test})
        for (const auto& w : d->warnings)
            err << "outlierlens-cli: warning: " << w << "\n";
    long long imputed = 0;
    if (impute) { // sec. 5.2.2: conditional Gaussian from the complete training rows
        GaussianImputer imp;
        imp.fit(train.X);
        for (Dataset* d : {&train, &test}) {
            if (train.featureNames != test.featureNames)
                break; // reported by runVerification
            ImputationResult r = imp.impute(d->X, {}, d->sigma);
            imputed += r.cells;
            d->X = std::move(r.X);
            if (r.cells > 0 || d->hasSigma())
                d->sigma = std::move(r.sigma);
        }
    }
    const VerificationResult r = runVerification(train, test, vo);
    nlohmann::json j;
    j["method"] = methodText;
    j["dim"] = r.dim;
    j["eer"] = numberOrNull(r.eer);
    j["fnr_at_fpr_0.001"] = numberOrNull(r.fnrAtFpr001);
    j["auc"] = numberOrNull(r.auc);
    j["n_pairs"] = static_cast<long long>(r.pairs.size());
    j["genuine_pairs"] = r.genuinePairs;
    j["total_pairs"] = r.totalPairs;
    j["sampled"] = r.sampled;
    j["n_train"] = train.rows();
    j["n_test"] = test.rows();
    j["p"] = train.cols();
    j["sigma"] = train.hasSigma() || test.hasSigma();
    const char* reds[] = {"auto", "none", "pca", "uappca"};
    j["reduction"] = reds[static_cast<int>(r.model.reduction())];
    j["projection"] = r.model.projection() == LatentProjection::Probabilistic ? "probabilistic" : "linear";
    j["em_iterations"] = r.model.iterations();
    j["em_converged"] = r.model.converged();
    if (const UaPpca* red = r.model.reducer()) {
        j["ppca_iterations"] = red->iterations();
        j["ppca_converged"] = red->converged();
    }
    j["log_likelihood"] = numberOrNull(r.model.logLikelihoodHistory().back());
    if (impute)
        j["imputed_cells"] = imputed;
    j["fit_seconds"] = r.fitSeconds;
    j["score_seconds"] = r.scoreSeconds;
    out << j.dump() << "\n";
    return 0;
}

int cmdPerturb(const Args& a, std::ostream& out)
{
    const std::string tText = require(a, "t");
    double t = -1;
    if (!parseReal(tText, t) || !std::isfinite(t) || t < 0)
        throw ParamError("--t: expected a finite number >= 0, got '" + tText + "'");
    const long long seed = parseInteger(require(a, "seed"), "--seed");
    LoadOptions lo = loadOptions(a);
    lo.labelMeaning = LoadOptions::LabelMeaning::ClassIds; // labels are carried through unchanged
    lo.labelRequired = a.options.count("label-column") > 0;
    const std::string path = require(a, "output");
    if (path != "-")
        checkOutputPath(path, inputPaths(a), "--output");
    const Dataset d = perturbDataset(loadDataset(require(a, "input"), lo), t, static_cast<std::uint64_t>(seed));
    if (path == "-")
        writeCsv(out, d);
    else
        writeCsv(path, d, inputPaths(a));
    return 0;
}

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    return runCli(args, out, err, false);
}

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool errIsTerminal)
{
    try {
        if (args.empty()) {
            err << kUsage;
            return 2;
        }
        const std::string& cmd = args[0];
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            out << kUsage;
            return 0;
        }
        const std::set<std::string> common = {"input",     "detector",      "fit-input",   "normalize",
                                              "label-column", "calibrate", "outlier-label", "max-input-mb",
                                              "timeout",   "fit-on"};
        for (const auto& s : args)
            if (s == "--help" || s == "-h") {
                out << kUsage;
                return 0;
            }
        if (cmd == "list")
            return cmdList(parseArgs(args, {}, {"json"}), out);
        if (cmd == "generate")
            return cmdGenerate(parseArgs(args, {"n", "seed", "output"}, {}), out);
        if (cmd == "score") {
            auto opts = common;
            opts.insert({"output", "save-model", "model", "inliers", "outliers", "explain"});
            Args a = parseArgs(args, opts, {"quiet", "progress", "percentile"});
            a.errIsTerminal = errIsTerminal;
            return cmdScore(a, out, err);
        }
        if (cmd == "evaluate") {
            Args a = parseArgs(args, common, {"json", "quiet", "progress"});
            a.errIsTerminal = errIsTerminal;
            return cmdEvaluate(a, out, err);
        }
        if (cmd == "verify")
            return cmdVerify(parseArgs(args, {"train", "test", "class-column", "sigma-prefix", "method", "dim", "pairs",
                                              "seed", "reduction", "projection", "max-iter", "tol", "max-input-mb"},
                                       {"json", "impute-missing"}),
                             out, err);
        if (cmd == "perturb")
            return cmdPerturb(parseArgs(args, {"input", "t", "seed", "label-column", "output", "max-input-mb"}, {}), out);
        throw ParamError("unknown command '" + cmd + "' (commands: list, generate, score, evaluate, verify, perturb; see --help)");
    } catch (const std::bad_alloc&) {
        err << "outlierlens-cli: error: out of memory; use fewer rows or features, or smaller parameters "
               "(e.g. k, m, degree)\n";
        return 1;
    } catch (const std::exception& e) {
        std::string msg = e.what();
        for (auto& ch : msg)
            if (ch == '\n')
                ch = ' ';
        err << "outlierlens-cli: error: " << displayValue(msg, 600) << "\n";
        return 1;
    }
}

} // namespace olens
