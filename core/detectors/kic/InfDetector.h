#pragma once
// inf: the influence score of Lucic, Bachem & Krause (2016, "Linear-time outlier detection via
// sensitivity"), the KIC paper's INF baseline (sec. 4.1): an upper bound on each point's
// sensitivity for k-means, from a D²-sampled (k-means++) solution B,
//   s(x) = α·d(x,B)²/c_φ + 2α·Σ_{x'∈B_x} d(x',B)² / (|B_x|·c_φ) + 4|X|/|B_x|,
//   α = 16(log k + 2),  c_φ = (1/|X|) Σ_x d(x,B)²,
// averaged over k ∈ ∪_{i=1..15} {⌊K/i⌋}, K = min(500, 0.8n) (KIC paper sec. 4.1).
#include "detectors/Detector.h"

#include <vector>

namespace olens {

struct DetectorInfo;

class InfDetector : public Detector {
public:
    static DetectorInfo info();
    explicit InfDetector(ParamSet params) : Detector(std::move(params)) {}

    /// k_values (how many k were averaged), k_largest, k_smallest.
    std::map<std::string, double> figures() const override;

    /// One k-means solution and the statistics the influence needs.
    struct Clustering {
        int k = 0;
        Eigen::MatrixXd centers;   ///< k×p
        Eigen::VectorXd cost;      ///< per centre: Σ d(x', B)² over its cluster B_x
        Eigen::VectorXd size;      ///< per centre: |B_x|
        double cphi = 0;           ///< c_φ = (1/n) Σ d(x, B)²
        double n = 0;              ///< |X|
    };
    const std::vector<Clustering>& clusterings() const { return m_clusterings; }

    /// The distinct k = ⌊min(kMax, 0.8n)/i⌋ ≥ 1, i = 1..count, largest first.
    static std::vector<int> kValues(Eigen::Index n, int kMax, int count);
    /// s(x) of one clustering for the rows of X (new points use the training statistics).
    static Eigen::VectorXd influence(const Clustering& c, const Eigen::MatrixXd& X);

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    std::vector<Clustering> m_clusterings;
};

} // namespace olens
