// Riemannian toolbox on analytic problems: tangent projection and retraction properties, eq. 26
// as the canonical-metric gradient, the Brockett cost on St(n,p) reaching Σ μ_i λ_i, finite-difference
// checks of Riemannian gradients along tangent directions, and the callback stopping the solver.
// Oblique and generalized Stiefel factors: tangent projections, gradients consistent with inner(),
// retractions on the manifold and first order, the generalized eigenproblem min tr(UᵀAU) s.t.
// UᵀBU = I against Eigen's GeneralizedSelfAdjointEigenSolver, and oblique problems with closed-form
// answers.
#include "Numeric.h"
#include "RandomData.h"
#include "optim/Riemannian.h"
#include "base/Rng.h"

#include <QtTest>
#include <Eigen/Dense>

using namespace olens;
using olens::test::gaussianMatrix;
using namespace olens::riemannian;

namespace {
// Symmetric A with known eigenvalues 1..n in a random orthonormal basis.
Eigen::MatrixXd knownSpectrum(int n, Rng& rng, Eigen::MatrixXd* basis)
{
    const Eigen::MatrixXd Q = qf(gaussianMatrix(n, n, rng));
    Eigen::VectorXd lambda(n);
    for (int i = 0; i < n; ++i)
        lambda(i) = i + 1.0;
    if (basis)
        *basis = Q;
    return Q * lambda.asDiagonal() * Q.transpose();
}

using test::maxAbs;

// A well-conditioned symmetric positive-definite matrix (eigenvalues in [0.5, 3.5]).
Eigen::MatrixXd randomSpd(int n, Rng& rng)
{
    const Eigen::MatrixXd Q = qf(gaussianMatrix(n, n, rng));
    Eigen::VectorXd ev(n);
    for (int i = 0; i < n; ++i)
        ev(i) = 0.5 + 3.0 * rng.uniform();
    return Q * ev.asDiagonal() * Q.transpose();
}

// Checks shared by every factor kind on a one-factor manifold at x: the Riemannian gradient of a
// random linear cost ⟨G, ·⟩ is tangent and represents the differential in inner(); projection is
// idempotent; retraction is feasible, R_x(0) = x and R_x(tv) = x + tv + O(t²); transport is tangent.
// `tangentResidual` measures how far a matrix is from T_x.
template <typename Residual>
void checkFactorGeometry(const ProductManifold& M, const Point& x, Rng& rng, Residual tangentResidual)
{
    const Eigen::Index n = x[0].rows(), p = x[0].cols();
    QVERIFY(M.feasibilityError(x) < 1e-12);
    const Tangent G = {gaussianMatrix(n, p, rng)};
    const Tangent rg = M.egradToRgrad(x, G);
    QVERIFY2(tangentResidual(x[0], rg[0]) < 1e-11, qPrintable(QString::number(tangentResidual(x[0], rg[0]))));
    for (int trial = 0; trial < 4; ++trial) {
        const Tangent xi = M.projectTangent(x, {gaussianMatrix(n, p, rng)});
        QVERIFY(tangentResidual(x[0], xi[0]) < 1e-11);
        QVERIFY((M.projectTangent(x, xi)[0] - xi[0]).cwiseAbs().maxCoeff() < 1e-11); // idempotent
        const double lhs = M.inner(x, rg, xi);
        const double rhs = (G[0].array() * xi[0].array()).sum();
        QVERIFY2(std::abs(lhs - rhs) < 1e-11 * (1 + std::abs(rhs)), qPrintable(QString("%1 vs %2").arg(lhs).arg(rhs)));
    }
    const Tangent v = M.projectTangent(x, {gaussianMatrix(n, p, rng)});
    QVERIFY(M.feasibilityError(M.retract(x, v, 2.0)) < 1e-12);
    QVERIFY((M.retract(x, v, 0.0)[0] - x[0]).cwiseAbs().maxCoeff() < 1e-13);
    const double e1 = (M.retract(x, v, 1e-3)[0] - x[0] - 1e-3 * v[0]).norm();
    const double e2 = (M.retract(x, v, 1e-4)[0] - x[0] - 1e-4 * v[0]).norm();
    QVERIFY2(e1 < 1e-5 * (1 + v[0].squaredNorm()), qPrintable(QString::number(e1)));
    QVERIFY2(e2 < e1 / 50, qPrintable(QString("%1 %2").arg(e1).arg(e2))); // quadratic: ×100 smaller
    const Point y = M.retract(x, v, 0.5);
    QVERIFY(tangentResidual(y[0], M.transport(y, v)[0]) < 1e-11);
}

// Brockett cost f(X) = −tr(XᵀAXN), N = diag(p, …, 1): minimiser = the p dominant eigenvectors
// in order, minimum −Σ_i N_ii λ_{n−i+1}. Euclidean gradient −2AXN.
CostFunction brockett(const Eigen::MatrixXd& A, const Eigen::VectorXd& N)
{
    return [A, N](const Point& x, Tangent* g) {
        const Eigen::MatrixXd AX = A * x[0];
        if (g)
            (*g)[0] = -2.0 * AX * N.asDiagonal();
        return -(x[0].transpose() * AX * N.asDiagonal()).trace();
    };
}
} // namespace

class TestRiemannian : public QObject {
    Q_OBJECT

private slots:
    void projectionIsTangentAndIdempotent()
    {
        Rng rng(1);
        ProductManifold M;
        M.addStiefel(6, 3);
        M.addEuclidean(3, 1);
        const Point x = {qf(gaussianMatrix(6, 3, rng)), gaussianMatrix(3, 1, rng)};
        const Tangent z = {gaussianMatrix(6, 3, rng), gaussianMatrix(3, 1, rng)};
        const Tangent v = M.projectTangent(x, z);
        // Tangent: XᵀV + VᵀX = 0.
        const Eigen::MatrixXd s = x[0].transpose() * v[0] + v[0].transpose() * x[0];
        QVERIFY(s.cwiseAbs().maxCoeff() < 1e-12);
        const Tangent vv = M.projectTangent(x, v);
        QVERIFY((vv[0] - v[0]).cwiseAbs().maxCoeff() < 1e-12);
        QCOMPARE(vv[1], z[1]); // identity on the Euclidean factor
        QCOMPARE(M.dimension(), Eigen::Index(6 * 3 - 6 + 3));
    }

    void eq26IsTheCanonicalGradient()
    {
        // grad_c = G − X Gᵀ X is tangent and represents the differential in the canonical metric:
        // g_c(grad_c, ξ) = ⟨G, ξ⟩ for every tangent ξ.
        Rng rng(2);
        ProductManifold M;
        M.addStiefel(5, 2, StiefelMetric::Canonical);
        const Point x = {qf(gaussianMatrix(5, 2, rng))};
        const Tangent G = {gaussianMatrix(5, 2, rng)};
        const Tangent gc = M.egradToRgrad(x, G);
        const Eigen::MatrixXd s = x[0].transpose() * gc[0] + gc[0].transpose() * x[0];
        QVERIFY(s.cwiseAbs().maxCoeff() < 1e-12);
        for (int trial = 0; trial < 5; ++trial) {
            const Tangent xi = M.projectTangent(x, {gaussianMatrix(5, 2, rng)});
            const double lhs = M.inner(x, gc, xi);
            const double rhs = (G[0].array() * xi[0].array()).sum();
            QVERIFY(std::abs(lhs - rhs) < 1e-12 * (1 + std::abs(rhs)));
        }
        // Same check for the embedded metric's projection.
        ProductManifold E;
        E.addStiefel(5, 2);
        const Tangent ge = E.egradToRgrad(x, G);
        const Tangent xi = E.projectTangent(x, {gaussianMatrix(5, 2, rng)});
        QVERIFY(std::abs(E.inner(x, ge, xi) - (G[0].array() * xi[0].array()).sum()) < 1e-12);
    }

    void retractionStaysOnManifoldAndIsFirstOrder()
    {
        Rng rng(3);
        ProductManifold M;
        M.addStiefel(7, 3);
        const Point x = {qf(gaussianMatrix(7, 3, rng))};
        const Tangent v = M.projectTangent(x, {gaussianMatrix(7, 3, rng)});
        QVERIFY(M.feasibilityError(x) < 1e-14);
        QVERIFY(M.feasibilityError(M.retract(x, v, 2.0)) < 1e-12);
        // R_x(0) = x and R_x(tv) = x + tv + O(t²).
        QVERIFY((M.retract(x, v, 0.0)[0] - x[0]).cwiseAbs().maxCoeff() < 1e-14);
        const double e1 = (M.retract(x, v, 1e-3)[0] - x[0] - 1e-3 * v[0]).norm();
        const double e2 = (M.retract(x, v, 1e-4)[0] - x[0] - 1e-4 * v[0]).norm();
        QVERIFY(e1 < 1e-5);
        QVERIFY(e2 < e1 / 50); // quadratic: ×100 smaller
    }

    void brockettGradientMatchesFiniteDifferences()
    {
        // (f(R_x(tξ)) − f(R_x(−tξ))) / 2t → ⟨grad f, ξ⟩ for both metrics.
        Rng rng(4);
        const Eigen::MatrixXd A = knownSpectrum(6, rng, nullptr);
        const Eigen::VectorXd N = (Eigen::VectorXd(3) << 3, 2, 1).finished();
        const CostFunction f = brockett(A, N);
        for (StiefelMetric metric : {StiefelMetric::Euclidean, StiefelMetric::Canonical}) {
            ProductManifold M;
            M.addStiefel(6, 3, metric);
            const Point x = {qf(gaussianMatrix(6, 3, rng))};
            Tangent g = {Eigen::MatrixXd::Zero(6, 3)};
            f(x, &g);
            const Tangent rg = M.egradToRgrad(x, g);
            for (int trial = 0; trial < 4; ++trial) {
                const Tangent xi = M.projectTangent(x, {gaussianMatrix(6, 3, rng)});
                const double h = 1e-5;
                const double fd = (f(M.retract(x, xi, h), nullptr) - f(M.retract(x, xi, -h), nullptr)) / (2 * h);
                const double an = M.inner(x, rg, xi);
                QVERIFY2(std::abs(fd - an) < 1e-7 * (1 + std::abs(an)),
                         qPrintable(QString("fd %1 vs %2").arg(fd).arg(an)));
            }
        }
    }

    void brockettReachesDominantEigenspace()
    {
        Rng rng(5);
        Eigen::MatrixXd Q;
        const int n = 8, p = 3;
        const Eigen::MatrixXd A = knownSpectrum(n, rng, &Q);
        const Eigen::VectorXd N = (Eigen::VectorXd(p) << 3, 2, 1).finished();
        const double optimum = -(3 * 8 + 2 * 7 + 1 * 6.0);
        for (LineSearch ls : {LineSearch::Armijo, LineSearch::Wolfe}) {
            for (StiefelMetric metric : {StiefelMetric::Euclidean, StiefelMetric::Canonical}) {
                ProductManifold M;
                M.addStiefel(n, p, metric);
                CgOptions o;
                o.maxIterations = 2000;
                o.gradientTolerance = 1e-6; // below ~1e-7 the cost (≈ −44) no longer resolves the decrease
                o.lineSearch = ls;
                const CgResult r = conjugateGradient(M, brockett(A, N), {qf(gaussianMatrix(n, p, rng))}, o);
                QVERIFY2(r.stopReason == "gradient norm", qPrintable(QString("%1 after %2 its, grad %3, cost err %4, ls %5 metric %6").arg(r.stopReason.c_str()).arg(r.iterations).arg(r.gradNorm).arg(r.cost - optimum).arg(int(ls)).arg(int(metric))));
                QVERIFY(std::abs(r.cost - optimum) < 1e-10);
                QVERIFY(M.feasibilityError(r.x) < 1e-10);
                // Column i is ± the eigenvector of λ = n − i.
                for (int i = 0; i < p; ++i)
                    QVERIFY(std::abs(std::abs(r.x[0].col(i).dot(Q.col(n - 1 - i))) - 1.0) < 1e-8);
                // Monotone decrease (Armijo / Wolfe sufficient decrease).
                for (std::size_t k = 1; k < r.costHistory.size(); ++k)
                    QVERIFY(r.costHistory[k] <= r.costHistory[k - 1] + 1e-12);
            }
        }
    }

    void productWithEuclideanFactor()
    {
        // f(X, b) = −tr(XᵀAX) + ‖b − c‖²: optimum −(λ_n + λ_{n−1}) at b = c.
        Rng rng(6);
        const Eigen::MatrixXd A = knownSpectrum(5, rng, nullptr);
        const Eigen::VectorXd c = (Eigen::VectorXd(2) << 1.5, -2.0).finished();
        ProductManifold M;
        M.addStiefel(5, 2);
        M.addEuclidean(2, 1);
        const CostFunction f = [&](const Point& x, Tangent* g) {
            const Eigen::VectorXd db = x[1].col(0) - c;
            if (g) {
                (*g)[0] = -2.0 * A * x[0];
                (*g)[1] = 2.0 * db;
            }
            return -(x[0].transpose() * A * x[0]).trace() + db.squaredNorm();
        };
        CgOptions o;
        o.gradientTolerance = 1e-9;
        o.maxIterations = 1000;
        const CgResult r = conjugateGradient(M, f, {qf(gaussianMatrix(5, 2, rng)), Eigen::MatrixXd::Zero(2, 1)}, o);
        QVERIFY(std::abs(r.cost + 9.0) < 1e-9);
        QVERIFY((r.x[1].col(0) - c).norm() < 1e-8);
    }

    void callbackStopsAndIterationLimit()
    {
        Rng rng(7);
        const Eigen::MatrixXd A = knownSpectrum(6, rng, nullptr);
        const Eigen::VectorXd N = (Eigen::VectorXd(2) << 2, 1).finished();
        ProductManifold M;
        M.addStiefel(6, 2);
        const Point x0 = {qf(gaussianMatrix(6, 2, rng))};
        int calls = 0;
        const CgResult r = conjugateGradient(M, brockett(A, N), x0, {}, [&](const CgIterate& it) {
            ++calls;
            return it.iteration == 3;
        });
        QCOMPARE(r.stopReason, std::string("callback"));
        QCOMPARE(r.iterations, 3);
        QCOMPARE(calls, 4);
        CgOptions o;
        o.maxIterations = 2;
        o.gradientTolerance = 0;
        const CgResult r2 = conjugateGradient(M, brockett(A, N), x0, o);
        QCOMPARE(r2.stopReason, std::string("max iterations"));
        QCOMPARE(r2.iterations, 2);
        QCOMPARE(r2.costHistory.size(), std::size_t(3));
        // A throwing callback propagates.
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 conjugateGradient(M, brockett(A, N), x0, {}, [](const CgIterate& it) -> bool {
                                     if (it.iteration == 1)
                                         throw std::runtime_error("stop");
                                     return false;
                                 }));
    }
    void progressToleranceStopsWhenTheRecentDropIsSmall()
    {
        // The rule, checked on the run's own history: at the stop k the cost fell over the last W
        // iterations by at most tol × (f₀ − f_k), and at every earlier k' ≥ W by more. Without it
        // the same run goes on to the iteration limit (gradient tolerance 0).
        Rng rng(8);
        const Eigen::MatrixXd A = knownSpectrum(8, rng, nullptr);
        const Eigen::VectorXd N = (Eigen::VectorXd(3) << 3, 2, 1).finished();
        ProductManifold M;
        M.addStiefel(8, 3);
        const Point x0 = {qf(gaussianMatrix(8, 3, rng))};
        CgOptions o;
        o.gradientTolerance = 0;
        o.maxIterations = 500;
        o.progressTolerance = 1e-3;
        o.progressWindow = 5;
        const CgResult r = conjugateGradient(M, brockett(A, N), x0, o);
        QCOMPARE(r.stopReason, std::string("objective change"));
        const auto& f = r.costHistory;
        const int k = r.iterations;
        QVERIFY(k >= 5 && k < 500);
        QVERIFY(f[std::size_t(k - 5)] - f[std::size_t(k)] <= 1e-3 * (f[0] - f[std::size_t(k)]));
        for (int j = 5; j < k; ++j)
            QVERIFY(f[std::size_t(j - 5)] - f[std::size_t(j)] > 1e-3 * (f[0] - f[std::size_t(j)]));
        o.progressTolerance = 0;
        const CgResult all = conjugateGradient(M, brockett(A, N), x0, o);
        QVERIFY(all.iterations > k);
        // The same iterates up to the stop: the rule only ends the run.
        QCOMPARE(all.costHistory[std::size_t(k)], f[std::size_t(k)]);
    }

    void obliqueGeometry()
    {
        Rng rng(21);
        ProductManifold M;
        QCOMPARE(M.addOblique(5, 3), 0);
        QCOMPARE(M.dimension(), Eigen::Index(3 * 4));
        Eigen::MatrixXd X = gaussianMatrix(5, 3, rng);
        X.colwise().normalize();
        // Tangent: diag(XᵀV) = 0 (each column orthogonal to its own point only).
        checkFactorGeometry(M, {X}, rng, [](const Eigen::MatrixXd& x, const Eigen::MatrixXd& v) {
            return (x.transpose() * v).diagonal().cwiseAbs().maxCoeff();
        });
        // The columns are not kept orthogonal to each other: a retraction may change XᵀX off-diagonal.
        const Tangent v = M.projectTangent({X}, {gaussianMatrix(5, 3, rng)});
        const Eigen::MatrixXd Y = M.retract({X}, v)[0];
        QVERIFY(std::abs((Y.transpose() * Y)(0, 1) - (X.transpose() * X)(0, 1)) > 1e-6);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, M.addOblique(0, 2));
    }

    void obliqueKnownAnswers()
    {
        // (a) f(X) = −Σ_j c_jᵀx_j: x_j = c_j/‖c_j‖, minimum −Σ_j ‖c_j‖.
        // (b) f(X) = tr(XᵀAX) (each column a Rayleigh quotient): minimum p·λ_min, every column ±v_min.
        Rng rng(22);
        const int n = 6, p = 3;
        ProductManifold M;
        M.addOblique(n, p);
        const Eigen::MatrixXd C = gaussianMatrix(n, p, rng);
        const CostFunction lin = [&](const Point& x, Tangent* g) {
            if (g)
                (*g)[0] = -C;
            return -(C.array() * x[0].array()).sum();
        };
        Eigen::MatrixXd X0 = gaussianMatrix(n, p, rng);
        X0.colwise().normalize();
        CgOptions o;
        o.gradientTolerance = 1e-7; // below ~1e-8 the cost decrease ‖grad‖² is under its rounding
        o.maxIterations = 1000;
        const CgResult r = conjugateGradient(M, lin, {X0}, o);
        QVERIFY2(r.stopReason == "gradient norm", qPrintable(QString("%1 after %2 its, grad %3").arg(r.stopReason.c_str()).arg(r.iterations).arg(r.gradNorm)));
        QVERIFY(std::abs(r.cost + C.colwise().norm().sum()) < 1e-12);
        Eigen::MatrixXd Cn = C;
        Cn.colwise().normalize();
        QVERIFY((r.x[0] - Cn).cwiseAbs().maxCoeff() < 1e-6);
        QVERIFY(M.feasibilityError(r.x) < 1e-10);

        Eigen::MatrixXd Q;
        const Eigen::MatrixXd A = knownSpectrum(n, rng, &Q); // eigenvalues 1..n
        const CostFunction ray = [&](const Point& x, Tangent* g) {
            if (g)
                (*g)[0] = 2.0 * A * x[0];
            return (x[0].transpose() * A * x[0]).trace();
        };
        const CgResult r2 = conjugateGradient(M, ray, {X0}, o);
        // Near the optimum the decrease of this cost (≈ 3) reaches its rounding before ‖grad‖ < 1e-7.
        QVERIFY2((r2.stopReason == "gradient norm" || r2.stopReason == "step size") && r2.gradNorm < 1e-6, qPrintable(QString("%1 after %2 its, grad %3").arg(r2.stopReason.c_str()).arg(r2.iterations).arg(r2.gradNorm)));
        QVERIFY(std::abs(r2.cost - p * 1.0) < 1e-11);
        for (int j = 0; j < p; ++j)
            QVERIFY(std::abs(std::abs(r2.x[0].col(j).dot(Q.col(0))) - 1.0) < 1e-10);
        QVERIFY(M.feasibilityError(r2.x) < 1e-10);
    }

    void generalizedStiefelGeometry()
    {
        Rng rng(23);
        const int n = 6, p = 2;
        const Eigen::MatrixXd B = randomSpd(n, rng);
        for (StiefelMetric metric : {StiefelMetric::Euclidean, StiefelMetric::Canonical}) {
            ProductManifold M;
            QCOMPARE(M.addGeneralizedStiefel(B, p, metric), 0);
            QCOMPARE(M.dimension(), Eigen::Index(n * p - 3));
            const Point x = {generalizedPolar(gaussianMatrix(n, p, rng), B)};
            QVERIFY(maxAbs(x[0].transpose() * B * x[0] - Eigen::MatrixXd::Identity(p, p)) < 1e-12);
            // Tangent: VᵀBU + UᵀBV = 0.
            checkFactorGeometry(M, x, rng, [&](const Eigen::MatrixXd& u, const Eigen::MatrixXd& v) {
                const Eigen::MatrixXd s = u.transpose() * B * v;
                return maxAbs(s + s.transpose());
            });
            // B-metric: the projection is orthogonal, ⟨z − P(z), ξ⟩_B = 0; canonical: eq. 29 exactly.
            const Tangent z = {gaussianMatrix(n, p, rng)};
            const Tangent xi = M.projectTangent(x, {gaussianMatrix(n, p, rng)});
            if (metric == StiefelMetric::Euclidean) {
                const Eigen::MatrixXd r = z[0] - M.projectTangent(x, z)[0];
                QVERIFY(std::abs((r.array() * (B * xi[0]).array()).sum()) < 1e-12);
            } else {
                const Eigen::MatrixXd eq29 = B.inverse() * z[0] - x[0] * z[0].transpose() * x[0];
                QVERIFY(maxAbs(M.egradToRgrad(x, z)[0] - eq29) < 1e-12);
            }
        }
        // With B = I the factor is the Stiefel manifold: same projection, gradient and retraction up to
        // the choice of retraction (polar vs QR agree to first order).
        ProductManifold G, S;
        G.addGeneralizedStiefel(Eigen::MatrixXd::Identity(n, n), p);
        S.addStiefel(n, p);
        const Point x = {qf(gaussianMatrix(n, p, rng))};
        const Tangent z = {gaussianMatrix(n, p, rng)};
        QVERIFY(maxAbs(G.egradToRgrad(x, z)[0] - S.egradToRgrad(x, z)[0]) < 1e-13);
        // Bad B.
        ProductManifold bad;
        Eigen::MatrixXd ns = B;
        ns(0, 1) += 0.1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.addGeneralizedStiefel(ns, p));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.addGeneralizedStiefel(-B, p));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.addGeneralizedStiefel(B, n + 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.addGeneralizedStiefel(Eigen::MatrixXd::Ones(3, 2), 1));
        QCOMPARE(bad.factors().size(), std::size_t(0));
    }

    void generalizedStiefelGradientMatchesFiniteDifferences()
    {
        // f(U) = tr(UᵀAU) + ⟨C, U⟩ along retraction curves, for both metrics.
        Rng rng(24);
        const int n = 7, p = 3;
        const Eigen::MatrixXd B = randomSpd(n, rng);
        const Eigen::MatrixXd A = randomSpd(n, rng);
        const Eigen::MatrixXd C = gaussianMatrix(n, p, rng);
        const CostFunction f = [&](const Point& x, Tangent* g) {
            if (g)
                (*g)[0] = 2.0 * A * x[0] + C;
            return (x[0].transpose() * A * x[0]).trace() + (C.array() * x[0].array()).sum();
        };
        for (StiefelMetric metric : {StiefelMetric::Euclidean, StiefelMetric::Canonical}) {
            ProductManifold M;
            M.addGeneralizedStiefel(B, p, metric);
            const Point x = {generalizedPolar(gaussianMatrix(n, p, rng), B)};
            Tangent g = {Eigen::MatrixXd::Zero(n, p)};
            f(x, &g);
            const Tangent rg = M.egradToRgrad(x, g);
            for (int trial = 0; trial < 4; ++trial) {
                const Tangent xi = M.projectTangent(x, {gaussianMatrix(n, p, rng)});
                const double h = 1e-5;
                const double fd = (f(M.retract(x, xi, h), nullptr) - f(M.retract(x, xi, -h), nullptr)) / (2 * h);
                const double an = M.inner(x, rg, xi);
                QVERIFY2(std::abs(fd - an) < 1e-7 * (1 + std::abs(an)), qPrintable(QString("fd %1 vs %2").arg(fd).arg(an)));
            }
        }
    }

    void generalizedEigenproblem()
    {
        // min tr(UᵀAU) s.t. UᵀBU = I reaches Σ of the p smallest generalized eigenvalues of (A, B), and
        // span(U) is their eigenspace; every iterate stays on the manifold.
        Rng rng(25);
        const int n = 8, p = 3;
        const Eigen::MatrixXd B = randomSpd(n, rng);
        const Eigen::MatrixXd A = knownSpectrum(n, rng, nullptr) - 3.0 * Eigen::MatrixXd::Identity(n, n);
        Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ges(A, B);
        QCOMPARE(ges.info(), Eigen::Success);
        const double optimum = ges.eigenvalues().head(p).sum(); // ascending order
        const CostFunction f = [&](const Point& x, Tangent* g) {
            if (g)
                (*g)[0] = 2.0 * A * x[0];
            return (x[0].transpose() * A * x[0]).trace();
        };
        for (StiefelMetric metric : {StiefelMetric::Euclidean, StiefelMetric::Canonical}) {
            ProductManifold M;
            M.addGeneralizedStiefel(B, p, metric);
            CgOptions o;
            o.maxIterations = 3000;
            o.gradientTolerance = 1e-7;
            double worstFeasibility = 0.0;
            const CgResult r = conjugateGradient(M, f, {generalizedPolar(gaussianMatrix(n, p, rng), B)}, o,
                                                 [&](const CgIterate& it) {
                                                     worstFeasibility = std::max(worstFeasibility, M.feasibilityError(*it.x));
                                                     return false;
                                                 });
            QVERIFY2(r.stopReason == "gradient norm", qPrintable(QString("%1 after %2 its, grad %3").arg(r.stopReason.c_str()).arg(r.iterations).arg(r.gradNorm)));
            QVERIFY2(std::abs(r.cost - optimum) < 1e-10, qPrintable(QString("%1 vs %2").arg(r.cost, 0, 'g', 16).arg(optimum, 0, 'g', 16)));
            QVERIFY(worstFeasibility < 1e-10);
            // span(U) = span of the p smallest generalized eigenvectors: the B-orthogonal projection of
            // the eigenvectors onto span(U) leaves them unchanged.
            const Eigen::MatrixXd V = ges.eigenvectors().leftCols(p); // VᵀBV = I
            const Eigen::MatrixXd U = r.x[0];
            QVERIFY(maxAbs(U * (U.transpose() * B * V) - V) < 1e-6);
            for (std::size_t k = 1; k < r.costHistory.size(); ++k)
                QVERIFY(r.costHistory[k] <= r.costHistory[k - 1] + 1e-12);
        }
    }

    void generalizedStiefelEqualsStiefelInCholeskyCoordinates()
    {
        // U = L⁻ᵀQ (B = LLᵀ) maps the plain Stiefel manifold with the polar retraction isometrically
        // onto the generalized one (both metrics), so CG makes the same iterates (kods relies on it):
        // same cost history, and the final U equals L⁻ᵀ of the final Q.
        Rng rng(27);
        const int n = 9, p = 3;
        const Eigen::MatrixXd B = randomSpd(n, rng);
        const Eigen::MatrixXd A = knownSpectrum(n, rng, nullptr) - 3.0 * Eigen::MatrixXd::Identity(n, n);
        const Eigen::LLT<Eigen::MatrixXd> llt(B);
        const Eigen::MatrixXd L = llt.matrixL();
        const Eigen::MatrixXd U0 = generalizedPolar(gaussianMatrix(n, p, rng), B);
        const CostFunction fU = [&](const Point& x, Tangent* g) {
            if (g)
                (*g)[0] = 2.0 * A * x[0];
            return (x[0].transpose() * A * x[0]).trace();
        };
        const CostFunction fQ = [&](const Point& x, Tangent* g) {
            const Eigen::MatrixXd U = L.transpose().triangularView<Eigen::Upper>().solve(x[0]);
            if (g)
                (*g)[0] = L.triangularView<Eigen::Lower>().solve(2.0 * A * U); // chain rule
            return (U.transpose() * A * U).trace();
        };
        for (StiefelMetric metric : {StiefelMetric::Euclidean, StiefelMetric::Canonical}) {
            ProductManifold G, S;
            G.addGeneralizedStiefel(B, p, metric);
            S.addStiefel(n, p, metric, StiefelRetraction::Polar);
            CgOptions o;
            o.maxIterations = 25;
            o.gradientTolerance = 0.0;
            const CgResult rg = conjugateGradient(G, fU, {U0}, o);
            const CgResult rs = conjugateGradient(S, fQ, {Eigen::MatrixXd(L.transpose() * U0)}, o);
            QCOMPARE(rs.costHistory.size(), rg.costHistory.size());
            for (std::size_t k = 0; k < rg.costHistory.size(); ++k)
                QVERIFY2(std::abs(rs.costHistory[k] - rg.costHistory[k]) < 1e-9 * (1 + std::abs(rg.costHistory[k])),
                         qPrintable(QString("iteration %1: %2 vs %3").arg(k).arg(rs.costHistory[k], 0, 'g', 16).arg(rg.costHistory[k], 0, 'g', 16)));
            const Eigen::MatrixXd Uq = L.transpose().triangularView<Eigen::Upper>().solve(rs.x[0]);
            QVERIFY(maxAbs(Uq - rg.x[0]) < 1e-7);
            // The QR retraction is a different curve: its history departs from the polar one.
            ProductManifold SQ;
            SQ.addStiefel(n, p, metric, StiefelRetraction::QR);
            const CgResult rq = conjugateGradient(SQ, fQ, {Eigen::MatrixXd(L.transpose() * U0)}, o);
            QVERIFY(std::abs(rq.costHistory[2] - rs.costHistory[2]) > 1e-9);
        }
    }

    void generalizedPolarIsThePolarFactor()
    {
        // Y = U H with UᵀBU = I and H = (YᵀBY)^{1/2} symmetric positive definite; B = I: ordinary polar.
        Rng rng(26);
        const int n = 5, p = 3;
        const Eigen::MatrixXd B = randomSpd(n, rng);
        const Eigen::MatrixXd Y = gaussianMatrix(n, p, rng);
        const Eigen::MatrixXd U = generalizedPolar(Y, B);
        QVERIFY(maxAbs(U.transpose() * B * U - Eigen::MatrixXd::Identity(p, p)) < 1e-12);
        const Eigen::MatrixXd H = U.transpose() * B * Y; // = (YᵀBY)^{1/2}
        QVERIFY(maxAbs(H - H.transpose()) < 1e-12);
        QVERIFY(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff() > 0);
        QVERIFY(maxAbs(U * H - Y) < 1e-12);
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Y, Eigen::ComputeThinU | Eigen::ComputeThinV);
        QVERIFY(maxAbs(generalizedPolar(Y, Eigen::MatrixXd::Identity(n, n)) - svd.matrixU() * svd.matrixV().transpose())
                < 1e-12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generalizedPolar(Eigen::MatrixXd::Zero(n, p), B));
    }

    void mixedProductManifold()
    {
        // St × OB × G_B × ℝ: dimension, feasibility of every factor after a retraction, and a gradient
        // check of a cost coupling all factors.
        Rng rng(27);
        const Eigen::MatrixXd B = randomSpd(5, rng);
        ProductManifold M;
        M.addStiefel(4, 2);
        M.addOblique(4, 3);
        M.addGeneralizedStiefel(B, 2, StiefelMetric::Canonical);
        M.addEuclidean(2, 1);
        QCOMPARE(M.dimension(), Eigen::Index((8 - 3) + 9 + (10 - 3) + 2));
        Eigen::MatrixXd O = gaussianMatrix(4, 3, rng);
        O.colwise().normalize();
        const Point x = {qf(gaussianMatrix(4, 2, rng)), O, generalizedPolar(gaussianMatrix(5, 2, rng), B), gaussianMatrix(2, 1, rng)};
        QVERIFY(M.feasibilityError(x) < 1e-12);
        const Eigen::MatrixXd P = gaussianMatrix(4, 3, rng), R = gaussianMatrix(5, 5, rng);
        const CostFunction f = [&](const Point& p, Tangent* g) {
            // f = ‖X₀ᵀ P X₁ᵀ‖² + tr(X₂ᵀ R X₂) ‖x₃‖²
            const Eigen::MatrixXd S = p[0].transpose() * P * p[1].transpose(); // 2×4
            const Eigen::MatrixXd T = p[2].transpose() * R * p[2];             // 2×2
            const double val = S.squaredNorm() + T.trace() * p[3].squaredNorm();
            if (g) {
                (*g)[0] = 2.0 * P * p[1].transpose() * S.transpose();
                (*g)[1] = 2.0 * S.transpose() * p[0].transpose() * P;
                (*g)[2] = (R + R.transpose()) * p[2] * p[3].squaredNorm();
                (*g)[3] = 2.0 * T.trace() * p[3];
            }
            return val;
        };
        Tangent g = {Eigen::MatrixXd::Zero(4, 2), Eigen::MatrixXd::Zero(4, 3), Eigen::MatrixXd::Zero(5, 2),
                     Eigen::MatrixXd::Zero(2, 1)};
        f(x, &g);
        const Tangent rg = M.egradToRgrad(x, g);
        for (int trial = 0; trial < 3; ++trial) {
            const Tangent xi = M.projectTangent(
                x, {gaussianMatrix(4, 2, rng), gaussianMatrix(4, 3, rng), gaussianMatrix(5, 2, rng), gaussianMatrix(2, 1, rng)});
            QVERIFY(M.feasibilityError(M.retract(x, xi, 0.7)) < 1e-12);
            const double h = 1e-5;
            const double fd = (f(M.retract(x, xi, h), nullptr) - f(M.retract(x, xi, -h), nullptr)) / (2 * h);
            const double an = M.inner(x, rg, xi);
            QVERIFY2(std::abs(fd - an) < 1e-7 * (1 + std::abs(an)), qPrintable(QString("fd %1 vs %2").arg(fd).arg(an)));
        }
    }
};

QTEST_APPLESS_MAIN(TestRiemannian)
#include "TestRiemannian.moc"
