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
#include <cstdint>
#include <utility>
#include <vector>

namespace olens {

namespace {

// Share of rows equal to an earlier row (bitwise, after normalisation).
std::uint64_t rowHash(const Eigen::MatrixXd& X, Eigen::Index i)
{
    std::uint64_t h = 1469598103934665603ull;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
        double v = X(i, j);
        if (v == 0.0)
            v = 0.0; // -0 and +0 alike
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
    }
    return h;
}

double duplicateShare(const Eigen::MatrixXd& X)
{
    // The rows sorted by a hash of their values, then each run of equal hashes compared row by row:
    // 16 B a row for a moment, where a hash set of row indices held ~40 B (800 MB at 20 M rows,
    // issue #54). A row repeats when it equals a row before it in its run (== on doubles, as before).
    const Eigen::Index n = X.rows();
    if (n == 0)
        return 0.0;
    std::vector<std::pair<std::uint64_t, Eigen::Index>> keyed(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i)
        keyed[static_cast<std::size_t>(i)] = {rowHash(X, i), i};
    std::sort(keyed.begin(), keyed.end());
    Eigen::Index repeats = 0;
    std::vector<Eigen::Index> distinct; // the distinct rows of one run
    for (std::size_t a = 0; a < keyed.size();) {
        std::size_t b = a + 1;
        while (b < keyed.size() && keyed[b].first == keyed[a].first)
            ++b;
        distinct.clear();
        for (std::size_t j = a; j < b; ++j) {
            const Eigen::Index i = keyed[j].second;
            const bool seen = std::any_of(distinct.begin(), distinct.end(), [&](Eigen::Index r) { return X.row(r) == X.row(i); });
            if (seen)
                ++repeats;
            else
                distinct.push_back(i);
        }
        a = b;
    }
    return static_cast<double>(repeats) / static_cast<double>(n);
}

} // namespace

double tailAgreement(const Eigen::VectorXd& scores, const Eigen::VectorXd& reference, double spread, double cap)
{
    const Eigen::Index m = reference.size();
    if (m < 1 || scores.size() != m)
        return std::numeric_limits<double>::quiet_NaN();
    // The reference's clear outliers: above median + spread · 1.4826 · MAD (the MAD scaled to a
    // normal sd), at least the most outlying row, at most ⌈cap·m⌉ rows (the largest; ties: lower row).
    std::vector<double> v(reference.data(), reference.data() + m);
    auto median = [](std::vector<double> a) {
        const std::size_t h = a.size() / 2;
        std::nth_element(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(h), a.end());
        const double hi = a[h];
        if (a.size() % 2)
            return hi;
        return 0.5 * (hi + *std::max_element(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(h)));
    };
    const double md = median(v);
    std::vector<double> dev(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        dev[i] = std::abs(v[i] - md);
    const double cut = md + spread * 1.4826 * median(dev);
    Eigen::Index t = 0;
    for (const double x : v)
        t += x > cut ? 1 : 0;
    t = std::clamp<Eigen::Index>(t, 1, std::max<Eigen::Index>(1, static_cast<Eigen::Index>(std::ceil(cap * double(m)))));
    std::vector<Eigen::Index> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return reference(a) > reference(b); });
    // The detector's mid-rank percentile (rank − ½)/m of each of them; a NaN score ranks lowest.
    Eigen::VectorXd s = scores;
    for (Eigen::Index i = 0; i < m; ++i)
        if (std::isnan(s(i)))
            s(i) = -std::numeric_limits<double>::infinity();
    // Scores that all tie say nothing about order (the constant_scores warning speaks for them):
    // their mid-rank 0.5 read as "below chance" and warned every such fit inverted.
    if (m > 0 && (s.array() == s(0)).all())
        return std::numeric_limits<double>::quiet_NaN();
    const Eigen::VectorXd r = midRanks(s);
    double sum = 0.0;
    for (Eigen::Index j = 0; j < t; ++j)
        sum += (r(order[static_cast<std::size_t>(j)]) - 0.5) / double(m);
    return sum / double(t);
}

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
        return std::numeric_limits<double>::quiet_NaN();
    Eigen::VectorXd s(m);
    for (Eigen::Index i = 0; i < m; ++i)
        s(i) = scores(rows[static_cast<std::size_t>(i)]);
    // The reference is the sampled rows' distance to their 40th nearest neighbour among *all* rows
    // (at most a budget of them: 10⁶ in 2-4 dimensions, else m·R·p ≤ 2·10⁹). Among the
    // sample alone, at a million rows that is the 20 000th neighbour of the whole cloud: a density
    // so coarse that a clean ranking (torus 1 M, 1 % outliers, AUROC 0.994) was reported inverted.
    // Budget: a kd-tree over at most 10⁶ rows in 2-4 dimensions (a 1 M-point build is ~0.3 s, its
    // queries cheap); from 5 dimensions its queries visit more of the tree and, like brute force,
    // the reference rows are capped at m·R·p ≤ 2·10⁹.
    const double bruteBudget = 2e9 / (static_cast<double>(m) * static_cast<double>(std::max<Eigen::Index>(1, p)));
    const double budget = p <= 4 ? std::max(1e6, bruteBudget) : bruteBudget;
    const Eigen::Index R = std::clamp<Eigen::Index>(static_cast<Eigen::Index>(budget), m, n);
    Eigen::VectorXd ref(m);
    if (known.size() == n && R == n) {
        // The fit's own neighbour search had them (knn, lof). Only when the search would look among
        // all rows too: beyond the budget it searches a subset, and a restored model's check (which
        // searches) or another detector's must meet the same reference.
        for (Eigen::Index i = 0; i < m; ++i)
            ref(i) = known(rows[static_cast<std::size_t>(i)]);
        return tailAgreement(s, ref);
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
    for (Eigen::Index i = 0; i < m; ++i)
        Q.col(i) = Xn.row(rows[static_cast<std::size_t>(i)]).transpose();
    std::vector<Eigen::Index> idx(static_cast<std::size_t>(m) * (k + 1));
    std::vector<double> d2(idx.size());
    // In chunks over the cores, as the detectors' own searches (this was a third of knn's fit on
    // Spambase when it ran on one thread).
    parallelChunks(m, 256, [&](std::int64_t begin, std::int64_t end) {
        const auto at = static_cast<std::size_t>(begin) * (k + 1);
        index.nearestMany(Q.middleCols(begin, end - begin), k + 1, idx.data() + at, d2.data() + at);
    });
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
        ref(i) = std::sqrt(std::max(0.0, kth)); // distances, as the fits' own (the order is the same)
    }
    return tailAgreement(s, ref);
}

std::string warningLabel(const std::string& code)
{
    static const std::pair<const char*, const char*> labels[] = {
        {"inverted", "may be inverted"},       {"duplicates", "duplicate rows"},
        {"singular", "near-singular fit"},     {"not_converged", "not converged"},
        {"constant_scores", "scores tie"},     {"clamped", "a setting was limited"},
        {"members", "members"},                {"scale", "feature scales differ"},
        {"regularised", "regularised (few rows)"}, {"neighbourhood", "k is large for n"}};
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
    const auto figures = d.figures();
    if (const auto it = figures.find("regularised"); it != figures.end() && it->second > 0) {
        // mcd with fewer rows than a covariance needs (n < p + 2; #53: it refused, scikit-learn's
        // EllipticEnvelope runs): MRCD shrinks towards the identity, so the scores lean on it.
        out.push_back({"regularised",
                       std::to_string(Xn.rows()) + " rows are too few for a " + std::to_string(Xn.cols())
                           + "-dimensional covariance (the MCD needs p + 2 = " + std::to_string(Xn.cols() + 2)
                           + "): it was regularised (MRCD, weight " + formatNumber("%.2f", it->second)
                           + " on the identity), so the scores lean towards treating the features as independent; use more "
                             "rows or fewer features for a full covariance"});
    }
    if (const auto it = figures.find("neighbours"); it != figures.end() && 2.0 * it->second >= double(Xn.rows())) {
        // #53: on a 20-row set lof used k = 19 and acdt 15 (their auto rules are bounded by n − 1):
        // a neighbourhood of most of the data is no longer local.
        out.push_back({"neighbourhood",
                       d.id() + " uses k = " + formatNumber("%.0f", it->second) + " neighbours of " + std::to_string(Xn.rows())
                           + " rows: each neighbourhood holds half the data or more, so the scores are hardly local "
                             "and a group of outliers larger than k is not seen; lower k, or use mcd or iforest on so "
                             "few rows"});
    }
    if (Xn.rows() != scores.size() || Xn.rows() < kMinDiagnosedRows)
        return out;
    const double a = rankingAgreement(d, Xn, scores);
    if (a < kInvertedAgreement)
        out.push_back({"inverted",
                       "the ranking may be inverted: the rows most isolated from their 40th nearest neighbour "
                       "sit at its "
                           + formatNumber("%.0f", 100.0 * a) + "th percentile on average (below "
                           + formatNumber("%.0f", 100.0 * kInvertedAgreement)
                           + "th: no better than chance), so isolated points may rank as normal; compare with mcd "
                             "or consensus before trusting it"});
    const double dup = duplicateShare(Xn);
    if (dup >= kDuplicateShare)
        out.push_back({"duplicates", formatNumber("%.0f", 100.0 * dup)
                                         + " % of the rows repeat another row: neighbour and density scores (knn, "
                                           "lof) see zero distances there; remove the duplicates or raise k"});
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
                           + " while the objective was still falling by more than tol of its progress; raise max_iter "
                             "(or tol), or z-score the data"});
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
