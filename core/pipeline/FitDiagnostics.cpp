#include "pipeline/FitDiagnostics.h"

#include "base/Format.h"
#include "base/ParallelFor.h"
#include "linalg/PointIndex.h"
#include "metrics/Agreement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <numeric>
#include <unordered_set>

namespace olens {

namespace {

// Share of rows equal to an earlier row (bitwise, after normalisation).
double duplicateShare(const Eigen::MatrixXd& X)
{
    struct RowHash {
        const Eigen::MatrixXd* X;
        std::size_t operator()(Eigen::Index i) const
        {
            std::size_t h = 1469598103934665603ull;
            for (Eigen::Index j = 0; j < X->cols(); ++j) {
                double v = (*X)(i, j);
                if (v == 0.0)
                    v = 0.0; // -0 and +0 alike
                std::uint64_t bits;
                std::memcpy(&bits, &v, sizeof bits);
                h = (h ^ bits) * 1099511628211ull;
            }
            return h;
        }
    };
    struct RowEq {
        const Eigen::MatrixXd* X;
        bool operator()(Eigen::Index a, Eigen::Index b) const { return X->row(a) == X->row(b); }
    };
    std::unordered_set<Eigen::Index, RowHash, RowEq> seen(static_cast<std::size_t>(X.rows()), RowHash{&X}, RowEq{&X});
    Eigen::Index repeats = 0;
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        if (!seen.insert(i).second)
            ++repeats;
    return X.rows() > 0 ? static_cast<double>(repeats) / static_cast<double>(X.rows()) : 0.0;
}

} // namespace

double referenceAgreement(const Eigen::MatrixXd& Xn, const Eigen::VectorXd& scores, int maxRows,
                          std::vector<Eigen::Index>* sample, const Eigen::VectorXd& known)
{
    const Eigen::Index n = Xn.rows(), p = Xn.cols();
    const Eigen::Index m = std::min<Eigen::Index>(n, maxRows);
    std::vector<Eigen::Index> rows(static_cast<std::size_t>(m));
    for (Eigen::Index i = 0; i < m; ++i)
        rows[static_cast<std::size_t>(i)] = i * n / m;
    if (sample)
        *sample = rows;
    if (m < 2 || n < 2)
        return 0.0;
    // The reference is the sampled rows' distance to their 10th nearest neighbour among *all* rows
    // (at most a budget of them: 10⁶ in 2-4 dimensions, else m·R·p ≤ 2·10⁹). Among the
    // sample alone, at a million rows that is the 5 000th neighbour of the whole cloud: a density
    // so coarse that a clean ranking (torus 1 M, 1 % outliers, AUROC 0.994) agreed with it at 0.27
    // and was reported inverted; with all rows 0.77. On the corpus (n ≤ 5 000) the warnings are the
    // same but one (docs/benchmarks.md, "Label-free warnings").
    // Budget: a kd-tree over at most 10⁶ rows in 2-4 dimensions (a 1 M-point build is ~0.3 s, its
    // queries cheap); from 5 dimensions its queries visit more of the tree and, like brute force,
    // the reference rows are capped at m·R·p ≤ 2·10⁹.
    const double bruteBudget = 2e9 / (static_cast<double>(m) * static_cast<double>(std::max<Eigen::Index>(1, p)));
    const double budget = p <= 4 ? std::max(1e6, bruteBudget) : bruteBudget;
    const Eigen::Index R = std::clamp<Eigen::Index>(static_cast<Eigen::Index>(budget), m, n);
    if (known.size() == n && R == n) {
        // The fit's own neighbour search had them (knn, lof): distances, not their squares, which
        // ranks the same. Only when the search would look among all rows too: beyond the budget
        // it searches a subset, and a restored model's check (which searches) or another
        // detector's must meet the same reference.
        Eigen::VectorXd s(m), ref(m);
        for (Eigen::Index i = 0; i < m; ++i) {
            s(i) = scores(rows[static_cast<std::size_t>(i)]);
            ref(i) = known(rows[static_cast<std::size_t>(i)]);
        }
        return spearman(s, ref);
    }
    std::vector<Eigen::Index> refRows(static_cast<std::size_t>(R));
    for (Eigen::Index j = 0; j < R; ++j)
        refRows[static_cast<std::size_t>(j)] = R == n ? j : j * n / R;
    Eigen::MatrixXd P(p, R);
    for (Eigen::Index j = 0; j < R; ++j)
        P.col(j) = Xn.row(refRows[static_cast<std::size_t>(j)]).transpose();
    const PointIndex index(std::move(P));
    const auto k = static_cast<std::size_t>(std::min<Eigen::Index>(kReferenceNeighbour, R - 1));
    Eigen::MatrixXd Q(p, m);
    Eigen::VectorXd s(m);
    for (Eigen::Index i = 0; i < m; ++i) {
        Q.col(i) = Xn.row(rows[static_cast<std::size_t>(i)]).transpose();
        s(i) = scores(rows[static_cast<std::size_t>(i)]);
    }
    std::vector<Eigen::Index> idx(static_cast<std::size_t>(m) * (k + 1));
    std::vector<double> d2(idx.size());
    // In chunks over the cores, as the detectors' own searches (this was a third of knn's fit on
    // Spambase when it ran on one thread).
    parallelChunks(m, 256, [&](std::int64_t begin, std::int64_t end) {
        const auto at = static_cast<std::size_t>(begin) * (k + 1);
        index.nearestMany(Q.middleCols(begin, end - begin), k + 1, idx.data() + at, d2.data() + at);
    });
    Eigen::VectorXd ref(m);
    for (Eigen::Index i = 0; i < m; ++i) {
        const std::size_t at = static_cast<std::size_t>(i) * (k + 1);
        const Eigen::Index self = rows[static_cast<std::size_t>(i)];
        std::size_t seen = 0;
        double kth = d2[at + k]; // the row itself not among the reference rows: the k+1-th is beyond
        for (std::size_t j = 0; j <= k; ++j) {
            if (refRows[static_cast<std::size_t>(idx[at + j])] == self)
                continue;
            if (++seen == k) {
                kth = d2[at + j];
                break;
            }
        }
        ref(i) = kth;
    }
    return spearman(s, ref);
}

std::string warningLabel(const std::string& code)
{
    static const std::pair<const char*, const char*> labels[] = {
        {"inverted", "may be inverted"},       {"duplicates", "duplicate rows"},
        {"singular", "near-singular fit"},     {"not_converged", "not converged"},
        {"constant_scores", "scores tie"},     {"clamped", "a setting was limited"},
        {"members", "members"},                {"scale", "feature scales differ"}};
    for (const auto& [c, label] : labels)
        if (code == c)
            return label;
    return code;
}

std::optional<FitWarning> scaleWarning(const Eigen::MatrixXd& X, const std::vector<std::string>& names)
{
    if (X.rows() < 2 || X.cols() < 2)
        return std::nullopt;
    double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
    Eigen::Index loCol = -1, hiCol = -1;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
        const double mean = X.col(j).mean();
        const double sd = std::sqrt((X.col(j).array() - mean).square().sum() / double(X.rows() - 1));
        if (!(sd > 0.0) || !std::isfinite(sd))
            continue; // constant: carries no distance at all
        if (sd < lo) {
            lo = sd;
            loCol = j;
        }
        if (sd > hi) {
            hi = sd;
            hiCol = j;
        }
    }
    if (loCol < 0 || hi / lo <= kScaleRatio)
        return std::nullopt;
    const bool named = names.size() == static_cast<std::size_t>(X.cols());
    auto name = [&](Eigen::Index j) {
        return named && !names[std::size_t(j)].empty() ? "'" + names[std::size_t(j)] + "'" : "column " + std::to_string(j + 1);
    };
    return FitWarning{"scale", "feature scales differ by " + formatNumber("%.0f", hi / lo) + "x (" + name(hiCol)
                                   + " spreads " + formatNumber("%.3g", hi) + ", " + name(loCol) + " "
                                   + formatNumber("%.3g", lo)
                                   + ") and the features are not normalised: the widest decides the distances; "
                                     "normalise (zscore) unless its units are meant to weigh more"};
}

double rankingAgreement(const Detector& d, const Eigen::MatrixXd& Xn, const Eigen::VectorXd& scores)
{
    if (Xn.rows() < kMinDiagnosedRows || Xn.rows() != scores.size())
        return std::numeric_limits<double>::quiet_NaN(); // consensus then leaves no member out
    // Sample size: at most 2000 rows, fewer for wide data (m²·p ≤ 2·10⁸).
    const int maxRows = static_cast<int>(std::clamp(std::sqrt(2e8 / static_cast<double>(std::max<Eigen::Index>(1, Xn.cols()))),
                                                    100.0, 2000.0));
    const NeighbourDistances* nd = d.neighbourDistances();
    return referenceAgreement(Xn, scores, maxRows, nullptr,
                              nd ? nd->trainingNeighbourDistance(kReferenceNeighbour) : Eigen::VectorXd());
}

std::vector<FitWarning> diagnoseFit(const Detector& d, const Eigen::MatrixXd& Xn, const Eigen::VectorXd& scores)
{
    std::vector<FitWarning> out;
    // Settings the fit limited to what the data allow (#51: they were clamped without a word).
    for (const std::string& a : d.adjustments())
        out.push_back({"clamped", d.id() + ": " + a});
    // What an ensemble did with its members (consensus: which it used, which it left out and why),
    // whatever the size of the data (a member that cannot fit is left out on any n).
    for (const std::string& note : d.fitNotes())
        out.push_back({"members", note});
    if (Xn.rows() != scores.size() || Xn.rows() < kMinDiagnosedRows)
        return out;
    const double rho = rankingAgreement(d, Xn, scores);
    if (rho < kInvertedAgreement)
        out.push_back({"inverted",
                       "the ranking may be inverted: it agrees little with the distance to the 10th nearest "
                       "neighbour (Spearman "
                           + formatNumber("%.2f", rho) + " < " + formatNumber("%.1f", kInvertedAgreement)
                           + "), so isolated points may rank as normal; compare with mcd or consensus before "
                             "trusting it"});
    const double dup = duplicateShare(Xn);
    if (dup >= kDuplicateShare)
        out.push_back({"duplicates", formatNumber("%.0f", 100.0 * dup)
                                         + " % of the rows repeat another row: neighbour and density scores (knn, "
                                           "lof) see zero distances there; remove the duplicates or raise k"});
    const auto figures = d.figures();
    if (const auto it = figures.find("null_directions"); it != figures.end() && it->second > 0)
        out.push_back({"singular", "the fit is near-singular: the majority of the rows lies on a flat ("
                                       + formatNumber("%.0f", it->second)
                                       + " direction(s) with almost no variance), so any step off it scores as "
                                         "extreme; drop collinear columns or check for a recording artefact"});
    if (const auto it = figures.find("converged"); it != figures.end() && it->second == 0.0) {
        // The optimiser stopped at its iteration limit, not at its tolerance (scikit-learn's
        // ConvergenceWarning): the model is usable but not the optimum the paper's equations define.
        const auto iters = figures.find("iterations");
        const auto grad = figures.find("gradient_norm");
        out.push_back({"not_converged",
                       "the optimiser stopped at its iteration limit"
                           + (iters != figures.end() ? " (" + formatNumber("%.0f", iters->second) + " iterations)" : std::string())
                           + (grad != figures.end() ? " with gradient norm " + formatNumber("%.3g", grad->second) : std::string())
                           + " before its gradient tolerance; raise max_iter (or scale the data: z-score)"});
    }
    if (const auto it = figures.find("approximation_auto"); it != figures.end() && it->second > 0) {
        const auto m = figures.find("landmarks");
        out.push_back({"approximate",
                       "an automatic setting chose an approximation for this data size"
                           + (m != figures.end() ? " (Nyström with " + formatNumber("%.0f", m->second) + " landmarks)"
                                                 : std::string())
                           + ": the scores differ from the exact method's; set landmarks=0 for the exact fit "
                             "(memory grows with n²)"});
    }
    return out;
}

} // namespace olens
