// core/display/SelectionGeometry: box and lasso selection in screen space against known points,
// and the add / subtract / invert semantics of a selection.
#include "display/SelectionGeometry.h"

#include <QtTest>

#include <cmath>
#include <numeric>
#include <random>
#include <Eigen/Dense>

using namespace olens;

namespace {

/// A camera like VTK's: world → view (look-at), then a perspective projection with the given
/// vertical view angle and aspect, z mapped to −1…1.
Eigen::Matrix4d perspectiveCamera(const Eigen::Vector3d& eye, const Eigen::Vector3d& focus, const Eigen::Vector3d& up,
                                  double angleDeg, double aspect, double nearZ, double farZ)
{
    const Eigen::Vector3d f = (focus - eye).normalized();
    const Eigen::Vector3d s = f.cross(up).normalized();
    const Eigen::Vector3d u = s.cross(f);
    Eigen::Matrix4d view = Eigen::Matrix4d::Identity();
    view.block<1, 3>(0, 0) = s.transpose();
    view.block<1, 3>(1, 0) = u.transpose();
    view.block<1, 3>(2, 0) = -f.transpose();
    view(0, 3) = -s.dot(eye);
    view(1, 3) = -u.dot(eye);
    view(2, 3) = f.dot(eye);
    const double t = 1.0 / std::tan(angleDeg * M_PI / 360.0);
    Eigen::Matrix4d proj = Eigen::Matrix4d::Zero();
    proj(0, 0) = t / aspect;
    proj(1, 1) = t;
    proj(2, 2) = -(farZ + nearZ) / (farZ - nearZ);
    proj(2, 3) = -2.0 * farZ * nearZ / (farZ - nearZ);
    proj(3, 2) = -1.0;
    return proj * view;
}

/// An orthographic 2-D camera showing x ∈ [−w, w], y ∈ [−h, h].
Eigen::Matrix4d orthoCamera(double w, double h)
{
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m(0, 0) = 1.0 / w;
    m(1, 1) = 1.0 / h;
    m(2, 2) = -0.5;
    return m;
}

std::vector<Eigen::Vector2d> circle(const Eigen::Vector2d& c, double r, int sides = 40)
{
    std::vector<Eigen::Vector2d> poly;
    for (int k = 0; k < sides; ++k) {
        const double a = 2.0 * M_PI * k / sides;
        poly.emplace_back(c.x() + r * std::cos(a), c.y() + r * std::sin(a));
    }
    return poly;
}

} // namespace

class TestSelectionGeometry : public QObject {
    Q_OBJECT
private slots:
    void projectionMapsTheViewToTheViewport()
    {
        // x ∈ [−2, 2], y ∈ [−1, 1] fills a 400×200 viewport starting at (10, 20).
        Eigen::MatrixX3d P(5, 3);
        P << 0, 0, 0, -2, -1, 0, 2, 1, 0, 1, 0.5, 0, 3, 0, 0; // the last one is outside the view
        const DisplayViewport vp{10, 20, 400, 200};
        const Eigen::MatrixX2d s = projectToDisplay(P, orthoCamera(2, 1), vp);
        QCOMPARE(s(0, 0), 210.0);
        QCOMPARE(s(0, 1), 120.0);
        QCOMPARE(s(1, 0), 10.0);
        QCOMPARE(s(1, 1), 20.0);
        QCOMPARE(s(2, 0), 410.0);
        QCOMPARE(s(2, 1), 220.0);
        QCOMPARE(s(3, 0), 310.0);
        QCOMPARE(s(3, 1), 170.0);
        QVERIFY(std::isnan(s(4, 0)) && std::isnan(s(4, 1))); // clipped: never selected
    }

    void pointsBehindThePerspectiveCameraAreNotSelectable()
    {
        Eigen::MatrixX3d P(2, 3);
        P << 0, 0, 0, 0, 0, 20; // the camera at z = 10 looks down −z: the second is behind it
        const Eigen::Matrix4d M = perspectiveCamera({0, 0, 10}, {0, 0, 0}, {0, 1, 0}, 30, 1.0, 0.1, 100);
        const Eigen::MatrixX2d s = projectToDisplay(P, M, {0, 0, 300, 300});
        QVERIFY(std::abs(s(0, 0) - 150) < 1e-9 && std::abs(s(0, 1) - 150) < 1e-9);
        QVERIFY(std::isnan(s(1, 0)));
        QVERIFY(pointsInRectangle(s, {0, 0}, {300, 300}) == std::vector<int>{0});
    }

    void rectangleSelectsExactlyThePointsInside()
    {
        Eigen::MatrixX2d s(6, 2);
        s << 10, 10, 50, 50, 100, 20, 60, 80, 49.5, 50.5, std::nan(""), std::nan("");
        // Corners in any order; the border counts as inside.
        QVERIFY((pointsInRectangle(s, {40, 40}, {60, 80}) == std::vector<int>{1, 3, 4}));
        QVERIFY((pointsInRectangle(s, {60, 80}, {40, 40}) == std::vector<int>{1, 3, 4}));
        QVERIFY((pointsInRectangle(s, {0, 0}, {200, 200}) == std::vector<int>{0, 1, 2, 3, 4}));
        QVERIFY(pointsInRectangle(s, {200, 200}, {300, 300}).empty());
    }

    void polygonUsesTheEvenOddRule()
    {
        // A square with a concave notch: (5, 8) lies in the notch, outside.
        const std::vector<Eigen::Vector2d> notch{{0, 0}, {10, 0}, {10, 10}, {6, 10}, {5, 5}, {4, 10}, {0, 10}};
        QVERIFY(pointInPolygon({2, 2}, notch));
        QVERIFY(pointInPolygon({5, 3}, notch));
        QVERIFY(!pointInPolygon({5, 8}, notch));
        QVERIFY(!pointInPolygon({11, 5}, notch));
        // A self-intersecting lasso drawn twice around the same spot (a pentagram): its centre is
        // enclosed twice, so even-odd leaves it out; a tip is enclosed once.
        std::vector<Eigen::Vector2d> star;
        for (int k = 0; k < 5; ++k) {
            const double a = M_PI / 2 + k * 4 * M_PI / 5;
            star.emplace_back(10 * std::cos(a), 10 * std::sin(a));
        }
        QVERIFY(!pointInPolygon({0, 0}, star));
        QVERIFY(pointInPolygon({0, 7}, star));
        QVERIFY(!pointInPolygon({0, 0}, {{0, 0}, {1, 1}})); // not a polygon
        Eigen::MatrixX2d s(4, 2);
        s << 2, 2, 5, 8, 5, 3, 20, 20;
        QVERIFY((pointsInPolygon(s, notch) == std::vector<int>{0, 2}));
    }

    void addSubtractInvert()
    {
        const std::vector<int> cur{1, 3, 5};
        QVERIFY((combineSelection(cur, {4, 2, 2}, SelectionOp::Replace) == std::vector<int>{2, 4}));
        QVERIFY((combineSelection(cur, {4, 3, 2}, SelectionOp::Add) == std::vector<int>{1, 2, 3, 4, 5}));
        QVERIFY((combineSelection(cur, {5, 1, 7}, SelectionOp::Subtract) == std::vector<int>{3}));
        QVERIFY(combineSelection({}, {}, SelectionOp::Add).empty());
        QVERIFY((invertSelection(cur, 7) == std::vector<int>{0, 2, 4, 6}));
        QVERIFY((invertSelection({}, 3) == std::vector<int>{0, 1, 2}));
        QVERIFY(invertSelection({0, 1, 2}, 3).empty());
        QVERIFY((invertSelection(invertSelection(cur, 7), 7) == cur));
        QVERIFY((normalizedSelection({9, 3, -1, 3, 0}, 5) == std::vector<int>{0, 3}));
    }

    void lassoAroundOneClusterSelectsExactlyIt()
    {
        // Two Gaussian clusters in 3-D, interleaved rows (even: left, odd: right), seen through a
        // perspective camera from an oblique angle; a lasso around the left cluster's projection.
        std::mt19937 rng(7);
        std::normal_distribution<double> g(0.0, 0.3);
        const int n = 400;
        Eigen::MatrixX3d P(n, 3);
        std::vector<int> left;
        for (int i = 0; i < n; ++i) {
            const double cx = i % 2 == 0 ? -3.0 : 3.0;
            P.row(i) << cx + g(rng), g(rng), 0.5 * g(rng);
            if (i % 2 == 0)
                left.push_back(i);
        }
        const DisplayViewport vp{40, 30, 800, 600};
        const Eigen::Matrix4d M = perspectiveCamera({2, -9, 6}, {0, 0, 0}, {0, 0, 1}, 30, 800.0 / 600.0, 0.1, 100);
        const Eigen::MatrixX2d s = projectToDisplay(P, M, vp);
        const Eigen::MatrixX2d centre = projectToDisplay(Eigen::RowVector3d(-3, 0, 0), M, vp);
        const Eigen::MatrixX2d other = projectToDisplay(Eigen::RowVector3d(3, 0, 0), M, vp);
        const double gap = (centre.row(0) - other.row(0)).norm();
        QVERIFY(gap > 100); // the clusters are apart on screen
        const std::vector<Eigen::Vector2d> lasso = circle(centre.row(0).transpose(), 0.45 * gap);
        QVERIFY(pointsInPolygon(s, lasso) == left);
        // Shift-lasso around the other cluster adds it; ctrl-lasso around the first removes it.
        const std::vector<Eigen::Vector2d> lasso2 = circle(other.row(0).transpose(), 0.45 * gap);
        std::vector<int> all(n);
        std::iota(all.begin(), all.end(), 0);
        const auto both = combineSelection(left, pointsInPolygon(s, lasso2), SelectionOp::Add);
        QVERIFY(both == all);
        QVERIFY(combineSelection(both, pointsInPolygon(s, lasso), SelectionOp::Subtract) == invertSelection(left, n));
    }
};

QTEST_APPLESS_MAIN(TestSelectionGeometry)
#include "TestSelectionGeometry.moc"
