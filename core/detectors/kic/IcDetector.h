#pragma once
// ic: the (non-kernelized) inverse Christoffel function of Pauwels and Lasserre as written in the
// KIC paper, q(x) = v(x)ᵀ M⁻¹ v(x) with the explicit moment matrix M = (1/n) Σ v(x_i) v(x_i)ᵀ
// (KIC paper eq. 4, 6, 9). Also home of MonomialBasis, the feature map v of eq. 4, which `kic`
// uses for its primal evaluation of the polynomial kernel.
#include "detectors/Detector.h"

#include <vector>

namespace olens {

struct DetectorInfo;

/// The feature map of the degree-d polynomial kernel (KIC paper eq. 4–5):
/// v(x) = (√C(α) x^α)_{|α|≤d}, C(α) = d! / ((d−|α|)! α_1! ··· α_p!), so v(x)ᵀv(y) = (1 + xᵀy)^d.
/// Monomials are listed by degree, then lexicographically by their (non-decreasing) variable list.
class MonomialBasis {
public:
    MonomialBasis() = default;
    /// Throws ParamError when s = C(p+d, d) exceeds maxSize (checked before anything is allocated).
    MonomialBasis(int p, int d, double maxSize);

    /// s = C(p+d, d) as a double (never overflows; may be astronomically large).
    static double count(int p, int d);

    Eigen::Index size() const { return static_cast<Eigen::Index>(m_parent.size()); }

    /// Rows of X (m×p) → rows of v(x) (m×s).
    Eigen::MatrixXd evaluate(const Eigen::MatrixXd& X) const;

private:
    // Monomial j > 0 equals monomial parent[j] times x_{var[j]} (parent[0] = -1: the constant 1).
    std::vector<int> m_parent, m_var;
    std::vector<double> m_scale;
};

class IcDetector : public Detector {
public:
    static DetectorInfo info();
    explicit IcDetector(ParamSet params) : Detector(std::move(params)) {}
    bool scaleInvariant() const override { return true; } // ranking unchanged by rescaling a feature

    std::map<std::string, double> figures() const override;

    /// Largest moment matrix size s accepted (s×s doubles; 5000 → 200 MB).
    static constexpr double maxMomentSize = 5000;

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    struct Model {
        MonomialBasis basis;
        Eigen::MatrixXd X; // n×p training points (the model is rebuilt from them on load)
        Eigen::MatrixXd L; // lower Cholesky factor of M (eq. 6)
        double rcond = 0;
    };
    static Model build(const Eigen::MatrixXd& X, int degree, const Progress* progress);
    static Eigen::VectorXd evaluate(const Model& m, const Eigen::MatrixXd& X, const Progress* progress = nullptr);

    Model m_model;
};

} // namespace olens
