#pragma once
// Quadric hypersurface intersection (Pavutnitskiy et al., "Quadric Hypersurface Intersection for
// Manifold Learning in Feature Space"; equation numbers below refer to that paper):
//
//   quadrics       Q-FULL: m quadrics f_k(x) = xᵀA_k x + b_kᵀx + c_k fitted by minibatch stochastic
//                  optimisation of the l1 sum of 2-distances (eq. 8, 14) with the soft
//                  Hilbert–Schmidt orthonormality penalty λ‖ṼᵀṼ − I‖² (eq. 15); score eq. 16.
//   quadrics-base  Q-BASE: problem (7) (algebraic distance, Euclidean orthonormal coefficient
//                  vectors) solved exactly as non-centred PCA of the degree-2 feature map φ (eq. 20):
//                  the m eigenvectors of the smallest eigenvalues of the D×D moment matrix (App. A.1–A.2).
//
// Plus the pieces the rest of the app reuses: the distances of sec. 4.1–4.2 for one quadric, the HS
// inner product (eq. 12), composition with a rigid motion (App. A.6), the similarity robustification
// (eq. 17), and the spectra that guide the choice of m (App. B.4).
#include "detectors/Detector.h"

#include <memory>
#include <vector>

namespace olens {

struct DetectorInfo;

/// Approximations of the distance from a point to the zero set Z(f) of one quadric.
enum class QuadricDistance {
    D2,        ///< 2-distance, eq. 8 (= eq. 29): (√(h² + |f|·‖f‖_HS) − h)/‖f‖_HS, h = ‖∇f‖/2
    D1,        ///< 1-distance, sec. 4.2: |f|/‖∇f‖ (infinite where ∇f = 0)
    Algebraic  ///< algebraic distance, sec. 4.1: |f|
};
/// "d2" | "d1" | "algebraic"; throws ParamError otherwise.
QuadricDistance parseQuadricDistance(const std::string& name);

/// f(p) = pᵀAp + bᵀp + c.
double evaluateQuadric(const Quadric& f, const Eigen::VectorXd& p);
/// The chosen distance approximation from p to Z(f). d2 is computed in the cancellation-free form
/// |f| / (√(h² + |f|·‖f‖_HS) + h), which equals eq. 8 and tends to d1 as ‖f‖_HS → 0.
double quadricDistance(const Quadric& f, const Eigen::VectorXd& p, QuadricDistance kind = QuadricDistance::D2);
/// ⟨f, g⟩_HS = Σ_ij A_ij B_ij (eq. 12); a seminorm that ignores b and c.
double hsInner(const Quadric& f, const Quadric& g);
/// f∘θ for the isometry θ(x) = Qx + v (App. A.6): A' = QᵀAQ, b' = Qᵀ(2Av + b), c' = vᵀAv + bᵀv + c.
Quadric composeWithIsometry(const Quadric& f, const Eigen::MatrixXd& Q, const Eigen::VectorXd& v);

/// The Q-FULL objective on a set of points in the parametrisation that is optimised:
/// θ = [ṽ(f_1); b_1; c_1; …; ṽ(f_m); b_m; c_m], each block of D = T + d + 1 entries, where
/// ṽ(f) ∈ R^T, T = d(d+1)/2, holds the HS-weighted quadratic coefficients of sec. 4.3 (row-major upper
/// triangle: A_ii, then √2·A_ij = α_ij/√2 off the diagonal), so that ⟨f,g⟩_HS = ⟨ṽ(f), ṽ(g)⟩.
///   loss(θ) = (1/|B|) Σ_{j∈B} Σ_k dist(p_j, Z(f_k))  +  λ ‖ṼᵀṼ − I‖²_F        (eq. 14–15)
/// The data term is averaged over the minibatch B (as the authors' implementation does), i.e. eq. 15
/// divided by n with λ per point; the minimiser of the hard-constrained problem (14) is unchanged.
class QuadricsObjective {
public:
    QuadricsObjective(int dim, int quadrics, QuadricDistance distance, double lambda);

    static int hsSize(int dim) { return dim * (dim + 1) / 2; }      ///< T
    static int blockSize(int dim) { return hsSize(dim) + dim + 1; } ///< D = (d² + 3d)/2 + 1 (sec. 4.1)
    Eigen::Index parameterCount() const { return static_cast<Eigen::Index>(blockSize(m_d)) * m_m; }

    /// Data term averaged over the rows of P (B×d) and, when grad is given, its gradient (overwrites
    /// grad, sized to parameterCount()). When dist is given it receives the B×m distances.
    double dataTerm(const Eigen::VectorXd& theta, const Eigen::MatrixXd& P, Eigen::VectorXd* grad = nullptr,
                    Eigen::MatrixXd* dist = nullptr) const;
    /// The same in mixed precision: the products and distances of the minibatch in 32-bit floats
    /// (twice the SIMD width, half the memory traffic), θ and the gradient in 64-bit. What a
    /// minibatch step needs: its gradient is an estimate anyway (agrees with dataTerm to ~1e-5).
    double dataTerm(const Eigen::VectorXd& theta, const Eigen::MatrixXf& P, Eigen::VectorXd* grad = nullptr) const;
    /// ‖ṼᵀṼ − I‖²_F (eq. 15) and, when grad is given, its gradient 4Ṽ(ṼᵀṼ − I): overwrites grad, or
    /// with gradWeight ≠ 0 adds gradWeight times it to grad (sized to parameterCount()).
    double orthonormalityError(const Eigen::VectorXd& theta, Eigen::VectorXd* grad = nullptr,
                               double gradWeight = 0.0) const;
    /// dataTerm + λ·orthonormalityError, gradient overwritten when given.
    double loss(const Eigen::VectorXd& theta, const Eigen::MatrixXd& P, Eigen::VectorXd* grad = nullptr) const;
    /// dataTerm in mixed precision + λ·orthonormalityError (64-bit).
    double loss(const Eigen::VectorXd& theta, const Eigen::MatrixXf& P, Eigen::VectorXd* grad = nullptr) const;
    /// n×m distances of the rows of X (computed in chunks).
    Eigen::MatrixXd distances(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const;

    /// Converts between θ and quadrics (in the coordinates θ refers to).
    std::vector<Quadric> toQuadrics(const Eigen::VectorXd& theta) const;
    Eigen::VectorXd fromQuadrics(const std::vector<Quadric>& quadrics) const;

    /// Symmetric d×d matrix from HS coordinates and back (the isometry ṽ of sec. 4.3).
    static Eigen::MatrixXd hsToMatrix(const Eigen::Ref<const Eigen::VectorXd>& v, int dim);
    /// HS coordinates of the symmetric part of M.
    static Eigen::VectorXd matrixToHs(const Eigen::MatrixXd& M);

private:
    int m_d, m_m;
    QuadricDistance m_distance;
    double m_lambda;
    // Scratch buffers reused across calls (so one objective must not be used from two threads at once).
    template <typename S>
    struct Workspace {
        Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> Astack, W, F, GN, phiF, phiG, GA;
        Eigen::Matrix<S, Eigen::Dynamic, 1> N, phiN, totals;
    };
    std::shared_ptr<Workspace<double>> m_ws;
    std::shared_ptr<Workspace<float>> m_wsSingle;
    template <typename Matrix>
    double lossWith(const Eigen::VectorXd& theta, const Matrix& P, Eigen::VectorXd* grad) const;
    template <typename S>
    double dataTermIn(const Eigen::VectorXd& theta, const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>& P,
                      Eigen::VectorXd* grad, Eigen::MatrixXd* dist, Workspace<S>& ws) const;
};

/// quadrics (Q-FULL), eq. 14–16.
class QuadricsDetector : public Detector {
public:
    static DetectorInfo info();
    std::string historyUnit() const override { return "epoch"; }
    explicit QuadricsDetector(ParamSet params) : Detector(std::move(params)) {}

    Geometry geometry() const override;
    /// quadrics (m), final_loss (eq. 15 per point, over all training points at the end),
    /// mean_distance_sum (its data term), orthonormality_error ‖ṼᵀṼ − I‖², epochs_run. Losses are in
    /// the normalised coordinates the optimisation runs in (unit RMS radius about the mean).
    std::map<std::string, double> figures() const override;

    /// The fitted quadrics in the coordinates of the data given to fit (A_k with ‖A_k‖_HS ≈ 1).
    std::vector<Quadric> quadrics() const;
    /// n×m distances (the chosen approximation) from the rows of X to each quadric.
    Eigen::MatrixXd distances(const Eigen::MatrixXd& X) const;
    /// Loss (data term + λ·penalty, see QuadricsObjective) after each epoch of the last fit.
    const std::vector<double>& lossHistory() const { return m_history; }

    /// m when the parameter is 0 (auto): p − 1 — each quadric removes one dimension (sec. 4), so p − 1
    /// quadrics cut out a curve, as for the seam in 3D — at least 1 and at most 50 (the cost grows as m·p²).
    static int autoQuadrics(int p);
    /// Eigenvalues of the D×D moment matrix (1/n) Σ φ(p_j)φ(p_j)ᵀ of the degree-2 feature map φ
    /// (eq. 20), ascending. The k-th smallest is the mean of f² over the data for the best k-th
    /// quadric of problem (7) (eq. 22, 25): a sharp rise after the m-th suggests m quadrics (App. B.4).
    static Eigen::VectorXd momentSpectrum(const Eigen::MatrixXd& X);
    /// App. B.4: −log(λ_i/λ_1) for the PCA (covariance) eigenvalues λ_1 ≥ … ≥ λ_p of X. If the data
    /// look (p − k)-dimensional, k may serve as the number of quadrics.
    static Eigen::VectorXd pcaLogDecay(const Eigen::MatrixXd& X);

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    // Training runs in normalised coordinates y = (x − μ)/s (s = RMS distance to the mean), a
    // similarity under which problem (14) is equivariant; the quadrics are mapped back for output.
    Eigen::VectorXd m_mean;
    double m_scale = 1.0;
    int m_m = 0;
    Eigen::VectorXd m_theta; // θ in normalised coordinates
    std::vector<double> m_history;
    double m_dataTerm = 0.0, m_orthoError = 0.0;
};

/// quadrics-base (Q-BASE), eq. 7 solved exactly (App. A.1–A.2).
///
/// `dims` (default auto): problem (7) has D = (k+1)(k+2)/2 unknowns per quadric in k dimensions and
/// its moment matrix needs many rows per monomial to be estimated; with few (n < D: quadrics through
/// every point; n a few times D: the smallest eigenvectors fit the densest rows, e.g. WBC 569 × 30,
/// D = 496: AUROC 0.21, inliers ranked as outliers) the minor eigenvectors follow sampling noise.
/// auto = the largest k ≤ p with D(k) ≤ n/10 (ten rows per monomial); k < p fits the quadrics to
/// the coordinates on the first k principal axes (centred), so each is a quadric cylinder in input
/// space (quadrics() maps them back). 0 = all p features, as in the paper.
/// `weights` (default unit): problem (7) weighted by 1/‖φ(p_j)‖², i.e. the moment matrix of the unit
/// vectors φ(p_j)/‖φ(p_j)‖. With the plain sum a few far points carry most of the degree-4 moments and
/// the smallest eigenvectors pass through them (15 points 6σ out of a 12-D Gaussian: AUROC 0.00;
/// WBC 0.21); `none` is the paper's sum. Either way the score is ‖Vᵀφ(p)‖ (eq. 22, 25).
class QuadricsBaseDetector : public Detector {
public:
    static DetectorInfo info();
    explicit QuadricsBaseDetector(ParamSet params) : Detector(std::move(params)) {}
    /// The auto rule of `dims`: largest k in [1, p] with (k+1)(k+2)/2 ≤ n/10 (1 when none).
    static int autoDims(Eigen::Index n, int p);

    Geometry geometry() const override;
    std::map<std::string, double> figures() const override;

    /// The m quadrics whose coefficient vectors v(f_k) (eq. 6) are orthonormal eigenvectors, in input
    /// coordinates (for dims < p: f_k(Pᵀ(x − μ)) written out as one quadric in x). Throws when those
    /// m dense p×p matrices exceed a quarter of the memory budget (wide data; geometry() is then empty).
    std::vector<Quadric> quadrics() const;
    bool quadricsFitInMemory() const;
    /// Coefficient vectors v(f_k) as columns (D×m), ordered as φ of eq. 20 of the fitted coordinates.
    const Eigen::MatrixXd& coefficients() const { return m_V; }
    /// Eigenvalues of the moment matrix, ascending (see QuadricsDetector::momentSpectrum).
    const Eigen::VectorXd& spectrum() const { return m_eigenvalues; }

    /// φ(p) of eq. 20: (p_i p_j for i ≤ j row-major, p_1..p_d, 1) for every row of X (n×D).
    static Eigen::MatrixXd featureMap(const Eigen::MatrixXd& X);

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    /// The coordinates problem (7) is solved in: X itself, or Pᵀ(x − μ) when dims < p.
    Eigen::MatrixXd fitCoordinates(const Eigen::MatrixXd& X) const;

    Eigen::VectorXd m_mean;         // μ (empty: no projection)
    Eigen::MatrixXd m_axes;         // P, p×k orthonormal principal axes (empty: no projection)
    Eigen::MatrixXd m_V;            // D×m
    Eigen::VectorXd m_eigenvalues;  // D, ascending
    int m_nullSpace = 0;            // eigenvalues at rounding level skipped (quadrics through every point)
};

} // namespace olens
