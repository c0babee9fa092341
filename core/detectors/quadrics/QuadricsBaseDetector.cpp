// quadrics-base (Q-BASE): problem (7) solved exactly as the non-centred PCA of the degree-2 feature
// map φ (eq. 20): the m eigenvectors of the smallest eigenvalues of the D×D moment matrix
// (App. A.1–A.2), optionally on the first principal axes (dims) and with unit row weights. Also
// QuadricsDetector::momentSpectrum, the eigenvalues of that moment matrix (App. B.4).
#include "detectors/quadrics/QuadricsInternal.h"

#include "base/Errors.h"
#include "base/Messages.h"
#include "detectors/DetectorInfo.h"
#include "linalg/Pca.h"
#include "linalg/RowNorms.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <sstream>
#include <Eigen/Dense>

namespace olens {

using quadrics_detail::blockSize64;
using quadrics_detail::flat;
using quadrics_detail::kChunk;
using quadrics_detail::kMemoryBudget;
using quadrics_detail::quadricsCountParam;
using quadrics_detail::quadricsGuidance;

namespace {

/// (1/n) Σ φ(p_j)φ(p_j)ᵀ accumulated in chunks (the D×D moment matrix of App. A.1); with unitRows
/// each φ(p_j) is scaled to unit length first (Q-BASE's `weights=unit`).
Eigen::MatrixXd momentMatrix(const Eigen::MatrixXd& X, const std::function<void(double)>& tick, bool unitRows = false)
{
    const Eigen::Index n = X.rows();
    const Eigen::Index D = QuadricsObjective::blockSize(static_cast<int>(X.cols()));
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(D, D);
    for (Eigen::Index r = 0; r < n; r += kChunk) {
        const Eigen::Index len = std::min(kChunk, n - r);
        Eigen::MatrixXd Phi = QuadricsBaseDetector::featureMap(X.middleRows(r, len));
        if (unitRows) // ‖φ‖ ≥ 1: the constant monomial; rowNorms: |x| beyond ~1e77 squares past DBL_MAX in φ·φ
            Phi.array().colwise() /= rowNorms(Phi).array();
        M.selfadjointView<Eigen::Lower>().rankUpdate(Phi.transpose());
        if (tick)
            tick(static_cast<double>(r + len) / static_cast<double>(n));
    }
    M.triangularView<Eigen::StrictlyUpper>() = M.transpose();
    return M / static_cast<double>(std::max<Eigen::Index>(n, 1));
}

/// Quadric with coefficient vector v = v(f) of eq. 6 (ordered as φ of eq. 20): A_ii = α_ii,
/// A_ij = A_ji = α_ij/2 (sec. 4.3), b = α', c = α''.
Quadric quadricFromCoefficients(const Eigen::Ref<const Eigen::VectorXd>& v, int d)
{
    Quadric q;
    q.A.resize(d, d);
    Eigen::Index idx = 0;
    for (int i = 0; i < d; ++i)
        for (int j = i; j < d; ++j, ++idx) {
            if (i == j)
                q.A(i, i) = v(idx);
            else
                q.A(i, j) = q.A(j, i) = v(idx) / 2.0;
        }
    q.b = v.segment(idx, d);
    q.c = v(idx + d);
    return q;
}

} // namespace

// ---- the moment spectrum that guides the choice of m (App. B.4) -----------------------------------

Eigen::VectorXd QuadricsDetector::momentSpectrum(const Eigen::MatrixXd& X)
{
    if (X.rows() == 0 || X.cols() == 0)
        throw DataError("momentSpectrum: no data");
    const Eigen::MatrixXd M = momentMatrix(X, {});
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M, Eigen::EigenvaluesOnly);
    return es.eigenvalues(); // ascending
}

// ---- Q-BASE ---------------------------------------------------------------------------------------

DetectorInfo QuadricsBaseDetector::info()
{
    DetectorInfo d;
    d.guidance = quadricsGuidance;
    d.id = "quadrics-base";
    d.title = "Quadric intersection, algebraic (Q-BASE)";
    d.summary = "Exact solution of problem (7): the m smallest eigenvectors of the moment matrix of the degree-2 "
                "feature map (non-centred kernel PCA); score = sqrt(sum_k f_k(p)^2).";
    d.reference = "Quadrics paper eq. 7, 20-26 (App. A.1-A.2), non-equivariance App. A.3";
    ParamSpec dims = makeParamSpec(
        "dims", ParamType::Int, "auto", 0, 100000,
        "Coordinates the quadrics are fitted in: the first k principal axes (centred), so that the D = (k+1)(k+2)/2 "
        "monomials are estimated from enough rows; 0 = all p features (the paper).",
        "Quadrics paper eq. 7, App. A.1 (D×D moment matrix); the reduction is OutlierLens' own");
    dims.autoRule = "the largest k <= p with (k+1)(k+2)/2 <= n/10 (ten rows per monomial); k = p: no projection";
    dims.paperValue = "0";
    ParamSpec weights = makeParamSpec(
        "weights", ParamType::Choice, "unit", 0, 0,
        "Row weights of problem (7): unit = each point's monomial vector phi(p) scaled to length 1, so that far points "
        "(whose degree-4 moments dominate the sum) cannot pull the smallest eigenvectors through themselves and "
        "mask as inliers; none = the paper's plain sum. The score is the paper's algebraic distance either way.",
        "Quadrics paper eq. 7, 20-22 (App. A.1); the weighting is OutlierLens' own", {"unit", "none"});
    weights.paperValue = "none";
    d.params = {quadricsCountParam(), dims, weights, contaminationParam()};
    // Q-BASE is not equivariant (App. A.3): the unit row weights depend on where the origin and the
    // units are. z-scores put the origin at the mean (2-D blobs with 5 % outliers, raw coordinates
    // 0.66, z-scored 0.91; the real-data table is z-scored).
    d.normalization = "zscore";
    d.make = [](ParamSet p) { return std::make_unique<QuadricsBaseDetector>(std::move(p)); };
    return d;
}

Eigen::MatrixXd QuadricsBaseDetector::featureMap(const Eigen::MatrixXd& X)
{
    const auto d = static_cast<int>(X.cols());
    const int D = QuadricsObjective::blockSize(d);
    Eigen::MatrixXd Phi(X.rows(), D);
    Eigen::Index idx = 0;
    for (int i = 0; i < d; ++i) // eq. 20: pairwise products p_i p_j, i ≤ j
        for (int j = i; j < d; ++j, ++idx)
            Phi.col(idx) = X.col(i).cwiseProduct(X.col(j));
    Phi.middleCols(idx, d) = X; // coordinates
    Phi.col(D - 1).setOnes();   // constant
    return Phi;
}

int QuadricsBaseDetector::autoDims(Eigen::Index n, int p)
{
    int k = std::max(1, p);
    while (k > 1 && 10 * blockSize64(k) > n)
        --k;
    return k;
}

Eigen::MatrixXd QuadricsBaseDetector::fitCoordinates(const Eigen::MatrixXd& X) const
{
    if (m_axes.size() == 0)
        return X;
    return (X.rowwise() - m_mean.transpose()) * m_axes;
}

Eigen::VectorXd QuadricsBaseDetector::doFit(const Eigen::MatrixXd& Xin, const Progress& progress)
{
    const auto pin = static_cast<int>(Xin.cols());
    const int dims = limitInt("dims", autoInt("dims", autoDims(Xin.rows(), pin)), pin,
                              "the data have " + std::to_string(pin) + " features");
    // dims < p: the centred coordinates on the first `dims` principal axes (covariance eigenvectors).
    Eigen::VectorXd mean;
    Eigen::MatrixXd axes;
    if (dims > 0 && dims < pin) {
        mean = Xin.colwise().mean().transpose();
        // The leading axes only (pcaLeading: exact, and without a p×p covariance for wide data —
        // 40 × 10 000 took minutes here before the size guard below could refuse anything).
        axes = pcaLeading(Xin, dims).components;
    }
    const Eigen::MatrixXd X = axes.size() == 0 ? Xin : Eigen::MatrixXd((Xin.rowwise() - mean.transpose()) * axes);
    const auto p = static_cast<int>(X.cols());
    const int m = params().getInt("m") == 0 ? QuadricsDetector::autoQuadrics(p) : params().getInt("m");
    {
        // Size guard before the O(D²) moment matrix and the O(D³) eigen-decomposition (App. A.1):
        // the matrix, its eigenvectors and the solver's workspace, three D×D doubles.
        const std::int64_t D64 = blockSize64(p);
        const std::uint64_t need = 3ULL * static_cast<std::uint64_t>(D64) * static_cast<std::uint64_t>(D64) * sizeof(double);
        if (D64 > 100000 || need > kMemoryBudget)
            throw ParamError("quadrics-base: dimension p=" + std::to_string(p) + " gives D=(p+1)(p+2)/2="
                             + std::to_string(D64) + " monomials; the D×D moment matrix and its eigen-decomposition need "
                             + formatBytes(need) + " (limit " + formatBytes(kMemoryBudget)
                             + ", about p <= 114); reduce the features first (e.g. PCA) or use detector 'quadrics' "
                               "(stochastic, memory O(D·m))");
    }
    const int D = QuadricsObjective::blockSize(p);
    if (m >= D)
        throw ParamError("quadrics-base: m=" + std::to_string(m) + " must be smaller than the number of monomials D = "
                         + std::to_string(D) + " (dimension " + std::to_string(p) + ")");
    // Fewer rows than monomials: at least D − n quadrics pass through every training point (the
    // moment matrix has rank ≤ n), so the m smallest eigenvectors fit the data exactly and their
    // training "scores" are rounding noise (was AUROC 0.05 on Ionosphere, n = 351 < D = 595, and
    // flipped with the BLAS thread count). Problem (7) does not determine the quadrics: refuse.
    if (X.rows() < D)
        throw DataError("quadrics-base: " + std::to_string(X.rows()) + " rows cannot determine quadrics in dimension "
                        + std::to_string(p) + ": the degree-2 moment matrix needs at least D = (p+1)(p+2)/2 = "
                        + std::to_string(D) + " rows (with fewer, " + std::to_string(D - X.rows())
                        + " quadrics pass through every point and cannot rank them). Use 'quadrics' (learned, eq. 8) "
                          "or reduce the features first (e.g. PCA)");
    // App. A.1–A.2: Σ_j Σ_k f_k(p_j)² = Σ_k v(f_k)ᵀ (Σ_j φ(p_j)φ(p_j)ᵀ) v(f_k) under ⟨v(f_k), v(f_l)⟩ = δ_kl
    // is minimised by the eigenvectors of the m smallest eigenvalues (non-centred PCA in feature space).
    const Eigen::MatrixXd M = momentMatrix(X, [&](double f) { progress.report(0.6 * f, "moment matrix"); },
                                           params().getChoice("weights") == "unit");
    if (!M.allFinite()) {
        // M holds degree-4 moments (App. A.1): |x| above ~1e77 overflows double precision.
        std::ostringstream msg;
        msg << "quadrics-base: the degree-4 moment matrix overflows (largest |value| in the data is "
            << X.cwiseAbs().maxCoeff() << "); normalise the data (e.g. --normalize zscore)";
        throw DataError(msg.str());
    }
    progress.report(0.6, "eigen-decomposition of the " + std::to_string(D) + "x" + std::to_string(D) + " moment matrix (one library step without a cancellation point: Cancel and quit take effect after it)");
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M);
    if (es.info() != Eigen::Success)
        throw DataError("quadrics-base: the eigen-decomposition of the moment matrix did not converge");
    // The number of eigenvalues at rounding level of the largest, reported as "moment_null_space":
    // quadrics through every training point. With n ≥ D that is what Q-BASE is for (points exactly
    // on m quadrics, e.g. the circle of TestQuadrics); with n < D it is forced by the row count and
    // refused above.
    const Eigen::VectorXd& ev = es.eigenvalues();
    const double tol = 1e-10 * std::max(ev(D - 1), 0.0);
    Eigen::Index null = 0;
    while (null < D && ev(null) <= tol)
        ++null;
    Eigen::MatrixXd V = es.eigenvectors().leftCols(m);
    for (int k = 0; k < m; ++k)
        fixDirectionSign(V.col(k));
    // Commit.
    m_mean = std::move(mean);
    m_axes = std::move(axes);
    m_V = std::move(V);
    m_eigenvalues = es.eigenvalues();
    m_nullSpace = static_cast<int>(null);
    return doScore(Xin);
}

Eigen::VectorXd QuadricsBaseDetector::doScore(const Eigen::MatrixXd& Xin) const
{
    // Sec. 4.1: d(p, Z(F)) ≈ (Σ_k |f_k(p)|²)^{1/2} = ‖Vᵀφ(p)‖ = d(φ(p), V_m^⊥) (eq. 22, 25).
    const Eigen::MatrixXd X = fitCoordinates(Xin);
    Eigen::VectorXd out(X.rows());
    for (Eigen::Index r = 0; r < X.rows(); r += kChunk) {
        const Eigen::Index len = std::min(kChunk, X.rows() - r);
        out.segment(r, len) = rowNorms(featureMap(X.middleRows(r, len)) * m_V);
    }
    return out;
}

std::vector<Quadric> QuadricsBaseDetector::quadrics() const
{
    requireFitted("quadrics");
    if (!quadricsFitInMemory())
        throw ParamError("quadrics-base: the " + std::to_string(m_V.cols()) + " quadrics in the input space of "
                         + std::to_string(inputDimension()) + " features are " + std::to_string(m_V.cols())
                         + " dense p×p matrices, more than " + formatBytes(kMemoryBudget / 4)
                         + "; they are kept on the principal axes only (scores are unaffected)");
    std::vector<Quadric> qs;
    const int k = m_axes.size() == 0 ? inputDimension() : static_cast<int>(m_axes.cols());
    for (Eigen::Index j = 0; j < m_V.cols(); ++j) {
        Quadric q = quadricFromCoefficients(m_V.col(j), k);
        if (m_axes.size() != 0) {
            // f(Pᵀ(x − μ)) = xᵀA'x + b'ᵀx + c' with A' = PAPᵀ, b' = Pb − 2A'μ, c' = μᵀA'μ − (Pb)ᵀμ + c.
            Quadric out;
            out.A = m_axes * q.A * m_axes.transpose();
            const Eigen::VectorXd Pb = m_axes * q.b;
            out.b = Pb - 2.0 * out.A * m_mean;
            out.c = m_mean.dot(out.A * m_mean) - Pb.dot(m_mean) + q.c;
            q = std::move(out);
        }
        qs.push_back(std::move(q));
    }
    return qs;
}

Geometry QuadricsBaseDetector::geometry() const
{
    Geometry g;
    // Wide data fitted on a few principal axes: the quadrics mapped back to the p features would be
    // m dense p×p matrices (10 000 features: 800 MB each); nothing is drawn for them.
    if (isFitted() && quadricsFitInMemory())
        g.quadrics = quadrics();
    return g;
}

bool QuadricsBaseDetector::quadricsFitInMemory() const
{
    const auto p = static_cast<std::uint64_t>(inputDimension());
    return m_axes.size() == 0 || p * p * static_cast<std::uint64_t>(m_V.cols()) * sizeof(double) <= kMemoryBudget / 4;
}

std::map<std::string, double> QuadricsBaseDetector::figures() const
{
    if (!isFitted())
        return {};
    const Eigen::Index m = m_V.cols();
    const Eigen::Index first = 0;
    const double objective = m_eigenvalues.segment(first, m).sum(); // (1/n) Σ_j Σ_k f_k(p_j)² (eq. 7)
    std::map<std::string, double> f{{"quadrics", static_cast<double>(m)},
                                    {"final_loss", objective},
                                    {"moment_null_space", static_cast<double>(m_nullSpace)},
                                    {"moment_eigenvalue_min", m_eigenvalues(first)},
                                    {"moment_eigenvalue_m", m_eigenvalues(first + m - 1)}};
    if (first + m < m_eigenvalues.size())
        f["moment_eigenvalue_next"] = m_eigenvalues(first + m); // a large jump from _m to _next supports this m (App. B.4)
    return f;
}

nlohmann::json QuadricsBaseDetector::saveState() const
{
    nlohmann::json j = {{"m", m_V.cols()}, {"coefficients", flat(m_V)}, {"eigenvalues", flat(m_eigenvalues)},
                        {"null_space", m_nullSpace}};
    if (m_axes.size() != 0) {
        j["dims"] = m_axes.cols();
        j["mean"] = flat(m_mean);
        j["axes"] = flat(m_axes);
    }
    return j;
}

void QuadricsBaseDetector::loadState(const nlohmann::json& s)
{
    const int pin = inputDimension();
    // Models without "dims" (older ones, or dims = p) fit the input coordinates themselves.
    const auto dims = s.contains("dims") ? jsonInt(s.at("dims"), "quadrics-base model: dims") : pin;
    if (dims < 1 || dims > pin)
        throw DataError("quadrics-base model: dims " + std::to_string(dims) + " does not fit dimension " + std::to_string(pin));
    Eigen::VectorXd mean;
    Eigen::MatrixXd axes;
    if (dims < pin) {
        const auto mu = s.at("mean").get<std::vector<double>>();
        const auto P = s.at("axes").get<std::vector<double>>();
        if (static_cast<Eigen::Index>(mu.size()) != pin || static_cast<Eigen::Index>(P.size()) != pin * dims)
            throw DataError("quadrics-base model: mean/axes do not match dimension " + std::to_string(pin) + " and dims "
                            + std::to_string(dims));
        mean = Eigen::Map<const Eigen::VectorXd>(mu.data(), pin);
        axes = Eigen::Map<const Eigen::MatrixXd>(P.data(), pin, dims);
    }
    const int p = static_cast<int>(dims);
    if (p > 4096) // D = (p² + 3p)/2 + 1 coefficients per quadric would overflow an int
        throw DataError("quadrics-base model: dimension " + std::to_string(p) + " is too large");
    const int D = QuadricsObjective::blockSize(p);
    const auto m = static_cast<Eigen::Index>(jsonInt(s.at("m"), "quadrics-base model: m"));
    const auto V = s.at("coefficients").get<std::vector<double>>();
    const auto ev = s.at("eigenvalues").get<std::vector<double>>();
    if (m < 1 || m >= D || static_cast<Eigen::Index>(V.size()) != D * m || static_cast<Eigen::Index>(ev.size()) != D)
        throw DataError("quadrics-base model: stored arrays do not match dimension " + std::to_string(p) + " and m="
                        + std::to_string(m));
    const auto null = s.value("null_space", 0);
    if (null < 0 || null > D)
        throw DataError("quadrics-base model: null_space " + std::to_string(null) + " does not fit D=" + std::to_string(D));
    m_mean = std::move(mean);
    m_axes = std::move(axes);
    m_V = Eigen::Map<const Eigen::MatrixXd>(V.data(), D, m);
    m_eigenvalues = Eigen::Map<const Eigen::VectorXd>(ev.data(), D);
    m_nullSpace = static_cast<int>(null);
}

} // namespace olens
