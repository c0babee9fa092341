// outlierlens-cli agree: how much several detectors agree on one data set, without labels
// (Spearman rank correlations, top-k overlaps, per row the number of detectors that flag it).
#include "commands/Commands.h"
#include "Args.h"
#include "CommandSupport.h"
#include "base/Errors.h"
#include "base/Format.h"
#include "data/Dataset.h"
#include "data/Normalizer.h"
#include "metrics/Agreement.h"
#include "metrics/Metrics.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace olens::cli {

namespace {
std::vector<std::string> splitIds(const std::string& list)
{
    std::vector<std::string> ids;
    std::stringstream ss(list);
    for (std::string id; std::getline(ss, id, ',');)
        if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    return ids;
}

void printMatrix(std::ostream& out, const std::vector<std::string>& ids, const Eigen::MatrixXd& M)
{
    std::size_t w = 8;
    for (const auto& id : ids)
        w = std::max(w, id.size() + 2);
    char buf[64];
    out << std::string(w, ' ');
    for (const auto& id : ids)
        out << std::string(w - id.size(), ' ') << id;
    out << "\n";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        out << ids[i] << std::string(w - ids[i].size(), ' ');
        for (std::size_t j = 0; j < ids.size(); ++j) {
            std::snprintf(buf, sizeof buf, "%*.2f", static_cast<int>(w), M(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)));
            out << buf;
        }
        out << "\n";
    }
}

int cmdAgree(const Args& a, std::ostream& out, std::ostream& err)
{
    const DetectorInfo* ensemble = Registry::instance().ensemble();
    std::vector<std::string> ids = a.options.count("detectors") ? splitIds(a.options.at("detectors"))
                                   : ensemble                   ? ensemble->ensemble->defaultMembers
                                                                : std::vector<std::string>{};
    if (ids.size() < 2)
        throw ParamError("agree: --detectors needs at least two detector ids, e.g. --detectors knn,lof,iforest,mcd");
    for (const auto& id : ids)
        Registry::instance().info(id); // unknown ids refused before any work
    const std::string input = require(a, "input");
    const Dataset data = loadDataset(input, loadOptions(a));
    for (const auto& w : data.warnings)
        err << "outlierlens-cli: warning: " << w << "\n";
    const Normalization norm = parseNormalization(option(a, "normalize", "zscore"));
    const Eigen::Index n = data.rows();
    Eigen::Index k = static_cast<Eigen::Index>(std::ceil(0.1 * static_cast<double>(n)));
    if (a.options.count("top")) {
        k = static_cast<Eigen::Index>(parseInteger(a.options.at("top"), "--top"));
        if (k < 1 || k > n)
            throw ParamError("agree: --top " + std::to_string(k) + " is outside [1, n = " + std::to_string(n) + "]");
    }
    std::vector<Eigen::VectorXd> scores;
    std::vector<Eigen::VectorXi> flags;
    nlohmann::json perDetector = nlohmann::json::array();
    const bool labels = data.hasLabels() && data.outlierFlags().sum() > 0 && data.outlierFlags().sum() < n;
    for (const auto& id : ids) {
        FitOptions options;
        options.explanations = false;
        const auto r = fitPipeline(Registry::instance().create(id), Normalizer(norm), data.X, options);
        scores.push_back(r->scores);
        flags.push_back(r->outlier);
        nlohmann::json d = {{"id", id}, {"flagged", r->outlier.sum()}, {"fit_seconds", r->fitSeconds}};
        d["warnings"] = nlohmann::json::array();
        for (const auto& w : r->warnings) {
            d["warnings"].push_back({{"code", w.code}, {"message", w.message}});
            err << "outlierlens-cli: warning: " << id << ": " << w.message << "\n";
        }
        if (labels)
            d["auroc"] = numberOrNull(auroc(r->scores, data.outlierFlags()));
        perDetector.push_back(d);
    }
    const AgreementTable t = agreement(scores, flags, k);
    if (a.flags.count("json")) {
        auto matrix = [](const Eigen::MatrixXd& M) {
            nlohmann::json rows = nlohmann::json::array();
            for (Eigen::Index i = 0; i < M.rows(); ++i) {
                nlohmann::json row = nlohmann::json::array();
                for (Eigen::Index j = 0; j < M.cols(); ++j)
                    row.push_back(M(i, j));
                rows.push_back(row);
            }
            return rows;
        };
        nlohmann::json j = {{"detectors", perDetector}, {"n", n}, {"top_k", k}, {"normalize", toString(norm)},
                            {"spearman", matrix(t.spearman)}, {"top_overlap", matrix(t.topOverlap)}};
        j["flagged_by"] = std::vector<int>(t.flaggedBy.data(), t.flaggedBy.data() + t.flaggedBy.size());
        out << j.dump() << "\n";
        return 0;
    }
    out << "agreement of " << ids.size() << " detectors on " << input << " (n = " << n << ", " << toString(norm)
        << ")\n\nSpearman rank correlation of the scores\n";
    printMatrix(out, ids, t.spearman);
    out << "\nshare of the top " << k << " in common\n";
    printMatrix(out, ids, t.topOverlap);
    out << "\nrows flagged by the detectors' own decisions:";
    for (int c = 0; c <= static_cast<int>(ids.size()); ++c)
        out << (c ? ", " : " ") << (t.flaggedBy.array() == c).count() << " by " << c;
    out << " of " << ids.size() << "\n";
    if (labels) {
        out << "\nAUROC against the labels:";
        for (std::size_t d = 0; d < ids.size(); ++d)
            out << (d ? ", " : " ") << ids[d] << " " << formatNumber("%.3f", auroc(scores[d], data.outlierFlags()));
        out << "\n";
    }
    return 0;
}

} // namespace

const Command kAgreeCommand{"agree", {"input", "detectors", "normalize", "top", "label-column", "outlier-label", "max-input-mb"}, {"json"},
                        R"(  outlierlens-cli agree --input F.csv [--detectors knn,lof,iforest,mcd] [--normalize zscore] [--top K]
                        [--json]
      how much several detectors agree without labels: Spearman rank correlations of their scores,
      the share of their top K (default 10 % of the rows) in common, and per row how many of them
      flag it ("flagged_by" in --json); the fit warnings of each; AUROC too when labels are present
)",
                        cmdAgree};

} // namespace olens::cli
