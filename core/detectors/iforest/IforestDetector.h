#pragma once
// iforest: Isolation Forest (Liu, Ting, Zhou, "Isolation Forest", ICDM 2008).
// t trees, each grown on a subsample of ψ rows drawn without replacement (alg. 1), splitting on a
// random attribute at a uniform random value between its min and max in the node (alg. 2), up to
// the height limit ⌈log2 ψ⌉. Path length h(x) = edges to the leaf + c(size of the leaf) (alg. 3),
//   c(n) = 2 H(n−1) − 2(n−1)/n,  H(i) ≈ ln i + 0.5772156649  (eq. 1; c(1) = 0, c(2) = 1 as scikit-learn)
//   s(x, ψ) = 2^(−E[h(x)] / c(ψ))                               (eq. 2; higher = more outlying)
// Defaults t = 100, ψ = min(256, n) (sec. 4). Attributes constant within a node are not drawn
// (as scikit-learn's extra-tree splitter); a node whose rows are all identical is a leaf.
#include "detectors/Detector.h"

namespace olens {

struct DetectorInfo;

class IforestDetector : public Detector {
public:
    static DetectorInfo info();
    explicit IforestDetector(ParamSet params);
    bool scaleInvariant() const override { return true; } // ranking unchanged by rescaling a feature

    /// c(n) of eq. 1: the average path length of an unsuccessful BST search among n points.
    static double averagePathLength(double n);

    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;
    std::map<std::string, double> figures() const override;

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    std::optional<double> naturalThreshold() const override;
    std::string constantScoresAdvice() const override
    {
        return "raise psi (the subsample of each tree; auto = min(256, n)): trees of a tiny subsample isolate every row at the same depth";
    }
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    /// One isolation tree as flat arrays; node 0 is the root; feature < 0 marks a leaf.
    struct Tree {
        std::vector<int> feature;
        std::vector<double> split;   // x[feature] <= split goes left
        std::vector<int> left, right;
        std::vector<int> size;       // rows of the subsample reaching a leaf
    };
    double pathLength(const Tree& t, const double* x, Eigen::Index stride) const;
    Eigen::VectorXd meanPathLength(const Eigen::MatrixXd& X) const;

    std::vector<Tree> m_trees;
    int m_psi = 0;
};

} // namespace olens
