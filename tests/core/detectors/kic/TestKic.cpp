// kic and ic against the KIC paper's formulas written out here: the kernel trick (eq. 15–17 vs
// eq. 9–11 with an explicit monomial V), the ridge-regression value (eq. 19), the ρ of sec. 4.1,
// the filtering step (eq. 20), analytic identities (mean of q over the data = s; mean KIC score =
// tr(G(G + ρI)⁻¹)), invariance of the Christoffel function under affine maps, and the detector
// contract (refusals, cancellation, JSON round trip).
#include "RandomData.h"
#include "base/Errors.h"
#include "detectors/kic/IcDetector.h"
#include "detectors/kic/KicDetector.h"
#include "registry/Registry.h"
#include "base/Rng.h"

#include <nlohmann/json.hpp>
#include <QtTest>
#include <cmath>
#include <numeric>
#include <sstream>
#include <Eigen/Dense>

using namespace olens;
using olens::test::gaussianRows;

namespace {

/// The degree-2 feature map of eq. 4 for p = 2, written out: v(x)ᵀv(y) = (1 + xᵀy)².
Eigen::VectorXd v2(const Eigen::RowVectorXd& x)
{
    const double r2 = std::sqrt(2.0);
    Eigen::VectorXd v(6);
    v << 1, r2 * x(0), r2 * x(1), x(0) * x(0), r2 * x(0) * x(1), x(1) * x(1);
    return v;
}

/// V of eq. 7: columns v(x_i)/√n.
Eigen::MatrixXd explicitV(const Eigen::MatrixXd& X)
{
    Eigen::MatrixXd V(6, X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        V.col(i) = v2(X.row(i));
    return V / std::sqrt(static_cast<double>(X.rows()));
}

/// eq. 11 right-hand side: v(x)ᵀ(ρI + VVᵀ)⁻¹v(x) (ρ = 0: eq. 9/10).
Eigen::VectorXd eq11(const Eigen::MatrixXd& V, double rho, const Eigen::MatrixXd& Q)
{
    const Eigen::MatrixXd A = rho * Eigen::MatrixXd::Identity(6, 6) + V * V.transpose();
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(A);
    Eigen::VectorXd q(Q.rows());
    for (Eigen::Index i = 0; i < Q.rows(); ++i) {
        const Eigen::VectorXd v = v2(Q.row(i));
        q(i) = v.dot(ldlt.solve(v));
    }
    return q;
}

std::string num(double v)
{
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

double maxRelDiff(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    return ((a - b).array().abs() / (b.array().abs() + 1e-300)).maxCoeff();
}

double fig(const Detector& d, const std::string& name)
{
    const auto f = d.figures();
    const auto it = f.find(name);
    return it == f.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

/// eq. 15 literally, for any kernel k: G = K/n, g = k_x/√n, γ = k(x,x),
/// score = ρ⁻¹(γ − gᵀ(ρI + G)⁻¹g).
Eigen::VectorXd eq15(const std::function<double(const Eigen::RowVectorXd&, const Eigen::RowVectorXd&)>& k,
                     const Eigen::MatrixXd& X, double C, const Eigen::MatrixXd& Q, double* rhoOut = nullptr)
{
    const Eigen::Index n = X.rows();
    const double dn = static_cast<double>(n);
    Eigen::MatrixXd G(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j)
            G(i, j) = k(X.row(i), X.row(j)) / dn;
    const double rho = G.norm() / (C * std::sqrt(dn)); // sec. 4.1
    if (rhoOut)
        *rhoOut = rho;
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(G + rho * Eigen::MatrixXd::Identity(n, n));
    Eigen::VectorXd out(Q.rows());
    for (Eigen::Index q = 0; q < Q.rows(); ++q) {
        Eigen::VectorXd g(n);
        for (Eigen::Index i = 0; i < n; ++i)
            g(i) = k(X.row(i), Q.row(q)) / std::sqrt(dn);
        const double gamma = k(Q.row(q), Q.row(q));
        out(q) = (gamma - g.dot(ldlt.solve(g))) / rho;
    }
    return out;
}

double polyK(const Eigen::RowVectorXd& x, const Eigen::RowVectorXd& y, int d)
{
    return std::pow(1.0 + x.dot(y), d);
}

double rbfK(const Eigen::RowVectorXd& x, const Eigen::RowVectorXd& y, double sigma)
{
    return std::exp(-(x - y).squaredNorm() / (2 * sigma * sigma));
}

} // namespace

class TestKic : public QObject {
    Q_OBJECT

private slots:
    void featureMapIsThePolynomialKernel()
    {
        // eq. 5 for the library's basis (p = 3, d = 3) and for the test's own p = 2 map.
        const MonomialBasis basis(3, 3, 1e6);
        QCOMPARE(basis.size(), Eigen::Index(20)); // C(6, 3)
        const Eigen::MatrixXd X = gaussianRows(5, 3, 1);
        const Eigen::MatrixXd V = basis.evaluate(X);
        for (Eigen::Index i = 0; i < 5; ++i)
            for (Eigen::Index j = 0; j < 5; ++j)
                QVERIFY(std::abs(V.row(i).dot(V.row(j)) - polyK(X.row(i), X.row(j), 3)) < 1e-13 * V.row(i).norm() * V.row(j).norm());
        const Eigen::RowVector2d x(0.3, -1.2), y(2.0, 0.7);
        QVERIFY(std::abs(v2(x).dot(v2(y)) - polyK(x, y, 2)) < 1e-12);
        QCOMPARE(MonomialBasis::count(100, 3), 176851.0);
    }

    void kernelTrickMatchesIcAndEq11()
    {
        // p = 2, d = 2: kic's kernel form (eq. 15) equals eq. 11 with the explicit V, and as
        // ρ → 0 both tend to ic's eq. 9.
        const Eigen::MatrixXd X = gaussianRows(200, 2, 7);
        const Eigen::MatrixXd Q = gaussianRows(25, 2, 8, 2.0);
        const Eigen::MatrixXd V = explicitV(X);

        auto ic = Registry::instance().create("ic", {{"degree", "2"}});
        ic->fit(X);
        const Eigen::VectorXd icTrain = eq11(V, 0.0, X), icQuery = eq11(V, 0.0, Q);
        QVERIFY(maxRelDiff(ic->trainingScores(), icTrain) < 1e-10);
        QVERIFY(maxRelDiff(ic->score(Q), icQuery) < 1e-10);
        QCOMPARE(fig(*ic, "s"), 6.0);

        // The paper's C = 500: ρ = ‖VᵀV‖_F/(C√n) and the scores equal eq. 11 at that ρ.
        auto kic = Registry::instance().create("kic", {{"kernel", "poly"}, {"degree", "2"}});
        kic->fit(X);
        const double rho = (V.transpose() * V).norm() / (500.0 * std::sqrt(200.0));
        QVERIFY(std::abs(fig(*kic, "rho") - rho) < 1e-12 * rho);
        QVERIFY(maxRelDiff(kic->trainingScores(), eq11(V, rho, X)) < 1e-9);
        QVERIFY(maxRelDiff(kic->score(Q), eq11(V, rho, Q)) < 1e-9);
        // eq. 11 is a lower bound of q.
        QVERIFY(((icQuery - kic->score(Q)).array() >= 0).all());

        // ρ → 0 (C = 1e7): kic → ic.
        auto kicSmall = Registry::instance().create("kic", {{"kernel", "poly"}, {"C", "1e7"}});
        kicSmall->fit(X);
        QVERIFY(fig(*kicSmall, "rho") < 1e-7);
        QVERIFY(maxRelDiff(kicSmall->trainingScores(), ic->trainingScores()) < 1e-5);
        QVERIFY(maxRelDiff(kicSmall->score(Q), ic->score(Q)) < 1e-5);
        QVERIFY(maxRelDiff(eq11(V, fig(*kicSmall, "rho"), X), icTrain) < 1e-5);
    }

    void kernelFormEqualsEq15WrittenOut()
    {
        // n < s for p = 3, d = 3 (s = 20, n = 15): the dual path for everything; and rbf.
        const Eigen::MatrixXd X = gaussianRows(15, 3, 21);
        const Eigen::MatrixXd Q = gaussianRows(10, 3, 22, 1.5);
        auto poly = Registry::instance().create("kic", {{"kernel", "poly"}, {"degree", "3"}});
        poly->fit(X);
        double rho = 0;
        const auto pk = [](const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b) { return polyK(a, b, 3); };
        QVERIFY(maxRelDiff(poly->trainingScores(), eq15(pk, X, 500, X, &rho)) < 1e-8);
        QVERIFY(std::abs(fig(*poly, "rho") - rho) < 1e-12 * rho);
        QVERIFY(maxRelDiff(poly->score(Q), eq15(pk, X, 500, Q)) < 1e-8);

        const Eigen::MatrixXd Y = gaussianRows(60, 3, 23);
        auto rbf = Registry::instance().create("kic", {{"kernel", "rbf"}});
        rbf->fit(Y);
        const double sigma = std::sqrt(3.0) / 2; // sec. 4.1 auto
        QVERIFY(std::abs(fig(*rbf, "sigma") - sigma) < 1e-15);
        const auto rk = [sigma](const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b) { return rbfK(a, b, sigma); };
        QVERIFY(maxRelDiff(rbf->trainingScores(), eq15(rk, Y, 500, Y)) < 1e-8);
        QVERIFY(maxRelDiff(rbf->score(Q), eq15(rk, Y, 500, Q)) < 1e-8);
        // Training scores (diag of the inverse) and re-scoring the same rows (triangular solves).
        QVERIFY(maxRelDiff(rbf->score(Y), rbf->trainingScores()) < 1e-9);
    }

    void blockedFactorisationMatchesEq15AndIsDeterministic()
    {
        // n = 600 spans several panels of the blocked Cholesky (256) and of diag(A⁻¹) (512), the
        // paths that run on a multi-threaded BLAS (ParallelBlasScope). Reference: eq. 15 written
        // out with Eigen's LDLT (eq15 above). A second fit must give bitwise the same scores.
        const Eigen::MatrixXd X = gaussianRows(600, 4, 31);
        const Eigen::MatrixXd Q = gaussianRows(40, 4, 32, 2.0);
        auto a = Registry::instance().create("kic", {{"kernel", "rbf"}});
        auto b = Registry::instance().create("kic", {{"kernel", "rbf"}});
        a->fit(X);
        b->fit(X);
        const double sigma = 1.0; // √p/2 for p = 4 (sec. 4.1)
        const auto rk = [sigma](const Eigen::RowVectorXd& u, const Eigen::RowVectorXd& v) { return rbfK(u, v, sigma); };
        const Eigen::VectorXd ref = eq15(rk, X, 500, X);
        const double scale = ref.cwiseAbs().maxCoeff();
        QVERIFY2((a->trainingScores() - ref).cwiseAbs().maxCoeff() < 1e-8 * scale,
                 qPrintable(QString::number((a->trainingScores() - ref).cwiseAbs().maxCoeff() / scale)));
        const Eigen::VectorXd refQ = eq15(rk, X, 500, Q);
        QVERIFY((a->score(Q) - refQ).cwiseAbs().maxCoeff() < 1e-8 * refQ.cwiseAbs().maxCoeff());
        QVERIFY(a->trainingScores() == b->trainingScores());
        QVERIFY(a->score(Q) == b->score(Q));
    }

    void primalAndDualPathsAgree()
    {
        // p = 3, d = 2: s = 10 < n, so new points go through the s×s primal system; the
        // training scores come from the n×n dual one.
        const Eigen::MatrixXd X = gaussianRows(150, 3, 31);
        auto d = Registry::instance().create("kic", {{"kernel", "poly"}});
        d->fit(X);
        QVERIFY(maxRelDiff(d->score(X), d->trainingScores()) < 1e-9);
    }

    void meanScoreIsEffectiveDimension()
    {
        // Σ_j score(x_j)/n = tr(G(G + ρI)⁻¹) = Σ μ/(μ + ρ) over the eigenvalues μ of G = K/n,
        // and for ic (ρ = 0) the mean of q over the data is exactly s.
        const Eigen::MatrixXd X = gaussianRows(120, 2, 41);
        auto d = Registry::instance().create("kic", {{"kernel", "rbf"}});
        d->fit(X);
        const double sigma = fig(*d, "sigma"), rho = fig(*d, "rho");
        Eigen::MatrixXd G(120, 120);
        for (int i = 0; i < 120; ++i)
            for (int j = 0; j < 120; ++j)
                G(i, j) = rbfK(X.row(i), X.row(j), sigma) / 120.0;
        const Eigen::VectorXd mu = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(G).eigenvalues();
        const double dof = (mu.array() / (mu.array() + rho)).sum();
        QVERIFY(std::abs(d->trainingScores().mean() - dof) < 1e-9 * dof);

        auto ic = Registry::instance().create("ic", {{"degree", "3"}});
        ic->fit(X);
        QVERIFY(std::abs(ic->trainingScores().mean() - 10.0) < 1e-9); // s = C(5, 3)
    }

    void ridgeRegressionEqualsEq15()
    {
        // eq. 19: φ(ρ) = min_θ ‖Vθ − v‖² + ρ‖θ‖², solved here through eq. 22 with the explicit V,
        // equals ρ·score; and kic's conjugate-gradient route agrees with its Cholesky route.
        const Eigen::MatrixXd X = gaussianRows(100, 2, 51);
        const Eigen::MatrixXd Q = gaussianRows(12, 2, 52, 1.5);
        auto chol = Registry::instance().create("kic", {{"kernel", "poly"}, {"solver", "cholesky"}});
        auto cg = Registry::instance().create("kic", {{"kernel", "poly"}, {"solver", "cg"}});
        chol->fit(X);
        cg->fit(X);
        const double rho = fig(*chol, "rho");
        const Eigen::MatrixXd V = explicitV(X);
        const Eigen::LDLT<Eigen::MatrixXd> normal(V.transpose() * V + rho * Eigen::MatrixXd::Identity(100, 100));
        const Eigen::VectorXd sq = chol->score(Q);
        for (Eigen::Index i = 0; i < Q.rows(); ++i) {
            const Eigen::VectorXd v = v2(Q.row(i));
            const Eigen::VectorXd theta = normal.solve(V.transpose() * v); // eq. 22
            const double value = (V * theta - v).squaredNorm() + rho * theta.squaredNorm();
            QVERIFY(std::abs(value - rho * sq(i)) < 1e-8 * value);
        }
        QVERIFY(maxRelDiff(cg->trainingScores(), chol->trainingScores()) < 1e-8);
        QVERIFY(maxRelDiff(cg->score(Q), chol->score(Q)) < 1e-8);
        QCOMPARE(fig(*cg, "cg_unconverged"), 0.0);
        QVERIFY(fig(*cg, "cg_iterations") > 0);

        const Eigen::MatrixXd Y = gaussianRows(90, 3, 53);
        auto rc = Registry::instance().create("kic", {{"kernel", "rbf"}, {"solver", "cg"}});
        auto rh = Registry::instance().create("kic", {{"kernel", "rbf"}, {"solver", "cholesky"}});
        rc->fit(Y);
        rh->fit(Y);
        QVERIFY(maxRelDiff(rc->trainingScores(), rh->trainingScores()) < 1e-8);
        const Eigen::MatrixXd R = gaussianRows(10, 3, 54, 1.5);
        QVERIFY(maxRelDiff(rc->score(R), rh->score(R)) < 1e-8);
    }

    void filteringRefitsOnFloorAlphaN()
    {
        // eq. 20 with ⌊αn⌋ points: 0.6·101 → 60, 0.6·100 → 60, 0.55·101 → 55.
        const Eigen::MatrixXd X = gaussianRows(101, 2, 61);
        const std::vector<std::pair<std::string, double>> cases = {{"0.6", 60}, {"0.55", 55}, {"1", 101}};
        for (const auto& [alpha, want] : cases) {
            auto d = Registry::instance().create("kic", {{"kernel", "rbf"}, {"filter_alpha", alpha}});
            d->fit(X);
            QCOMPARE(fig(*d, "fit_points"), want);
            QCOMPARE(fig(*d, "training_points"), 101.0);
        }
        auto d100 = Registry::instance().create("kic", {{"filter_alpha", "0.6"}});
        d100->fit(X.topRows(100));
        QCOMPARE(fig(*d100, "fit_points"), 60.0);

        // The filtered model is exactly kic (same σ = √p/4) refitted on the 60 lowest-scored
        // points of the first pass, and the training scores are all n points under it.
        const std::string s4 = num(std::sqrt(2.0) / 4);
        auto filtered = Registry::instance().create("kic", {{"kernel", "rbf"}, {"filter_alpha", "0.6"}});
        filtered->fit(X);
        QVERIFY(std::abs(fig(*filtered, "sigma") - std::sqrt(2.0) / 4) < 1e-15);
        auto first = Registry::instance().create("kic", {{"kernel", "rbf"}, {"sigma", s4}});
        first->fit(X);
        std::vector<Eigen::Index> order(101);
        std::iota(order.begin(), order.end(), Eigen::Index(0));
        const Eigen::VectorXd s0 = first->trainingScores();
        std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return s0(a) < s0(b); });
        order.resize(60);
        std::sort(order.begin(), order.end());
        Eigen::MatrixXd Xf(60, 2);
        for (int i = 0; i < 60; ++i)
            Xf.row(i) = X.row(order[static_cast<std::size_t>(i)]);
        auto refit = Registry::instance().create("kic", {{"kernel", "rbf"}, {"sigma", s4}});
        refit->fit(Xf);
        QVERIFY(maxRelDiff(filtered->trainingScores(), refit->score(X)) < 1e-9);
        QVERIFY(maxRelDiff(filtered->score(X), filtered->trainingScores()) < 1e-9);

        auto tiny = Registry::instance().create("kic", {{"filter_alpha", "0.01"}});
        QVERIFY_THROWS_EXCEPTION(ParamError, tiny->fit(X));
    }

    void rbfSigma()
    {
        const Eigen::MatrixXd X = gaussianRows(40, 4, 71);
        auto a = Registry::instance().create("kic", {{"kernel", "rbf"}});
        a->fit(X);
        QCOMPARE(fig(*a, "sigma"), 1.0); // √4/2
        auto b = Registry::instance().create("kic", {{"kernel", "rbf"}, {"filter_alpha", "0.6"}});
        b->fit(X);
        QCOMPARE(fig(*b, "sigma"), 0.5); // √4/4
        auto c = Registry::instance().create("kic", {{"kernel", "rbf"}, {"sigma", "0.3"}, {"filter_alpha", "0.6"}});
        c->fit(X);
        QCOMPARE(fig(*c, "sigma"), 0.3);
        auto p = Registry::instance().create("kic");
        p->fit(X);
        QVERIFY(!p->figures().count("sigma")); // poly: no σ
    }

    void farPointsGetTheTopScores()
    {
        Eigen::MatrixXd X = gaussianRows(306, 3, 81);
        Rng rng(82);
        for (int i = 300; i < 306; ++i) {
            Eigen::RowVector3d dir(rng.normal(), rng.normal(), rng.normal());
            X.row(i) = 8.0 * dir.normalized();
        }
        const std::vector<ParamAssignments> variants = {
            {{"kernel", "poly"}}, {{"kernel", "rbf"}}, {{"kernel", "rbf"}, {"filter_alpha", "0.6"}},
            {{"kernel", "poly"}, {"filter_alpha", "0.6"}}};
        for (const auto& params : variants) {
            auto d = Registry::instance().create("kic", params);
            d->fit(X);
            const Eigen::VectorXd s = d->trainingScores();
            const double worstOutlier = s.tail(6).minCoeff();
            QVERIFY(s.head(300).maxCoeff() < worstOutlier);
        }
        auto ic = Registry::instance().create("ic");
        ic->fit(X);
        QVERIFY(ic->trainingScores().head(300).maxCoeff() < ic->trainingScores().tail(6).minCoeff());
    }

    void nystromWithEveryPointAsLandmarkIsExact()
    {
        // With all n' fit points as landmarks the projection P is the identity on the span of the
        // training features, so the Nyström score equals eq. 15 (up to the jitter's ε/ρ).
        const Eigen::MatrixXd X = gaussianRows(200, 3, 131);
        const Eigen::MatrixXd Q = gaussianRows(20, 3, 132, 2.0);
        auto exact = Registry::instance().create("kic", {{"kernel", "rbf"}, {"sigma", "0.5"}, {"landmarks", "0"}});
        auto all = Registry::instance().create("kic", {{"kernel", "rbf"}, {"sigma", "0.5"}, {"landmarks", "200"}});
        exact->fit(X);
        all->fit(X);
        QCOMPARE(fig(*all, "landmarks"), 200.0);
        QVERIFY(std::isnan(fig(*exact, "landmarks")));
        QVERIFY(std::abs(fig(*all, "rho") / fig(*exact, "rho") - 1) < 1e-9);
        const double scale = exact->trainingScores().maxCoeff();
        QVERIFY((all->trainingScores() - exact->trainingScores()).cwiseAbs().maxCoeff() < 1e-5 * scale);
        QVERIFY((all->score(Q) - exact->score(Q)).cwiseAbs().maxCoeff() < 1e-5 * exact->score(Q).maxCoeff());
    }

    void nystromKeepsFarPointsOnTopAndIsSeeded()
    {
        // 600 inliers + 6 far points, 50 landmarks: the part of v(x) outside the landmarks' span
        // (γ − ‖φ‖², divided by ρ) still puts every far point above every inlier.
        Eigen::MatrixXd X = gaussianRows(606, 3, 141);
        Rng rng(142);
        for (int i = 600; i < 606; ++i) {
            Eigen::RowVector3d dir(rng.normal(), rng.normal(), rng.normal());
            X.row(i) = 8.0 * dir.normalized();
        }
        auto a = Registry::instance().create("kic", {{"kernel", "rbf"}, {"landmarks", "50"}, {"seed", "3"}});
        auto b = Registry::instance().create("kic", {{"kernel", "rbf"}, {"landmarks", "50"}, {"seed", "3"}});
        auto c = Registry::instance().create("kic", {{"kernel", "rbf"}, {"landmarks", "50"}, {"seed", "4"}});
        a->fit(X);
        b->fit(X);
        c->fit(X);
        QCOMPARE(a->trainingScores(), b->trainingScores());
        QVERIFY(a->trainingScores() != c->trainingScores());
        for (const auto* d : {a.get(), c.get()}) {
            const Eigen::VectorXd s = d->trainingScores();
            QVERIFY(s.head(600).maxCoeff() < s.tail(6).minCoeff());
        }
        // A far point outside every landmark's reach scores about 1/ρ (its whole v(x) is residual).
        Eigen::MatrixXd far(1, 3);
        far << 40, 0, 0;
        QVERIFY(std::abs(a->score(far)(0) * fig(*a, "rho") - 1.0) < 1e-6);
    }

    void polynomialKernelAtLargeNIsExactThroughThePrimal()
    {
        // n' = 7000 > 6000 with p = 2, d = 2 (s = 6): no n'×n' matrix, eq. 11 with the explicit V.
        const Eigen::MatrixXd X = gaussianRows(7000, 2, 151);
        const Eigen::MatrixXd Q = gaussianRows(10, 2, 152, 2.0);
        auto d = Registry::instance().create("kic", {{"kernel", "poly"}});
        d->fit(X);
        QCOMPARE(QString::fromStdString(d->params().resolvedText("landmarks")), QString("0"));
        const Eigen::MatrixXd V = explicitV(X);
        const double rho = (V.transpose() * V).norm() / (500.0 * std::sqrt(7000.0)); // sec. 4.1
        QVERIFY(std::abs(fig(*d, "rho") / rho - 1) < 1e-9);
        QVERIFY(maxRelDiff(d->score(Q), eq11(V, rho, Q)) < 1e-8);
        QVERIFY(maxRelDiff(d->trainingScores().head(50), eq11(V, rho, X.topRows(50))) < 1e-8);
    }

    void exactPathAboveTheLimitNamesLandmarks()
    {
        const Eigen::MatrixXd X = gaussianRows(KicDetector::maxFitPoints + 1, 2, 161);
        auto d = Registry::instance().create("kic", {{"kernel", "rbf"}, {"landmarks", "0"}});
        try {
            d->fit(X);
            QFAIL("expected ParamError");
        } catch (const ParamError& e) {
            QVERIFY(QString(e.what()).contains("landmarks"));
        }
        // auto takes the Nyström path instead.
        auto a = Registry::instance().create("kic", {{"kernel", "rbf"}});
        a->fit(X);
        QCOMPARE(fig(*a, "landmarks"), std::floor(std::sqrt(2e10 / (KicDetector::maxFitPoints + 1))));
        QVERIFY(a->trainingScores().allFinite());
    }

    void icRefusesHugeMomentMatrix()
    {
        // p = 100, d = 3: s = C(103, 3) = 176851 — refused before any allocation.
        const Eigen::MatrixXd X = gaussianRows(10, 100, 91);
        auto ic = Registry::instance().create("ic", {{"degree", "3"}});
        try {
            ic->fit(X);
            QFAIL("expected ParamError");
        } catch (const ParamError& e) {
            QVERIFY(QString(e.what()).contains("kic"));
            QVERIFY(QString(e.what()).contains("176851"));
        }
        QVERIFY(!ic->isFitted());
        // n < s (p = 30, d = 2: s = 496 > 50): ic with the paper's degree 2 refuses, kic works
        // (degree auto falls back to 1: TestAutoDefaults).
        const Eigen::MatrixXd Y = gaussianRows(50, 30, 92);
        auto ic2 = Registry::instance().create("ic", {{"degree", "2"}});
        try {
            ic2->fit(Y);
            QFAIL("expected DataError");
        } catch (const DataError& e) {
            QVERIFY(QString(e.what()).contains("kic"));
        }
        auto kic = Registry::instance().create("kic");
        kic->fit(Y);
        QVERIFY(kic->trainingScores().allFinite());
    }

    void icSingularMomentMatrix()
    {
        // Points on the circle x² + y² = 1: a degree-2 polynomial vanishes on them, so M is
        // singular (the case eq. 9 excludes); kic's ρI keeps working.
        Eigen::MatrixXd X(40, 2);
        for (int i = 0; i < 40; ++i)
            X.row(i) << std::cos(0.3 + i * 0.157), std::sin(0.3 + i * 0.157);
        auto ic = Registry::instance().create("ic", {{"degree", "2"}});
        try {
            ic->fit(X);
            QFAIL("expected DataError");
        } catch (const DataError& e) {
            QVERIFY(QString(e.what()).contains("singular"));
            QVERIFY(QString(e.what()).contains("kic"));
        }
        auto kic = Registry::instance().create("kic");
        kic->fit(X);
        // Off the circle scores far higher than on it.
        Eigen::MatrixXd Q(2, 2);
        Q << std::cos(1.0), std::sin(1.0), 0.5 * std::cos(1.0), 0.5 * std::sin(1.0);
        const Eigen::VectorXd s = kic->score(Q);
        QVERIFY(s(1) > 20 * s(0));
    }

    void christoffelFunctionIsAffineInvariant()
    {
        // Polynomials of degree ≤ d are mapped onto themselves by x → Ax + b, so q is unchanged.
        const Eigen::MatrixXd X = gaussianRows(80, 3, 101);
        Eigen::Matrix3d A;
        A << 2, 0.5, 0, -1, 1, 0.3, 0.2, 0, 3;
        const Eigen::MatrixXd Y = (X * A.transpose()).rowwise() + Eigen::RowVector3d(1, -2, 0.5);
        auto a = Registry::instance().create("ic", {{"degree", "2"}});
        auto b = Registry::instance().create("ic", {{"degree", "2"}});
        a->fit(X);
        b->fit(Y);
        QVERIFY(maxRelDiff(b->trainingScores(), a->trainingScores()) < 1e-8);
    }

    void cancelKeepsPreviousModel()
    {
        auto d = Registry::instance().create("kic", {{"kernel", "rbf"}});
        const Eigen::MatrixXd X = gaussianRows(30, 2, 111);
        d->fit(X);
        const Eigen::VectorXd before = d->trainingScores();
        int calls = 0;
        auto cancel = [&](const ProgressInfo& p) {
            ++calls;
            return p.fraction >= 0.3;
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, d->fit(gaussianRows(400, 2, 112), cancel));
        QVERIFY(calls >= 2);
        QCOMPARE(d->trainingScores(), before);
        QCOMPARE(fig(*d, "fit_points"), 30.0);
        QVERIFY(d->score(X).allFinite());
    }

    void jsonRoundTripReproducesScores()
    {
        const Eigen::MatrixXd X = gaussianRows(70, 3, 121);
        const Eigen::MatrixXd Q = gaussianRows(15, 3, 122, 2.0);
        const std::vector<std::pair<std::string, ParamAssignments>> cases = {
            {"kic", {{"kernel", "poly"}}},
            {"kic", {{"kernel", "rbf"}}},
            {"kic", {{"kernel", "rbf"}, {"filter_alpha", "0.6"}}},
            {"kic", {{"kernel", "rbf"}, {"landmarks", "20"}, {"seed", "5"}}},
            {"kic", {{"kernel", "rbf"}, {"landmarks", "20"}, {"filter_alpha", "0.6"}}},
            {"kic", {{"kernel", "poly"}, {"degree", "3"}, {"solver", "cg"}}},
            {"ic", {{"degree", "2"}}}};
        for (const auto& [id, params] : cases) {
            auto d = Registry::instance().create(id, params);
            d->fit(X);
            auto e = Registry::instance().load(nlohmann::json::parse(d->toJson().dump()));
            QCOMPARE(e->score(Q), d->score(Q));
            QCOMPARE(e->trainingScores(), d->trainingScores());
            QCOMPARE(e->threshold(), d->threshold());
            QVERIFY(e->figures() == d->figures());
        }
        auto d = Registry::instance().create("kic");
        d->fit(X);
        nlohmann::json j = d->toJson();
        j["state"]["points"] = std::vector<double>{1.0, 2.0};
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(j));
        j = d->toJson();
        j["state"]["rho"] = -1.0;
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(j));
    }
};

QTEST_APPLESS_MAIN(TestKic)
#include "TestKic.moc"
