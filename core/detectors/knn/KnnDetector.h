#pragma once
// knn: the distance to the k-th nearest training neighbour (KIC paper sec. 4.1 baseline "KNN", k=5).
#include "detectors/Detector.h"

#include <memory>

namespace olens {

struct DetectorInfo;
class PointIndex;

class KnnDetector : public Detector, public FeatureAttribution, public MemorisedRows, public NeighbourDistances {
public:
    static DetectorInfo info();
    explicit KnnDetector(ParamSet params);
    ~KnnDetector() override;

    /// "k-th neighbour: sample j at distance d" (training rows exclude themselves, as the scores).
    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;

    const FeatureAttribution* featureAttribution() const override { return this; }
    /// Squared difference per feature to the k-th neighbour (the one whose distance is the score);
    /// Σ_j = score². A training row leaves itself out, as its training score does.
    std::string attributionTotal() const override { return "score²"; }
    Eigen::VectorXd attribute(const Eigen::VectorXd& x, int trainingRow = -1) const override;

    const MemorisedRows* memorisedRows() const override { return this; }
    std::string rowsKey() const override { return "points"; }
    nlohmann::json stateWithoutRows() const override;

    const NeighbourDistances* neighbourDistances() const override { return this; }
    /// j = k: the training scores; j = kReferenceNeighbour: from the fit's search (not after a load).
    Eigen::VectorXd trainingNeighbourDistance(int j) const override;
    /// "neighbours": k (FitDiagnostics warns when it is half the rows or more).
    std::map<std::string, double> figures() const override;

    /// Distances and indices of the k nearest training points of each row (ascending distance).
    void neighbours(const Eigen::MatrixXd& X, int k, Eigen::MatrixXd& dist, Eigen::MatrixXi& index) const;

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    int minSamples() const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    std::unique_ptr<PointIndex> m_index; // training points + kd-tree
    Eigen::VectorXd m_reference;         // kReferenceNeighbour-th distance of each training row, or empty
};

} // namespace olens
