#include "detectors/kic/KicDetector.h"

#include "base/BlasThreads.h"

#include "base/Errors.h"
#include "base/Stats.h"
#include "detectors/kic/IcDetector.h"
#include "detectors/DetectorInfo.h"
#include "linalg/BlockedCholesky.h"
#include "linalg/KernelFunction.h"
#include "linalg/SpdSolvers.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <sstream>
#include <Eigen/Dense>

namespace olens {

namespace {

// ---------------------------------------------------------------------------------------------
// Progress: a fraction range of the whole fit plus a throttle (a report at most every ~20 ms,
// which is also well within the 50 ms the cancel button needs).

using ReportFn = std::function<void(double, const std::string&)>;

class Ticker {
public:
    Ticker() = default;
    Ticker(ReportFn fn, double f0, double f1, std::string message)
        : m_fn(std::move(fn)), m_f0(f0), m_f1(f1), m_message(std::move(message))
    {
    }
    /// frac in [0,1] within this ticker's range.
    void operator()(double frac) const
    {
        if (!m_fn)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (frac < 1.0 && now - m_last < std::chrono::milliseconds(20))
            return;
        m_last = now;
        m_fn(m_f0 + (m_f1 - m_f0) * std::clamp(frac, 0.0, 1.0), m_message);
    }
    Ticker sub(double a, double b, std::string message) const
    {
        return Ticker(m_fn, m_f0 + (m_f1 - m_f0) * a, m_f0 + (m_f1 - m_f0) * b, std::move(message));
    }

private:
    ReportFn m_fn;
    double m_f0 = 0, m_f1 = 1;
    std::string m_message;
    mutable std::chrono::steady_clock::time_point m_last{};
};

/// Queries per block when scoring (an n'×block kernel block of at most 16 MB; the triangular
/// solve stays matrix–matrix).
Eigen::Index queryBlock(Eigen::Index n)
{
    return std::clamp<Eigen::Index>(2'000'000 / std::max<Eigen::Index>(1, n), 64, 1024);
}

constexpr double primalMaxSize = 3000;
/// Above this many fit points the exact dual path (an n'×n' kernel matrix, n'³/3 flops) gives way:
/// `landmarks` auto picks the Nyström path (or the primal one for a small polynomial basis).
/// 6000 rows: 288 MB and about 7·10¹⁰ flops, a few seconds on two cores.
constexpr Eigen::Index exactMaxRows = 6000;
/// Landmarks of the automatic Nyström path from a work budget: the fit costs about 4n'm² flops,
/// so m = √(2·10¹⁰/n') keeps it near 10¹¹ flops (seconds on two cores), within [500, 2000].
int autoLandmarks(Eigen::Index n)
{
    const double m = std::sqrt(2e10 / static_cast<double>(std::max<Eigen::Index>(1, n)));
    return static_cast<int>(std::clamp(m, 500.0, 2000.0));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The fitted model

struct KicDetector::Model {
    KernelFunction kernel;
    Eigen::MatrixXd X; // n'×p fit points
    double rho = 0;    // ρ = ‖VᵀV‖_F/(C√n') (sec. 4.1)
    double lambda = 0; // n'ρ: (ρI + G)⁻¹ = n'(K + n'ρI)⁻¹ with G = VᵀV = K/n' (eq. 7, 16)
    bool cg = false;
    Eigen::MatrixXd F; // cholesky: lower factor L of K + λI; cg: K itself
    // Polynomial kernel with s = C(p+d, d) < n': the same score from the s×s primal system
    // (ρI + VVᵀ), eq. 11 (eq. 14 read backwards), which costs O(s²) instead of O(n'²) per query.
    bool primal = false;
    MonomialBasis basis;
    Eigen::MatrixXd LP; // lower factor of ρI + VVᵀ
    // Large-n path (Nyström / landmarks): VVᵀ replaced by its projection onto the span of the
    // landmarks' feature vectors. In orthonormal coordinates of that span, φ(x) = L_z⁻¹k_z(x), and
    // ρ⁻¹φ(ρ) = ‖(I − P)v(x)‖²/ρ + φᵀ(ρI + G̃)⁻¹φ with ‖(I − P)v(x)‖² = γ − ‖φ‖² and
    // G̃ = Σ φ(x_i)φ(x_i)ᵀ/n' — eq. 11 for the projected operator, exact when every fit point is a landmark.
    bool nystrom = false;
    std::vector<Eigen::Index> landmarkRows; // rows of X
    Eigen::MatrixXd Z;  // landmarks (m×p)
    Eigen::MatrixXd LZ; // lower factor of K_zz + εI
    Eigen::MatrixXd LN; // lower factor of ρI + G̃
    double jitter = 0;  // ε
    bool denseFactor = true; // F holds a factorisation (false: primal-only or Nyström)
    CgStats cgStats;
};

using Model = KicDetector::Model;

KicDetector::KicDetector(ParamSet params) : Detector(std::move(params)) {}
KicDetector::~KicDetector() = default;

DetectorInfo KicDetector::info()
{
    DetectorInfo d;
    d.compareSlot = 4;
    d.id = "kic";
    d.title = "Kernelized inverse Christoffel function";
    d.summary = "Score ρ⁻¹φ(ρ) = v(x)ᵀ(ρI + VVᵀ)⁻¹v(x) computed with a kernel (eq. 15–18): polynomial "
                "(the paper's KIC) or RBF (KIC-RBF); optional KIC2 filtering (eq. 20).";
    d.reference = "KIC paper eq. 11–20, sec. 4.1";

    ParamSpec kernel;
    kernel.name = "kernel";
    kernel.type = ParamType::Choice;
    kernel.choices = {"poly", "rbf"};
    kernel.defaultValue = "poly";
    kernel.help = "poly = (1 + xᵀy)^d (the paper's KIC, eq. 17); rbf = exp(−‖x−y‖²/2σ²) (KIC-RBF).";
    kernel.reference = "KIC paper sec. 3 'Using different kernels', Table 2";

    ParamSpec degree;
    degree.name = "degree";
    degree.type = ParamType::Int;
    degree.defaultValue = "2";
    degree.minValue = 1;
    degree.maxValue = 10;
    degree.help = "Degree d of the polynomial kernel (ignored by rbf).";
    degree.reference = "KIC paper sec. 4.1 (d=2)";

    ParamSpec sigma;
    sigma.name = "sigma";
    sigma.type = ParamType::Real;
    sigma.defaultValue = "0";
    sigma.minValue = 0;
    sigma.help = "RBF length-scale σ; 0 = auto: √p/2, or √p/4 when filter_alpha > 0 (KIC-RBF2). "
                 "Ignored by poly.";
    sigma.reference = "KIC paper sec. 4.1 (σ=√p/2; KIC2: σ=√p/4)";

    ParamSpec c;
    c.name = "C";
    c.type = ParamType::Real;
    c.defaultValue = "500";
    c.minValue = 1e-6;
    c.maxValue = 1e12;
    c.help = "ρ = ‖VᵀV‖_F/(C√n): larger C = smaller ρ = closer to the exact inverse Christoffel "
             "function (eq. 11); very large C makes the system ill-conditioned.";
    c.reference = "KIC paper sec. 4.1 (C=500)";

    ParamSpec alpha;
    alpha.name = "filter_alpha";
    alpha.type = ParamType::Real;
    alpha.defaultValue = "0";
    alpha.minValue = 0;
    alpha.maxValue = 1;
    alpha.help = "KIC2 filtering: 0 = off; otherwise refit on the ⌊α·n⌋ training points with the "
                 "lowest scores (ties by row order) and score everything with that model (paper: 0.6).";
    alpha.reference = "KIC paper eq. 20, sec. 4.1 (α=0.6)";

    ParamSpec solver;
    solver.name = "solver";
    solver.type = ParamType::Choice;
    solver.choices = {"auto", "cholesky", "cg"};
    solver.defaultValue = "auto";
    solver.help = "(Exact path only.) cholesky: factor K + nρI once (n³/3), then O(n²) per score (eq. 15). cg: eq. 19 as "
                  "ridge regression, conjugate gradient per point, O(iterations·n²) each — cheaper "
                  "only for a few points, and fitting scores all n, so it is slower in practice. "
                  "auto = cholesky for every n.";
    solver.reference = "KIC paper eq. 15, 19, App. A";

    ParamSpec landmarks = makeParamSpec(
        "landmarks", ParamType::Int, "auto", 0, 1'000'000,
        "0 = exact: the n×n kernel matrix (n³/3 flops, 8n² bytes). m > 0 = Nyström: VVᵀ projected onto the "
        "span of m training points drawn at random (seed), O(n·m²) work and O(m²) memory; the score keeps "
        "the part of v(x) outside that span (divided by ρ), so far points still score high. m ≥ n is exact "
        "by another route.",
        "KIC paper eq. 11 with the Nyström approximation (Williams & Seeger, NIPS 2000)");
    landmarks.autoRule = "0 (exact) up to 6000 points, or for a polynomial kernel with at most 3000 monomials "
                         "(the primal system of eq. 11 is then exact at any n); else √(2·10¹⁰/n) landmarks within [500, 2000] "
                         "(a work budget of about 10¹¹ flops: 587 on 58 000 rows)";
    landmarks.paperValue = "0";
    d.params = {kernel, degree, sigma, c, alpha, solver, landmarks,
                seedParam("Seed of the landmark draw (landmarks > 0): same seed, same data → same scores."),
                contaminationParam()};
    d.normalization = "zscore"; // KIC paper sec. 4.1: zero mean, unit variance per feature
    d.make = [](ParamSet p) { return std::make_unique<KicDetector>(std::move(p)); };
    return d;
}

namespace {

/// M = VVᵀ/n' (eq. 6) over the fit points, accumulated by blocks of rows (lower triangle only);
/// `done` gets the fraction of rows processed.
Eigen::MatrixXd momentMatrix(const MonomialBasis& basis, const Eigen::MatrixXd& Xf, const std::function<void(double)>& done)
{
    const Eigen::Index n = Xf.rows(), si = basis.size();
    const double dn = static_cast<double>(n);
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(si, si);
    const Eigen::Index rb = std::clamp<Eigen::Index>(std::min<Eigen::Index>(2'000'000 / si, 250'000'000 / (si * si)), 16, 4096);
    for (Eigen::Index r0 = 0; r0 < n; r0 += rb) {
        const Eigen::Index rows = std::min(rb, n - r0);
        const Eigen::MatrixXd V = basis.evaluate(Xf.middleRows(r0, rows));
        M.selfadjointView<Eigen::Lower>().rankUpdate(V.transpose(), 1.0 / dn); // eq. 6
        done(static_cast<double>(r0 + rows) / dn);
    }
    return M;
}

/// The polynomial kernel's primal model alone (eq. 11): M = VVᵀ/n' (eq. 6) accumulated by blocks,
/// ρ = ‖M‖_F/(C√n') (sec. 4.1, ‖VᵀV‖_F = ‖VVᵀ‖_F), and the factor of ρI + M.
std::unique_ptr<Model> buildPrimal(const Eigen::MatrixXd& Xf, const KernelFunction& kernel, double C,
                                   const double* rhoGiven, const Ticker& tick)
{
    const Eigen::Index n = Xf.rows();
    const double dn = static_cast<double>(n);
    auto mod = std::make_unique<Model>();
    mod->kernel = kernel;
    mod->X = Xf;
    mod->denseFactor = false;
    MonomialBasis basis(static_cast<int>(Xf.cols()), kernel.degree, primalMaxSize);
    Eigen::MatrixXd M = momentMatrix(basis, Xf, [&](double f) { tick(0.9 * f); });
    M = M.selfadjointView<Eigen::Lower>();
    if (!M.allFinite())
        throw DataError("kic: kernel values overflow; normalise the data (e.g. --normalize zscore) or lower the degree");
    mod->rho = rhoGiven ? *rhoGiven : M.norm() / (C * std::sqrt(dn));
    if (!(mod->rho > 0))
        throw DataError("kic: the kernel matrix is zero");
    mod->lambda = dn * mod->rho;
    M.diagonal().array() += mod->rho;
    if (!choleskyInPlace(M, FactorTick(tick.sub(0.9, 1.0, "Cholesky factorisation")))) {
        std::ostringstream msg;
        msg << "kic: ρI + VVᵀ is not numerically positive definite (ρ = " << mod->rho << "); lower C (currently "
            << C << ")";
        throw ParamError(msg.str());
    }
    mod->primal = true;
    mod->basis = std::move(basis);
    mod->LP = M.triangularView<Eigen::Lower>();
    tick(1.0);
    return mod;
}

/// Builds the model on the fit points Xf: kernel matrix, ρ (or the given one), and the
/// factorisation (or K itself for cg). Progress over [0,1] of tick.
std::unique_ptr<Model> buildModel(const Eigen::MatrixXd& Xf, const KernelFunction& kernel, double C,
                                  const double* rhoGiven, bool cg, const Ticker& tick)
{
    const Eigen::Index n = Xf.rows();
    // A polynomial kernel whose monomial basis is small: the primal system (eq. 11) is exact and
    // needs no n'×n' matrix at all, so large n' take that route alone.
    const bool primalOnly = !cg && kernel.kind == KernelKind::Poly && n > exactMaxRows
                            && MonomialBasis::count(static_cast<int>(Xf.cols()), kernel.degree) <= primalMaxSize;
    if (primalOnly)
        return buildPrimal(Xf, kernel, C, rhoGiven, tick);
    if (n > KicDetector::maxFitPoints) {
        std::ostringstream msg;
        msg << "kic: fitting on " << n << " points needs a " << n << "×" << n << " kernel matrix ("
            << static_cast<double>(n) * static_cast<double>(n) * 8e-9 << " GB); the limit is "
            << KicDetector::maxFitPoints << " points — set landmarks to auto or a number of landmarks "
               "(the Nyström path, O(n·m²) work and O(m²) memory)";
        throw ParamError(msg.str());
    }
    auto m = std::make_unique<Model>();
    m->kernel = kernel;
    m->X = Xf;
    m->cg = cg;
    // eq. 16–17: K_ij = k(x_i, x_j); G = VᵀV = K/n' because V carries 1/√n' (eq. 7).
    Eigen::MatrixXd K(n, n);
    const Eigen::Index b = std::max<Eigen::Index>(1, 500'000 / std::max<Eigen::Index>(1, n * (Xf.cols() + 8)) * 8);
    const Ticker kt = tick.sub(0.0, 0.1, "kernel matrix");
    for (Eigen::Index r0 = 0; r0 < n; r0 += b) {
        const Eigen::Index rows = std::min(b, n - r0);
        K.middleRows(r0, rows) = kernel.cross(Xf.middleRows(r0, rows), Xf);
        kt(static_cast<double>(r0 + rows) / static_cast<double>(n));
    }
    const double normK = K.norm();
    if (!std::isfinite(normK))
        throw DataError("kic: kernel values overflow (‖K‖_F is not finite); normalise the data "
                        "(e.g. --normalize zscore) or lower the degree");
    if (!(normK > 0))
        throw DataError("kic: the kernel matrix is zero");
    const double dn = static_cast<double>(n);
    // sec. 4.1: ρ = ‖VᵀV‖_F/(C√n') = ‖K‖_F/(n'·C·√n').
    m->rho = rhoGiven ? *rhoGiven : normK / (dn * C * std::sqrt(dn));
    m->lambda = dn * m->rho;
    if (cg) {
        // Symmetrise exactly (the GEMM need not give bitwise-symmetric halves).
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = j + 1; i < n; ++i)
                K(j, i) = K(i, j);
        m->F = std::move(K);
        tick(1.0);
    } else {
        // eq. 15 with (ρI + G) = (K + n'ρI)/n': one Cholesky factorisation, no inverse.
        K.diagonal().array() += m->lambda;
        if (!choleskyInPlace(K, FactorTick(tick.sub(0.1, 0.9, "Cholesky factorisation")))) {
            std::ostringstream msg;
            msg << "kic: K + nρI is not numerically positive definite (ρ = " << m->rho
                << "); lower C (currently " << C << ")";
            throw ParamError(msg.str());
        }
        m->F = std::move(K);
    }
    // Primal form for the polynomial kernel when it is smaller than the dual one.
    if (kernel.kind == KernelKind::Poly) {
        const double s = MonomialBasis::count(static_cast<int>(Xf.cols()), kernel.degree);
        if (s < dn && s <= primalMaxSize) {
            MonomialBasis basis(static_cast<int>(Xf.cols()), kernel.degree, primalMaxSize);
            Eigen::MatrixXd M = momentMatrix(basis, Xf, [&](double f) { tick(0.9 + 0.1 * f); });
            M.diagonal().array() += m->rho;
            Eigen::LLT<Eigen::MatrixXd> llt(M);
            if (llt.info() == Eigen::Success) {
                m->primal = true;
                m->basis = std::move(basis);
                m->LP = llt.matrixL();
            }
        }
    }
    tick(1.0);
    return m;
}

Eigen::VectorXd scoreQueries(const Model& m, const Eigen::MatrixXd& Q, const Ticker& tick, CgStats& stats);

/// The Nyström model on the fit points Xf with the given landmark rows (see Model): K_zz's
/// Cholesky factor (with the smallest jitter ε that makes it definite: duplicate landmarks), then
/// G̃ accumulated over blocks of fit points, ρ from ‖G̃‖_F (sec. 4.1 with VᵀV ≈ ΦΦᵀ/n', whose
/// Frobenius norm equals ‖G̃‖_F) and the factor of ρI + G̃. Costs O(n'm² + m³), memory O(m²).
std::unique_ptr<Model> buildNystrom(const Eigen::MatrixXd& Xf, const KernelFunction& kernel, double C,
                                    const double* rhoGiven, std::vector<Eigen::Index> rows, const Ticker& tick)
{
    const Eigen::Index n = Xf.rows(), m = static_cast<Eigen::Index>(rows.size());
    auto mod = std::make_unique<Model>();
    mod->kernel = kernel;
    mod->X = Xf;
    mod->nystrom = true;
    mod->denseFactor = false;
    mod->landmarkRows = std::move(rows);
    mod->Z.resize(m, Xf.cols());
    for (Eigen::Index j = 0; j < m; ++j)
        mod->Z.row(j) = Xf.row(mod->landmarkRows[static_cast<std::size_t>(j)]);
    Eigen::MatrixXd Kzz = kernel.cross(mod->Z, mod->Z);
    Kzz = Kzz.selfadjointView<Eigen::Lower>(); // exactly symmetric
    if (!Kzz.allFinite())
        throw DataError("kic: kernel values overflow; normalise the data (e.g. --normalize zscore) or lower the degree");
    const double scale = std::max(Kzz.diagonal().mean(), 1e-300);
    if (!jitteredCholesky(Kzz, 1e-10 * scale, 1e-2 * scale, 100, mod->LZ, mod->jitter))
        throw DataError("kic: the landmarks' kernel matrix is singular even with a jitter of 1 % of its "
                        "diagonal; normalise the data or change sigma");
    tick(0.1);
    // G̃ = ΦᵀΦ/n' by blocks of rows: Φ_bᵀ = L_z⁻¹ K_zb.
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(m, m);
    const Eigen::Index b = std::clamp<Eigen::Index>(4'000'000 / std::max<Eigen::Index>(1, m), 64, 8192);
    const double dn = static_cast<double>(n);
    for (Eigen::Index r0 = 0; r0 < n; r0 += b) {
        const Eigen::Index h = std::min(b, n - r0);
        Eigen::MatrixXd W = kernel.cross(mod->Z, Xf.middleRows(r0, h)); // m×h
        mod->LZ.triangularView<Eigen::Lower>().solveInPlace(W);
        G.selfadjointView<Eigen::Lower>().rankUpdate(W, 1.0 / dn);
        tick(0.1 + 0.85 * static_cast<double>(r0 + h) / dn);
    }
    G = G.selfadjointView<Eigen::Lower>();
    mod->rho = rhoGiven ? *rhoGiven : G.norm() / (C * std::sqrt(dn));
    if (!(mod->rho > 0) || !std::isfinite(mod->rho))
        throw DataError("kic: the kernel matrix is zero or not finite");
    mod->lambda = dn * mod->rho;
    G.diagonal().array() += mod->rho;
    Eigen::LLT<Eigen::MatrixXd> lln(G);
    if (lln.info() != Eigen::Success) {
        std::ostringstream msg;
        msg << "kic: ρI + G̃ is not numerically positive definite (ρ = " << mod->rho << "); lower C (currently " << C
            << ")";
        throw ParamError(msg.str());
    }
    mod->LN = lln.matrixL();
    tick(1.0);
    return mod;
}

/// The model on the fit points: exact (landmarks = 0) or Nyström with min(landmarks, n') landmarks.
std::unique_ptr<Model> makeModel(const Eigen::MatrixXd& Xf, const KernelFunction& kernel, double C,
                                 const double* rhoGiven, bool cg, Eigen::Index landmarks, std::uint64_t seed,
                                 const Ticker& tick)
{
    if (landmarks <= 0)
        return buildModel(Xf, kernel, C, rhoGiven, cg, tick);
    return buildNystrom(Xf, kernel, C, rhoGiven, sampleRows(Xf.rows(), landmarks, seed), tick);
}

/// Scores of the model's own fit points. cholesky: with g = K e_j/√n' (eq. 16), eq. 15 becomes
/// φ_j = λ − λ²(A⁻¹)_jj for A = K + λI, λ = n'ρ, so only diag(A⁻¹) is needed (n³/3 flops).
/// cg: eq. 19 / 22 solved by conjugate gradient with right-hand sides K e_j.
Eigen::VectorXd fitPointScores(Model& m, const Ticker& tick)
{
    const Eigen::Index n = m.X.rows();
    const double dn = static_cast<double>(n);
    if (!m.denseFactor)
        return scoreQueries(m, m.X, tick, m.cgStats);
    if (!m.cg) {
        const Eigen::VectorXd a = diagonalOfInverse(m.F, tick.sub(0.0, 1.0, "diagonal of the inverse"));
        tick(1.0);
        // score = φ/ρ = n'(1 − λ a_jj); φ ≥ 0 in exact arithmetic.
        return (dn * (1.0 - m.lambda * a.array()).max(0.0)).matrix();
    }
    Eigen::VectorXd out(n);
    const Eigen::VectorXd gamma = m.F.diagonal();
    constexpr Eigen::Index b = 64;
    for (Eigen::Index c = 0; c < n; c += b) {
        const Eigen::Index w = std::min(b, n - c);
        const Eigen::MatrixXd B = m.F.middleCols(c, w);
        const Ticker t = tick.sub(static_cast<double>(c) / dn, static_cast<double>(c + w) / dn, "conjugate gradient (eq. 19)");
        const Eigen::VectorXd quad = cgQuadraticForms(m.F, m.lambda, m.rho, B, gamma.segment(c, w), m.cgStats, t);
        out.segment(c, w) = ((gamma.segment(c, w) - quad).array().max(0.0) / m.rho).matrix();
    }
    return out;
}

} // namespace

namespace {

/// Scores of arbitrary points under the model: ρ⁻¹φ(ρ) with φ from eq. 15 (γ − gᵀ(ρI+G)⁻¹g =
/// k(x,x) − k_xᵀ(K + λI)⁻¹k_x), batched over blocks of queries (one kernel block per GEMM).
Eigen::VectorXd scoreQueries(const Model& m, const Eigen::MatrixXd& Q, const Ticker& tick, CgStats& stats)
{
    const Eigen::Index nq = Q.rows();
    Eigen::VectorXd out(nq);
    if (m.nystrom) {
        // ρ⁻¹φ(ρ) = (γ − ‖φ‖²)/ρ + ‖L_N⁻¹φ‖² with φ = L_z⁻¹k_z(x) (see Model).
        const Eigen::Index mz = m.Z.rows();
        const Eigen::Index b = std::clamp<Eigen::Index>(4'000'000 / std::max<Eigen::Index>(1, mz), 64, 8192);
        for (Eigen::Index r0 = 0; r0 < nq; r0 += b) {
            const Eigen::Index rows = std::min(b, nq - r0);
            const Eigen::MatrixXd Qb = Q.middleRows(r0, rows);
            Eigen::MatrixXd W = m.kernel.cross(m.Z, Qb); // m×rows
            m.LZ.triangularView<Eigen::Lower>().solveInPlace(W);
            const Eigen::ArrayXd resid = (m.kernel.self(Qb) - W.colwise().squaredNorm().transpose()).array().max(0.0);
            m.LN.triangularView<Eigen::Lower>().solveInPlace(W);
            out.segment(r0, rows) = (resid / m.rho).matrix() + W.colwise().squaredNorm().transpose();
            tick(static_cast<double>(r0 + rows) / static_cast<double>(nq));
        }
        return out;
    }
    if (m.primal) {
        // eq. 11: ρ⁻¹φ(ρ) = vᵀ(ρI + VVᵀ)⁻¹v = ‖L_P⁻¹ v‖².
        const Eigen::Index b = std::clamp<Eigen::Index>(2'000'000 / std::max<Eigen::Index>(1, m.basis.size()), 64, 8192);
        for (Eigen::Index r0 = 0; r0 < nq; r0 += b) {
            const Eigen::Index rows = std::min(b, nq - r0);
            Eigen::MatrixXd W = m.basis.evaluate(Q.middleRows(r0, rows)).transpose();
            m.LP.triangularView<Eigen::Lower>().solveInPlace(W);
            out.segment(r0, rows) = W.colwise().squaredNorm().transpose();
            tick(static_cast<double>(r0 + rows) / static_cast<double>(nq));
        }
        return out;
    }
    const Eigen::Index n = m.X.rows();
    const Eigen::Index b = m.cg ? 64 : queryBlock(n);
    for (Eigen::Index r0 = 0; r0 < nq; r0 += b) {
        const Eigen::Index rows = std::min(b, nq - r0);
        const Eigen::MatrixXd Qb = Q.middleRows(r0, rows);
        Eigen::MatrixXd Kq = m.kernel.cross(m.X, Qb); // n'×rows: √n'·g per column (eq. 16)
        const Eigen::VectorXd gamma = m.kernel.self(Qb);
        Eigen::VectorXd quad;
        if (m.cg) {
            const Ticker t = tick.sub(static_cast<double>(r0) / static_cast<double>(nq),
                                      static_cast<double>(r0 + rows) / static_cast<double>(nq),
                                      "conjugate gradient (eq. 19)");
            quad = cgQuadraticForms(m.F, m.lambda, m.rho, Kq, gamma, stats, t);
        } else {
            // gᵀ(ρI + G)⁻¹g = kᵀ(K + λI)⁻¹k = ‖L⁻¹k‖².
            lowerSolveInPlace(m.F, 0, Kq,
                              tick.sub(static_cast<double>(r0) / static_cast<double>(nq),
                                       static_cast<double>(r0 + rows) / static_cast<double>(nq), "scoring (eq. 15)"));
            quad = Kq.colwise().squaredNorm().transpose();
        }
        out.segment(r0, rows) = ((gamma - quad).array().max(0.0) / m.rho).matrix();
        tick(static_cast<double>(r0 + rows) / static_cast<double>(nq));
    }
    return out;
}

KernelFunction kernelFromParams(const ParamSet& p, double sigma)
{
    KernelFunction k;
    k.kind = p.getChoice("kernel") == "rbf" ? KernelKind::Rbf : KernelKind::Poly;
    k.degree = p.getInt("degree");
    k.sigma = sigma;
    return k;
}

Eigen::MatrixXd selectRows(const Eigen::MatrixXd& X, const std::vector<Eigen::Index>& rows)
{
    Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()), X.cols());
    for (std::size_t i = 0; i < rows.size(); ++i)
        out.row(static_cast<Eigen::Index>(i)) = X.row(rows[i]);
    return out;
}

} // namespace

Eigen::VectorXd KicDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const Eigen::Index n = X.rows();
    const double p = static_cast<double>(X.cols());
    const double alpha = params().getReal("filter_alpha");
    const double C = params().getReal("C");
    const bool cg = params().getChoice("solver") == "cg"; // auto = cholesky (see the help)
    double sigma = params().getReal("sigma");
    if (sigma == 0.0)
        sigma = std::sqrt(p) / (alpha > 0 ? 4.0 : 2.0); // sec. 4.1: √p/2 (KIC-RBF), √p/4 (KIC-RBF2)
    const KernelFunction kernel = kernelFromParams(params(), sigma);
    const bool smallBasis = kernel.kind == KernelKind::Poly
                            && MonomialBasis::count(static_cast<int>(X.cols()), kernel.degree) <= primalMaxSize;
    const Eigen::Index landmarks =
        limitInt("landmarks", autoInt("landmarks", n <= exactMaxRows || smallBasis ? 0 : autoLandmarks(n)),
                 static_cast<int>(n), "landmarks are drawn from the " + std::to_string(n) + " rows");
    const auto seed = static_cast<std::uint64_t>(params().getInt("seed"));
    const Ticker root([&progress](double f, const std::string& msg) { progress.report(f, msg); }, 0.0, 1.0, "kic");

    // The n×n kernel, its Cholesky factor and diag(A⁻¹) are BLAS-3 work that uses both cores.
    const ParallelBlasScope parallelBlas;
    std::unique_ptr<Model> model;
    Eigen::VectorXd train(n);
    if (alpha == 0.0) {
        model = makeModel(X, kernel, C, nullptr, cg, landmarks, seed, root.sub(0.0, 0.5, "kernel model"));
        train = fitPointScores(*model, root.sub(0.5, 1.0, "training scores (eq. 15)"));
    } else {
        // eq. 20: keep the ⌊αn⌋ points of lowest score (ties by row order; the 1e-9 absorbs the
        // rounding of α·n when it is an integer, e.g. 0.6·10).
        const auto keep = static_cast<Eigen::Index>(std::floor(alpha * static_cast<double>(n) + 1e-9));
        if (keep < 2)
            throw ParamError("kic: filter_alpha = " + params().text("filter_alpha") + " keeps ⌊αn⌋ = "
                             + std::to_string(keep) + " of " + std::to_string(n) + " points; need at least 2");
        Eigen::VectorXd first;
        {
            auto m0 = makeModel(X, kernel, C, nullptr, cg, landmarks, seed, root.sub(0.0, 0.3, "kernel model (all points)"));
            first = fitPointScores(*m0, root.sub(0.3, 0.5, "scores before filtering"));
        }
        std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), Eigen::Index(0));
        std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return first(a) < first(b); });
        std::vector<Eigen::Index> kept(order.begin(), order.begin() + keep), rest(order.begin() + keep, order.end());
        std::sort(kept.begin(), kept.end());
        std::sort(rest.begin(), rest.end());
        model = makeModel(selectRows(X, kept), kernel, C, nullptr, cg, landmarks, seed, root.sub(0.5, 0.7, "kernel model (filtered)"));
        const Eigen::VectorXd sk = fitPointScores(*model, root.sub(0.7, 0.8, "training scores (eq. 15)"));
        const Eigen::VectorXd sr = rest.empty() ? Eigen::VectorXd()
                                                : scoreQueries(*model, selectRows(X, rest),
                                                               root.sub(0.8, 1.0, "scoring filtered-out points"),
                                                               model->cgStats);
        for (std::size_t i = 0; i < kept.size(); ++i)
            train(kept[i]) = sk(static_cast<Eigen::Index>(i));
        for (std::size_t i = 0; i < rest.size(); ++i)
            train(rest[i]) = sr(static_cast<Eigen::Index>(i));
    }
    m_model = std::move(model);
    m_trainingRows = n;
    return train;
}

Eigen::VectorXd KicDetector::doScore(const Eigen::MatrixXd& X) const
{
    CgStats stats;
    return scoreQueries(*m_model, X, Ticker(), stats);
}

std::map<std::string, double> KicDetector::figures() const
{
    if (!isFitted() || !m_model)
        return {};
    std::map<std::string, double> f = {{"rho", m_model->rho},
                                       {"fit_points", static_cast<double>(m_model->X.rows())},
                                       {"training_points", static_cast<double>(m_trainingRows)}};
    if (m_model->kernel.kind == KernelKind::Rbf)
        f["sigma"] = m_model->kernel.sigma;
    if (m_model->nystrom) {
        f["landmarks"] = static_cast<double>(m_model->Z.rows());
        f["nystrom_jitter"] = m_model->jitter;
        // landmarks=auto chose the approximation for this n: said aloud (FitDiagnostics "approximate").
        if (params().isAuto("landmarks"))
            f["approximation_auto"] = 1.0;
    }
    if (m_model->cg) {
        f["cg_iterations"] = m_model->cgStats.iterations;
        f["cg_unconverged"] = static_cast<double>(m_model->cgStats.unconverged);
    }
    return f;
}

nlohmann::json KicDetector::saveState() const
{
    const Model& m = *m_model;
    return {{"rows", m.X.rows()},
            {"points", std::vector<double>(m.X.data(), m.X.data() + m.X.size())},
            {"rho", m.rho},
            {"sigma", m.kernel.sigma},
            {"training_rows", m_trainingRows},
            {"cg_iterations", m.cgStats.iterations},
            {"cg_unconverged", m.cgStats.unconverged},
            {"landmark_rows", m.landmarkRows}};
}

void KicDetector::loadState(const nlohmann::json& state)
{
    const auto n = static_cast<Eigen::Index>(jsonInt(state.at("rows"), "kic model: rows"));
    const auto v = state.at("points").get<std::vector<double>>();
    const auto rho = state.at("rho").get<double>();
    const auto sigma = state.at("sigma").get<double>();
    const auto trainingRows = static_cast<Eigen::Index>(jsonInt(state.at("training_rows"), "kic model: training_rows"));
    const int p = inputDimension();
    if (n <= 0 || static_cast<Eigen::Index>(v.size()) != n * p)
        throw DataError("kic model: " + std::to_string(v.size()) + " stored values do not form " + std::to_string(n)
                        + " points of dimension " + std::to_string(p));
    if (!(rho > 0) || !std::isfinite(rho) || !(sigma > 0) || !std::isfinite(sigma) || trainingRows < n)
        throw DataError("kic model: invalid rho, sigma or training_rows");
    const Eigen::MatrixXd X = Eigen::Map<const Eigen::MatrixXd>(v.data(), n, p);
    std::unique_ptr<Model> m;
    // Rebuilt with BLAS threads as the fit was (ParallelBlasScope: every core of the machine):
    // OpenBLAS's triangular solves and rank updates round differently with one thread than with
    // two on some processors (AMD EPYC here: 1 ulp in the Nyström scores), so a loaded model
    // scores exactly as the fitted one did on the same machine, whatever n_jobs or compare mode.
    const ParallelBlasScope parallelBlas;
    try {
        // The Nyström model is rebuilt from the stored landmark rows (the fit's random draw).
        std::vector<Eigen::Index> rows;
        if (state.contains("landmark_rows"))
            for (const auto& r : state.at("landmark_rows")) {
                const auto i = static_cast<Eigen::Index>(jsonInt(r, "kic model: landmark_rows"));
                if (i < 0 || i >= n || (!rows.empty() && i <= rows.back()))
                    throw DataError("kic model: landmark_rows must be increasing row numbers below " + std::to_string(n));
                rows.push_back(i);
            }
        const KernelFunction kernel = kernelFromParams(params(), sigma);
        if (!rows.empty())
            m = buildNystrom(X, kernel, params().getReal("C"), &rho, std::move(rows), Ticker());
        else
            m = buildModel(X, kernel, params().getReal("C"), &rho, params().getChoice("solver") == "cg", Ticker());
    } catch (const ParamError& e) {
        throw DataError(std::string("kic model: ") + e.what());
    }
    m->cgStats.iterations = static_cast<int>(jsonIntOr(state, "cg_iterations", 0, "kic model"));
    m->cgStats.unconverged = static_cast<long>(jsonIntOr(state, "cg_unconverged", 0, "kic model"));
    m_model = std::move(m);
    m_trainingRows = trainingRows;
}

} // namespace olens
