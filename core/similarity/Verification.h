#pragma once
// Pair verification with a Joint Bayesian model (uncertainty-joint-bayesian.txt sec. 5): train on
// one labelled set, score pairs of another by LR (eq. 13), report EER (sec. 5.1) and the FNR at
// FPR = 0.1 % (sec. 5.2). Shared by the CLI's `verify` and the GUI's ROC/DET view.
#include "data/Dataset.h"
#include "similarity/JointBayesian.h"
#include "base/Progress.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace olens {

using IndexPairs = std::vector<std::pair<Eigen::Index, Eigen::Index>>;

/// All pairs i < j of n samples when there are at most maxPairs of them, otherwise maxPairs
/// distinct pairs drawn uniformly without replacement (seeded; Floyd's algorithm). Sorted.
IndexPairs verificationPairs(Eigen::Index n, long long maxPairs, std::uint64_t seed);

struct VerificationOptions {
    JointBayesianParams model;
    long long maxPairs = 200000; ///< cap on the number of test pairs
    std::uint64_t seed = 0;      ///< for the pair sample
};

struct VerificationResult {
    double eer = 0.0;          ///< equal error rate
    double fnrAtFpr001 = 0.0;  ///< FNR at FPR <= 0.1 %
    double auc = 0.0;          ///< area under the ROC (genuine = positive, similarity as score)
    long long totalPairs = 0;  ///< n(n−1)/2 of the test set
    bool sampled = false;      ///< pairs were sampled (totalPairs > maxPairs)
    long long genuinePairs = 0;
    double fitSeconds = 0.0, scoreSeconds = 0.0;
    int dim = 0;               ///< latent dimension used
    IndexPairs pairs;          ///< test row pairs
    Eigen::VectorXd similarity;///< LR per pair
    Eigen::VectorXi genuine;   ///< 1 = same class
    JointBayesian model;       ///< the fitted model
};

/// train/test need class labels; feature names must agree; sigma optional in either.
VerificationResult runVerification(const Dataset& train, const Dataset& test, const VerificationOptions& options,
                                   const ProgressCallback& progress = {});

} // namespace olens
