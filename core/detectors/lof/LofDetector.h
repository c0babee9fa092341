#pragma once
// lof: Local Outlier Factor (Breunig, Kriegel, Ng, Sander, "LOF: Identifying Density-Based Local
// Outliers", SIGMOD 2000), as scikit-learn's LocalOutlierFactor computes it:
//   reach-dist_k(x, o) = max(k-distance(o), d(x, o))                          (def. 5)
//   lrd_k(x) = 1 / (mean_{o ∈ N_k(x)} reach-dist_k(x, o) + 1e-10)             (def. 6; 1e-10 as scikit-learn)
//   LOF_k(x) = mean_{o ∈ N_k(x)} lrd_k(o) / lrd_k(x)                          (def. 7)
// Training rows exclude themselves from N_k (scikit-learn's negative_outlier_factor_, negated);
// new rows are scored against the training set (scikit-learn's novelty=True score_samples, negated).
// Score = max_{MinPts = k_min … k} LOF_MinPts, the paper's sec. 7 heuristic ("rank by the maximum LOF
// over a range of MinPts", lower bound about 10): default 10 … 20. k_min = 0 (or ≥ k) is the single
// LOF_k that scikit-learn computes.
#include "detectors/Detector.h"

#include <memory>

namespace olens {

struct DetectorInfo;

class LofDetector : public Detector, public MemorisedRows, public NeighbourDistances {
public:
    static DetectorInfo info();
    explicit LofDetector(ParamSet params);
    ~LofDetector() override;

    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;
    std::map<std::string, double> figures() const override;

    const MemorisedRows* memorisedRows() const override { return this; }
    std::string rowsKey() const override { return "points"; }
    nlohmann::json stateWithoutRows() const override;

    const NeighbourDistances* neighbourDistances() const override { return this; }
    /// j = kReferenceNeighbour from the fit's neighbour lists when k ≥ 40 and k_min > 40, and j = k_min … k from
    /// the stored k-distances (a loaded model has those too); else empty.
    Eigen::VectorXd trainingNeighbourDistance(int j) const override;

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    std::optional<double> naturalThreshold() const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    struct Model;
    std::unique_ptr<Model> m_model; // training points + kd-tree, k-distances, lrd
    /// Neighbours of each row of X among the training points (k of them, ascending distance).
    void neighbours(const Eigen::MatrixXd& X, Eigen::MatrixXd& dist, Eigen::MatrixXi& index) const;
};

} // namespace olens
