#pragma once
// kic: the kernelized inverse Christoffel function (Askari, Yang, El Ghaoui, "Kernel-based outlier
// detection using the inverse Christoffel function", eq. 11–18), with the polynomial kernel
// (1 + xᵀy)^d or the RBF kernel exp(−‖x − y‖²/2σ²), ρ = ‖VᵀV‖_F/(C√n) (sec. 4.1), the KIC2 /
// KIC-RBF2 filtering step (eq. 20) and an optional conjugate-gradient (ridge regression, eq. 19)
// solver.
//
// Score: ρ⁻¹φ(ρ) = v(x)ᵀ(ρI + VVᵀ)⁻¹v(x), the lower bound of eq. 11 on q(x) of eq. 9/10; it is
// eq. 18 divided by the constant ρ (same ranking), and it tends to q(x) as ρ → 0.
#include "detectors/Detector.h"

#include <memory>

namespace olens {

struct DetectorInfo;

class KicDetector : public Detector {
public:
    static DetectorInfo info();
    explicit KicDetector(ParamSet params);
    ~KicDetector() override;

    /// rho, sigma (rbf), fit_points (⌊αn⌋ after filtering, else n), training_points, and with
    /// solver=cg cg_iterations / cg_unconverged.
    std::map<std::string, double> figures() const override;

    /// Largest number of fit points (the n×n kernel matrix: 20000 → 3.2 GB).
    static constexpr long maxFitPoints = 20000;

    struct Model; // opaque: kernel, fit points, ρ, factorisation (KicDetector.cpp)

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    std::unique_ptr<Model> m_model;
    Eigen::Index m_trainingRows = 0;
};

} // namespace olens
