#pragma once
// gods / bods: Generalized One-class Discriminative Subspaces (Cherian & Wang, GODS paper).
//   gods (eq. 10): two orthonormal frames W1, W2 ∈ St(d, K) with biases b1, b2 ∈ ℝ^K that sandwich
//     the data: min_k(W1ᵀx + b1) ≥ η and max_k(W2ᵀx + b2) ≤ −η (squared hinge, weight ν), while
//     pulling both frames towards the data (first term of eq. 10).
//   bods (eq. 4): one hyperplane pair (w1, b1), (w2, b2) on the unit sphere, coupling −w1ᵀw2 and
//     α(b1, b2) = (b1 − b2)² − 2(b1 − b2).
// Both are trained by Riemannian conjugate gradient (sec. 6.1, core/Riemannian.h) on
// St(d,K)² × ℝ^K × ℝ^K (bods: K = 1, St(d,1) = the unit sphere).
//
// Decision rule (eq. 23): x is in-class iff min(W1ᵀx + b1) ≥ η and max(W2ᵀx + b2) ≤ −η.
// Continuous score (our choice, for rankings and contours): the larger of the two margin
// violations, s(x) = max(η − min_k(W1ᵀx + b1)_k, η + max_k(W2ᵀx + b2)_k). s ≤ 0 exactly when
// eq. 23 holds, so isOutlier = (s > 0) and threshold() = 0; higher s = further outside the sandwich.
// The paper works on L2-normalised inputs (sec. 4.1.1, 7.3): DetectorInfo::normalization = "l2".
#include "Detector.h"

namespace olens {

struct DetectorInfo;

class GodsDetector : public Detector {
public:
    static DetectorInfo info();
    explicit GodsDetector(ParamSet params) : Detector(std::move(params)) {}

    std::string id() const override { return "gods"; }
    Geometry geometry() const override;
    std::map<std::string, double> figures() const override;
    /// "W1 plane k short of η by v" / "inside the sandwich (margin m)".
    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;

    const Eigen::MatrixXd& W1() const { return m_W1; }
    const Eigen::MatrixXd& W2() const { return m_W2; }
    const Eigen::VectorXd& b1() const { return m_b1; }
    const Eigen::VectorXd& b2() const { return m_b2; }
    /// Objective per iteration of the last fit (index 0 = the initial point).
    const std::vector<double>& lossHistory() const { return m_lossHistory; }
    const std::vector<double>& gradNormHistory() const { return m_gradHistory; }

    /// Objective (eq. 10, or eq. 4 for bods) and its Euclidean gradients at (W1, W2, b1, b2) on
    /// the rows of X; gradients are written when the pointers are non-null.
    static double objective(bool bods, const Eigen::MatrixXd& X, const Eigen::MatrixXd& W1,
                            const Eigen::MatrixXd& W2, const Eigen::VectorXd& b1, const Eigen::VectorXd& b2,
                            double nu, double eta, Eigen::MatrixXd* gW1 = nullptr, Eigen::MatrixXd* gW2 = nullptr,
                            Eigen::VectorXd* gb1 = nullptr, Eigen::VectorXd* gb2 = nullptr);

protected:
    /// bods = true: the eq. 4 objective with K = 1.
    GodsDetector(ParamSet params, bool bods) : Detector(std::move(params)), m_bods(bods) {}

    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    Eigen::VectorXi doIsOutlier(const Eigen::MatrixXd& X) const override;
    double doThreshold(const Eigen::VectorXd& trainingScores) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

    int hyperplanes() const;

private:
    bool m_bods = false;
    Eigen::MatrixXd m_W1, m_W2; // d×K, orthonormal columns
    Eigen::VectorXd m_b1, m_b2; // K
    double m_eta = 0.0;
    double m_objective = 0.0, m_gradNorm = 0.0;
    int m_iterations = 0;
    std::string m_stopReason;
    std::vector<double> m_lossHistory, m_gradHistory;
};

/// bods: the basic pair of hyperplanes on the unit sphere (eq. 4).
class BodsDetector : public GodsDetector {
public:
    static DetectorInfo info();
    explicit BodsDetector(ParamSet params) : GodsDetector(std::move(params), true) {}
    std::string id() const override { return "bods"; }
};

} // namespace olens
