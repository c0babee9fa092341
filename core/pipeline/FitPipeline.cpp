#include "pipeline/FitPipeline.h"
#include "detectors/TrainingHistory.h"

#include "pipeline/FitDiagnostics.h"

#include "base/Stats.h"

#include "base/Errors.h"
#include "base/Format.h"

#include <algorithm>
#include <cmath>

#include <chrono>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace olens {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Decisions on rows whose scores are already known (training rows, kept rows): score > threshold,
/// which is every detector's rule on such rows (GODS eq. 23 has threshold 0 on its score).
Eigen::VectorXi decisions(const Eigen::VectorXd& scores, double threshold)
{
    return (scores.array() > threshold).cast<int>().matrix();
}

Eigen::MatrixXd rowsOf(const Eigen::MatrixXd& X, const std::vector<int>& rows)
{
    Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()), X.cols());
    for (std::size_t j = 0; j < rows.size(); ++j)
        out.row(static_cast<Eigen::Index>(j)) = X.row(rows[j]);
    return out;
}

/// True when `rows` are sorted, distinct, inside [0, n) and fewer than n (a real part).
bool isPart(const std::vector<int>& rows, Eigen::Index n)
{
    if (rows.empty() || static_cast<Eigen::Index>(rows.size()) >= n)
        return false;
    for (std::size_t j = 0; j < rows.size(); ++j)
        if (rows[j] < 0 || rows[j] >= n || (j > 0 && rows[j] <= rows[j - 1]))
            return false;
    return true;
}

/// Scores and decisions of every row of Xn (normalised) for a model fitted on the rows `rows` of
/// it: their training scores as the method defines them (kNN, LOF exclude the point itself), the
/// model's scores and decision rule for the rest, like new data (score_samples).
void scoreAllRows(const Detector& d, const Eigen::MatrixXd& Xn, const std::vector<int>& rows, FitResult& r)
{
    const Eigen::Index n = Xn.rows();
    std::vector<char> isTraining(static_cast<std::size_t>(n), 0);
    for (int i : rows)
        isTraining[static_cast<std::size_t>(i)] = 1;
    std::vector<int> others;
    for (Eigen::Index i = 0; i < n; ++i)
        if (!isTraining[static_cast<std::size_t>(i)])
            others.push_back(static_cast<int>(i));
    r.scores.resize(n);
    r.outlier.resize(n);
    const Eigen::VectorXd& ts = d.trainingScores();
    for (std::size_t j = 0; j < rows.size(); ++j) {
        r.scores(rows[j]) = ts(static_cast<Eigen::Index>(j));
        r.outlier(rows[j]) = ts(static_cast<Eigen::Index>(j)) > r.threshold ? 1 : 0;
    }
    if (!others.empty()) {
        const auto t0 = std::chrono::steady_clock::now();
        const Eigen::MatrixXd Q = rowsOf(Xn, others);
        const Eigen::VectorXd s = d.score(Q);
        const Eigen::VectorXi o = d.isOutlier(Q);
        for (std::size_t j = 0; j < others.size(); ++j) {
            r.scores(others[j]) = s(static_cast<Eigen::Index>(j));
            r.outlier(others[j]) = o(static_cast<Eigen::Index>(j));
        }
        r.scoreSeconds = secondsSince(t0);
    }
    r.trainingRows = rows;
}


} // namespace

/// Finite or refused: a detector whose arithmetic overflowed or lost every digit returns NaN or
/// infinite scores, which would reach the ranking, the CSV and the exit code as if they were an
/// answer. Refuse them with the cause and the fix instead.
void requireFiniteScores(const Eigen::VectorXd& scores, const std::string& id, const Eigen::MatrixXd& X)
{
    Eigen::Index bad = 0, first = -1;
    for (Eigen::Index i = 0; i < scores.size(); ++i)
        if (!std::isfinite(scores(i))) {
            if (first < 0) first = i;
            ++bad;
        }
    if (bad == 0)
        return;
    double maxAbs = 0;
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            if (std::isfinite(X(i, j))) maxAbs = std::max(maxAbs, std::abs(X(i, j)));
    throw DataError(id + " gave " + std::to_string(bad) + " non-finite score(s) of " + std::to_string(scores.size())
                    + " (first at row " + std::to_string(first + 1) + ": " + formatNumber("%g", scores(first))
                    + "); its arithmetic overflowed or lost every digit on these data (max |x| = "
                    + formatNumber("%.3g", maxAbs) + "). Normalise the features (zscore), or check the parameters "
                    "that set a scale (bandwidth, learning rate, regularisation)");
}

namespace {
// Distinct rows that share one score (#51): kods with sigma = 1e12 and iforest with psi = 2 gave
// every row the same score with exit 0. When every row ties although most rows are distinct points,
// the ranking orders nothing: refused, naming the parameter to change. When at least 90 % tie, the
// ranking orders only the rest — a useful answer on a grid (knn: the lattice points tie, the
// outliers do not) and a useless one for ocsvm with gamma = 1e12 — so a "constant_scores" warning
// says so. Ties of duplicate rows are the truth (knn gives every copy of a point 0) and pass.
std::optional<FitWarning> checkTies(const Detector& d, const Eigen::MatrixXd& X)
{
    const Eigen::VectorXd& s = d.trainingScores();
    const Eigen::Index n = s.size();
    if (n < 10 || n != X.rows())
        return std::nullopt;
    std::vector<double> sorted(s.data(), s.data() + n);
    std::sort(sorted.begin(), sorted.end());
    double mode = sorted[0];
    Eigen::Index best = 0;
    for (Eigen::Index i = 0, run = 0; i < n; ++i) {
        run = i > 0 && sorted[std::size_t(i)] == sorted[std::size_t(i - 1)] ? run + 1 : 1;
        if (run > best) {
            best = run;
            mode = sorted[std::size_t(i)];
        }
    }
    if (10 * best < 9 * n)
        return std::nullopt;
    std::unordered_set<std::string> distinct;
    for (Eigen::Index i = 0; i < n; ++i)
        if (s(i) == mode) {
            const Eigen::RowVectorXd row = X.row(i);
            distinct.emplace(reinterpret_cast<const char*>(row.data()), sizeof(double) * std::size_t(row.size()));
        }
    if (2 * static_cast<Eigen::Index>(distinct.size()) < n)
        return std::nullopt;
    std::string advice = d.constantScoresAdvice();
    if (advice.empty() && X.cols() >= X.rows())
        advice = "with at least as many features as rows (p = " + std::to_string(X.cols()) + ", n = " +
                 std::to_string(X.rows()) + ") every row can lie on what the method fits; reduce the features "
                 "(e.g. the leading principal components) or add rows";
    if (advice.empty())
        advice = "change its parameters (the defaults suit most data)";
    if (best == n)
        throw DataError(d.id() + ": every one of the " + std::to_string(n) + " training rows scores " +
                        formatNumber("%.6g", mode) + " although they are " + std::to_string(distinct.size()) +
                        " distinct points (constant scores), so the ranking says nothing; " + advice);
    return FitWarning{"constant_scores",
                      std::to_string(best) + " of the " + std::to_string(n) + " training rows score exactly " +
                          formatNumber("%.6g", mode) + " although they are " + std::to_string(distinct.size()) +
                          " distinct points: the ranking orders only the other " + std::to_string(n - best) +
                          " (right on a grid whose points tie; if not, " + advice + ")"};
}
} // namespace

std::shared_ptr<FitResult> fitPipeline(std::shared_ptr<Detector> detector, Normalizer normalizer,
                                       const Eigen::MatrixXd& training, const FitOptions& options,
                                       const ProgressCallback& progress)
{
    if (!detector)
        throw ParamError("fit: no detector");
    const std::vector<int>& rows = options.trainingRows;
    if (!rows.empty() && !isPart(rows, training.rows())
        && static_cast<Eigen::Index>(rows.size()) != training.rows())
        throw DataError("fit: the training rows must be sorted, distinct row indices of the data");
    const bool part = isPart(rows, training.rows());
    const Eigen::MatrixXd fitRows = part ? rowsOf(training, rows) : Eigen::MatrixXd();
    const Eigen::MatrixXd& X = part ? fitRows : training;
    if (!normalizer.isFitted())
        normalizer.fit(X);
    if (options.normalizerFitted)
        options.normalizerFitted(normalizer);
    // The rows themselves when the normaliser changes nothing: no copy beside the model's own
    // (knn's index copies its training rows; issue #54, 20 M rows: 480 MB less during the fit).
    Eigen::MatrixXd normalised;
    if (!normalizer.isIdentity())
        normalised = normalizer.transform(X);
    const Eigen::MatrixXd& Xn = normalizer.isIdentity() ? X : normalised;
    const auto t0 = std::chrono::steady_clock::now();
    detector->fit(Xn, progress);
    auto r = std::make_shared<FitResult>();
    r->fitSeconds = secondsSince(t0);
    if (options.calibrationX.rows() > 0) {
        Calibration* c = detector->calibration();
        if (!c)
            throw ParamError("calibration (GODS eq. 24) does not apply to '" + detector->id() + "'");
        r->calibration = c->calibrate(normalizer.transform(options.calibrationX), options.calibrationOutlier, Xn);
    }
    r->threshold = detector->threshold();
    if (part) {
        const Eigen::MatrixXd all = normalizer.transform(training);
        scoreAllRows(*detector, all, rows, *r);
        if (options.explanations)
            r->explanations = detector->explain(all);
    } else {
        r->scores = detector->trainingScores();
        r->outlier = decisions(r->scores, r->threshold);
        if (options.explanations)
            r->explanations = detector->explain(Xn);
    }
    requireFiniteScores(r->scores, detector->id(), training);
    const std::optional<FitWarning> ties = checkTies(*detector, X);
    r->warnings = diagnoseFit(*detector, Xn, detector->trainingScores());
    if (ties)
        r->warnings.push_back(*ties);
    if (normalizer.kind() == Normalization::None && !detector->scaleInvariant())
        if (auto scale = scaleWarning(X, options.featureNames))
            r->warnings.push_back(*scale);
    r->geometry = detector->geometry();
    r->detectorId = detector->id();
    r->normalizer = std::move(normalizer);
    r->detector = std::move(detector);
    if (options.ranking)
        r->ranking = rankByScore(r->scores); // with the scores: training runs this on its worker thread
    return r;
}

std::shared_ptr<FitResult> resultForRows(std::shared_ptr<const Detector> detector, Normalizer normalizer,
                                         const Eigen::MatrixXd& X, bool explanations,
                                         const std::vector<int>& trainingRows)
{
    if (!detector || !detector->isFitted())
        throw NotFittedError("result: the model has not been fitted");
    auto r = std::make_shared<FitResult>();
    const Eigen::MatrixXd Xn = normalizer.transform(X);
    r->threshold = detector->threshold();
    if (isPart(trainingRows, X.rows()) && detector->trainedOn(rowsOf(Xn, trainingRows))) {
        scoreAllRows(*detector, Xn, trainingRows, *r);
    } else if (detector->trainedOn(Xn)) {
        r->scores = detector->trainingScores();
        r->outlier = decisions(r->scores, r->threshold);
        if (explanations) // a restored session: the same warnings as when it was fitted
            r->warnings = diagnoseFit(*detector, Xn, r->scores);
    } else {
        const auto t0 = std::chrono::steady_clock::now();
        r->scores = detector->score(Xn);
        r->outlier = detector->isOutlier(Xn);
        r->scoreSeconds = secondsSince(t0);
    }
    requireFiniteScores(r->scores, detector->id(), X);
    if (explanations)
        r->explanations = detector->explain(Xn);
    r->geometry = detector->geometry();
    r->detectorId = detector->id();
    r->normalizer = std::move(normalizer);
    r->detector = std::move(detector);
    return r;
}

std::shared_ptr<FitResult> rescoreAfterEdit(const FitResult& r, const Eigen::MatrixXd& X, const std::vector<int>& keep)
{
    if (!r.detector || static_cast<Eigen::Index>(keep.size()) != X.rows())
        throw DataError("rescore: " + std::to_string(keep.size()) + " row mappings for " + std::to_string(X.rows())
                        + " rows");
    auto out = std::make_shared<FitResult>(r);
    const Eigen::Index n = X.rows();
    out->scores.resize(n);
    std::vector<int> fresh;
    for (Eigen::Index i = 0; i < n; ++i) {
        const int k = keep[static_cast<std::size_t>(i)];
        if (k >= 0 && k < r.scores.size())
            out->scores(i) = r.scores(k);
        else
            fresh.push_back(static_cast<int>(i));
    }
    if (!fresh.empty()) {
        const Eigen::MatrixXd Q = rowsOf(X, fresh);
        const Eigen::VectorXd s = r.detector->score(r.normalizer.transform(Q));
        requireFiniteScores(s, r.detectorId, Q);
        for (std::size_t j = 0; j < fresh.size(); ++j)
            out->scores(fresh[j]) = s(static_cast<Eigen::Index>(j));
    }
    out->outlier = decisions(out->scores, out->threshold);
    if (!r.ranking.empty())
        out->ranking = rankByScore(out->scores); // not the copied one: scores moved with the edit
    // Fitted on a part: the kept rows that were training rows still are; new or moved rows are not.
    if (!r.trainingRows.empty()) {
        std::vector<char> wasTraining(static_cast<std::size_t>(r.scores.size()), 0);
        for (int i : r.trainingRows)
            if (i >= 0 && i < r.scores.size())
                wasTraining[static_cast<std::size_t>(i)] = 1;
        out->trainingRows.clear();
        for (Eigen::Index i = 0; i < n; ++i) {
            const int k = keep[static_cast<std::size_t>(i)];
            if (k >= 0 && k < r.scores.size() && wasTraining[static_cast<std::size_t>(k)])
                out->trainingRows.push_back(static_cast<int>(i));
        }
    }
    out->explanations.clear();
    if (!r.explanations.empty()) {
        auto e = r.detector->explain(r.normalizer.transform(X));
        if (static_cast<Eigen::Index>(e.size()) == n)
            out->explanations = std::move(e);
    }
    return out;
}

std::shared_ptr<FitResult> recutResult(const FitResult& r, const Eigen::MatrixXd& X, int L)
{
    const ClusterCut* cut = r.detector ? r.detector->clusterCut() : nullptr;
    if (!cut)
        throw ParamError("only clustering results (acdt) can be cut at another number of clusters");
    std::shared_ptr<const Detector> d = cut->cutAt(L);
    auto out = resultForRows(d, r.normalizer, X, !r.explanations.empty(), r.trainingRows);
    out->fitSeconds = r.fitSeconds;
    return out;
}

std::shared_ptr<FitResult> resultAtStep(const FitResult& r, const Eigen::MatrixXd& X, int index)
{
    if (!r.detector || !r.detector->history())
        throw ParamError("this result has no recorded training history to step through");
    const Eigen::MatrixXd Xn = r.normalizer.transform(X);
    const bool part = isPart(r.trainingRows, X.rows());
    const Eigen::MatrixXd train = part ? rowsOf(Xn, r.trainingRows) : Xn;
    if (!r.detector->trainedOn(train))
        throw DataError("the data changed since " + r.detectorId
                        + " was trained, so its recorded steps no longer apply; train again to record them");
    std::shared_ptr<const Detector> d = r.detector->modelAtStep(index, train);
    auto out = resultForRows(std::move(d), r.normalizer, X, !r.explanations.empty(), r.trainingRows);
    out->fitSeconds = r.fitSeconds;
    out->step = r.detector->history()->steps[static_cast<std::size_t>(index)].step;
    if (!r.ranking.empty())
        out->ranking = rankByScore(out->scores);
    return out;
}

int stepShownBy(const FitResult& r)
{
    if (r.step >= 0)
        return r.step;
    const auto history = r.detector ? r.detector->history() : nullptr;
    return history && !history->empty() ? history->steps.back().step : -1;
}

Eigen::MatrixXd reconstructedRows(const FitResult& r, const Eigen::MatrixXd& X)
{
    const Reconstruction* rec = r.detector ? r.detector->reconstruction() : nullptr;
    if (!rec)
        return {};
    const auto fingerprint = normalisedRowsFingerprint(r.normalizer, X); // not a copy of every row
    if (!fingerprint || !r.detector->trainedOn(X.rows(), *fingerprint))
        return {};
    return r.normalizer.inverseTransform(rec->reconstructTraining(), X.colwise().mean().transpose());
}

std::optional<Eigen::MatrixXd> normalisedRows(const Normalizer& normalizer, const Eigen::MatrixXd& data,
                                              const std::vector<int>& trainingRows)
{
    for (const int r : trainingRows)
        if (r < 0 || r >= data.rows())
            return std::nullopt;
    if (normalizer.isFitted() && normalizer.inputColumns() != data.cols())
        return std::nullopt;
    if (trainingRows.empty()) // all rows: transformed straight from the data, not from a copy
        return normalizer.isFitted() ? normalizer.transform(data) : data;
    const Eigen::MatrixXd raw = data(trainingRows, Eigen::all);
    return normalizer.isFitted() ? normalizer.transform(raw) : raw;
}

// One pass per normalised column over blocks of rows (the normaliser works row by row, so a
// block's transform is those rows of the whole one): a 5 M-point cloud's click held a normalised
// copy of every row (120 MB) to attribute one of them, and its autosave three (issue #54).
std::optional<std::uint64_t> normalisedRowsFingerprint(const Normalizer& normalizer, const Eigen::MatrixXd& data,
                                                       const std::vector<int>& trainingRows)
{
    const bool all = trainingRows.empty();
    const Eigen::Index n = all ? data.rows() : static_cast<Eigen::Index>(trainingRows.size());
    constexpr Eigen::Index kSmall = 1 << 20; // values: one copy of a small matrix costs less than passes
    if (n * data.cols() <= kSmall) {
        const auto rows = normalisedRows(normalizer, data, trainingRows);
        return rows ? std::optional<std::uint64_t>(matrixFingerprint(*rows)) : std::nullopt;
    }
    for (const int r : trainingRows)
        if (r < 0 || r >= data.rows())
            return std::nullopt;
    if (normalizer.isFitted() && normalizer.inputColumns() != data.cols())
        return std::nullopt;
    auto transformed = [&](const Eigen::MatrixXd& raw) { return normalizer.isFitted() ? normalizer.transform(raw) : raw; };
    const Eigen::Index cols = normalizer.isFitted() ? static_cast<Eigen::Index>(normalizer.keptColumns().size()) : data.cols();
    MatrixFingerprint f(n, cols);
    constexpr Eigen::Index kBlock = 1 << 16;
    Eigen::MatrixXd block;
    for (Eigen::Index j = 0; j < cols; ++j)
        for (Eigen::Index b = 0; b < n; b += kBlock) {
            const Eigen::Index e = std::min(n, b + kBlock);
            if (all) {
                block = data.middleRows(b, e - b);
            } else {
                block.resize(e - b, data.cols());
                for (Eigen::Index i = b; i < e; ++i)
                    block.row(i - b) = data.row(trainingRows[static_cast<std::size_t>(i)]);
            }
            block = transformed(block);
            f.add(block.col(j).data(), static_cast<std::size_t>(e - b));
        }
    return f.value();
}

bool fittedOnRows(const FitResult& r, const Eigen::MatrixXd& X)
{
    // From the fingerprint of all rows, streamed, not from a copy of them.
    const auto fingerprint = r.detector ? normalisedRowsFingerprint(r.normalizer, X) : std::nullopt;
    return fingerprint && r.detector->trainedOn(X.rows(), *fingerprint);
}

Eigen::VectorXd featureContributions(const FitResult& r, const Eigen::MatrixXd& X, int row)
{
    const FeatureAttribution* fa = r.detector ? r.detector->featureAttribution() : nullptr;
    if (!fa || row < 0 || row >= X.rows())
        return {};
    return featureContributions(r, X, row, fittedOnRows(r, X));
}

Eigen::VectorXd featureContributions(const FitResult& r, const Eigen::MatrixXd& X, int row, bool xAreTheTrainingRows)
{
    const FeatureAttribution* fa = r.detector ? r.detector->featureAttribution() : nullptr;
    if (!fa || row < 0 || row >= X.rows())
        return {};
    // The row alone through the normaliser; a training row is left out of its own neighbours (kNN).
    const Eigen::VectorXd xn = r.normalizer.transform(X.row(row)).row(0).transpose();
    return fa->attribute(xn, xAreTheTrainingRows ? row : -1);
}

std::string explainRow(const FitResult& r, const Eigen::MatrixXd& X, Eigen::Index row)
{
    if (!r.detector || row < 0 || row >= X.rows())
        return {};
    try {
        const std::vector<std::string> e = r.detector->explain(r.normalizer.transform(X.row(row)));
        return e.empty() ? std::string() : e.front();
    } catch (const std::exception&) {
        return {};
    }
}

} // namespace olens
