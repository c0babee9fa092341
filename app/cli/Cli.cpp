// The CLI's entry point: usage text, parsing each command's options and dispatching to the
// commands (commands/*.cpp), and turning any error into one line and an exit code.
#include "Cli.h"

#include "Args.h"
#include "commands/Commands.h"

#include "base/Errors.h"
#include "base/Messages.h"

#include <exception>
#include <new>
#include <ostream>
#include <set>

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
  outlierlens-cli score|evaluate ... --threshold-rule detector|mad|iqr|otsu
      decisions (the outlier column, flagged) without guessing the contamination: mad = median +
      3 x 1.4826 x MAD of the training scores, iqr = Q3 + 1.5 x IQR, otsu = Otsu's histogram cut;
      detector (default) = the (1 - contamination) quantile or the method's own rule
  outlierlens-cli score|evaluate ... --record-history
      iterative detectors (quadrics, gods, bods, kods and variants, acdt) record their training
      path (<= 200 states): --save-model keeps it (the GUI's timeline replays it), evaluate --json
      adds "history": unit and per recorded step its step, loss, auroc and auprc
  outlierlens-cli agree --input F.csv [--detectors knn,lof,iforest,mcd] [--normalize zscore] [--top K]
                        [--json]
      how much several detectors agree without labels: Spearman rank correlations of their scores,
      the share of their top K (default 10 % of the rows) in common, and per row how many of them
      flag it ("flagged_by" in --json); the fit warnings of each; AUROC too when labels are present
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
                                              "timeout",   "fit-on",     "threshold-rule"};
        for (const auto& s : args)
            if (s == "--help" || s == "-h") {
                out << kUsage;
                return 0;
            }
        if (cmd == "list")
            return cli::cmdList(cli::parseArgs(args, {}, {"json"}), out, err);
        if (cmd == "generate")
            return cli::cmdGenerate(cli::parseArgs(args, {"n", "seed", "output"}, {}), out, err);
        if (cmd == "score") {
            auto opts = common;
            opts.insert({"output", "save-model", "model", "inliers", "outliers", "explain"});
            cli::Args a = cli::parseArgs(args, opts, {"quiet", "progress", "percentile", "record-history"});
            a.errIsTerminal = errIsTerminal;
            return cli::cmdScore(a, out, err);
        }
        if (cmd == "evaluate") {
            cli::Args a = cli::parseArgs(args, common, {"json", "quiet", "progress", "record-history"});
            a.errIsTerminal = errIsTerminal;
            return cli::cmdEvaluate(a, out, err);
        }
        if (cmd == "verify")
            return cli::cmdVerify(cli::parseArgs(args,
                                                 {"train", "test", "class-column", "sigma-prefix", "method", "dim",
                                                  "pairs", "seed", "reduction", "projection", "max-iter", "tol",
                                                  "max-input-mb"},
                                                 {"json", "impute-missing"}),
                                  out, err);
        if (cmd == "agree")
            return cli::cmdAgree(cli::parseArgs(args,
                                                {"input", "detectors", "normalize", "top", "label-column",
                                                 "outlier-label", "max-input-mb"},
                                                {"json"}),
                                 out, err);
        if (cmd == "perturb")
            return cli::cmdPerturb(
                cli::parseArgs(args, {"input", "t", "seed", "label-column", "output", "max-input-mb"}, {}), out, err);
        throw ParamError("unknown command '" + cmd + "' (commands: list, generate, score, evaluate, agree, verify, perturb; see --help)");
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
