// Evaluation metrics (see Metrics.h for the conventions).
//
// The ranking metrics follow scikit-learn's _binary_clf_curve: samples are sorted by decreasing
// score, every distinct score value is one threshold, and the true/false-positive counts are
// taken cumulatively at the last sample of each run of equal scores (so tied samples always enter
// a curve together). Counts are kept as integers; AUROC is accumulated exactly in integers and
// divided once at the end.
#include "metrics/Metrics.h"

#include "metrics/CurveThinner.h"

#include "base/Errors.h"

#include <algorithm>
#include <vector>
#include <tuple>
#include <utility>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace olens {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

void checkBinary(const Eigen::VectorXi& v, const char* fn, const char* what)
{
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        if (v[i] != 0 && v[i] != 1)
            throw DataError(std::string(fn) + ": " + what + "[" + std::to_string(i) + "] = "
                            + std::to_string(v[i]) + " is not 0 or 1");
    }
}

void checkSizes(Eigen::Index a, Eigen::Index b, const char* fn, const char* aName, const char* bName)
{
    if (a != b)
        throw DataError(std::string(fn) + ": " + aName + " has " + std::to_string(a) + " entries but "
                        + bName + " has " + std::to_string(b));
    if (a == 0)
        throw DataError(std::string(fn) + ": no samples");
}

/// Cumulative counts at each distinct score, in decreasing score order (no leading (0,0) point).
struct BinaryCurve {
    std::vector<long long> tps;     ///< positives with score >= thresholds[k]
    std::vector<long long> fps;     ///< negatives with score >= thresholds[k]
    std::vector<double> thresholds; ///< distinct scores, strictly decreasing
    long long positives = 0;
    long long negatives = 0;
};

/// True when `order` lists every row of `scores` once, by non-increasing score.
bool isDescendingOrder(const Eigen::VectorXd& scores, const std::vector<int>& order)
{
    const auto n = static_cast<std::size_t>(scores.size());
    if (order.size() != n)
        return false;
    std::vector<char> seen(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        const int r = order[k];
        if (r < 0 || static_cast<std::size_t>(r) >= n || seen[static_cast<std::size_t>(r)])
            return false;
        seen[static_cast<std::size_t>(r)] = 1;
        if (k > 0 && !(scores[order[k - 1]] >= scores[r]))
            return false;
    }
    return true;
}

/// Walks the distinct scores in decreasing order, calling visit(tp, fp, score) at the last row of
/// each run of equal scores with the cumulative counts (exact comparison, as numpy's diff); returns
/// {positives, negatives}. `descending`, when it is the order by decreasing score, is walked
/// instead of a sorted copy.
template <typename Visit>
std::pair<long long, long long> walkThresholds(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels,
                                               const char* fn, const std::vector<int>* descending, Visit&& visit)
{
    checkSizes(scores.size(), labels.size(), fn, "scores", "labels");
    checkBinary(labels, fn, "labels");
    for (Eigen::Index i = 0; i < scores.size(); ++i) {
        // NaN has no place in an ordering (and would break std::sort's strict weak ordering).
        // Infinite scores are fine.
        if (std::isnan(scores[i]))
            throw DataError(std::string(fn) + ": scores[" + std::to_string(i) + "] is NaN");
    }
    long long tp = 0;
    long long fp = 0;
    auto walk = [&](std::size_t n, auto&& at) {
        for (std::size_t k = 0; k < n; ++k) {
            const std::pair<double, int> here = at(k);
            if (here.second == 1)
                ++tp;
            else
                ++fp;
            if (k + 1 == n || at(k + 1).first != here.first)
                visit(tp, fp, here.first);
        }
    };
    const auto n = static_cast<std::size_t>(scores.size());
    if (descending && isDescendingOrder(scores, *descending)) {
        walk(n, [&](std::size_t k) { return std::pair<double, int>(scores[(*descending)[k]], labels[(*descending)[k]]); });
        return {tp, fp};
    }
    // (score, label) pairs sorted in place: the comparisons read contiguous memory rather than
    // scores[order[k]] at random (3× faster at a million points, where the GUI sorts after training).
    // Stability is unnecessary: equal scores are grouped into one threshold.
    std::vector<std::pair<double, int>> sorted(n);
    for (std::size_t i = 0; i < n; ++i)
        sorted[i] = {scores[static_cast<Eigen::Index>(i)], labels[static_cast<Eigen::Index>(i)]};
    std::sort(sorted.begin(), sorted.end(),
              [](const std::pair<double, int>& a, const std::pair<double, int>& b) { return a.first > b.first; });
    walk(n, [&](std::size_t k) { return sorted[k]; });
    return {tp, fp};
}

BinaryCurve binaryCurve(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels, const char* fn,
                        const std::vector<int>* descending = nullptr)
{
    BinaryCurve c;
    std::tie(c.positives, c.negatives) = walkThresholds(scores, labels, fn, descending, [&](long long tp, long long fp, double s) {
        c.tps.push_back(tp);
        c.fps.push_back(fp);
        c.thresholds.push_back(s);
    });
    return c;
}

/// ROC as in rocCurve(), built from the counts.
Curve rocFromCounts(const BinaryCurve& c)
{
    Curve roc;
    const std::size_t m = c.tps.size() + 1;
    roc.x.reserve(m);
    roc.y.reserve(m);
    roc.thresholds.reserve(m);
    // Undefined rates (no negatives for FPR, no positives for TPR) are NaN, as in scikit-learn.
    const double n = static_cast<double>(c.negatives);
    const double p = static_cast<double>(c.positives);
    auto fpr = [&](long long fp) { return c.negatives > 0 ? static_cast<double>(fp) / n : kNaN; };
    auto tpr = [&](long long tp) { return c.positives > 0 ? static_cast<double>(tp) / p : kNaN; };
    roc.x.push_back(fpr(0));
    roc.y.push_back(tpr(0));
    roc.thresholds.push_back(kInf);
    for (std::size_t k = 0; k < c.tps.size(); ++k) {
        roc.x.push_back(fpr(c.fps[k]));
        roc.y.push_back(tpr(c.tps[k]));
        roc.thresholds.push_back(c.thresholds[k]);
    }
    return roc;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// ROC

Curve rocCurve(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels)
{
    // Points: (0,0) with threshold +inf, then (FPR_k, TPR_k) for each distinct score in decreasing
    // order, the last one being (1,1). x/y/thresholds have equal lengths (distinct scores + 1).
    return rocFromCounts(binaryCurve(scores, labels, "rocCurve"));
}

namespace {

/// The areas under the curves, summed as the thresholds arrive (decreasing score).
struct AreaSums {
    // AUROC: trapezoidal rule over the ROC points, starting at (0,0):
    //   area = Σ_k (FP_k − FP_{k−1}) · (TP_k + TP_{k−1}) / 2 / (P·N).
    // The doubled sum is an exact integer (equal to twice the Mann–Whitney U statistic, ties
    // counted one half), so the only rounding is the final division.
    // AP = Σ_k (R_k − R_{k−1}) P_k over distinct scores in decreasing order, R_0 = 0
    //    = (1/P) Σ_k (TP_k − TP_{k−1}) · TP_k / (TP_k + FP_k).
    long long twiceArea = 0, prevTp = 0, prevFp = 0;
    double apSum = 0.0;
    void add(long long tp, long long fp)
    {
        twiceArea += (fp - prevFp) * (tp + prevTp);
        if (tp > prevTp)
            apSum += static_cast<double>(tp - prevTp) * static_cast<double>(tp) / static_cast<double>(tp + fp);
        prevTp = tp;
        prevFp = fp;
    }
    double auroc(long long positives, long long negatives) const
    {
        return positives == 0 || negatives == 0
                   ? kNaN
                   : static_cast<double>(twiceArea) / (2.0 * static_cast<double>(positives) * static_cast<double>(negatives));
    }
    double averagePrecision(long long positives) const
    {
        return positives == 0 ? kNaN : apSum / static_cast<double>(positives);
    }
};

AreaSums areaSums(const BinaryCurve& c)
{
    AreaSums a;
    for (std::size_t k = 0; k < c.tps.size(); ++k)
        a.add(c.tps[k], c.fps[k]);
    return a;
}

double aurocFromCounts(const BinaryCurve& c)
{
    return areaSums(c).auroc(c.positives, c.negatives);
}

} // namespace

double auroc(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels)
{
    return aurocFromCounts(binaryCurve(scores, labels, "auroc"));
}

// ---------------------------------------------------------------------------------------------
// Precision–recall

namespace {

Curve prFromCounts(const BinaryCurve& c)
{
    // Order: decreasing threshold, so recall is non-decreasing along the curve.
    //   point 0:    recall 0, precision 1, threshold +inf (the point scikit-learn appends at the
    //               end of its increasing-threshold arrays; it has no threshold there);
    //   point k>=1: the k-th largest distinct score s_k, recall TP_k/P, precision TP_k/(TP_k+FP_k);
    //   last point: the smallest score, recall 1, precision P/n (the class balance).
    // This is scikit-learn's precision_recall_curve (drop_intermediate=False, no truncation at
    // full recall) reversed, with the threshold array padded by +inf so all three vectors have
    // length (distinct scores + 1). With no positives, recall is 1 at every score threshold (and
    // precision 0), as scikit-learn does.
    Curve pr;
    const std::size_t m = c.tps.size() + 1;
    pr.x.reserve(m);
    pr.y.reserve(m);
    pr.thresholds.reserve(m);
    pr.x.push_back(0.0);
    pr.y.push_back(1.0);
    pr.thresholds.push_back(kInf);
    for (std::size_t k = 0; k < c.tps.size(); ++k) {
        const long long predicted = c.tps[k] + c.fps[k]; // >= 1: every threshold holds a sample
        pr.x.push_back(c.positives > 0
                           ? static_cast<double>(c.tps[k]) / static_cast<double>(c.positives)
                           : 1.0);
        pr.y.push_back(static_cast<double>(c.tps[k]) / static_cast<double>(predicted));
        pr.thresholds.push_back(c.thresholds[k]);
    }
    return pr;
}

} // namespace

Curve precisionRecallCurve(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels)
{
    return prFromCounts(binaryCurve(scores, labels, "precisionRecallCurve"));
}

namespace {

double apFromCounts(const BinaryCurve& c)
{
    return areaSums(c).averagePrecision(c.positives);
}

} // namespace

double averagePrecision(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels)
{
    return apFromCounts(binaryCurve(scores, labels, "averagePrecision"));
}

RankingCurves rankingCurves(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels,
                            const std::vector<int>* descending, double drawTolerance)
{
    if (!(drawTolerance > 0.0)) {
        const BinaryCurve c = binaryCurve(scores, labels, "rankingCurves", descending); // the one sort (or none)
        return {rocFromCounts(c), prFromCounts(c), aurocFromCounts(c), apFromCounts(c)};
    }
    // The same points, areas and thresholds as above, each point offered to a thinner as it comes:
    // the class totals first (the rates need them), then one walk.
    checkSizes(scores.size(), labels.size(), "rankingCurves", "scores", "labels");
    checkBinary(labels, "rankingCurves", "labels");
    const long long positives = labels.cast<long long>().sum();
    const long long negatives = static_cast<long long>(labels.size()) - positives;
    const double P = static_cast<double>(positives);
    const double N = static_cast<double>(negatives);
    CurveThinner roc(drawTolerance), pr(drawTolerance);
    roc.add(negatives > 0 ? 0.0 : kNaN, positives > 0 ? 0.0 : kNaN, kInf);
    pr.add(0.0, 1.0, kInf);
    AreaSums areas;
    walkThresholds(scores, labels, "rankingCurves", descending, [&](long long tp, long long fp, double s) {
        roc.add(negatives > 0 ? static_cast<double>(fp) / N : kNaN, positives > 0 ? static_cast<double>(tp) / P : kNaN, s);
        pr.add(positives > 0 ? static_cast<double>(tp) / P : 1.0, static_cast<double>(tp) / static_cast<double>(tp + fp), s);
        areas.add(tp, fp);
    });
    roc.finish();
    pr.finish();
    RankingCurves out;
    out.roc = {roc.takeX(), roc.takeY(), roc.takeT()};
    out.pr = {pr.takeX(), pr.takeY(), pr.takeT()};
    out.auroc = areas.auroc(positives, negatives);
    out.averagePrecision = areas.averagePrecision(positives);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Confusion-matrix metrics

Confusion confusion(const Eigen::VectorXi& predicted, const Eigen::VectorXi& labels)
{
    checkSizes(predicted.size(), labels.size(), "confusion", "predicted", "labels");
    checkBinary(predicted, "confusion", "predicted");
    checkBinary(labels, "confusion", "labels");
    Confusion c;
    for (Eigen::Index i = 0; i < labels.size(); ++i) {
        const bool pred = predicted[i] == 1;
        const bool truth = labels[i] == 1;
        if (pred && truth)
            ++c.tp;
        else if (pred)
            ++c.fp;
        else if (truth)
            ++c.fn;
        else
            ++c.tn;
    }
    return c;
}

namespace {
double ratio(long num, long den)
{
    return den > 0 ? static_cast<double>(num) / static_cast<double>(den) : 0.0;
}
} // namespace

double precision(const Confusion& c) { return ratio(c.tp, c.tp + c.fp); }
double recall(const Confusion& c) { return ratio(c.tp, c.tp + c.fn); }
// 2PR/(P+R) = 2TP/(2TP+FP+FN) whenever P+R > 0; when TP = 0 both forms give 0 (or are undefined,
// which also gives 0), so the count form is used: it avoids two roundings.
double f1(const Confusion& c) { return ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn); }
double tnr(const Confusion& c) { return ratio(c.tn, c.tn + c.fp); }
double npv(const Confusion& c) { return ratio(c.tn, c.tn + c.fn); }
// 2·TNR·NPV/(TNR+NPV) = 2TN/(2TN+FP+FN): F1 with the classes swapped, same reasoning as f1().
double f1Bar(const Confusion& c) { return ratio(2 * c.tn, 2 * c.tn + c.fp + c.fn); }

// ---------------------------------------------------------------------------------------------
// Verification metrics

double equalErrorRate(const Eigen::VectorXd& similarity, const Eigen::VectorXi& genuine)
{
    const BinaryCurve c = binaryCurve(similarity, genuine, "equalErrorRate");
    if (c.positives == 0 || c.negatives == 0)
        return kNaN;
    // Along the ROC (from threshold +inf down), d = FPR − FNR rises strictly from −1 at (0,0) to
    // +1 at (1,1): every step adds at least one sample, raising FPR or lowering FNR = 1 − TPR.
    // Find the first point with d >= 0 and interpolate linearly from the previous point.
    const Curve roc = rocFromCounts(c);
    double prevFpr = roc.x[0];
    double prevFnr = 1.0 - roc.y[0];
    for (std::size_t k = 1; k < roc.x.size(); ++k) {
        const double fpr = roc.x[k];
        const double fnr = 1.0 - roc.y[k];
        const double d = fpr - fnr;
        if (d == 0.0)
            return fpr;
        if (d > 0.0) {
            const double prevD = prevFpr - prevFnr; // < 0
            const double t = -prevD / (d - prevD);  // in (0,1)
            const double eerFpr = prevFpr + t * (fpr - prevFpr);
            const double eerFnr = prevFnr + t * (fnr - prevFnr);
            return 0.5 * (eerFpr + eerFnr); // equal up to rounding
        }
        prevFpr = fpr;
        prevFnr = fnr;
    }
    return kNaN; // not reached: the last ROC point has d = 1
}

double fnrAtFpr(const Eigen::VectorXd& similarity, const Eigen::VectorXi& genuine, double targetFpr)
{
    const BinaryCurve c = binaryCurve(similarity, genuine, "fnrAtFpr");
    if (c.positives == 0 || c.negatives == 0 || std::isnan(targetFpr))
        return kNaN;
    // The ROC points are the operating points; the leading (0,0) point (accept nothing, FNR 1)
    // is always allowed, so a target below 0 gives 1. The 1e-12 slack keeps a target written as
    // e.g. 1.0/3 from missing the point whose FPR is fp/N computed in floating point.
    const Curve roc = rocFromCounts(c);
    double best = 1.0;
    for (std::size_t k = 1; k < roc.x.size(); ++k) {
        if (roc.x[k] <= targetFpr + 1e-12)
            best = std::min(best, 1.0 - roc.y[k]);
    }
    return best;
}

// ---------------------------------------------------------------------------------------------
// Reconstruction

double msre(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Xhat)
{
    if (X.rows() != Xhat.rows() || X.cols() != Xhat.cols())
        throw DataError("msre: X is " + std::to_string(X.rows()) + "x" + std::to_string(X.cols())
                        + " but Xhat is " + std::to_string(Xhat.rows()) + "x"
                        + std::to_string(Xhat.cols()));
    if (X.rows() == 0)
        throw DataError("msre: no samples");
    // Rows are samples: Σ_i ‖x_i − x̂_i‖² is the squared Frobenius norm of the difference.
    return (X - Xhat).squaredNorm() / static_cast<double>(X.rows());
}

} // namespace olens
