// The view's numbers without a window (core/display): grid boxes, flat corners through the
// inverse normaliser, uncertainty glyph matrices (axes of diagonal and projected covariances,
// rotation equivariance), colour ranges, contour levels and axis ticks — all checked analytically.
#include "display/DisplayGeometry.h"
#include "display/Grid.h"
#include "display/Ticks.h"
#include "base/Errors.h"

#include "display/PointSizing.h"
#include "base/Rng.h"

#include "Numeric.h"

#include <QtTest>
#include <cmath>
#include <Eigen/Dense>

using namespace olens;

namespace {

using test::near;

Eigen::Matrix2d rotation(double angle)
{
    Eigen::Matrix2d R;
    R << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
    return R;
}

Projection chosenBasis(const Eigen::MatrixXd& B)
{
    Projection p;
    p.origin = Eigen::VectorXd::Zero(B.rows());
    p.basis = B;
    p.identity = false;
    return p;
}

} // namespace

class TestDisplayGeometry : public QObject {
    Q_OBJECT

private slots:
    void lodStrideKeepsTheDrawnPointsWithinTheBudget()
    {
        QCOMPARE(lodStride(0), 1);
        QCOMPARE(lodStride(kLodPointBudget), 1);
        QCOMPARE(lodStride(kLodPointBudget + 1), 2);
        QCOMPARE(lodStride(1000000, 200000), 5);   // exactly 200 000 drawn
        QCOMPARE(lodStride(1000001, 200000), 6);   // 5 would draw 200 001
        for (std::int64_t n : {200001LL, 999999LL, 1000000LL, 12345678LL}) {
            const int k = lodStride(n);
            QVERIFY((n + k - 1) / k <= kLodPointBudget);       // within the budget
            QVERIFY(k == 1 || (n + k - 2) / (k - 1) > kLodPointBudget); // and the smallest such k
        }
    }

    void aStillFrameDrawsAtMostItsBudget()
    {
        // Issue #54: a still frame of a big cloud draws at most a million of its faded points, and
        // of any other cloud at most four million (by hand: 5 M quiet → every 5th; 20 M → every 5th
        // of any cloud, every 20th quiet one; under the budgets all).
        QCOMPARE(stillStride(5000000, true), 5);
        QCOMPARE(stillStride(20000000, true), 20);
        QCOMPARE(stillStride(20000000, false), 5);
        QCOMPARE(stillStride(3000000, false), 1);
        QCOMPARE(stillStride(1000000, true), 1);
        QCOMPARE(stillStride(250000, true, 50000), 5);
    }

    void autoPointSizeCoversAQuarterOfTheDataArea()
    {
        // Sprites of diameter s cover n·π s²/4 pixels: a quarter of the data's screen area.
        const double area = 700.0 * 600.0;
        const double s = autoPointSize(3000, area);
        QVERIFY(std::abs(3000 * M_PI * s * s / 4 - area / 4) < 1e-6 * area);
        QVERIFY(s > 6.0 && s < 7.0); // below the 9 px that hid the contour at 3 000 points
        QCOMPARE(autoPointSize(300, area), kMaxAutoPointSize);   // small teaching clouds keep 9 px
        QCOMPARE(autoPointSize(1000000, area), kMinAutoPointSize); // 1M points: the smallest round sprite
        QCOMPARE(autoPointSize(1000000, area, 2.0), 2.0 * kMinAutoPointSize);
        // Zooming in (4× the area) doubles the size; more points shrink it.
        QVERIFY(std::abs(autoPointSize(20000, 4 * area) - 2 * autoPointSize(20000, area)) < 1e-12);
        QVERIFY(autoPointSize(20000, area) < autoPointSize(10000, area));
        QCOMPARE(autoPointSize(0, area), kMaxAutoPointSize);
        QCOMPARE(autoPointSize(10, 0.0), kMaxAutoPointSize);
    }
    void autoPointOpacityShowsDensity()
    {
        // The mean overdraw D = n·π s²/4 / area; α = 1/D, so the sprites over a pixel of mean
        // density sum to one opaque sprite: coverage 1 − (1 − α)^D.
        const double area = 700.0 * 600.0;
        // Teaching clouds (the automatic size aims at D = 1/4) and any D ≤ 1 stay opaque.
        QCOMPARE(autoPointOpacity(300, area, autoPointSize(300, area)), 1.0);
        QCOMPARE(autoPointOpacity(20000, area, autoPointSize(20000, area)), 1.0);
        const double s1 = std::sqrt(4.0 * area / M_PI / 5000.0); // D = 1 exactly at n = 5000
        QVERIFY(near(autoPointOpacity(5000, area, s1), 1.0));
        QVERIFY(near(autoPointOpacity(10000, area, s1), 0.5));
        // 1M points at the smallest sprite on a 700 × 600 box: D = 1e6·π/420 000 ≈ 7.48.
        const double d = 1e6 * M_PI * 4.0 / 4.0 / area;
        const double a = autoPointOpacity(1000000, area, 2.0);
        QVERIFY(near(a, 1.0 / d));
        // A pixel of mean density is covered to about 1 − 1/e, three times the mean to about 95 %,
        // a third of it to about 28 %: shade, not a solid blob.
        const double mean = 1.0 - std::pow(1.0 - a, d);
        QVERIFY2(mean > 0.6 && mean < 0.68, qPrintable(QString::number(mean)));
        QVERIFY(1.0 - std::pow(1.0 - a, 3 * d) > 0.93);
        QVERIFY(1.0 - std::pow(1.0 - a, d / 3) < 0.32);
        // Inversely proportional to n and to s², proportional to the area (zoom) until clamped.
        QVERIFY(near(autoPointOpacity(2000000, area, 2.0), a / 2));
        QVERIFY(near(autoPointOpacity(1000000, 2 * area, 2.0), 2 * a));
        QVERIFY(near(autoPointOpacity(1000000, area, 4.0), a / 4));
        // Level of detail: every 5th point of 1M drawn is 200 000 points, five times as opaque.
        QVERIFY(near(autoPointOpacity(1000000 / lodStride(1000000), area, 2.0), 5 * a));
        // Never fainter than an 8-bit framebuffer can blend; degenerate input: opaque.
        QCOMPARE(autoPointOpacity(100000000, area, 2.0), kMinPointOpacity);
        QCOMPARE(autoPointOpacity(0, area, 2.0), 1.0);
        QCOMPARE(autoPointOpacity(1000, 0.0, 2.0), 1.0);
        QCOMPARE(autoPointOpacity(1000, area, 0.0), 1.0);
    }
    void screenDensityIsTheDensityAroundATypicalPoint()
    {
        // Samples of m = 20 000 screen positions standing for n = 1M points; analytic densities.
        const int m = 20000;
        const std::int64_t n = 1000000;
        Rng rng(3);
        // A uniform 300 × 300 square: ρ = n / 90 000.
        Eigen::MatrixX2d sq(m, 2);
        for (int i = 0; i < m; ++i)
            sq.row(i) << rng.uniform(0.0, 300.0), rng.uniform(0.0, 300.0);
        const double uniform = screenDensity(sq, n, 8.0);
        QVERIFY2(std::abs(uniform / (1e6 / 90000.0) - 1.0) < 0.05, qPrintable(QString::number(uniform)));
        QVERIFY(near(autoPointOpacity(1e6 / 90000.0, 2.0), autoPointOpacity(n, 90000.0, 2.0)));
        // A ring 100 ≤ r ≤ 150 (a torus from above): ρ = n / (π (150² − 100²)), 2.9 times the
        // density over its 300 × 300 bounding box.
        Eigen::MatrixX2d ring(m, 2);
        for (int i = 0; i < m; ++i) {
            const double r = std::sqrt(rng.uniform(100.0 * 100.0, 150.0 * 150.0)), t = rng.uniform(0.0, 2 * M_PI);
            ring.row(i) << 150.0 + r * std::cos(t), 150.0 + r * std::sin(t);
        }
        const double annulus = 1e6 / (M_PI * (150.0 * 150.0 - 100.0 * 100.0));
        const double dense = screenDensity(ring, n, 8.0);
        QVERIFY2(std::abs(dense / annulus - 1.0) < 0.06, qPrintable(QString("%1 vs %2").arg(dense).arg(annulus)));
        // Two squares: 3/4 of the points in 100 × 100, 1/4 in 200 × 200 far away. A typical point
        // sees ρ = 3/4 ρ₁ + 1/4 ρ₂ (the point-weighted mean), ρ₁ = 0.75 n / 10⁴, ρ₂ = 0.25 n / 4·10⁴.
        Eigen::MatrixX2d two(m, 2);
        for (int i = 0; i < m; ++i) {
            if (i % 4 != 3)
                two.row(i) << rng.uniform(0.0, 100.0), rng.uniform(0.0, 100.0);
            else
                two.row(i) << 1000.0 + rng.uniform(0.0, 200.0), rng.uniform(0.0, 200.0);
        }
        const double mixed = 0.75 * (0.75e6 / 1e4) + 0.25 * (0.25e6 / 4e4);
        const double est = screenDensity(two, n, 8.0);
        QVERIFY2(std::abs(est / mixed - 1.0) < 0.06, qPrintable(QString("%1 vs %2").arg(est).arg(mixed)));
        // Invariant to where the cloud is on screen (cells are a partition, not the box).
        Eigen::MatrixX2d moved = sq;
        moved.col(0).array() += 12345.6;
        moved.col(1).array() -= 777.7;
        QVERIFY(std::abs(screenDensity(moved, n, 8.0) / uniform - 1.0) < 0.05);
        // The view's rule: opaque while the automatic size can still shrink (up to 90 000 / 4π ≈
        // 7 162 points on 300 × 300 px, however concentrated: a 20× denser ring), by density at
        // 2 px (1M: the ring's).
        QCOMPARE(cloudOpacity(300, 90000.0, 20 * dense * 300 / 1e6), 1.0);
        QCOMPARE(cloudOpacity(7000, 90000.0, 20 * dense * 7000 / 1e6), 1.0);
        // Just past the switch the opacity leaves 1 continuously ((wanted / 2 px)², not the
        // concentrated ring's 1/D ≈ 0.1), and the density rule takes over for large n.
        const double at = cloudOpacity(7300, 90000.0, 20 * dense * 7300 / 1e6);
        QVERIFY2(at < 1.0 && at > 0.95, qPrintable(QString::number(at)));
        QVERIFY(near(at, 90000.0 / (M_PI * 7300) / 4.0));
        QVERIFY(near(cloudOpacity(n, 90000.0, dense), autoPointOpacity(dense, 2.0)));
        QVERIFY(near(cloudOpacity(n, 90000.0, dense, 2.0), autoPointOpacity(dense, 4.0)));
        QVERIFY(cloudOpacity(n, 90000.0, dense) < 0.1);
        // Degenerate input.
        QCOMPARE(screenDensity(Eigen::MatrixX2d(1, 2), n, 8.0), 0.0);
        QCOMPARE(screenDensity(sq, 0, 8.0), 0.0);
        QCOMPARE(autoPointOpacity(0.0, 2.0), 1.0);
    }
    void gridAroundWidensTheBoxByTheMargin()
    {
        Eigen::MatrixX3d P(3, 3);
        P << 0, 0, 0, 2, 4, 0, 1, 1, 0;
        const GridSpec g = gridAround(P, 2, 0.5, 40, 16);
        QCOMPARE(g.dims, 2);
        QVERIFY(near(g.lo[0], -1.0) && near(g.hi[0], 3.0));
        QVERIFY(near(g.lo[1], -2.0) && near(g.hi[1], 6.0));
        QCOMPARE(g.lo[2], 0.0);
        QCOMPARE(g.hi[2], 0.0);
        QVERIFY(g.res == Eigen::Vector3i(40, 40, 1));
        const GridSpec g3 = gridAround(P, 3, 0.0, 40, 16);
        QVERIFY(g3.res == Eigen::Vector3i(16, 16, 16));
        QVERIFY(near(g3.lo[0], 0.0) && near(g3.hi[1], 4.0)); // no margin: the data box itself
        QVERIFY(gridAround(Eigen::MatrixX3d(0, 3), 3, 0.1, 8, 8).count() > 0);
    }

    void degenerateAxisStillGetsABand()
    {
        // p = 1: every y is 0; the y range is ±margin × 0.2 × the x size.
        Eigen::MatrixX3d P = Eigen::MatrixX3d::Zero(2, 3);
        P(1, 0) = 10.0;
        const GridSpec g = gridAround(P, 2, 0.15, 20, 8);
        QVERIFY(near(g.lo[1], -0.15 * 2.0) && near(g.hi[1], 0.15 * 2.0));
        QVERIFY(near(boxDiagonal(P), 10.0));
        QCOMPARE(boxDiagonal(Eigen::MatrixX3d(0, 3)), 1.0);
    }

    void cornersOfAxisAlignedFlats()
    {
        Flat line;
        line.origin = Eigen::Vector3d(1, 2, 3);
        line.basis = Eigen::Vector3d(0, 1, 0);
        line.lower = Eigen::VectorXd::Constant(1, -1.0);
        line.upper = Eigen::VectorXd::Constant(1, 2.0);
        const Eigen::MatrixXd L = flatCorners(line);
        QCOMPARE(L.rows(), Eigen::Index(2));
        QVERIFY(L.row(0).isApprox(Eigen::RowVector3d(1, 1, 3)));
        QVERIFY(L.row(1).isApprox(Eigen::RowVector3d(1, 4, 3)));

        Flat patch;
        patch.origin = Eigen::Vector3d(0, 0, 5);
        patch.basis = Eigen::Matrix<double, 3, 2>::Zero();
        patch.basis(0, 0) = 1.0;
        patch.basis(1, 1) = 1.0;
        patch.lower = Eigen::Vector2d(-1, -2);
        patch.upper = Eigen::Vector2d(3, 4);
        const Eigen::MatrixXd C = flatCorners(patch);
        QCOMPARE(C.rows(), Eigen::Index(3)); // origin, point1 (along u), point2 (along v)
        QVERIFY(C.row(0).isApprox(Eigen::RowVector3d(-1, -2, 5)));
        QVERIFY(C.row(1).isApprox(Eigen::RowVector3d(3, -2, 5)));
        QVERIFY(C.row(2).isApprox(Eigen::RowVector3d(-1, 4, 5)));
    }

    void flatsWithoutExtentAreNotDrawn()
    {
        Flat point;
        point.origin = Eigen::Vector2d(1, 1);
        point.basis = Eigen::Vector2d(1, 0);
        point.lower = Eigen::VectorXd::Zero(1);
        point.upper = Eigen::VectorXd::Zero(1);
        QCOMPARE(flatCorners(point).rows(), Eigen::Index(0));
        Flat solid; // a 3-flat is the whole space: nothing to draw
        solid.origin = Eigen::Vector3d::Zero();
        solid.basis = Eigen::Matrix3d::Identity();
        solid.lower = -Eigen::Vector3d::Ones();
        solid.upper = Eigen::Vector3d::Ones();
        QCOMPARE(flatCorners(solid).rows(), Eigen::Index(0));
        Flat mismatched = point;
        mismatched.upper = Eigen::Vector2d(1, 1);
        QCOMPARE(flatCorners(mismatched).rows(), Eigen::Index(0));
    }

    void flatCornersGoThroughTheInverseNormaliser()
    {
        // minmax on columns x ∈ [2, 6], y ∈ [−1, 9]: x = 2 + 4 t, y = −1 + 10 t.
        Eigen::MatrixXd X(2, 2);
        X << 2, -1, 6, 9;
        Normalizer norm(Normalization::MinMax);
        norm.fit(X);
        Flat fl; // the segment t ∈ [0, 1] along the diagonal direction of the unit square
        fl.origin = Eigen::Vector2d(0, 0);
        fl.basis = Eigen::Vector2d(1, 1).normalized();
        fl.lower = Eigen::VectorXd::Zero(1);
        fl.upper = Eigen::VectorXd::Constant(1, std::sqrt(2.0));
        const Projection identity = Projection::automatic(X, {"x", "y"});
        const Eigen::MatrixX3d P = flatDisplayCorners(fl, norm, X.colwise().mean().transpose(), identity);
        QCOMPARE(P.rows(), Eigen::Index(2));
        QVERIFY(P.row(0).isApprox(Eigen::RowVector3d(2, -1, 0)));
        QVERIFY(P.row(1).isApprox(Eigen::RowVector3d(6, 9, 0)));

        // zscore (population std): x = mean + std · z; the display is the projection of that.
        Eigen::MatrixXd Z(2, 2);
        Z << -1, 0, 3, 4; // mean (1, 2), std (2, 2)
        Normalizer zs(Normalization::ZScore);
        zs.fit(Z);
        Flat unit;
        unit.origin = Eigen::Vector2d(0, 0);
        unit.basis = Eigen::Vector2d(1, 0);
        unit.lower = Eigen::VectorXd::Constant(1, -1.0);
        unit.upper = Eigen::VectorXd::Constant(1, 1.0);
        const Eigen::MatrixX3d Q = flatDisplayCorners(unit, zs, Z.colwise().mean().transpose(), identity);
        QVERIFY(Q.row(0).isApprox(Eigen::RowVector3d(-1, 2, 0)));
        QVERIFY(Q.row(1).isApprox(Eigen::RowVector3d(3, 2, 0)));
    }

    void ellipsoidShadowIsTheMarginalEllipse()
    {
        // A 5-D ellipsoid fitted in z-scored coordinates, seen through a 2-D basis of feature space.
        // Support-function check, independent of the formula: for a display direction w the point of
        // the ellipsoid that goes furthest along w is z* = c + r·S Lᵀw/√(wᵀLSLᵀw) (Lagrange); mapped
        // back by the normaliser and the projection (their own code) it must lie on the shadow's zero
        // set with the shadow's gradient parallel to w, and (z*−c)ᵀS⁻¹(z*−c) = r².
        const int p = 5;
        Eigen::MatrixXd D(40, p);
        for (int i = 0; i < 40; ++i)
            for (int j = 0; j < p; ++j)
                D(i, j) = std::sin(1.7 * i + 0.9 * j * j) * (1.0 + 2.0 * j) + 10.0 * j;
        Normalizer zs(Normalization::ZScore);
        zs.fit(D);
        Eigen::MatrixXd R(p, p);
        for (int i = 0; i < p; ++i)
            for (int j = 0; j < p; ++j)
                R(i, j) = std::cos(0.3 * i * j + 0.5 * i + 0.2);
        const Eigen::MatrixXd S = R * R.transpose() + 0.3 * Eigen::MatrixXd::Identity(p, p);
        Eigen::VectorXd c(p);
        c << 0.3, -0.2, 0.1, 0.5, -0.4;
        const double r2 = 7.5;
        const Quadric q = ellipsoidQuadric(c, S, r2, "E");
        Eigen::MatrixXd B0(p, 2);
        for (int i = 0; i < p; ++i) {
            B0(i, 0) = std::cos(1.0 + i);
            B0(i, 1) = std::sin(0.4 * i * i + 0.3);
        }
        Projection pr = chosenBasis(Eigen::HouseholderQR<Eigen::MatrixXd>(B0).householderQ() * Eigen::MatrixXd::Identity(p, 2));
        pr.origin = D.colwise().mean().transpose() + Eigen::VectorXd::Constant(p, 0.25);
        const Quadric sh = ellipsoidShadow(q, zs, pr);
        QCOMPARE(sh.A.rows(), Eigen::Index(2));
        QVERIFY(sh.ellipsoid && sh.name == "E");
        // The linear part of u(z), from the normaliser and projection themselves.
        auto display = [&](const Eigen::VectorXd& z) {
            return Eigen::Vector2d(pr.toDisplay(zs.inverseTransform(z.transpose(), pr.origin)).row(0).head<2>().transpose());
        };
        Eigen::MatrixXd L(2, p);
        for (int j = 0; j < p; ++j)
            L.col(j) = display(c + Eigen::VectorXd::Unit(p, j)) - display(c);
        for (int t = 0; t < 12; ++t) {
            const Eigen::Vector2d w(std::cos(0.52 * t), std::sin(0.52 * t));
            const Eigen::VectorXd Sw = S * L.transpose() * w;
            const Eigen::VectorXd z = c + std::sqrt(r2) * Sw / std::sqrt(w.dot(L * Sw));
            QVERIFY(near((z - c).dot(S.ldlt().solve(z - c)), r2, 1e-9));
            const Eigen::Vector2d u = display(z);
            const double f = u.dot(sh.A * u) + sh.b.dot(u) + sh.c;
            QVERIFY2(std::abs(f) < 1e-9 * std::abs(sh.c), qPrintable(QString("f = %1").arg(f)));
            const Eigen::Vector2d grad = 2.0 * sh.A * u + sh.b;
            QVERIFY(std::abs(grad.normalized().dot(w) - 1.0) < 1e-9);
        }
        // p ≤ 3 with the identity projection: the shadow is the ellipsoid itself (same zero set).
        Normalizer none(Normalization::None);
        none.fit(D.leftCols(2));
        Projection id;
        id.origin = Eigen::Vector2d::Zero();
        id.basis = Eigen::Matrix2d::Identity();
        const Quadric q2 = ellipsoidQuadric(c.head(2), S.topLeftCorner(2, 2), r2, "E2");
        const Quadric s2 = ellipsoidShadow(q2, none, id);
        QVERIFY((s2.A - q2.A).norm() < 1e-9 * q2.A.norm() && (s2.b - q2.b).norm() < 1e-9 * q2.A.norm()
                && near(s2.c, q2.c, 1e-9));
        // Not an ellipsoid, or an l2 normaliser (not affine): nothing to project (drawn as a slice).
        Quadric plain = q;
        plain.ellipsoid = false;
        QCOMPARE(ellipsoidShadow(plain, zs, pr).A.rows(), Eigen::Index(0));
        Normalizer l2(Normalization::L2);
        l2.fit(D);
        QCOMPARE(ellipsoidShadow(q, l2, pr).A.rows(), Eigen::Index(0));
    }

    void chosenPrincipalComponentsAreThoseAxes()
    {
        // Rows ±s_j e_j: mean 0, covariance diag(s_j²)·2/n, so PC k is ±e_k for s = (5, 4, 3, 2, 1).
        const double s[5] = {5, 4, 3, 2, 1};
        Eigen::MatrixXd X = Eigen::MatrixXd::Zero(10, 5);
        for (int j = 0; j < 5; ++j) {
            X(2 * j, j) = s[j];
            X(2 * j + 1, j) = -s[j];
        }
        const Projection pr = Projection::components(X, {1, 3});
        QCOMPARE(pr.axisNames, (std::vector<std::string>{"PC2", "PC4"}));
        QCOMPARE(pr.displayDims(), 2);
        QVERIFY(!pr.identity);
        const Eigen::MatrixX3d U = pr.toDisplay(X);
        QVERIFY(near(std::abs(U(2, 0)), 4.0) && near(U(2, 1), 0.0, 1e-9)); // row +4 e_2 → (±4, 0)
        QVERIFY(near(std::abs(U(6, 1)), 2.0) && near(U(6, 0), 0.0, 1e-9)); // row +2 e_4 → (0, ±2)
        QVERIFY(near(U(0, 0), 0.0, 1e-9) && near(U(0, 1), 0.0, 1e-9));    // e_1 is not shown
        // (16 + 4) / (25 + 16 + 9 + 4 + 1) = 36.4 % of the variance.
        QVERIFY2(pr.note.find("PC2, PC4 of 5 features (36.4% of the variance)") != std::string::npos, pr.note.c_str());
        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::components(X, {5}));
        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::components(X, {0, 1, 2, 3}));
    }

    void glyphOfADiagonalCovarianceHasTheScaledSigmasAsAxes()
    {
        const Eigen::MatrixXd X = Eigen::MatrixXd::Random(5, 2);
        const Projection identity = Projection::automatic(X, {"a", "b"});
        const Eigen::Matrix3d M = glyphMatrix(Eigen::Vector2d(0.5, -2.0), identity, 3.0);
        Eigen::Matrix3d want = Eigen::Matrix3d::Zero();
        want(0, 0) = 1.5; // semi-axes scale · |σ_j| along the display axes
        want(1, 1) = 6.0;
        QVERIFY(M.isApprox(want));
    }

    void projectedCovarianceOfChosenAxes()
    {
        // Axes 0 and 2 of a 4-D point: the marginal covariance diag(σ0², σ2²).
        Eigen::MatrixXd B = Eigen::MatrixXd::Zero(4, 2);
        B(0, 0) = 1.0;
        B(2, 1) = 1.0;
        const Eigen::Vector4d sigma(1.0, 7.0, 3.0, 5.0);
        const Eigen::MatrixXd C = projectedCovariance(sigma, B);
        QVERIFY(C.isApprox((Eigen::Matrix2d() << 1.0, 0.0, 0.0, 9.0).finished()));
        const Eigen::Matrix3d M = glyphMatrix(sigma, chosenBasis(B), 2.0);
        QVERIFY(M.isApprox(M.transpose()));
        const Eigen::Vector3d axes = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(M).eigenvalues();
        QVERIFY((axes - Eigen::Vector3d(0, 2, 6)).norm() < 1e-12); // ascending: the padding 0, 2·1, 2·3
    }

    void glyphsRotateWithTheDisplayBasis()
    {
        // Turning the display basis by Q turns the glyph by Q: M(B Q) = Qᵀ M(B) Q. An isotropic σ
        // gives the same circle in every basis.
        const Eigen::Vector3d sigma(0.3, 1.1, 2.0);
        Eigen::MatrixXd B = Eigen::MatrixXd::Zero(3, 2);
        B.col(0) = Eigen::Vector3d(1, 1, 0).normalized();
        B.col(1) = Eigen::Vector3d(-1, 1, 1).normalized();
        for (double angle : {0.3, 1.0, 2.5}) {
            const Eigen::Matrix2d Q = rotation(angle);
            const Eigen::Matrix3d M = glyphMatrix(sigma, chosenBasis(B), 1.5);
            const Eigen::Matrix3d MR = glyphMatrix(sigma, chosenBasis(B * Q), 1.5);
            const Eigen::Matrix2d want = Q.transpose() * M.topLeftCorner<2, 2>() * Q;
            QVERIFY((MR.topLeftCorner<2, 2>() - want).norm() < 1e-12);
            const Eigen::Matrix3d iso = glyphMatrix(Eigen::Vector3d::Constant(0.4), chosenBasis(B * Q), 2.0);
            QVERIFY((iso.topLeftCorner<2, 2>() - 0.8 * Eigen::Matrix2d::Identity()).norm() < 1e-12);
            QVERIFY(iso.row(2).norm() < 1e-12);
        }
    }

    void scoreColourRangeStopsAtThe99thPercentile()
    {
        Eigen::VectorXd s(101);
        for (int i = 0; i < 101; ++i)
            s(i) = 100 - i; // unsorted input
        const auto [lo, hi] = scoreColourRange(s);
        QCOMPARE(lo, 0.0);
        QCOMPARE(hi, 99.0);
        const auto [clo, chi] = scoreColourRange(Eigen::VectorXd::Constant(7, 2.5));
        QCOMPARE(clo, 2.5);
        QCOMPARE(chi, 3.5);
        Eigen::VectorXd two(2);
        two << 1.0, 4.0; // the 99th percentile is the minimum: widened to the maximum
        QCOMPARE(scoreColourRange(two).second, 4.0);
    }

    void quantileLevelsAreOrderStatistics()
    {
        Eigen::VectorXd s(101);
        for (int i = 0; i < 101; ++i)
            s(i) = double((i * 37) % 101); // a permutation of 0..100
        const std::vector<double> l = quantileLevels(s, {0.25, 0.5, 0.75, 0.9});
        QCOMPARE(l, (std::vector<double>{25, 50, 75, 90}));
        QVERIFY(quantileLevels(Eigen::VectorXd(), {0.5}).empty());
    }

    void fittingTicksNeverLetLabelsCollide()
    {
        // 7 px per character, 6 px apart: a long axis gets many ticks, a short one few, never touching.
        const auto extent = [](const std::string& s) { return 7.0 * double(s.size()); };
        for (double pixels : {600.0, 200.0, 60.0, 25.0}) {
            const auto t = fittingTicks(0.0, 1.0, pixels, extent, 6.0, 12);
            QVERIFY(!t.empty());
            const auto labels = tickLabels(t, false);
            for (std::size_t i = 1; i < t.size(); ++i) {
                const double apart = (t[i] - t[i - 1]) * pixels;
                QVERIFY2(apart >= 0.5 * (extent(labels[i - 1]) + extent(labels[i])) + 6.0,
                         qPrintable(QStringLiteral("%1 px: %2 and %3").arg(pixels).arg(t[i - 1]).arg(t[i])));
            }
            if (pixels >= 600.0)
                QVERIFY(t.size() >= 6);
        }
        QCOMPARE(fittingTicks(0.0, 1.0, 10.0, extent, 6.0, 12).size(), std::size_t(1)); // "0" and "1" cannot both fit
    }

    void ticks()
    {
        QCOMPARE(niceStep(0.23), 0.2);
        QCOMPARE(niceStep(0.7), 0.5);
        QCOMPARE(niceStep(8.0), 10.0);
        QCOMPARE(niceStep(-1.0), 1.0);
        double step = 0.0;
        const std::vector<double> t = linearTicks(-0.3, 1.0, 5, step);
        QCOMPARE(step, 0.2);
        QCOMPARE(t.size(), std::size_t(7)); // −0.2 … 1.0
        QCOMPARE(t[1], 0.0);                 // exactly zero, not 2.8e-17
        QCOMPARE(logTicks(0.0, 3.0, 10), (std::vector<double>{1, 10, 100, 1000}));
        QCOMPARE(logTicks(0.0, 1.0, 10), (std::vector<double>{1, 2, 5, 10}));
        double lo = 3.0, hi = 3.0;
        widenDegenerate(lo, hi);
        QVERIFY(near(lo, 2.7) && near(hi, 3.3));
        lo = std::nan("");
        widenDegenerate(lo, hi);
        QCOMPARE(lo, 0.0);
        QCOMPARE(hi, 1.0);
    }
};

QTEST_GUILESS_MAIN(TestDisplayGeometry)
#include "TestDisplayGeometry.moc"
