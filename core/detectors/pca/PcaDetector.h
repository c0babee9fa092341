#pragma once
// pca: distance to the affine k-dimensional principal subspace (quadrics paper eq. 2,
// applied to the centred cloud).
#include "detectors/Detector.h"

namespace olens {

struct DetectorInfo;

class PcaDetector : public Detector, public FeatureAttribution {
public:
    static DetectorInfo info();
    explicit PcaDetector(ParamSet params) : Detector(std::move(params)) {}

    Geometry geometry() const override;
    std::map<std::string, double> figures() const override;
    /// "residual r off the k-dim subspace; coordinate t along PC1".
    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;

    const FeatureAttribution* featureAttribution() const override { return this; }
    /// Squared residual per feature, r_j² with r = c − V Vᵀc (eq. 2); Σ_j r_j² = score².
    std::string attributionTotal() const override { return "score²"; }
    Eigen::VectorXd attribute(const Eigen::VectorXd& x, int trainingRow = -1) const override;

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    Eigen::VectorXd m_mean;      // p
    Eigen::MatrixXd m_basis;     // p×k, orthonormal columns v_1..v_k
    Eigen::VectorXd m_lower, m_upper; // extent of training coordinates along v_j (for drawing)
    Eigen::VectorXd m_variances; // all p eigenvalues (for the explained-variance figure)
};

} // namespace olens
