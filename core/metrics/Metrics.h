#pragma once
// Evaluation metrics. Conventions: labels are 0/1 with 1 = outlier = positive class;
// scores are "higher = more outlying". Ties are handled as scikit-learn does: all samples with
// the same score enter the curves together, as one threshold.
#include <Eigen/Core>
#include <vector>

namespace olens {

struct Curve {
    std::vector<double> x;          ///< ROC: FPR; PR: recall
    std::vector<double> y;          ///< ROC: TPR; PR: precision
    std::vector<double> thresholds; ///< score threshold (score >= t is predicted positive)
};

/// ROC curve starting at (0,0), one point per distinct score (decreasing), like
/// sklearn.metrics.roc_curve(drop_intermediate=False) with the leading (0,0) point whose
/// threshold is +inf. Throws DataError when sizes differ.
Curve rocCurve(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels);
/// Area under the ROC curve by the trapezoidal rule; NaN when only one class is present.
double auroc(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels);

/// Precision–recall points in decreasing-threshold order (recall non-decreasing): first the point
/// (recall 0, precision 1) with threshold +inf (the one scikit-learn appends at the end of its
/// reversed arrays), then one point per distinct score, ending at the smallest score (full recall,
/// precision = class balance). scikit-learn's arrays reversed, thresholds padded with +inf.
Curve precisionRecallCurve(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels);
/// Average precision AP = Σ_n (R_n − R_{n−1}) P_n (scikit-learn's average_precision_score);
/// NaN when there is no positive.
double averagePrecision(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels);

/// rocCurve, precisionRecallCurve, auroc and averagePrecision of one ranking from a single sort of
/// the scores (what a view showing all four needs; a million points sort in ~0.1 s each).
struct RankingCurves {
    Curve roc, pr;
    double auroc = 0.0, averagePrecision = 0.0;
};
/// `descending`, when given, is the row order by decreasing score that the caller already has (the
/// GUI's ranking): used instead of a sort when it is one (checked in O(n)), else ignored.
/// `drawTolerance` > 0: the curves as drawn, thinned as the points arrive (metrics/CurveThinner,
/// with their thresholds), never held whole (a 20 M-row result's curves were 1.6 GB for a moment,
/// issue #54); the areas are those of the whole curves all the same.
RankingCurves rankingCurves(const Eigen::VectorXd& scores, const Eigen::VectorXi& labels,
                            const std::vector<int>* descending = nullptr, double drawTolerance = 0.0);

struct Confusion {
    long tp = 0, fp = 0, tn = 0, fn = 0;
};
/// predicted and labels are 0/1 (1 = outlier).
Confusion confusion(const Eigen::VectorXi& predicted, const Eigen::VectorXi& labels);
double precision(const Confusion& c); ///< TP/(TP+FP), 0 when undefined
double recall(const Confusion& c);    ///< TP/(TP+FN), 0 when undefined
double f1(const Confusion& c);        ///< 2PR/(P+R), 0 when undefined
double tnr(const Confusion& c);       ///< TN/N (GODS paper sec. 7.4), 0 when undefined
double npv(const Confusion& c);       ///< TN/(TN+FN) (GODS paper sec. 7.4), 0 when undefined
double f1Bar(const Confusion& c);     ///< 2·TNR·NPV/(TNR+NPV): F1 with the classes swapped

/// Verification (similarity learning): similarity higher = more likely same class; genuine[i]=1
/// for same-class pairs. EER is where the false-accept rate equals the false-reject rate,
/// linearly interpolated between ROC points.
double equalErrorRate(const Eigen::VectorXd& similarity, const Eigen::VectorXi& genuine);
/// Smallest false-negative (false-reject) rate over thresholds whose FPR <= targetFpr.
double fnrAtFpr(const Eigen::VectorXd& similarity, const Eigen::VectorXi& genuine, double targetFpr);

/// Mean squared reconstruction error (ACDT slides): (1/N) Σ ‖x_i − x̂_i‖².
double msre(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Xhat);

} // namespace olens
