#include "detectors/mcd/McdDetector.h"
#include "detectors/TrainingHistory.h"

#include "base/Errors.h"
#include "base/Rng.h"
#include "detectors/DetectorInfo.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <Eigen/Dense>

namespace olens {

namespace {
const char* kPaper = "Rousseeuw & Van Driessen, FastMCD, Technometrics 1999";
constexpr int kTrials = 30;    // random initial h-subsets (scikit-learn's fast_mcd)
constexpr int kBest = 10;      // kept after two C-steps, then iterated to convergence
constexpr int kMaxSteps = 30;  // C-steps per candidate
constexpr double kRankTol = 1e-12; // eigenvalue ratio below which a covariance counts as singular
constexpr double kExactFitRidge = 1e-6; // ridge (relative to the largest eigenvalue) of an exact fit
constexpr double kNearNull = 1e-8; // eigenvalue ratio reported as a near-singular direction

struct Estimate {
    Eigen::VectorXd loc;
    Eigen::MatrixXd cov;
    double logdet = 0.0;
    int nullity = 0; // eigenvalues below kRankTol · largest: > 0 is an exact fit (h rows on a flat)
};

// The order in which candidates compete: any full-rank subset before any exact fit, then the lower
// determinant. An exact fit has det S = 0 and would win every comparison, although on discrete data
// (a column whose mode holds more than h rows: Shuttle, integer scores) it is a lattice artefact, not
// the majority's shape (FastMCD, sec. 3, likewise redraws a start whose det S = 0).
bool better(const Estimate& a, const Estimate& b)
{
    return a.nullity != b.nullity ? a.nullity < b.nullity : a.logdet < b.logdet;
}

// Regularised upper incomplete gamma Q(a, x) (series / continued fraction, Numerical Recipes 6.2).
double gammaQ(double a, double x)
{
    if (x <= 0.0)
        return 1.0;
    const double lnPre = -x + a * std::log(x) - std::lgamma(a);
    if (x < a + 1.0) {
        double ap = a, sum = 1.0 / a, del = sum;
        for (int i = 0; i < 1000; ++i) {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if (std::fabs(del) < std::fabs(sum) * 1e-17)
                break;
        }
        return 1.0 - sum * std::exp(lnPre);
    }
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 1000; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (std::fabs(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1.0) < 1e-17)
            break;
    }
    return std::exp(lnPre) * h;
}

double median(Eigen::VectorXd v)
{
    const Eigen::Index n = v.size();
    std::sort(v.data(), v.data() + n);
    return n % 2 ? v(n / 2) : 0.5 * (v(n / 2 - 1) + v(n / 2));
}

Eigen::VectorXd mahalanobis2(const Eigen::MatrixXd& Z, const Eigen::VectorXd& loc, const Eigen::MatrixXd& precision)
{
    const Eigen::MatrixXd C = Z.rowwise() - loc.transpose();
    return (C * precision).cwiseProduct(C).rowwise().sum();
}

// Indices of the h smallest values (ties by index, so the result does not depend on the sort).
std::vector<int> smallest(const Eigen::VectorXd& d, int h)
{
    std::vector<int> idx(static_cast<std::size_t>(d.size()));
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&d](int a, int b) { return d(a) < d(b); });
    idx.resize(static_cast<std::size_t>(h));
    return idx;
}

// Variance of the rounding of each column of Z: δ²/12 when the column's values lie on a lattice of
// step δ (every x − min a whole multiple of δ, the smallest gap between two distinct values: integer
// or ordinal data, also after z-scoring), none otherwise (measured values with many digits). It is
// the variance of a uniform error over one step: added to every covariance, it is the MCD of the
// data with their rounding undone. On integer data (Shuttle, ordinal scores) an h-subset sitting on
// one or two lattice values then no longer looks (near-)singular and wins the determinant comparison
// by an artefact of the recording. δ scales with the column, so the scores stay affine invariant.
Eigen::VectorXd roundingVariance(const Eigen::MatrixXd& Z)
{
    Eigen::VectorXd floor = Eigen::VectorXd::Zero(Z.cols());
    std::vector<double> v(static_cast<std::size_t>(Z.rows()));
    for (Eigen::Index j = 0; j < Z.cols(); ++j) {
        for (Eigen::Index i = 0; i < Z.rows(); ++i)
            v[static_cast<std::size_t>(i)] = Z(i, j);
        std::sort(v.begin(), v.end());
        double gap = std::numeric_limits<double>::infinity();
        for (std::size_t i = 1; i < v.size(); ++i)
            if (v[i] > v[i - 1])
                gap = std::min(gap, v[i] - v[i - 1]);
        if (!std::isfinite(gap))
            continue;
        // Few steps per range (≤ 10⁶) keep the quotients exact enough for the 10⁻⁶ test.
        if ((v.back() - v.front()) / gap > 1e6)
            continue;
        bool lattice = true;
        for (std::size_t i = 0; i < v.size() && lattice; ++i) {
            const double k = (v[i] - v.front()) / gap;
            lattice = std::abs(k - std::round(k)) <= 1e-6;
        }
        if (lattice)
            floor(j) = gap * gap / 12.0;
    }
    return floor;
}

// Directions in which the covariance is (nearly) flat: eigenvalues below kNearNull × the largest. An
// exact fit of continuous data (h rows on a plane, up to rounding) has them even with the rounding
// floor; the fit diagnostics report them as "near-singular".
int nearNullDirections(const Eigen::MatrixXd& cov)
{
    const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(cov, Eigen::EigenvaluesOnly).eigenvalues();
    return static_cast<int>((ev.array() < kNearNull * ev(ev.size() - 1)).count());
}

// Mean and biased covariance (1/m, scikit-learn's empirical_covariance) of the given rows, plus the
// rounding variance `floor` (roundingVariance) on the diagonal.
Estimate meanCov(const Eigen::MatrixXd& Z, const std::vector<int>& rows, const Eigen::VectorXd& floor)
{
    Eigen::MatrixXd S(static_cast<Eigen::Index>(rows.size()), Z.cols());
    for (std::size_t i = 0; i < rows.size(); ++i)
        S.row(static_cast<Eigen::Index>(i)) = Z.row(rows[i]);
    Estimate e;
    e.loc = S.colwise().mean().transpose();
    const Eigen::MatrixXd C = S.rowwise() - e.loc.transpose();
    e.cov = (C.transpose() * C) / static_cast<double>(rows.size());
    e.cov.diagonal() += floor;
    return e;
}

// log det of a covariance and its inverse. An exact fit (the h points on a lower-dimensional affine
// subspace: duplicates, discrete or collinear features — Ionosphere, Spambase and Shuttle all have
// one) is regularised: cov + ε I with ε = kExactFitRidge · (largest eigenvalue), so that points off
// the subspace get large but finite distances (issue #17: no refusal on real data). Only a zero
// covariance (all h points identical) is refused.
void factor(Estimate& e, Eigen::MatrixXd* precision, int m, int n)
{
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(e.cov);
    Eigen::VectorXd ev = es.eigenvalues();
    const double top = ev(ev.size() - 1);
    int rank = 0;
    for (Eigen::Index i = 0; i < ev.size(); ++i)
        if (ev(i) > kRankTol * top)
            ++rank;
    if (!(top > 0.0))
        throw DataError("mcd: the covariance of " + std::to_string(m) + " of the " + std::to_string(n)
                        + " points is zero (they are identical); the data need at least two distinct points "
                          "in the majority");
    // e.cov itself stays as measured, so that factoring it again finds the same null directions.
    e.nullity = static_cast<int>(ev.size()) - rank;
    if (rank < ev.size())
        ev.array() += kExactFitRidge * top; // cov + εI: the same eigenvectors
    e.logdet = ev.array().log().sum();
    if (precision)
        *precision = es.eigenvectors() * ev.cwiseInverse().asDiagonal() * es.eigenvectors().transpose();
}

// C-steps (theorem 1) from a support or from an estimate, as scikit-learn's _c_step.
Estimate cSteps(const Eigen::MatrixXd& Z, const Eigen::VectorXd& floor, int h, Estimate start, bool fromSupport,
                const std::vector<int>& support, int steps, std::vector<Estimate>* path = nullptr)
{
    const int n = static_cast<int>(Z.rows());
    Estimate e;
    if (fromSupport) {
        e = meanCov(Z, support, floor);
        factor(e, nullptr, h, n);
        if (path) // the start of a recorded path: the random h-subset itself
            path->push_back(e);
    } else {
        Eigen::MatrixXd P;
        factor(start, &P, h, n);
        e = meanCov(Z, smallest(mahalanobis2(Z, start.loc, P), h), floor);
        factor(e, nullptr, h, n);
        if (!better(e, start))
            return start; // the first step too may not move into an exact fit
        if (path)
            path->push_back(e);
    }
    // Theorem 1: each step lowers det S. A step into an exact fit (more null directions) is not
    // taken: the full-rank subset before it is kept (see better()).
    while (steps-- > 0) {
        Eigen::MatrixXd P;
        factor(e, &P, h, n);
        Estimate next = meanCov(Z, smallest(mahalanobis2(Z, e.loc, P), h), floor);
        factor(next, nullptr, h, n);
        if (!better(next, e))
            break;
        e = std::move(next);
        if (path)
            path->push_back(e);
    }
    return e;
}

std::vector<double> toVector(const Eigen::MatrixXd& M) { return std::vector<double>(M.data(), M.data() + M.size()); }

// The raw MCD made consistent at the normal model and reweighted (sec. 6; scikit-learn's
// correct_covariance and reweight_covariance).
struct Reweighted {
    Estimate estimate; // its covariance carries factor()'s ridge when an exact fit (for drawing and saving)
    Eigen::MatrixXd precision;
    int support = 0; // rows within the χ²_p(0.975) cut
    int nullity = 0; // near-null directions
};

Reweighted reweight(const Eigen::MatrixXd& Z, const Eigen::VectorXd& floor, Estimate raw, int h)
{
    const int n = static_cast<int>(Z.rows());
    const int p = static_cast<int>(Z.cols());
    Eigen::MatrixXd rawPrecision;
    factor(raw, &rawPrecision, h, n);
    Eigen::VectorXd dist = mahalanobis2(Z, raw.loc, rawPrecision);
    const double correction = median(dist) / McdDetector::chi2Isf(0.5, p);
    if (!(correction > 0.0) || !std::isfinite(correction))
        throw DataError("mcd: half of the " + std::to_string(n) + " points coincide with the robust centre (median "
                        "distance 0); the data are (nearly) identical points");
    dist /= correction;
    const double cut = McdDetector::chi2Isf(0.025, p);
    std::vector<int> keep;
    for (int i = 0; i < n; ++i)
        if (dist(i) < cut)
            keep.push_back(i);
    if (static_cast<int>(keep.size()) < p + 1)
        throw DataError("mcd: only " + std::to_string(keep.size()) + " points within the 97.5 % chi-square quantile "
                        "of the raw MCD; a covariance needs " + std::to_string(p + 1));
    Reweighted r;
    r.estimate = meanCov(Z, keep, floor);
    factor(r.estimate, &r.precision, static_cast<int>(keep.size()), n);
    r.support = static_cast<int>(keep.size());
    r.nullity = std::max(r.estimate.nullity, nearNullDirections(r.estimate.cov));
    if (r.estimate.nullity > 0)
        r.estimate.cov.diagonal().array()
            += kExactFitRidge
               * Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(r.estimate.cov, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
    return r;
}

// saveState()'s format (also a recorded step's).
nlohmann::json mcdState(const Eigen::VectorXd& offset, const Eigen::VectorXd& scale, const Eigen::VectorXd& loc,
                        const Eigen::MatrixXd& cov, int support, int h, int nullity)
{
    return {{"offset", toVector(offset)}, {"scale", toVector(scale)}, {"location_scaled", toVector(loc)},
            {"covariance_scaled", toVector(cov)}, {"support", support}, {"h", h}, {"null_directions", nullity}};
}

nlohmann::json mcdState(const Eigen::VectorXd& offset, const Eigen::VectorXd& scale, const Reweighted& r, int h)
{
    return mcdState(offset, scale, r.estimate.loc, r.estimate.cov, r.support, h, r.nullity);
}

// MRCD (Boudt, Rousseeuw, Vanduffel & Verdonck, "The minimum regularized covariance determinant
// estimator", Statistics and Computing 2020) for fewer rows than a covariance needs (n < p + 2,
// where the MCD's h-subsets are all flat): on robustly standardised columns u = (x − median)/MAD,
// the regularised covariance K(H) = ρ I + (1 − ρ) S(H) (their eq. 3 with target T = I), one ρ for
// every start: the largest of the starts' smallest ρ with cond K ≤ κ = 50 (their sec. 3.2),
// C-steps on the h rows of smallest (u − m)ᵀK⁻¹(u − m) (their Theorem 1: det K never rises),
// h = ⌈0.75 n⌉ (their default α). Starts: the h rows nearest the coordinatewise median (one of
// their deterministic starts) and kTrials random h-subsets. No consistency factor and no
// reweighting step: they rescale the scores, not the ranking.
struct Regularised {
    Eigen::VectorXd loc;
    std::vector<int> rows; // H
    double logdet = 0.0;
    double rho = 0.0;
};

constexpr double kConditionTarget = 50.0; // κ of Boudt et al. sec. 3.2
constexpr int kMaxRegularisedDimension = 2000; // K and K⁻¹ are p × p (32 MB each at 2000)

// For n < p + 2 every S(H) (h ≤ n rows) has rank < h ≤ p, so K = ρ I + a CᵀC (C: the h centred
// rows, a = (1 − ρ)/h) is handled through the h × h Gram matrix CCᵀ: its eigenvalues μ give det K =
// ρ^(p−h) Π(ρ + aμ) and Woodbury gives (u−m)ᵀK⁻¹(u−m) = (‖y‖² − (Cy)ᵀ(ρ/a I + CCᵀ)⁻¹(Cy))/ρ —
// O(h²p) per step instead of O(p³).
struct GramStep {
    Eigen::MatrixXd C;                   // h × p centred rows of H
    Eigen::VectorXd loc;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig; // of CCᵀ
};

GramStep gramStep(const Eigen::MatrixXd& U, const std::vector<int>& rows)
{
    GramStep g;
    Eigen::MatrixXd S(static_cast<Eigen::Index>(rows.size()), U.cols());
    for (std::size_t i = 0; i < rows.size(); ++i)
        S.row(static_cast<Eigen::Index>(i)) = U.row(rows[i]);
    g.loc = S.colwise().mean().transpose();
    g.C = S.rowwise() - g.loc.transpose();
    g.eig.compute(g.C * g.C.transpose());
    return g;
}

// The smallest ρ with cond(ρ I + (1 − ρ) S) ≤ κ; S is singular here (λmin = 0), so ρ solves
// ρ + (1 − ρ)λmax = κρ: ρ = λmax / (λmax + κ − 1), λmax = the largest eigenvalue of S = CᵀC/h.
double conditionRho(const GramStep& g)
{
    const double lmax = std::max(g.eig.eigenvalues().maxCoeff(), 0.0) / static_cast<double>(g.C.rows());
    // A subset of identical rows (S = 0): K = I meets any condition bound (ρ = 0 made det K 0 and
    // every distance NaN).
    if (!(lmax > 0.0) || !std::isfinite(lmax))
        return 1.0;
    return lmax / (lmax + kConditionTarget - 1.0);
}

double gramLogDet(const GramStep& g, double rho, Eigen::Index p)
{
    const auto h = static_cast<double>(g.C.rows());
    const double a = (1.0 - rho) / h;
    return (static_cast<double>(p) - h) * std::log(rho)
           + (rho + a * g.eig.eigenvalues().cwiseMax(0.0).array()).log().sum();
}

Eigen::VectorXd gramDistances(const Eigen::MatrixXd& U, const GramStep& g, double rho)
{
    const double a = (1.0 - rho) / static_cast<double>(g.C.rows());
    const Eigen::MatrixXd Y = U.rowwise() - g.loc.transpose();       // n × p
    const Eigen::MatrixXd CY = g.C * Y.transpose();                    // h × n
    // (ρ/a I + CCᵀ)⁻¹ through CCᵀ's eigenvectors.
    const Eigen::MatrixXd VtCY = g.eig.eigenvectors().transpose() * CY;
    const Eigen::VectorXd inv = (g.eig.eigenvalues().cwiseMax(0.0).array() + rho / a).inverse();
    const Eigen::VectorXd quad = (VtCY.array().square().colwise() * inv.array()).colwise().sum().transpose();
    return (Y.rowwise().squaredNorm() - quad) / rho;
}

Regularised regularisedCSteps(const Eigen::MatrixXd& U, int h, std::vector<int> rows, double rho)
{
    GramStep g = gramStep(U, rows);
    Regularised r{g.loc, rows, gramLogDet(g, rho, U.cols()), rho};
    for (int step = 0; step < kMaxSteps; ++step) {
        std::vector<int> next = smallest(gramDistances(U, g, rho), h);
        std::sort(next.begin(), next.end());
        if (next == r.rows)
            break;
        GramStep candidate = gramStep(U, next);
        const double logdet = gramLogDet(candidate, rho, U.cols());
        if (!(logdet < r.logdet))
            break;
        g = std::move(candidate);
        r = Regularised{g.loc, std::move(next), logdet, rho};
    }
    return r;
}
} // namespace

double McdDetector::chi2Isf(double q, int dof)
{
    const double a = 0.5 * dof;
    double lo = 0.0, hi = std::max(1.0, 2.0 * dof);
    while (gammaQ(a, 0.5 * hi) > q)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (gammaQ(a, 0.5 * mid) > q ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

DetectorInfo McdDetector::info()
{
    DetectorInfo d;
    d.id = "mcd";
    d.title = "Robust covariance (MCD)";
    d.summary = "Score = squared Mahalanobis distance to the Minimum Covariance Determinant ellipsoid "
                "(FastMCD, consistency-corrected and reweighted as scikit-learn's MinCovDet).";
    d.reference = std::string(kPaper) + " (sec. 2-3, 6); scikit-learn MinCovDet / EllipticEnvelope";
    d.normalization = "none"; // affine equivariant: the scores do not depend on per-feature scaling
    ParamSpec sf;
    sf.name = "h_fraction";
    sf.type = ParamType::Real;
    sf.defaultValue = "auto";
    sf.autoRule = "⌈(n + p + 1)/2⌉ / n: the smallest subset with the highest breakdown point (shown as that fraction)";
    sf.paperValue = "0"; // the same h, written as the paper's h = (n + p + 1)/2 rule
    sf.minValue = 0.0;
    sf.maxValue = 1.0;
    sf.help = "Fraction of the rows in the MCD subset (scikit-learn's support_fraction): h = ⌊fraction·n⌋; auto (or 0) = h = ⌈(n + p + 1)/2⌉, "
              "the highest breakdown point.";
    sf.reference = std::string(kPaper) + " sec. 1 (h = (n + p + 1)/2); scikit-learn support_fraction=None";
    d.params = {sf, seedParam("Seed of the 30 random initial subsets (the result is the same whenever the MCD is "
                              "well separated)."),
                contaminationParam("robust distance² > χ²_p(0.975), the reweighting cut-off of Rousseeuw & Van Driessen")};
    d.make = [](ParamSet p) { return std::make_unique<McdDetector>(std::move(p)); };
    return d;
}

McdDetector::McdDetector(ParamSet params) : Detector(std::move(params)) {}

const Eigen::VectorXd& McdDetector::location() const
{
    requireFitted("location");
    return m_location;
}

const Eigen::MatrixXd& McdDetector::covariance() const
{
    requireFitted("covariance");
    return m_covariance;
}

Eigen::VectorXd McdDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const int n = static_cast<int>(X.rows());
    const int p = static_cast<int>(X.cols());
    if (n < p + 2)
        return fitRegularised(X, progress);
    m_rho = 0.0;
    // auto (and 0, as stored by older sessions): h = ⌈(n + p + 1)/2⌉; the form shows h/n.
    const int hAuto = static_cast<int>(std::ceil(0.5 * (n + p + 1)));
    const bool isAuto = params().isAuto("h_fraction");
    const double fraction = isAuto ? autoReal("h_fraction", static_cast<double>(hAuto) / n) : params().getReal("h_fraction");
    const int h = !isAuto && fraction > 0.0 ? static_cast<int>(fraction * n) : hAuto;
    if (h < p + 1 || h > n)
        throw ParamError("mcd: h_fraction = " + std::to_string(fraction) + " gives h = " + std::to_string(h)
                         + " rows; a " + std::to_string(p) + "-dimensional covariance needs h between "
                         + std::to_string(p + 1) + " and n = " + std::to_string(n));

    // The MCD is affine equivariant: work on columns scaled to [0, 1] (conditioning at 1e±150).
    const Eigen::RowVectorXd lo = X.colwise().minCoeff();
    const Eigen::RowVectorXd range = X.colwise().maxCoeff() - lo;
    for (int j = 0; j < p; ++j)
        if (!(range(j) > 0.0) || !std::isfinite(range(j)))
            throw DataError("mcd: column " + std::to_string(j + 1)
                            + (range(j) > 0.0 ? " has a range that is not finite" : " is constant")
                            + ": its covariance is singular; drop it");
    const Eigen::MatrixXd Z = (X.rowwise() - lo).array().rowwise() / range.array();
    const Eigen::VectorXd floor = roundingVariance(Z);

    Estimate raw;
    std::vector<Estimate> rawPath; // the winner's C-steps, when recording
    if (p == 1) {
        // Exact one-dimensional MCD: the shortest half (scikit-learn's fast_mcd, n_features == 1).
        Eigen::VectorXd z = Z.col(0);
        Eigen::VectorXd s = z;
        std::sort(s.data(), s.data() + n);
        double location = 0.0;
        std::vector<int> support;
        if (h < n) {
            double best = std::numeric_limits<double>::infinity();
            for (int i = 0; i + h < n; ++i)
                best = std::min(best, s(i + h) - s(i));
            int count = 0;
            for (int i = 0; i + h < n; ++i)
                if (s(i + h) - s(i) == best) {
                    location += 0.5 * (s(h + i) + s(i));
                    ++count;
                }
            location /= count;
            support = smallest((z.array() - location).abs().matrix(), h);
        } else {
            location = z.mean();
            support.resize(static_cast<std::size_t>(n));
            std::iota(support.begin(), support.end(), 0);
        }
        raw = meanCov(Z, support, floor);
        raw.loc(0) = location;
        factor(raw, nullptr, h, n);
    } else {
        Rng rng(static_cast<std::uint64_t>(params().getInt("seed")));
        // A recorded fit keeps each start's C-step path, then shows the winner's from its random
        // h-subset on (theorem 1: det S falls at every step).
        const bool recording = recorder() != nullptr;
        std::vector<std::vector<Estimate>> paths(recording ? kTrials : 0);
        std::vector<Estimate> candidates;
        std::vector<int> perm(static_cast<std::size_t>(n));
        for (int t = 0; t < kTrials; ++t) {
            std::iota(perm.begin(), perm.end(), 0);
            for (int i = 0; i < h; ++i)
                std::swap(perm[static_cast<std::size_t>(i)],
                          perm[static_cast<std::size_t>(i) + rng.index(static_cast<std::uint64_t>(n - i))]);
            candidates.push_back(cSteps(Z, floor, h, {}, true, std::vector<int>(perm.begin(), perm.begin() + h), 2,
                                        recording ? &paths[static_cast<std::size_t>(t)] : nullptr));
            progress.report(0.5 * (t + 1) / kTrials, "C-steps from random subsets");
        }
        std::vector<int> order(static_cast<std::size_t>(kTrials));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&candidates](int a, int b) {
            return better(candidates[static_cast<std::size_t>(a)], candidates[static_cast<std::size_t>(b)]);
        });
        bool first = true;
        for (int t = 0; t < kBest; ++t) {
            const int trial = order[static_cast<std::size_t>(t)];
            std::vector<Estimate> more;
            Estimate e = cSteps(Z, floor, h, candidates[static_cast<std::size_t>(trial)], false, {}, kMaxSteps,
                                recording ? &more : nullptr);
            if (first || better(e, raw)) {
                raw = e;
                if (recording) {
                    rawPath = paths[static_cast<std::size_t>(trial)];
                    rawPath.insert(rawPath.end(), more.begin(), more.end());
                }
            }
            first = false;
            progress.report(0.5 + 0.4 * (t + 1) / kBest, "C-steps to convergence");
        }
    }

    const Reweighted rw = reweight(Z, floor, raw, h);
    const Eigen::VectorXd train = mahalanobis2(Z, rw.estimate.loc, rw.precision);
    if (HistoryRecorder* rec = recorder(); rec && !rawPath.empty()) {
        const int last = static_cast<int>(rawPath.size()) - 1;
        for (int k = 0; k < last; ++k) {
            if (!rec->wants(k))
                continue;
            try { // an early subset may not reweight (too few points within the cut): not shown
                const Reweighted at = reweight(Z, floor, rawPath[static_cast<std::size_t>(k)], h);
                nlohmann::json state = mcdState(lo.transpose(), range.transpose(), at, h);
                state["raw_location_scaled"] = toVector(rawPath[static_cast<std::size_t>(k)].loc);
                state["raw_covariance_scaled"] = toVector(rawPath[static_cast<std::size_t>(k)].cov);
                rec->record(k, rawPath[static_cast<std::size_t>(k)].logdet, std::move(state));
            } catch (const DataError&) {
            }
        }
        nlohmann::json state = mcdState(lo.transpose(), range.transpose(), rw, h);
        state["raw_location_scaled"] = toVector(raw.loc);
        state["raw_covariance_scaled"] = toVector(raw.cov);
        rec->record(last, raw.logdet, std::move(state), true);
    }
    // Commit: scoring runs on the scaled coordinates; location/covariance are kept in input units.
    m_location = lo.transpose() + range.transpose().cwiseProduct(rw.estimate.loc);
    m_covariance = range.transpose().asDiagonal() * rw.estimate.cov * range.asDiagonal();
    m_offset = lo.transpose();
    m_scale = range.transpose();
    m_locZ = rw.estimate.loc;
    m_covZ = rw.estimate.cov;
    m_precision = rw.precision;
    m_support = rw.support;
    m_h = h;
    m_nullity = rw.nullity;
    return train;
}

Eigen::VectorXd McdDetector::fitRegularised(const Eigen::MatrixXd& X, const Progress& progress)
{
    const int n = static_cast<int>(X.rows());
    const int p = static_cast<int>(X.cols());
    if (n < 3)
        throw DataError("mcd needs at least 3 rows, got " + std::to_string(n));
    if (p > kMaxRegularisedDimension)
        throw DataError("mcd needs at least p + 2 = " + std::to_string(p + 2) + " rows for a " + std::to_string(p)
                        + "-dimensional covariance, got " + std::to_string(n) + "; with fewer it regularises (MRCD) up to "
                        + std::to_string(kMaxRegularisedDimension) + " features: reduce the features (e.g. PCA) or use "
                          "knn or iforest");
    // Robust standardisation (Boudt et al. sec. 3.1: median and a robust scale per column; here
    // the MAD, the standard deviation where the MAD is 0 — a column more than half one value).
    Eigen::VectorXd offset(p), scale(p);
    for (int j = 0; j < p; ++j) {
        const double md = median(X.col(j));
        const double mad = 1.4826 * median((X.col(j).array() - md).abs().matrix());
        const double mean = X.col(j).mean();
        const double sd = std::sqrt((X.col(j).array() - mean).square().sum() / std::max(1, n - 1));
        const double s = mad > 0.0 ? mad : sd;
        if (!(s > 0.0) || !std::isfinite(s))
            throw DataError("mcd: column " + std::to_string(j + 1)
                            + (std::isfinite(s) ? " is constant" : " has a spread that is not finite")
                            + ": its covariance is singular; drop it");
        offset(j) = md;
        scale(j) = s;
    }
    const Eigen::MatrixXd U = (X.rowwise() - offset.transpose()).array().rowwise() / scale.transpose().array();
    const bool isAuto = params().isAuto("h_fraction");
    const int hAuto = static_cast<int>(std::ceil(0.75 * n));
    const double fraction = isAuto ? autoReal("h_fraction", static_cast<double>(hAuto) / n) : params().getReal("h_fraction");
    const int h = std::clamp(!isAuto && fraction > 0.0 ? static_cast<int>(fraction * n) : hAuto, 2, n);

    std::vector<std::vector<int>> starts;
    {
        std::vector<int> nearest = smallest(U.rowwise().squaredNorm(), h);
        std::sort(nearest.begin(), nearest.end());
        starts.push_back(std::move(nearest));
    }
    Rng rng(static_cast<std::uint64_t>(params().getInt("seed")));
    std::vector<int> perm(static_cast<std::size_t>(n));
    for (int t = 0; t < kTrials; ++t) {
        std::iota(perm.begin(), perm.end(), 0);
        for (int i = 0; i < h; ++i)
            std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(i) + rng.index(static_cast<std::uint64_t>(n - i))]);
        std::vector<int> rows(perm.begin(), perm.begin() + h);
        std::sort(rows.begin(), rows.end());
        starts.push_back(std::move(rows));
    }
    // One ρ for every start (the largest that any start's subset needs for cond K ≤ κ): the
    // determinants of starts with different ρ are different objectives and cannot be compared.
    double rho = 0.0;
    for (const auto& rows : starts)
        rho = std::max(rho, conditionRho(gramStep(U, rows)));
    Regularised best;
    bool first = true;
    for (std::size_t t = 0; t < starts.size(); ++t) {
        Regularised r = regularisedCSteps(U, h, starts[t], rho);
        if (first || (std::isfinite(r.logdet) && !(best.logdet <= r.logdet)))
            best = std::move(r);
        first = false;
        progress.report(0.95 * double(t + 1) / double(starts.size()), "regularised C-steps (MRCD)");
    }
    // K and K⁻¹ once, for drawing, saving and scoring new rows: K = ρI + a CᵀC, and by Woodbury
    // K⁻¹ = (I − Cᵀ(ρ/a I + CCᵀ)⁻¹C)/ρ.
    const GramStep g = gramStep(U, best.rows);
    const double a = (1.0 - best.rho) / static_cast<double>(h);
    Eigen::MatrixXd K = a * (g.C.transpose() * g.C);
    K.diagonal().array() += best.rho;
    const Eigen::MatrixXd VtC = g.eig.eigenvectors().transpose() * g.C;
    const Eigen::VectorXd inv = (g.eig.eigenvalues().cwiseMax(0.0).array() + best.rho / a).inverse();
    Eigen::MatrixXd precision = -(VtC.transpose() * inv.asDiagonal() * VtC);
    precision.diagonal().array() += 1.0;
    precision /= best.rho;
    const Eigen::VectorXd train = gramDistances(U, g, best.rho);
    m_offset = offset;
    m_scale = scale;
    m_locZ = best.loc;
    m_covZ = K;
    m_precision = std::move(precision);
    m_location = offset + scale.cwiseProduct(best.loc);
    m_covariance = scale.asDiagonal() * K * scale.asDiagonal();
    m_support = h;
    m_h = h;
    m_nullity = 0;
    m_rho = best.rho;
    return train;
}

Eigen::VectorXd McdDetector::doScore(const Eigen::MatrixXd& X) const
{
    const Eigen::MatrixXd Z = (X.rowwise() - m_offset.transpose()).array().rowwise() / m_scale.transpose().array();
    return mahalanobis2(Z, m_locZ, m_precision);
}

Geometry McdDetector::geometry() const
{
    Geometry g;
    if (!isFitted())
        return g;
    const int p = inputDimension();
    const char* shape = p == 2 ? "ellipse" : "ellipsoid";
    char buf[96]; // ASCII: the names go into VTK's legend font
    std::snprintf(buf, sizeof buf, "MCD %s at the threshold (d^2 = %.3g)", shape, threshold());
    g.quadrics.push_back(ellipsoidQuadric(m_location, m_covariance, threshold(), buf));
    const double cut = chi2Isf(0.025, p);
    std::snprintf(buf, sizeof buf, "MCD %s, chi2_%d 97.5%% (d^2 = %.3g)", shape, p, cut);
    g.quadrics.push_back(ellipsoidQuadric(m_location, m_covariance, cut, buf));
    return g;
}

Eigen::VectorXd McdDetector::attribute(const Eigen::VectorXd& x, int /*trainingRow*/) const
{
    requireFitted("attribute");
    if (x.size() != inputDimension())
        throw DataError("mcd: attribution needs " + std::to_string(inputDimension()) + " features");
    const Eigen::VectorXd delta = (x - m_offset).cwiseQuotient(m_scale) - m_locZ;
    return delta.cwiseProduct(m_precision * delta);
}

std::vector<std::string> McdDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    const Eigen::VectorXd d = doScore(X);
    const double cut = chi2Isf(0.025, inputDimension());
    std::vector<std::string> out(static_cast<std::size_t>(X.rows()));
    char buf[128];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        std::snprintf(buf, sizeof buf, "robust Mahalanobis² %.3g (χ²_%d 97.5 %% = %.3g)", d(i), inputDimension(), cut);
        out[static_cast<std::size_t>(i)] = buf;
    }
    return out;
}

std::map<std::string, double> McdDetector::figures() const
{
    requireFitted("figures");
    // null_directions > 0: the robust covariance is (nearly) flat in that many directions (≥ h rows
    // on a flat: collinear columns); the fit diagnostics warn "near-singular".
    // regularised > 0: fewer rows than a covariance needs (n < p + 2), fitted by MRCD with ρ = that
    // weight on the identity target; the fit diagnostics say so ("regularised").
    return {{"h", static_cast<double>(m_h)}, {"support", static_cast<double>(m_support)},
            {"null_directions", static_cast<double>(m_nullity)}, {"regularised", m_rho}};
}

nlohmann::json McdDetector::saveState() const
{
    nlohmann::json j = mcdState(m_offset, m_scale, m_locZ, m_covZ, m_support, m_h, m_nullity);
    if (m_rho > 0.0)
        j["regularised"] = m_rho;
    return j;
}

void McdDetector::loadState(const nlohmann::json& state)
{
    const int p = inputDimension();
    auto read = [&state, p](const char* key, Eigen::Index size) {
        const auto v = state.at(key).get<std::vector<double>>();
        if (static_cast<Eigen::Index>(v.size()) != size)
            throw DataError(std::string("mcd model: ") + key + " has " + std::to_string(v.size()) + " values, expected "
                            + std::to_string(size) + " for dimension " + std::to_string(p));
        return Eigen::Map<const Eigen::MatrixXd>(v.data(), size, 1).eval();
    };
    const Eigen::VectorXd offset = read("offset", p), scale = read("scale", p), loc = read("location_scaled", p);
    Eigen::MatrixXd cov = read("covariance_scaled", static_cast<Eigen::Index>(p) * p);
    cov.resize(p, p);
    Estimate e{loc, cov, 0.0};
    Eigen::MatrixXd precision;
    factor(e, &precision, 0, 0);
    m_offset = offset;
    m_scale = scale;
    m_locZ = loc;
    m_covZ = cov;
    m_precision = precision;
    m_location = offset + scale.cwiseProduct(loc);
    m_covariance = scale.asDiagonal() * cov * scale.asDiagonal();
    m_support = static_cast<int>(jsonInt(state.at("support"), "mcd model: support"));
    m_h = static_cast<int>(jsonInt(state.at("h"), "mcd model: h"));
    m_nullity = static_cast<int>(jsonIntOr(state, "null_directions", 0, "mcd model"));
    const auto it = state.find("regularised");
    const double rho = it == state.end() ? 0.0 : it->is_number() ? it->get<double>() : -1.0;
    if (!(rho >= 0.0 && rho < 1.0))
        throw DataError("mcd model: regularised = " + std::to_string(rho) + " is outside [0, 1)");
    m_rho = rho;
}

std::optional<double> McdDetector::naturalThreshold() const
{
    return chi2Isf(0.025, inputDimension()); // the cut of the reweighting step (FastMCD sec. 5)
}

} // namespace olens
