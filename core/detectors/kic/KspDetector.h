#pragma once
// ksp: sampling-based outlier score of Sugiyama & Borgwardt (2013) as used in the KIC paper
// (sec. 4.1 "KSP"/"KSP2"): the distance to the nearest point of a random sample S of the training
// data (|S| = 20), optionally averaged over several samples, and the KSP2 filtering step.
#include "detectors/Detector.h"

#include <vector>

namespace olens {

struct DetectorInfo;

class KspDetector : public Detector {
public:
    static DetectorInfo info();
    explicit KspDetector(ParamSet params) : Detector(std::move(params)) {}

    /// sample_size (effective |S|), repeats, fit_points (|X'| after KSP2 filtering, else n).
    std::map<std::string, double> figures() const override;

    /// The final samples S_r (or S'_r after filtering), one matrix of rows per repeat.
    const std::vector<Eigen::MatrixXd>& samples() const { return m_samples; }

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    std::vector<Eigen::MatrixXd> m_samples;
    Eigen::Index m_fitPoints = 0;
};

} // namespace olens
