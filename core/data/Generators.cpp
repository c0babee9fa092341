#include "data/Generators.h"

#include "base/Errors.h"
#include "data/NoiseProtocol.h"
#include "base/Rng.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace olens {

namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kTwoPi = 6.283185307179586476925286766559005768;
constexpr int kMaxSamples = 10'000'000;

/// Draws `rows` inlier samples from the generator's shape. Every random number comes from `rng`
/// in a fixed order, so the same (params, rows, seed) always gives the same matrix.
using ShapeFn = std::function<Eigen::MatrixXd(const ParamSet&, Rng&, Eigen::Index rows)>;

struct Generator {
    GeneratorInfo info;
    ShapeFn shape;
};

ParamSpec intParam(std::string name, int def, double lo, double hi, std::string help, std::string ref)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Int;
    s.defaultValue = std::to_string(def);
    s.minValue = lo;
    s.maxValue = hi;
    s.help = std::move(help);
    s.reference = std::move(ref);
    return s;
}

ParamSpec realParam(std::string name, std::string def, double lo, double hi, std::string help, std::string ref)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Real;
    s.defaultValue = std::move(def);
    s.minValue = lo;
    s.maxValue = hi;
    s.help = std::move(help);
    s.reference = std::move(ref);
    return s;
}

ParamSpec boolParam(std::string name, bool def, std::string help, std::string ref)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Bool;
    s.defaultValue = def ? "true" : "false";
    s.minValue = 0;
    s.maxValue = 1;
    s.help = std::move(help);
    s.reference = std::move(ref);
    return s;
}

ParamSpec outliersParam()
{
    return realParam("outliers", "0", 0.0, 0.9,
                     "Fraction of the n samples (rounded) replaced by uniform background points in the inliers' "
                     "bounding box enlarged by 10% per side, labelled 1.",
                     "OutlierLens background-noise convention (uniform contamination of the data box)");
}

ParamSpec noiseParam(const char* def, const std::string& ref)
{
    return realParam("noise", def, 0.0, 100.0,
                     "Standard deviation of the Gaussian noise added to every coordinate.", ref);
}

void addNoise(Eigen::MatrixXd& X, double sigma, Rng& rng)
{
    if (sigma <= 0.0)
        return;
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            X(i, j) += sigma * rng.normal();
}

/// Tennis-ball seam (quadrics paper eq. 18-19):
///   x = a cos t + b cos 3t,  y = a sin t − b sin 3t,  z = 2 sqrt(ab) sin 2t.
/// It lies on the sphere x² + y² + z² = (a + b)²:
///   x² + y² = a² + b² + 2ab (cos t cos 3t − sin t sin 3t) = a² + b² + 2ab cos 4t,
///   z²      = 4ab sin² 2t = 2ab (1 − cos 4t).
Eigen::Vector3d seamPoint(double t, double a, double b)
{
    return {a * std::cos(t) + b * std::cos(3.0 * t),
            a * std::sin(t) - b * std::sin(3.0 * t),
            2.0 * std::sqrt(a * b) * std::sin(2.0 * t)};
}

// ---- shapes ------------------------------------------------------------------------------

/// Isotropic Gaussian clusters (scikit-learn make_blobs): `centers` centres uniform in
/// [-spread, spread]^dim, drawn first; sample i belongs to centre i mod centers.
Eigen::MatrixXd blobs(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    const int k = p.getInt("centers");
    const int dim = p.getInt("dim");
    const double sd = p.getReal("std");
    const double spread = p.getReal("spread");
    Eigen::MatrixXd C(k, dim);
    for (int c = 0; c < k; ++c)
        for (int j = 0; j < dim; ++j)
            C(c, j) = rng.uniform(-spread, spread);
    Eigen::MatrixXd X(rows, dim);
    for (Eigen::Index i = 0; i < rows; ++i) {
        const Eigen::Index c = i % k;
        for (int j = 0; j < dim; ++j)
            X(i, j) = C(c, j) + sd * rng.normal();
    }
    return X;
}

/// Two interleaving half circles (scikit-learn make_moons): the first floor(rows/2) samples on
///   outer: (cos t, sin t),           t ∈ [0, π]
/// the rest on
///   inner: (1 − cos t, 0.5 − sin t), t ∈ [0, π].
/// scikit-learn spaces t evenly; here t is uniform random so every seed gives a new sample.
Eigen::MatrixXd moons(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    const Eigen::Index nOuter = rows / 2;
    Eigen::MatrixXd X(rows, 2);
    for (Eigen::Index i = 0; i < rows; ++i) {
        const double t = rng.uniform(0.0, kPi);
        if (i < nOuter) {
            X(i, 0) = std::cos(t);
            X(i, 1) = std::sin(t);
        } else {
            X(i, 0) = 1.0 - std::cos(t);
            X(i, 1) = 0.5 - std::sin(t);
        }
    }
    addNoise(X, p.getReal("noise"), rng);
    return X;
}

/// Annulus (KODS paper fig. 1d): (ρ cos θ, ρ sin θ) with θ uniform in [0, 2π) and
/// ρ uniform in [radius − width/2, radius + width/2].
Eigen::MatrixXd ring(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    const double radius = p.getReal("radius");
    const double width = p.getReal("width");
    if (width > 2.0 * radius)
        throw ParamError("parameter 'width' of generator 'ring': " + p.text("width")
                         + " exceeds 2*radius = " + std::to_string(2.0 * radius));
    Eigen::MatrixXd X(rows, 2);
    for (Eigen::Index i = 0; i < rows; ++i) {
        const double theta = rng.uniform(0.0, kTwoPi);
        const double rho = rng.uniform(radius - 0.5 * width, radius + 0.5 * width);
        X(i, 0) = rho * std::cos(theta);
        X(i, 1) = rho * std::sin(theta);
    }
    addNoise(X, p.getReal("noise"), rng);
    return X;
}

/// Tennis-ball seam (quadrics paper eq. 18-19), t uniform in [0, 2π); see seamPoint().
Eigen::MatrixXd seam(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    const double a = p.getReal("a");
    const double b = p.getReal("b");
    Eigen::MatrixXd X(rows, 3);
    for (Eigen::Index i = 0; i < rows; ++i)
        X.row(i) = seamPoint(rng.uniform(0.0, kTwoPi), a, b).transpose();
    addNoise(X, p.getReal("noise"), rng);
    return X;
}

/// Sphere of `radius` in `dim` dimensions: x = radius · g/‖g‖ with g standard normal
/// (uniform on the sphere), then Gaussian noise. Zero set of the quadric xᵀx − radius² (quadrics paper eq. 3).
Eigen::MatrixXd sphere(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    const int dim = p.getInt("dim");
    const double radius = p.getReal("radius");
    Eigen::MatrixXd X(rows, dim);
    Eigen::VectorXd g(dim);
    for (Eigen::Index i = 0; i < rows; ++i) {
        double norm = 0.0;
        while (!(norm > 1e-12)) { // a zero vector cannot be normalised; redraw (practically never)
            for (int j = 0; j < dim; ++j)
                g(j) = rng.normal();
            norm = g.norm();
        }
        X.row(i) = (radius / norm) * g.transpose();
    }
    addNoise(X, p.getReal("noise"), rng);
    return X;
}

/// Torus with tube centre radius R and tube radius r, angles u, v uniform in [0, 2π):
///   x = (R + r cos v) cos u,  y = (R + r cos v) sin u,  z = r sin v,
/// so that (sqrt(x² + y²) − R)² + z² = r² when r ≤ R.
Eigen::MatrixXd torus(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    const double R = p.getReal("R");
    const double r = p.getReal("r");
    Eigen::MatrixXd X(rows, 3);
    for (Eigen::Index i = 0; i < rows; ++i) {
        const double u = rng.uniform(0.0, kTwoPi);
        const double v = rng.uniform(0.0, kTwoPi);
        const double w = R + r * std::cos(v);
        X(i, 0) = w * std::cos(u);
        X(i, 1) = w * std::sin(u);
        X(i, 2) = r * std::sin(v);
    }
    addNoise(X, p.getReal("noise"), rng);
    return X;
}

/// Swiss roll (scikit-learn make_swiss_roll; ACDT slides' data set), u, v uniform in [0, 1):
///   t = 1.5π (1 + 2u),  x = t cos t,  y = 21 v,  z = t sin t.
Eigen::MatrixXd swissroll(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    Eigen::MatrixXd X(rows, 3);
    for (Eigen::Index i = 0; i < rows; ++i) {
        const double t = 1.5 * kPi * (1.0 + 2.0 * rng.uniform());
        const double v = rng.uniform();
        X(i, 0) = t * std::cos(t);
        X(i, 1) = 21.0 * v;
        X(i, 2) = t * std::sin(t);
    }
    addNoise(X, p.getReal("noise"), rng);
    return X;
}

/// S curve (scikit-learn make_s_curve), u, v uniform in [0, 1):
///   t = 3π (u − 0.5),  x = sin t,  y = 2 v,  z = sign(t) (cos t − 1).
Eigen::MatrixXd scurve(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    Eigen::MatrixXd X(rows, 3);
    for (Eigen::Index i = 0; i < rows; ++i) {
        const double t = 3.0 * kPi * (rng.uniform() - 0.5);
        const double v = rng.uniform();
        const double sign = t > 0.0 ? 1.0 : (t < 0.0 ? -1.0 : 0.0);
        X(i, 0) = std::sin(t);
        X(i, 1) = 2.0 * v;
        X(i, 2) = sign * (std::cos(t) - 1.0);
    }
    addNoise(X, p.getReal("noise"), rng);
    return X;
}

/// Labelled Gaussian classes for similarity learning (uncertainty-joint-bayesian.txt sec. 4–5):
/// `classes` centres uniform in [-spread, spread]^dim, drawn first; sample i belongs to class
/// i mod classes and is centre + std·N(0, I). Class ids and the sec. 5.1 noise protocol (σ, then
/// noise, sigma_ columns) are applied in generate() by finishClasses().
Eigen::MatrixXd classes(const ParamSet& p, Rng& rng, Eigen::Index rows)
{
    const int k = p.getInt("classes");
    const int dim = p.getInt("dim");
    const double sd = p.getReal("std");
    const double spread = p.getReal("spread");
    Eigen::MatrixXd C(k, dim);
    for (int c = 0; c < k; ++c)
        for (int j = 0; j < dim; ++j)
            C(c, j) = rng.uniform(-spread, spread);
    Eigen::MatrixXd X(rows, dim);
    for (Eigen::Index i = 0; i < rows; ++i)
        for (int j = 0; j < dim; ++j)
            X(i, j) = C(i % k, j) + sd * rng.normal();
    return X;
}

/// Generator "classes": labels are class ids (inliers i mod k; background points are singleton
/// classes k, k+1, ...), then every row gets the sec. 5.1 noise protocol with t.
void finishClasses(Dataset& d, const ParamSet& p, Rng& rng, Eigen::Index nIn)
{
    const int k = p.getInt("classes");
    for (Eigen::Index i = 0; i < d.X.rows(); ++i)
        d.labels(i) = static_cast<double>(i < nIn ? i % k : k + (i - nIn));
    applyNoiseProtocol(d.X, d.sigma, p.getReal("t"), rng);
}

// ---- table -------------------------------------------------------------------------------

const std::vector<Generator>& table()
{
    static const std::vector<Generator> gens = [] {
        const std::string sk = "scikit-learn ";
        const std::string kods = "KODS paper fig. 1d";
        const std::string quad = "quadrics paper eq. 18-19, fig. 2";
        const std::string acdt = "ACDT slides (swiss-roll data set); scikit-learn make_swiss_roll";
        std::vector<Generator> g;

        g.push_back({{"blobs",
                      "Isotropic Gaussian clusters around random centres (scikit-learn make_blobs).",
                      {intParam("centers", 3, 1, 1000, "Number of cluster centres.", sk + "make_blobs"),
                       realParam("std", "0.5", 0.0, 1000.0, "Standard deviation of every cluster.",
                                 sk + "make_blobs"),
                       intParam("dim", 2, 1, 50, "Number of dimensions.", sk + "make_blobs"),
                       realParam("spread", "5", 0.0, 1e6,
                                 "Centres are uniform in [-spread, spread]^dim.", sk + "make_blobs"),
                       outliersParam()}},
                     blobs});

        g.push_back({{"moons",
                      "Two interleaving half circles in 2D (scikit-learn make_moons).",
                      {noiseParam("0.05", sk + "make_moons"), outliersParam()}},
                     moons});

        g.push_back({{"ring",
                      "Annulus of points around a circle in 2D (" + kods + ").",
                      {realParam("radius", "1", 0.0, 1e6, "Centre radius of the annulus.", kods),
                       realParam("width", "0.1", 0.0, 2e6,
                                 "Radii are uniform in [radius - width/2, radius + width/2] (at most 2*radius).",
                                 kods),
                       noiseParam("0", kods),
                       outliersParam()}},
                     ring});

        g.push_back({{"seam",
                      "Tennis-ball seam curve on a sphere in 3D (" + quad + ").",
                      {realParam("a", "0.8", 0.0, 1e3, "Amplitude a of the cos t / sin t terms.", quad),
                       realParam("b", "0.2", 0.0, 1e3, "Amplitude b of the cos 3t / sin 3t terms.", quad),
                       noiseParam("0.02", quad),
                       boolParam("far_outlier", true,
                                 "Replace the last sample by a random curve point scaled by 2 (labelled 1).",
                                 "quadrics paper fig. 2"),
                       outliersParam()}},
                     seam});

        g.push_back({{"sphere",
                      "Points uniform on a sphere in dim dimensions (a quadric, quadrics paper eq. 3).",
                      {realParam("radius", "1", 0.0, 1e6, "Sphere radius.", "quadrics paper eq. 3"),
                       intParam("dim", 3, 2, 50, "Number of dimensions of the ambient space.",
                                "quadrics paper eq. 3"),
                       noiseParam("0.01", "quadrics paper eq. 3"),
                       outliersParam()}},
                     sphere});

        g.push_back({{"torus",
                      "Torus in 3D with uniform angles (a quartic surface, not a quadric).",
                      {realParam("R", "1", 0.0, 1e6, "Distance from the torus centre to the tube centre.",
                                 "standard torus parametrisation"),
                       realParam("r", "0.3", 0.0, 1e6, "Tube radius.", "standard torus parametrisation"),
                       noiseParam("0", "standard torus parametrisation"),
                       outliersParam()}},
                     torus});

        g.push_back({{"swissroll",
                      "Swiss roll surface in 3D (" + acdt + ").",
                      {noiseParam("0", acdt), outliersParam()}},
                     swissroll});

        const std::string uajb = "uncertainty-joint-bayesian.txt sec. 5.1";
        g.push_back({{"classes",
                      "Labelled Gaussian classes with per-sample, per-feature uncertainty (sigma_ columns) "
                      "from the noise protocol of " + uajb + "; label = class id.",
                      {intParam("classes", 3, 1, 1000, "Number of classes.", uajb),
                       intParam("dim", 2, 1, 50, "Number of dimensions.", uajb),
                       realParam("std", "0.5", 0.0, 1000.0, "Within-class standard deviation.", uajb),
                       realParam("spread", "3", 0.0, 1e6, "Class centres are uniform in [-spread, spread]^dim.",
                                 uajb),
                       realParam("t", "0.5", 0.0, 1e6,
                                 "Noise protocol: per sample and feature sigma ~ U[0, t], noise N(0, sigma^2) added.",
                                 uajb),
                       outliersParam()}},
                     classes});

        g.push_back({{"scurve",
                      "S-shaped surface in 3D (scikit-learn make_s_curve).",
                      {noiseParam("0", sk + "make_s_curve"), outliersParam()}},
                     scurve});
        return g;
    }();
    return gens;
}

const Generator& findGenerator(const std::string& id)
{
    for (const auto& g : table())
        if (g.info.id == id)
            return g;
    std::string known;
    for (const auto& g : table())
        known += (known.empty() ? "" : ", ") + g.info.id;
    throw ParamError("unknown generator '" + id + "' (available: " + known + ")");
}

std::vector<std::string> featureNamesFor(Eigen::Index p)
{
    if (p == 2)
        return {"x", "y"};
    if (p == 3)
        return {"x", "y", "z"};
    std::vector<std::string> names;
    for (Eigen::Index j = 0; j < p; ++j)
        names.push_back("x" + std::to_string(j + 1));
    return names;
}

} // namespace

const std::vector<GeneratorInfo>& generators()
{
    static const std::vector<GeneratorInfo> infos = [] {
        std::vector<GeneratorInfo> v;
        for (const auto& g : table())
            v.push_back(g.info);
        return v;
    }();
    return infos;
}

const GeneratorInfo& generatorInfo(const std::string& id)
{
    return findGenerator(id).info;
}

Dataset generate(const std::string& id, int n, std::uint64_t seed, const ParamAssignments& params)
{
    const Generator& gen = findGenerator(id);
    if (n < 1 || n > kMaxSamples)
        throw ParamError("generator '" + id + "': number of samples n = " + std::to_string(n)
                         + " is outside [1, " + std::to_string(kMaxSamples) + "]");
    ParamSet p(gen.info.params, "generator '" + id + "'");
    p.set(params);

    // Sample counts: nIn shape points, nOut background outliers, optionally one far outlier (seam).
    // At least one shape point is always kept so that the bounding box exists.
    const bool far = id == "seam" && p.getBool("far_outlier") && n >= 2;
    const Eigen::Index nFar = far ? 1 : 0;
    Eigen::Index nOut = static_cast<Eigen::Index>(std::llround(p.getReal("outliers") * n));
    nOut = std::clamp<Eigen::Index>(nOut, 0, n - 1 - nFar);
    const Eigen::Index nIn = n - nOut - nFar;

    Rng rng(seed);
    const Eigen::MatrixXd inliers = gen.shape(p, rng, nIn);
    const Eigen::Index dim = inliers.cols();

    Dataset d;
    d.X.resize(n, dim);
    d.labels = Eigen::VectorXd::Zero(n);
    d.X.topRows(nIn) = inliers;

    // Background outliers: uniform in the inliers' axis-aligned bounding box, enlarged by 10 % of
    // its extent on each side.
    if (nOut > 0) {
        const Eigen::RowVectorXd lo0 = inliers.colwise().minCoeff();
        const Eigen::RowVectorXd hi0 = inliers.colwise().maxCoeff();
        const Eigen::RowVectorXd margin = 0.1 * (hi0 - lo0);
        const Eigen::RowVectorXd lo = lo0 - margin;
        const Eigen::RowVectorXd hi = hi0 + margin;
        for (Eigen::Index i = nIn; i < nIn + nOut; ++i) {
            for (Eigen::Index j = 0; j < dim; ++j)
                d.X(i, j) = rng.uniform(lo(j), hi(j));
            d.labels(i) = 1.0;
        }
    }

    // Seam: the last sample is a noise-free random curve point scaled by 2, i.e. twice the norm
    // (a + b) of the curve points (quadrics paper fig. 2).
    if (far) {
        const double t = rng.uniform(0.0, kTwoPi);
        d.X.row(n - 1) = 2.0 * seamPoint(t, p.getReal("a"), p.getReal("b")).transpose();
        d.labels(n - 1) = 1.0;
    }

    if (id == "classes")
        finishClasses(d, p, rng, nIn);

    d.source = "generate:" + id + " n=" + std::to_string(n) + " seed=" + std::to_string(seed);
    for (const auto& spec : p.schema()) // explicitly given parameters, final values, schema order
        if (std::any_of(params.begin(), params.end(), [&](const auto& kv) { return kv.first == spec.name; }))
            d.source += " " + spec.name + "=" + p.text(spec.name);
    d.featureNames = featureNamesFor(dim);
    d.labelName = "label";
    return d;
}

} // namespace olens
