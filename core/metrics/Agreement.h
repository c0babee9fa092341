#pragma once
// Agreement between detectors without labels (issue #33): how alike their rankings are (Spearman's
// rank correlation), how much their top-k lists share, and per point how many flag it. Compare
// mode's agreement table, `outlierlens-cli agree` and Python's agreement() use these.
#include <Eigen/Core>
#include <vector>

namespace olens {

/// Mid-ranks (1-based; ties get the mean of the ranks they span).
Eigen::VectorXd midRanks(const Eigen::VectorXd& v);
/// Spearman's rank correlation (Pearson correlation of the mid-ranks); 0 when either is constant.
double spearman(const Eigen::VectorXd& a, const Eigen::VectorXd& b);
/// |top-k(a) ∩ top-k(b)| / k, top-k = the k highest scores (ties broken by the lower row index).
double topOverlap(const Eigen::VectorXd& a, const Eigen::VectorXd& b, Eigen::Index k);

struct AgreementTable {
    Eigen::MatrixXd spearman;   ///< m × m, 1 on the diagonal
    Eigen::MatrixXd topOverlap; ///< m × m, share of the top k in common
    Eigen::VectorXi flaggedBy;  ///< per row: how many of the m detectors' decisions flag it
    Eigen::Index k = 0;
};

/// scores[d], flags[d]: detector d's scores and 0/1 decisions on the same n rows.
AgreementTable agreement(const std::vector<Eigen::VectorXd>& scores, const std::vector<Eigen::VectorXi>& flags,
                         Eigen::Index k);

} // namespace olens
