#pragma once
// Missing-data imputation by Gaussian conditioning (uncertainty-joint-bayesian.txt sec. 5.2.2,
// eq. 28–30): a masked (occluded/missing) block o of a sample is filled with the mean of its
// conditional distribution given the visible block v = a under N(μ, C) learnt on complete
// training rows, and the conditional variances diag(S_o|v=a) become the sample's uncertainty:
//   o|v=a   = μ_o + C_o,v C_v,v⁻¹ (a − μ_v)            (eq. 28)
//   S_o|v=a = C_o,o − C_o,v C_v,v⁻¹ C_v,o              (eq. 29)
// (the paper prints (μ_v − a) and "+": sign typos; these are the standard Gaussian conditionals).
#include <Eigen/Core>

namespace olens {

/// true = the cell is missing.
using MissingMask = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;

/// NaN cells of X (what DataLoader produces with LoadOptions::allowMissing).
MissingMask missingMask(const Eigen::MatrixXd& X);

struct ImputationResult {
    Eigen::MatrixXd X;      ///< masked cells replaced by o|v=a, other cells unchanged
    Eigen::MatrixXd sigma;  ///< sqrt(diag S_o|v=a) on masked cells; elsewhere the given σ (or 0)
    Eigen::Index cells = 0; ///< number of imputed cells
    Eigen::Index rows = 0;  ///< number of rows with at least one imputed cell
};

class GaussianImputer {
public:
    /// ridge: C_v,v is regularised by ridge · mean(diag C) · I before solving (constant features
    /// make C singular; 0 = exact formula).
    explicit GaussianImputer(double ridge = 1e-9) : m_ridge(ridge) {}

    /// Learns μ and C (unbiased, 1/(n−1)) from the rows of X without NaN. DataError when fewer
    /// than 2 complete rows or infinite values.
    void fit(const Eigen::MatrixXd& X);
    const Eigen::VectorXd& mean() const;
    const Eigen::MatrixXd& covariance() const;

    /// Imputes the cells flagged in `mask` (empty: the NaN cells of X). sigma: n×p standard
    /// deviations of the observed cells, or empty. Masked cells of X may hold anything.
    ImputationResult impute(const Eigen::MatrixXd& X, const MissingMask& mask = {},
                            const Eigen::MatrixXd& sigma = {}) const;

private:
    double m_ridge;
    bool m_fitted = false;
    Eigen::VectorXd m_mu;
    Eigen::MatrixXd m_C;
};

} // namespace olens
