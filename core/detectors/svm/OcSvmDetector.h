#pragma once
// ocsvm: the one-class SVM (Schölkopf, Platt, Shawe-Taylor, Smola, Williamson, "Estimating the
// support of a high-dimensional distribution", Neural Computation 2001, eq. 3–4), trained by libsvm
// (Debian libsvm-dev, the solver behind scikit-learn's OneClassSVM): the GODS paper's baseline.
//   f(x) = Σ_i α_i k(x_i, x) − ρ,   score(x) = −f(x) = ρ − Σ_i α_i k(x_i, x)   (higher = more outlying)
// The ν-property (prop. 4): at most a fraction ν of the training points lie outside (f < 0) and at
// least ν are support vectors. With the rbf kernel (k(x, x) = 1) the dual is the SVDD's (Tax & Duin
// 2004), so this is also the SVDD baseline of the GODS paper. Scores are computed here from the
// stored support vectors (libsvm only trains); training cannot be cancelled inside libsvm.
#include "detectors/Detector.h"

namespace olens {

struct DetectorInfo;

class OcSvmDetector : public Detector {
public:
    static DetectorInfo info();
    explicit OcSvmDetector(ParamSet params) : Detector(std::move(params)) {}

    /// support_vectors, rho, gamma (rbf/poly), fraction_outside (training points with f < 0).
    std::map<std::string, double> figures() const override;

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    std::optional<double> naturalThreshold() const override;
    std::string constantScoresAdvice() const override
    {
        return "lower gamma (0 chooses 1/(p·variance) from the data): with a very large gamma every row is its own island";
    }
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    Eigen::MatrixXd kernel(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const;

    Eigen::MatrixXd m_sv;    // support vectors (rows)
    Eigen::VectorXd m_alpha; // their dual coefficients α_i (Σ α_i = 1 in libsvm's scaling × ν·l)
    double m_rho = 0.0, m_gamma = 1.0, m_coef0 = 0.0;
    int m_degree = 3;
    std::string m_kernel = "rbf";
    double m_outside = 0.0;
};

} // namespace olens
