#pragma once
// mcd: robust covariance ellipsoid by the Minimum Covariance Determinant (Rousseeuw & Van Driessen,
// "A Fast Algorithm for the Minimum Covariance Determinant Estimator", Technometrics 1999),
// following scikit-learn's MinCovDet:
//   h = ⌈(n + p + 1)/2⌉ rows (support fraction), 30 random h-subsets, 2 C-steps each (sec. 3,
//   theorem 1: the h rows of smallest d²(x) = (x−T)ᵀS⁻¹(x−T) never increase det S), the 10 best
//   iterated to convergence, the lowest determinant kept (raw T, S); p = 1: the exact shortest half.
//   Consistency: d² /= median(d²) / χ²_p(0.5); reweighting: T, S = mean and (1/m-)covariance of the
//   rows with d² < χ²_p(0.975) (sec. 6). Score = d²(x) with the reweighted T, S (higher = more outlying).
// Deviation from FastMCD for n > 500: the random starts run on the whole data instead of nested
// subsets (the same estimator, slower). The starts are random h-subsets, as scikit-learn's (FastMCD's
// (p + 1)-subsets, tried too, reach lower determinants on clustered data — penguins: log det 17.54 vs
// 17.77 — whose subset is one species, AUROC 0.34 instead of 0.96). A C-step into an exact fit (more
// null directions) is not taken, and an exact fit is chosen only when every candidate is one (then
// regularised). Every covariance carries the rounding variance δ²/12 of each column whose values lie
// on a lattice (δ = the lattice step: integer and ordinal data, also after z-scoring; none for
// measured values with many digits): on integer data an h-subset on one or two lattice values is not
// a near-exact fit (Shuttle, raw or z-scored: AUROC 0.73 at seed 0 before, 0.93 at every seed now;
// scikit-learn's MinCovDet 0.93). A covariance still (nearly) flat is reported as
// figures()["null_directions"].
// Fewer rows than the MCD needs (n < p + 2): the regularised MCD (MRCD, Boudt et al. 2020;
// figures()["regularised"] = ρ > 0, and the fit is warned "regularised").
#include "detectors/Detector.h"

namespace olens {

struct DetectorInfo;

class McdDetector : public Detector, public FeatureAttribution {
public:
    static DetectorInfo info();
    explicit McdDetector(ParamSet params);
    bool scaleInvariant() const override { return true; } // ranking unchanged by rescaling a feature

    /// The reweighted robust location T and covariance S (input coordinates): the ellipsoid
    /// {x : (x−T)ᵀS⁻¹(x−T) = threshold()} is the decision boundary.
    const Eigen::VectorXd& location() const;
    const Eigen::MatrixXd& covariance() const;
    /// Upper quantile of the χ² distribution with `dof` degrees of freedom: x with P(χ² > x) = q.
    static double chi2Isf(double q, int dof);

    /// Two ellipsoids {x : (x−T)ᵀS⁻¹(x−T) = r²} (drawn as quadric zero sets; the view draws their
    /// marginal ellipse for p > 3): r² = threshold(), the decision boundary, and r² = χ²_p(0.975),
    /// the reweighting cut-off of sec. 6.
    Geometry geometry() const override;
    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;
    const FeatureAttribution* featureAttribution() const override { return this; }
    /// d² split by feature: c_j = δ_j (S⁻¹δ)_j with δ = z − T (standardised coordinates), Σ_j c_j =
    /// d² = score. A c_j < 0 means feature j makes the point less unusual given the others.
    std::string attributionTotal() const override { return "score"; }
    Eigen::VectorXd attribute(const Eigen::VectorXd& x, int trainingRow = -1) const override;
    std::map<std::string, double> figures() const override;
    /// A recorded fit keeps the winning start's C-steps (sec. 3, theorem 1): step 0 is its random
    /// h-subset, the last the raw MCD; each step's model is that raw estimate made consistent and
    /// reweighted (sec. 6), its loss the raw log det S (never rising). The state also holds
    /// "raw_location_scaled" and "raw_covariance_scaled", the raw T and S of that step.
    std::string historyUnit() const override { return "C-step"; }

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    /// n < p + 2: the regularised MCD (MRCD, Boudt et al. 2020), see McdDetector.cpp.
    Eigen::VectorXd fitRegularised(const Eigen::MatrixXd& X, const Progress& progress);
    std::optional<double> naturalThreshold() const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    Eigen::VectorXd m_location;   // input units (for location()/covariance())
    Eigen::MatrixXd m_covariance;
    Eigen::VectorXd m_offset;     // scoring runs on z = (x − offset) / scale per column
    Eigen::VectorXd m_scale;
    Eigen::VectorXd m_locZ;
    Eigen::MatrixXd m_covZ;
    Eigen::MatrixXd m_precision;  // of m_covZ
    int m_support = 0; // rows in the reweighted support
    int m_h = 0;       // h of the raw MCD
    double m_rho = 0.0; // MRCD's weight on the identity target (0: the MCD itself)
    int m_nullity = 0; // near-null directions of the reweighted covariance (figures()["null_directions"])
};

} // namespace olens
