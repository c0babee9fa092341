// Riemannian toolbox on analytic problems: tangent projection and retraction properties, eq. 26
// as the canonical-metric gradient, the Brockett cost on St(n,p) reaching Σ μ_i λ_i, finite-difference
// checks of Riemannian gradients along tangent directions, and the callback stopping the solver.
#include "Riemannian.h"
#include "Rng.h"

#include <QtTest>

using namespace olens;
using namespace olens::riemannian;

namespace {
Eigen::MatrixXd gaussian(Eigen::Index r, Eigen::Index c, Rng& rng)
{
    Eigen::MatrixXd M(r, c);
    for (Eigen::Index j = 0; j < c; ++j)
        for (Eigen::Index i = 0; i < r; ++i)
            M(i, j) = rng.normal();
    return M;
}

// Symmetric A with known eigenvalues 1..n in a random orthonormal basis.
Eigen::MatrixXd knownSpectrum(int n, Rng& rng, Eigen::MatrixXd* basis)
{
    const Eigen::MatrixXd Q = qf(gaussian(n, n, rng));
    Eigen::VectorXd lambda(n);
    for (int i = 0; i < n; ++i)
        lambda(i) = i + 1.0;
    if (basis)
        *basis = Q;
    return Q * lambda.asDiagonal() * Q.transpose();
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
        const Point x = {qf(gaussian(6, 3, rng)), gaussian(3, 1, rng)};
        const Tangent z = {gaussian(6, 3, rng), gaussian(3, 1, rng)};
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
        const Point x = {qf(gaussian(5, 2, rng))};
        const Tangent G = {gaussian(5, 2, rng)};
        const Tangent gc = M.egradToRgrad(x, G);
        const Eigen::MatrixXd s = x[0].transpose() * gc[0] + gc[0].transpose() * x[0];
        QVERIFY(s.cwiseAbs().maxCoeff() < 1e-12);
        for (int trial = 0; trial < 5; ++trial) {
            const Tangent xi = M.projectTangent(x, {gaussian(5, 2, rng)});
            const double lhs = M.inner(x, gc, xi);
            const double rhs = (G[0].array() * xi[0].array()).sum();
            QVERIFY(std::abs(lhs - rhs) < 1e-12 * (1 + std::abs(rhs)));
        }
        // Same check for the embedded metric's projection.
        ProductManifold E;
        E.addStiefel(5, 2);
        const Tangent ge = E.egradToRgrad(x, G);
        const Tangent xi = E.projectTangent(x, {gaussian(5, 2, rng)});
        QVERIFY(std::abs(E.inner(x, ge, xi) - (G[0].array() * xi[0].array()).sum()) < 1e-12);
    }

    void retractionStaysOnManifoldAndIsFirstOrder()
    {
        Rng rng(3);
        ProductManifold M;
        M.addStiefel(7, 3);
        const Point x = {qf(gaussian(7, 3, rng))};
        const Tangent v = M.projectTangent(x, {gaussian(7, 3, rng)});
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
            const Point x = {qf(gaussian(6, 3, rng))};
            Tangent g = {Eigen::MatrixXd::Zero(6, 3)};
            f(x, &g);
            const Tangent rg = M.egradToRgrad(x, g);
            for (int trial = 0; trial < 4; ++trial) {
                const Tangent xi = M.projectTangent(x, {gaussian(6, 3, rng)});
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
                const CgResult r = conjugateGradient(M, brockett(A, N), {qf(gaussian(n, p, rng))}, o);
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
        const CgResult r = conjugateGradient(M, f, {qf(gaussian(5, 2, rng)), Eigen::MatrixXd::Zero(2, 1)}, o);
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
        const Point x0 = {qf(gaussian(6, 2, rng))};
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
};

QTEST_APPLESS_MAIN(TestRiemannian)
#include "TestRiemannian.moc"
