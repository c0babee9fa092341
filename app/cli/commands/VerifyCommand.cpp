// outlierlens-cli verify ... --json: Joint Bayesian similarity (uajb / jb) trained on one file and
// scored on the pairs of another.
#include "commands/Commands.h"

#include "Args.h"
#include "CommandSupport.h"

#include "base/Errors.h"
#include "data/DataLoader.h"
#include "similarity/Imputation.h"
#include "similarity/JointBayesian.h"
#include "similarity/UaPpca.h"
#include "similarity/Verification.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>

namespace olens::cli {

namespace {

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

} // namespace

const Command kVerifyCommand{"verify", {"train", "test", "class-column", "sigma-prefix", "method", "dim", "pairs", "seed", "reduction",
                                "projection", "max-iter", "tol", "max-input-mb"}, {"json", "impute-missing"},
                        R"(  outlierlens-cli verify --train T.csv --test U.csv [--class-column label] [--sigma-prefix sigma_]
                        --method uajb|jb [--dim K] [--pairs N] [--seed S]
                        [--reduction auto|none|pca|uappca] [--projection auto|probabilistic|linear]
                        [--max-iter 200] [--tol 1e-5] [--impute-missing] --json
      Joint Bayesian similarity (uajb: uncertainty-aware, sigma_ columns = per-feature standard
      deviations; jb: plain, sigma ignored) trained on T, scored on all pairs of U (or N seeded
      random pairs when there are more than N, default 200000); prints one JSON object: eer,
      fnr_at_fpr_0.001, auc, n_pairs, fit_seconds, method, dim, ... (--dim 0 = automatic).
      --impute-missing: empty/NaN feature cells are filled by Gaussian conditioning on the
      complete training rows, their conditional standard deviation becomes their sigma.
)",
                        cmdVerify};

} // namespace olens::cli
