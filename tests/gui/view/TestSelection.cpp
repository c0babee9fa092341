// Box and lasso selection in the real view (issue #22 item 1): a region drawn around one cluster
// of a two-cluster cloud selects exactly that cluster, in 2-D and through the 3-D camera; mouse
// drags with the tools on (Shift adds, Ctrl subtracts, a click still picks, Esc abandons); the
// halos drawn for the selection. Runs under xvfb-run.
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "GuiTestSupport.h"
#include "display/PointSizing.h"
#include "view/layers/SelectionLayer.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QApplication>
#include <QMouseEvent>
#include <QtTest>

#include <cmath>
#include <random>

using namespace olens;

namespace {

/// Two Gaussian clusters (p = 2 or 3), rows interleaved: even rows left (x ≈ −3), odd rows right.
Dataset twoClusters(int p, int n = 120)
{
    Dataset d;
    d.source = "two clusters";
    d.featureNames = {"x", "y", "z"};
    d.featureNames.resize(static_cast<std::size_t>(p));
    d.X.resize(n, p);
    std::mt19937 rng(3);
    std::normal_distribution<double> g(0.0, 0.35);
    for (int i = 0; i < n; ++i) {
        d.X(i, 0) = (i % 2 == 0 ? -3.0 : 3.0) + g(rng);
        for (int j = 1; j < p; ++j)
            d.X(i, j) = g(rng);
    }
    return d;
}

std::vector<int> evenRows(int n)
{
    std::vector<int> v;
    for (int i = 0; i < n; i += 2)
        v.push_back(i);
    return v;
}

std::vector<int> oddRows(int n)
{
    std::vector<int> v;
    for (int i = 1; i < n; i += 2)
        v.push_back(i);
    return v;
}

/// Widget positions of the rows.
std::vector<QPointF> widgetPoints(CloudView& view)
{
    const auto& P = view.displayPoints();
    std::vector<QPointF> w;
    for (Eigen::Index i = 0; i < P.rows(); ++i)
        w.push_back(view.worldToWidget(P(i, 0), P(i, 1), P(i, 2)));
    return w;
}

/// A circle (lasso) around the widget positions of `rows`, `pad` pixels beyond the farthest.
QPolygonF lassoAround(const std::vector<QPointF>& w, const std::vector<int>& rows, double pad = 6.0)
{
    QPointF c(0, 0);
    for (int i : rows)
        c += w[static_cast<std::size_t>(i)];
    c /= double(rows.size());
    double r = 0;
    for (int i : rows)
        r = std::max(r, std::hypot(w[static_cast<std::size_t>(i)].x() - c.x(), w[static_cast<std::size_t>(i)].y() - c.y()));
    QPolygonF poly;
    for (int k = 0; k < 48; ++k) {
        const double a = 2 * M_PI * k / 48;
        poly << c + QPointF((r + pad) * std::cos(a), (r + pad) * std::sin(a));
    }
    return poly;
}

QRectF boxAround(const std::vector<QPointF>& w, const std::vector<int>& rows, double pad = 4.0)
{
    QRectF r(w[static_cast<std::size_t>(rows.front())], QSizeF(0, 0));
    for (int i : rows)
        r |= QRectF(w[static_cast<std::size_t>(i)], QSizeF(0.001, 0.001));
    return r.adjusted(-pad, -pad, pad, pad);
}

void mouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButtons buttons, Qt::KeyboardModifiers mods)
{
    QMouseEvent e(type, pos, w->mapToGlobal(pos), Qt::LeftButton, buttons, mods);
    QApplication::sendEvent(w, &e);
}

/// A left-button drag along `path` (press at the first point, release at the last).
void drag(QWidget* w, const QPolygonF& path, Qt::KeyboardModifiers mods = Qt::NoModifier)
{
    mouse(w, QEvent::MouseButtonPress, path.front(), Qt::LeftButton, mods);
    for (const QPointF& p : path)
        mouse(w, QEvent::MouseMove, p, Qt::LeftButton, mods);
    mouse(w, QEvent::MouseButtonRelease, path.back(), Qt::NoButton, mods);
}

QPolygonF closed(QPolygonF p)
{
    p << p.front();
    return p;
}

int pinkPixelsAround(const QImage& img, QPointF widgetPos, const QWidget& view, int half = 12)
{
    const double sx = double(img.width()) / view.width(), sy = double(img.height()) / view.height();
    const int cx = int(std::lround(widgetPos.x() * sx)), cy = int(std::lround(widgetPos.y() * sy));
    int count = 0;
    for (int y = cy - half; y <= cy + half; ++y)
        for (int x = cx - half; x <= cx + half; ++x)
            if (img.rect().contains(x, y)
                && test::colourDistance(img.pixel(x, y), qRgb(SelectionLayer::kColour[0], SelectionLayer::kColour[1],
                                                              SelectionLayer::kColour[2])) < 40)
                ++count;
    return count;
}

} // namespace

class TestSelection : public QObject {
    Q_OBJECT

private slots:
    void regionAroundOneClusterSelectsExactlyIt_data()
    {
        QTest::addColumn<int>("p");
        QTest::newRow("2-D") << 2;
        QTest::newRow("3-D perspective") << 3;
    }

    void regionAroundOneClusterSelectsExactlyIt()
    {
        QFETCH(int, p);
        DataDocument doc;
        CloudView view(&doc);
        view.resize(640, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        const int n = 120;
        doc.setDataset(twoClusters(p, n), "two.csv");
        view.grabImage();
        const auto w = widgetPoints(view);
        const std::vector<int> left = evenRows(n), right = oddRows(n);
        // A lasso around the left cluster: exactly the even rows; a box around the right one: the odd rows.
        QCOMPARE(view.pointsInRegion(lassoAround(w, left)), left);
        const QRectF box = boxAround(w, right);
        QCOMPARE(view.pointsInRegion(QPolygonF(box)), right);
        // Somewhere empty, and a degenerate region: nothing.
        QVERIFY(view.pointsInRegion(QPolygonF(QRectF(1, 1, 3, 3))).empty());
        QVERIFY(view.pointsInRegion(QPolygonF{QPointF(1, 1), QPointF(300, 300)}).empty());

        // The same through the document's add / subtract / replace.
        view.selectRegion(lassoAround(w, left), SelectionOp::Replace);
        QCOMPARE(doc.pointSelection(), left);
        view.selectRegion(QPolygonF(box), SelectionOp::Add);
        QCOMPARE(int(doc.pointSelection().size()), n);
        view.selectRegion(lassoAround(w, left), SelectionOp::Subtract);
        QCOMPARE(doc.pointSelection(), right);
        view.grabImage();
        QCOMPARE(view.selectionHaloCount(), long(right.size()));
    }

    void dragsWithTheToolsSelectAddAndSubtract()
    {
        DataDocument doc;
        CloudView view(&doc);
        view.resize(640, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        const int n = 80;
        doc.setDataset(twoClusters(3, n), "two.csv");
        view.grabImage();
        const auto before = view.cameraState();
        auto w = widgetPoints(view);
        const std::vector<int> left = evenRows(n), right = oddRows(n);

        // Without a tool a left drag rotates the 3-D camera and selects nothing.
        drag(&view, lassoAround(w, left));
        QVERIFY(doc.pointSelection().empty());
        QVERIFY(view.cameraState().position != before.position);
        view.setCameraState(before);
        view.grabImage();
        w = widgetPoints(view);

        // Lasso tool: a drag around the left cluster selects it and leaves the camera alone.
        view.setSelectionTool(VtkView::SelectionTool::Lasso);
        drag(&view, closed(lassoAround(w, left)));
        QCOMPARE(doc.pointSelection(), left);
        QVERIFY(view.cameraState().position == before.position);
        // Shift adds the right cluster (box tool, corner to corner).
        view.setSelectionTool(VtkView::SelectionTool::Box);
        const QRectF box = boxAround(w, right);
        drag(&view, QPolygonF{box.topLeft(), box.center(), box.bottomRight()}, Qt::ShiftModifier);
        QCOMPARE(int(doc.pointSelection().size()), n);
        // Ctrl subtracts it again.
        drag(&view, QPolygonF{box.topLeft(), box.center(), box.bottomRight()}, Qt::ControlModifier);
        QCOMPARE(doc.pointSelection(), left);
        // A drag abandoned with Esc changes nothing.
        mouse(&view, QEvent::MouseButtonPress, box.topLeft(), Qt::LeftButton, Qt::NoModifier);
        mouse(&view, QEvent::MouseMove, box.bottomRight(), Qt::LeftButton, Qt::NoModifier);
        QTest::keyClick(&view, Qt::Key_Escape);
        mouse(&view, QEvent::MouseButtonRelease, box.bottomRight(), Qt::NoButton, Qt::NoModifier);
        QCOMPARE(doc.pointSelection(), left);
        // Shift-click adds one point, Ctrl-click removes it again.
        const int extra = right[5];
        QTest::mouseClick(&view, Qt::LeftButton, Qt::ShiftModifier, w[static_cast<std::size_t>(extra)].toPoint());
        QCOMPARE(int(doc.pointSelection().size()), int(left.size()) + 1);
        QVERIFY(doc.isSelected(extra));
        QTest::mouseClick(&view, Qt::LeftButton, Qt::ControlModifier, w[static_cast<std::size_t>(extra)].toPoint());
        QCOMPARE(doc.pointSelection(), left);
        // A click (no drag) still picks one point: it becomes the selection and the current point.
        const int target = right[3];
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, w[static_cast<std::size_t>(target)].toPoint());
        QCOMPARE(doc.selectedPoint(), target);
        QCOMPARE(doc.pointSelection(), std::vector<int>{target});
        // Tool off: drags move the camera again.
        view.setSelectionTool(VtkView::SelectionTool::None);
        drag(&view, closed(lassoAround(w, left)));
        QCOMPARE(doc.pointSelection(), std::vector<int>{target});
    }

    void automaticPointSizeFollowsCountAndZoom()
    {
        // display/PointSizing: sprites cover about a quarter of the data's screen area, 2–9 px.
        DataDocument doc;
        CloudView view(&doc);
        view.resize(640, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        const double dpr = view.devicePixelRatioF();
        QVERIFY(view.pointSizeIsAuto());
        doc.setDataset(twoClusters(2, 80), "two.csv");
        view.grabImage(); // renders: the size is set before each render
        QCOMPARE(view.effectivePointSize(), kMaxAutoPointSize * dpr); // a small cloud keeps 9 px
        doc.setDataset(twoClusters(2, 4000), "big.csv"); // about 3 px: room to grow
        view.grabImage();
        const double big = view.effectivePointSize();
        QVERIFY2(big < 0.8 * kMaxAutoPointSize * dpr && big >= kMinAutoPointSize * dpr, qPrintable(QString::number(big)));
        view.renderer()->GetActiveCamera()->Zoom(2.0); // the data cover 4× the pixels: twice the size
        view.grabImage();
        QVERIFY2(view.effectivePointSize() > 1.5 * big, qPrintable(QString::number(view.effectivePointSize())));
        view.setPointSize(5); // a fixed size stays fixed, whatever n and zoom
        view.grabImage();
        QCOMPARE(view.effectivePointSize(), 5.0 * dpr);
    }

    void selectedPointsWearAHalo()
    {
        DataDocument doc;
        CloudView view(&doc);
        view.resize(640, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(twoClusters(2, 40), "two.csv");
        const auto w = widgetPoints(view);
        QCOMPARE(pinkPixelsAround(view.grabImage(), w[0], view), 0);
        doc.setPointSelection({0, 2});
        const QImage img = view.grabImage();
        QCOMPARE(view.selectionHaloCount(), 2L);
        QVERIFY2(pinkPixelsAround(img, w[0], view) > 20, qPrintable(QString::number(pinkPixelsAround(img, w[0], view))));
        QCOMPARE(pinkPixelsAround(img, w[1], view, 3), 0); // an unselected point (its centre)
        doc.setPointSelection({});
        QCOMPARE(pinkPixelsAround(view.grabImage(), w[0], view), 0);
    }
};

OLENS_GUI_TEST_MAIN(TestSelection)
#include "TestSelection.moc"
