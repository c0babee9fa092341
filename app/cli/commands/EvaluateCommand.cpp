// outlierlens-cli evaluate ... --json: fit, score and print the metrics against the labels.
#include "commands/Commands.h"
#include "detectors/TrainingHistory.h"

#include "Args.h"
#include "CommandSupport.h"

#include "base/Errors.h"
#include "base/Format.h"
#include "base/Messages.h"
#include "data/Dataset.h"
#include "data/FitSubset.h"
#include "data/Normalizer.h"
#include "metrics/Metrics.h"
#include "pipeline/FitPipeline.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace olens::cli {

namespace {

/// AUROC and AUPRC compare two classes: with labels that give one class only (all 0, or values
/// such as -1/1 or 1/2 that all read as "outlier" under non-zero = outlier) there is nothing to
/// measure, and a null AUROC beside an AUPRC of 1.0 looks like an answer. Refuse, name the values
/// and the fix.
void requireBothClasses(const Dataset& data, const Eigen::VectorXi& y, const std::string& source)
{
    const Eigen::Index n = y.size(), outliers = y.sum();
    if (n == 0 || (outliers > 0 && outliers < n))
        return;
    std::set<double> values;
    for (Eigen::Index i = 0; i < data.labels.size() && values.size() <= 6; ++i)
        values.insert(data.labels(i));
    std::string list;
    for (double v : values)
        list += (list.empty() ? "" : ", ") + formatNumber("%g", v);
    if (values.size() > 6)
        list += ", …";
    throw DataError("evaluate: " + displayValue(source) + ": the labels give one class only (" + std::to_string(n)
                    + " of " + std::to_string(n) + " rows are " + (outliers == 0 ? "inliers" : "outliers")
                    + "; label values: " + list
                    + "), so AUROC and AUPRC are undefined. Numeric labels read 0 = inlier and any other value = "
                      "outlier; for labels such as -1/1 or 1/2 name the outlier value with --outlier-label VALUE");
}

int cmdEvaluate(const Args& a, std::ostream& out, std::ostream& err)
{
    if (!a.flags.count("json"))
        throw ParamError("'evaluate' prints JSON only; add --json");
    const Prepared prepared = fitAndScore(a, err, true, [&a](const Dataset& input) {
        requireBothClasses(input, input.outlierFlags(), option(a, "input", ""));
    });
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
    j["threshold"] = r.threshold; // the detector's, or the --threshold-rule's
    j["threshold_rule"] = option(a, "threshold-rule", "detector");
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
    if (const auto h = r.detector->history()) {
        // --record-history: how the ranking got there — the metrics of the model at each step.
        nlohmann::json steps = nlohmann::json::array();
        for (int i = 0; i < h->size(); ++i) {
            const auto at = resultAtStep(r, prepared.input.X, i);
            const HistoryStep& s = h->steps[static_cast<std::size_t>(i)];
            steps.push_back({{"step", s.step}, {"loss", numberOrNull(s.loss)},
                             {"auroc", numberOrNull(auroc(at->scores, y))},
                             {"auprc", numberOrNull(averagePrecision(at->scores, y))}});
        }
        j["history"] = {{"unit", h->unit}, {"bytes", h->bytes}, {"steps", std::move(steps)}};
    } else if (a.flags.count("record-history")) {
        j["history"] = nullptr; // the method has no steps to record
    }
    for (const auto& [k, v] : r.detector->figures())
        j[k] = numberOrNull(v);
    j["warnings"] = nlohmann::json::array(); // label-free checks (FitDiagnostics); also on stderr
    for (const auto& w : r.warnings)
        j["warnings"].push_back({{"code", w.code}, {"message", w.message}});
    out << j.dump() << "\n";
    return 0;
}

} // namespace

const Command kEvaluateCommand{"evaluate", withFitOptions({}), {"json", "quiet", "progress", "record-history"},
                        R"(  outlierlens-cli score|evaluate ... --fit-on all|label:VALUE|fraction:F[:SEED]|rows:FILE
      fit on a part of --input, score every row: the rows with one label value (label:0 = the
      inliers, the GODS paper's one-class protocol), a seeded random fraction, or the 0-based row
      indices in FILE (whitespace or comma separated); the normaliser is fitted on those rows too.
      Training rows get the method's training scores (knn, lof exclude the point itself), the
      others are scored as new data. score adds a 'training' column (1 = fitted on); evaluate adds
      fit_on, n_fit and the metrics of the held-out rows (auroc_held_out, auprc_held_out, ...)
  outlierlens-cli evaluate --input F.csv --detector ID [--param k=v]... [--fit-input T.csv]
                        [--normalize none|zscore|l2|minmax] [--label-column label]
                        [--outlier-label VALUE] --json
      prints one JSON object: detector, params, n, p, auroc, auprc, fit_seconds, score_seconds, ...
  outlierlens-cli score|evaluate ... --threshold-rule detector|mad|iqr|otsu|top
      decisions (the outlier column, flagged) without guessing the contamination: mad = median +
      3 x 1.4826 x MAD of the training scores, iqr = Q3 + 1.5 x IQR, otsu = Otsu's histogram cut,
      top = the 1000 highest scores (at most 1 % of the rows; the GUI's default from 200 000 rows);
      detector (default) = the (1 - contamination) quantile or the method's own rule
  outlierlens-cli score|evaluate ... --record-history
      iterative detectors (quadrics, gods, bods, kods and variants, acdt) record their training
      path (<= 200 states): --save-model keeps it (the GUI's timeline replays it), evaluate --json
      adds "history": unit and per recorded step its step, loss, auroc and auprc
)",
                        cmdEvaluate};

} // namespace olens::cli
