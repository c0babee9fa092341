// outlierlens-cli score: fit (or load a model), write the scores, and optionally the model, the
// inlier / outlier rows and one row's feature contributions (--explain).
#include "commands/Commands.h"

#include "Args.h"
#include "CommandSupport.h"
#include "data/CsvCells.h"

#include "base/AtomicWriter.h"
#include "base/Errors.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "data/PointExport.h"
#include "detectors/Capabilities.h"
#include "display/ColourScale.h"
#include "pipeline/FitPipeline.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <numeric>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace olens::cli {

namespace {

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
        out << neutraliseCell(r.input.featureNames[static_cast<std::size_t>(j)]) << "," << c(j) << ","
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
        nlohmann::json model = r.result->detector->toJson(a.flags.count("record-history") > 0);
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

} // namespace

const Command kScoreCommand{"score", withFitOptions({"output", "save-model", "model", "inliers", "outliers", "explain"}), {"quiet", "progress", "percentile", "record-history", "allow-data-outside", "training-rows"},
                        R"(  outlierlens-cli score --input F.csv --detector ID [--param k=v]... [--fit-input T.csv]
                        [--normalize none|zscore|l2|minmax] [--label-column C]
                        [--calibrate V.csv] [--save-model M.json] [--outlier-label VALUE]
                        --output S.csv|-
      writes index,score,outlier[,label] (index = 0-based data row; score: higher = more outlying);
      '--output -' writes to standard output; the scores and the model are replaced together or not
      at all
  outlierlens-cli score ... --percentile
      adds a 'percentile' column: each score's percentile (0-100, mid-rank) among the training
      rows' scores, the scale on which compare mode colours every detector alike
  outlierlens-cli score --input F.csv --model M.json [--label-column C] --output S.csv|-
      scores with a saved model (--save-model, Python's save_model) without fitting, each row as a
      new row (Python's score_samples); --training-rows gives a leave-one-out model's (knn, lof, ksp,
      acdt, consensus) ranking of its own training rows instead, each without itself (Python's
      decision_scores_; refused for other rows); a GUI session
      whose model takes its rows from a data file outside the session's folder is refused unless
      --allow-data-outside is given (a session handed over may name any file)
  outlierlens-cli score ... [--inliers I.csv|I.ply] [--outliers O.csv|O.ply]
      also (or, without --output, only) writes the rows the detector keeps (the cleaned cloud) /
      flags, with every input column (features, sigma_, label) + score, outlier; .ply = binary PLY
  outlierlens-cli score ... --explain N
      (also without --output) prints the features that drive row N's score, largest first:
      feature,contribution,share — pca: squared residual per feature (sum = score^2), knn: squared
      difference to the k-th neighbour (sum = score^2), mcd: delta_j (S^-1 delta)_j (sum = score);
      contributions are in the normalised space (--normalize); other detectors refuse it
)",
                        cmdScore};

} // namespace olens::cli
