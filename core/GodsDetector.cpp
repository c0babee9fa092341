#include "GodsDetector.h"

#include "Errors.h"
#include "Grassmann.h"
#include "Registry.h"
#include "Riemannian.h"
#include "Rng.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

namespace olens {

namespace {

ParamSpec spec(const std::string& name, ParamType type, const std::string& def, double lo, double hi,
               const std::string& help, const std::string& ref, std::vector<std::string> choices = {})
{
    ParamSpec s;
    s.name = name;
    s.type = type;
    s.defaultValue = def;
    s.minValue = lo;
    s.maxValue = hi;
    s.help = help;
    s.reference = ref;
    s.choices = std::move(choices);
    return s;
}

std::vector<ParamSpec> commonParams(bool bods)
{
    std::vector<ParamSpec> p;
    if (!bods)
        p.push_back(spec("K", ParamType::Int, "3", 1, 1000,
                         "Hyperplanes per frame (columns of W1 and W2); at most the number of features.",
                         "GODS paper eq. 10; K = 3 in sec. 7.7"));
    p.push_back(spec("nu", ParamType::Real, "1", 0, 1e6, "Weight ν of the squared-hinge margin terms.",
                     bods ? "GODS paper eq. 4; ν = 1 in sec. 7.3" : "GODS paper eq. 10; ν = 1 in sec. 7.3"));
    p.push_back(spec("eta", ParamType::Real, "0.3", 0, 1e6,
                     "Margin η: in-class points satisfy min(W1ᵀx+b1) ≥ η and max(W2ᵀx+b2) ≤ −η.",
                     "GODS paper eq. 23; η = 0.3 in sec. 7.7"));
    if (!bods)
        p.push_back(spec("manifold", ParamType::Choice, "stiefel", 0, 0,
                         "Constraint on the frames: stiefel (eq. 10). The noncompact (eq. 11), oblique (eq. 12) "
                         "and euclidean (eq. 13) variants are not implemented yet.",
                         "GODS paper sec. 4.2-4.3", {"stiefel"}));
    p.push_back(spec("init", ParamType::Choice, "svd", 0, 0,
                     "Starting frames: svd = thin SVD of points near and far from the origin, biases 0 "
                     "(sec. 6.3); random = random orthonormal frames, biases 0.",
                     "GODS paper sec. 6.3", {"svd", "random"}));
    p.push_back(spec("max_iter", ParamType::Int, "200", 1, 100000,
                     "Iterations of Riemannian conjugate gradient (stops earlier when the gradient norm < 1e-6).",
                     "GODS paper sec. 6.1, 7.3 (about 200 iterations)"));
    p.push_back(spec("seed", ParamType::Int, "0", 0, 2147483647,
                     "Seed of the point selection of the SVD initialisation and of the random frames.",
                     "OutlierLens (reproducibility)"));
    p.push_back(spec("decision", ParamType::Choice, "eq23", 0, 0,
                     "isOutlier rule: eq23 = outside the sandwich at margin η (the paper's rule; with the training "
                     "η it also rejects training points whose hinge stays active), contamination = score above the "
                     "(1 - contamination) quantile of the training scores.",
                     "GODS paper eq. 23", {"eq23", "contamination"}));
    p.push_back(contaminationParam());
    return p;
}

Eigen::MatrixXd gaussianMatrix(Eigen::Index r, Eigen::Index c, Rng& rng)
{
    Eigen::MatrixXd M(r, c);
    for (Eigen::Index j = 0; j < c; ++j)
        for (Eigen::Index i = 0; i < r; ++i)
            M(i, j) = rng.normal();
    return M;
}

// Sec. 6.3: sort the points by their distance to the origin, pick up to 3K at random among the
// nearest half and among the farthest half, and take the K leading left singular vectors (thin
// SVD) of each selection: W1 from the far points, W2 from the near points. The SVD leaves each
// column's sign free; we orient every column of both frames so that the data mean projects
// non-negatively. W1's planes then bound the responses from below and W2's from above (the
// complementary pair of eq. 23: w·x ≥ η − b1 and w·x ≤ −η − b2); a sign flip keeps the frames
// orthonormal. Biases start at zero.
std::pair<Eigen::MatrixXd, Eigen::MatrixXd> svdInit(const Eigen::MatrixXd& X, int K, Rng& rng)
{
    const Eigen::Index n = X.rows();
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    const Eigen::VectorXd norms = X.rowwise().norm();
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return norms(a) < norms(b); });
    const Eigen::Index half = std::max<Eigen::Index>(1, n / 2);
    auto pick = [&](Eigen::Index from, Eigen::Index count) {
        std::vector<Eigen::Index> pool(order.begin() + from, order.begin() + from + count);
        const auto m = std::min<std::size_t>(pool.size(), static_cast<std::size_t>(3 * K));
        for (std::size_t i = 0; i < m; ++i) // partial Fisher–Yates
            std::swap(pool[i], pool[i + static_cast<std::size_t>(rng.index(pool.size() - i))]);
        Eigen::MatrixXd M(X.cols(), static_cast<Eigen::Index>(m));
        for (std::size_t i = 0; i < m; ++i)
            M.col(static_cast<Eigen::Index>(i)) = X.row(pool[i]).transpose();
        return M;
    };
    const Eigen::MatrixXd nearPts = pick(0, half);
    const Eigen::MatrixXd farPts = pick(n - half, half);
    Eigen::MatrixXd W1 = grassmann::leadingLeftSingularVectors(farPts, K);
    Eigen::MatrixXd W2 = grassmann::leadingLeftSingularVectors(nearPts, K);
    const Eigen::RowVectorXd mean = X.colwise().mean();
    for (int k = 0; k < K; ++k) {
        if (mean.dot(W1.col(k)) < 0)
            W1.col(k) *= -1.0;
        if (mean.dot(W2.col(k)) < 0)
            W2.col(k) *= -1.0;
    }
    return {W1, W2};
}

std::vector<double> flat(const Eigen::MatrixXd& M) { return std::vector<double>(M.data(), M.data() + M.size()); }

} // namespace

DetectorInfo GodsDetector::info()
{
    DetectorInfo d;
    d.id = "gods";
    d.title = "GODS (pair of orthonormal frames)";
    d.summary = "Two complementary orthonormal frames of K hyperplanes sandwich the data; score = largest "
                "violation of the margin conditions of eq. 23.";
    d.reference = "Cherian & Wang, Generalized One-Class Learning Using Pairs of Complementary Classifiers: "
                  "eq. 10 (objective), eq. 26-28 (Riemannian CG), sec. 6.3 (init), eq. 23 (decision)";
    d.params = commonParams(false);
    d.normalization = "l2";
    d.make = [](ParamSet p) { return std::make_unique<GodsDetector>(std::move(p)); };
    return d;
}

DetectorInfo BodsDetector::info()
{
    DetectorInfo d;
    d.id = "bods";
    d.title = "BODS (pair of hyperplanes)";
    d.summary = "Two hyperplanes on the unit sphere bound the data from both sides; score = largest "
                "violation of the margin conditions.";
    d.reference = "Cherian & Wang, Generalized One-Class Learning Using Pairs of Complementary Classifiers: "
                  "eq. 4 (objective), eq. 23 (decision)";
    d.params = commonParams(true);
    d.normalization = "l2";
    d.make = [](ParamSet p) { return std::make_unique<BodsDetector>(std::move(p)); };
    return d;
}

int GodsDetector::hyperplanes() const { return m_bods ? 1 : params().getInt("K"); }

double GodsDetector::objective(bool bods, const Eigen::MatrixXd& X, const Eigen::MatrixXd& W1,
                               const Eigen::MatrixXd& W2, const Eigen::VectorXd& b1, const Eigen::VectorXd& b2,
                               double nu, double eta, Eigen::MatrixXd* gW1, Eigen::MatrixXd* gW2, Eigen::VectorXd* gb1,
                               Eigen::VectorXd* gb2)
{
    const Eigen::Index n = X.rows();
    const double invN = 1.0 / static_cast<double>(n);
    const Eigen::MatrixXd P1 = (X * W1).rowwise() + b1.transpose(); // n×K responses W1ᵀx_i + b1
    const Eigen::MatrixXd P2 = (X * W2).rowwise() + b2.transpose();
    Eigen::MatrixXd G1, G2; // ∂F/∂P1, ∂F/∂P2
    double f = 0.0;
    if (bods) {
        // eq. 4: ½ α(b1,b2) − w1ᵀw2, α = (b1 − b2)² − 2(b1 − b2).
        const double delta = b1(0) - b2(0);
        f = 0.5 * (delta * delta - 2.0 * delta) - W1.col(0).dot(W2.col(0));
        G1 = Eigen::MatrixXd::Zero(n, 1);
        G2 = Eigen::MatrixXd::Zero(n, 1);
    } else {
        // eq. 10, first term: 1/(2n) Σ_i Σ_j ‖W_jᵀx_i + b_j‖².
        f = 0.5 * invN * (P1.squaredNorm() + P2.squaredNorm());
        G1 = invN * P1;
        G2 = invN * P2;
    }
    // Squared hinges (eq. 4 / eq. 10): ν/(2n) Σ_i [η − min_k P1_ik]₊² + [η + max_k P2_ik]₊².
    // Their gradients reach only the arg-min / arg-max column (eq. 27-28, with the 1/n of eq. 10).
    double hinge = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        Eigen::Index k1 = 0, k2 = 0;
        const double lo = P1.row(i).minCoeff(&k1);
        const double hi = P2.row(i).maxCoeff(&k2);
        const double h1 = std::max(0.0, eta - lo);
        const double h2 = std::max(0.0, eta + hi);
        hinge += h1 * h1 + h2 * h2;
        G1(i, k1) -= nu * invN * h1;
        G2(i, k2) += nu * invN * h2;
    }
    f += 0.5 * nu * invN * hinge;
    if (gW1)
        *gW1 = X.transpose() * G1;
    if (gW2)
        *gW2 = X.transpose() * G2;
    if (gb1)
        *gb1 = G1.colwise().sum().transpose();
    if (gb2)
        *gb2 = G2.colwise().sum().transpose();
    if (bods) {
        const double delta = b1(0) - b2(0);
        if (gW1)
            gW1->col(0) -= W2.col(0);
        if (gW2)
            gW2->col(0) -= W1.col(0);
        if (gb1)
            (*gb1)(0) += delta - 1.0;
        if (gb2)
            (*gb2)(0) -= delta - 1.0;
    }
    return f;
}

Eigen::VectorXd GodsDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const int K = hyperplanes();
    const Eigen::Index d = X.cols();
    if (K > d)
        throw ParamError(id() + ": K=" + std::to_string(K) + " hyperplanes per frame need at least K features, the data has "
                         + std::to_string(d) + " (St(d, K) requires K <= d)");
    const double nu = params().getReal("nu");
    const double eta = params().getReal("eta");
    const int maxIter = params().getInt("max_iter");
    Rng rng(static_cast<std::uint64_t>(params().getInt("seed")));

    riemannian::ProductManifold M;
    M.addStiefel(d, K);
    M.addStiefel(d, K);
    M.addEuclidean(K, 1);
    M.addEuclidean(K, 1);
    riemannian::Point x0(4);
    if (params().getChoice("init") == "svd") {
        auto [A, B] = svdInit(X, K, rng);
        x0[0] = A;
        x0[1] = B;
    } else {
        x0[0] = riemannian::qf(gaussianMatrix(d, K, rng));
        x0[1] = riemannian::qf(gaussianMatrix(d, K, rng));
    }
    x0[2] = Eigen::MatrixXd::Zero(K, 1);
    x0[3] = Eigen::MatrixXd::Zero(K, 1);
    const bool bods = m_bods;
    const riemannian::CostFunction cost = [&](const riemannian::Point& x, riemannian::Tangent* g) {
        if (!g)
            return objective(bods, X, x[0], x[1], x[2].col(0), x[3].col(0), nu, eta);
        Eigen::MatrixXd gW1, gW2;
        Eigen::VectorXd gb1, gb2;
        const double f = objective(bods, X, x[0], x[1], x[2].col(0), x[3].col(0), nu, eta, &gW1, &gW2, &gb1, &gb2);
        (*g)[0] = gW1;
        (*g)[1] = gW2;
        (*g)[2] = gb1;
        (*g)[3] = gb2;
        return f;
    };
    using Clock = std::chrono::steady_clock;
    auto lastSnapshot = Clock::now() - std::chrono::seconds(1);
    const std::string who = id();
    const riemannian::CgCallback callback = [&](const riemannian::CgIterate& it) {
        std::shared_ptr<Geometry> snap;
        const auto now = Clock::now();
        if (now - lastSnapshot >= std::chrono::milliseconds(50)) { // ≤ 20 snapshots/s
            lastSnapshot = now;
            snap = std::make_shared<Geometry>();
            for (int j = 0; j < 2; ++j) {
                HyperplaneFrame fr;
                fr.name = j == 0 ? "W1" : "W2";
                for (int k = 0; k < K; ++k)
                    fr.planes.push_back({(*it.x)[static_cast<std::size_t>(j)].col(k), (*it.x)[2 + static_cast<std::size_t>(j)](k, 0)});
                snap->frames.push_back(std::move(fr));
            }
        }
        char buf[128];
        std::snprintf(buf, sizeof buf, "%s: iteration %d, objective %.6g, |grad| %.3g", who.c_str(), it.iteration,
                      it.cost, it.gradNorm);
        progress.report(0.02 + 0.96 * it.iteration / maxIter, buf, it.cost, snap);
        return false;
    };
    riemannian::CgOptions opt;
    opt.maxIterations = maxIter;
    opt.gradientTolerance = 1e-6;
    riemannian::CgResult r = riemannian::conjugateGradient(M, cost, std::move(x0), opt, callback);

    // Commit (nothing below throws except allocation).
    m_W1 = r.x[0];
    m_W2 = r.x[1];
    m_b1 = r.x[2].col(0);
    m_b2 = r.x[3].col(0);
    m_eta = eta;
    m_objective = r.cost;
    m_gradNorm = r.gradNorm;
    m_iterations = r.iterations;
    m_stopReason = r.stopReason;
    m_lossHistory = std::move(r.costHistory);
    m_gradHistory = std::move(r.gradNormHistory);
    return doScore(X);
}

Eigen::VectorXd GodsDetector::doScore(const Eigen::MatrixXd& X) const
{
    // s(x) = max(η − min_k(W1ᵀx + b1)_k, η + max_k(W2ᵀx + b2)_k); s ≤ 0 ⇔ eq. 23 holds.
    const Eigen::MatrixXd P1 = (X * m_W1).rowwise() + m_b1.transpose();
    const Eigen::MatrixXd P2 = (X * m_W2).rowwise() + m_b2.transpose();
    Eigen::VectorXd s(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        s(i) = std::max(m_eta - P1.row(i).minCoeff(), m_eta + P2.row(i).maxCoeff());
    return s;
}

Eigen::VectorXi GodsDetector::doIsOutlier(const Eigen::MatrixXd& X) const
{
    if (params().getChoice("decision") != "eq23")
        return Detector::doIsOutlier(X);
    // eq. 23: in-class iff min(W1ᵀx + b1) ≥ η ∧ max(W2ᵀx + b2) ≤ −η, i.e. s(x) ≤ 0.
    return (score(X).array() > 0.0).cast<int>().matrix();
}

double GodsDetector::doThreshold(const Eigen::VectorXd& trainingScores) const
{
    return params().getChoice("decision") == "eq23" ? 0.0 : Detector::doThreshold(trainingScores);
}

Geometry GodsDetector::geometry() const
{
    Geometry g;
    if (!isFitted())
        return g;
    for (int j = 0; j < 2; ++j) {
        HyperplaneFrame f;
        f.name = j == 0 ? "W1" : "W2";
        const Eigen::MatrixXd& W = j == 0 ? m_W1 : m_W2;
        const Eigen::VectorXd& b = j == 0 ? m_b1 : m_b2;
        for (Eigen::Index k = 0; k < W.cols(); ++k)
            f.planes.push_back({W.col(k), b(k)});
        g.frames.push_back(std::move(f));
    }
    return g;
}

std::map<std::string, double> GodsDetector::figures() const
{
    if (!isFitted())
        return {};
    const Eigen::VectorXd& s = trainingScores();
    return {{"objective", m_objective},
            {"gradient_norm", m_gradNorm},
            {"iterations", m_iterations},
            {"training_inside_fraction", s.size() ? (s.array() <= 0.0).cast<double>().mean() : 0.0}};
}

std::vector<std::string> GodsDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    const Eigen::MatrixXd P1 = (X * m_W1).rowwise() + m_b1.transpose();
    const Eigen::MatrixXd P2 = (X * m_W2).rowwise() + m_b2.transpose();
    std::vector<std::string> out(static_cast<std::size_t>(X.rows()));
    char buf[160];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        Eigen::Index k1 = 0, k2 = 0;
        const double v1 = m_eta - P1.row(i).minCoeff(&k1);
        const double v2 = m_eta + P2.row(i).maxCoeff(&k2);
        if (std::max(v1, v2) <= 0)
            std::snprintf(buf, sizeof buf, "inside the sandwich (margin %.3g)", -std::max(v1, v2));
        else if (v1 >= v2)
            std::snprintf(buf, sizeof buf, "W1 plane %d short of eta by %.3g", static_cast<int>(k1) + 1, v1);
        else
            std::snprintf(buf, sizeof buf, "W2 plane %d above -eta by %.3g", static_cast<int>(k2) + 1, v2);
        out[static_cast<std::size_t>(i)] = buf;
    }
    return out;
}

nlohmann::json GodsDetector::saveState() const
{
    return {{"K", m_W1.cols()},     {"W1", flat(m_W1)},           {"W2", flat(m_W2)},
            {"b1", flat(m_b1)},     {"b2", flat(m_b2)},           {"eta", m_eta},
            {"objective", m_objective}, {"gradient_norm", m_gradNorm}, {"iterations", m_iterations},
            {"stop_reason", m_stopReason}, {"loss_history", m_lossHistory}, {"gradient_norm_history", m_gradHistory}};
}

void GodsDetector::loadState(const nlohmann::json& s)
{
    const Eigen::Index p = inputDimension();
    const auto K = s.at("K").get<Eigen::Index>();
    const auto W1 = s.at("W1").get<std::vector<double>>();
    const auto W2 = s.at("W2").get<std::vector<double>>();
    const auto b1 = s.at("b1").get<std::vector<double>>();
    const auto b2 = s.at("b2").get<std::vector<double>>();
    if (K < 1 || K > p || (m_bods && K != 1) || static_cast<Eigen::Index>(W1.size()) != p * K
        || static_cast<Eigen::Index>(W2.size()) != p * K || static_cast<Eigen::Index>(b1.size()) != K
        || static_cast<Eigen::Index>(b2.size()) != K)
        throw DataError(id() + " model: stored arrays do not match dimension " + std::to_string(p) + " and K="
                        + std::to_string(K));
    m_W1 = Eigen::Map<const Eigen::MatrixXd>(W1.data(), p, K);
    m_W2 = Eigen::Map<const Eigen::MatrixXd>(W2.data(), p, K);
    m_b1 = Eigen::Map<const Eigen::VectorXd>(b1.data(), K);
    m_b2 = Eigen::Map<const Eigen::VectorXd>(b2.data(), K);
    m_eta = s.at("eta").get<double>();
    m_objective = s.value("objective", 0.0);
    m_gradNorm = s.value("gradient_norm", 0.0);
    m_iterations = s.value("iterations", 0);
    m_stopReason = s.value("stop_reason", std::string());
    m_lossHistory = s.value("loss_history", std::vector<double>());
    m_gradHistory = s.value("gradient_norm_history", std::vector<double>());
}

} // namespace olens
