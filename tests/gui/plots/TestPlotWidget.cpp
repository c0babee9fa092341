// The QPainter plot: nice ticks, data↔pixel mapping (linear and log), the draggable marker,
// degenerate data, and real pixels where toPixel says a line is (also after decimation).
#include "plots/PlotWidget.h"

#include <QApplication>
#include <QSignalSpy>
#include <QtTest>

#include "GuiTestSupport.h"

#include <cmath>
#include <limits>

using namespace olens;

namespace {

const QColor kRed(220, 0, 0);

/// True when a pixel within radius of p (widget coordinates) is within tol of colour.
bool hasColourNear(const QImage& img, QPointF p, const QColor& colour, int radius = 1, int tol = 40)
{
    const double dpr = img.devicePixelRatio();
    const int cx = static_cast<int>(std::lround(p.x() * dpr));
    const int cy = static_cast<int>(std::lround(p.y() * dpr));
    for (int y = cy - radius; y <= cy + radius; ++y)
        for (int x = cx - radius; x <= cx + radius; ++x)
            if (img.rect().contains(x, y) && test::colourDistance(img.pixel(x, y), colour.rgb()) <= tol)
                return true;
    return false;
}

/// A mouse move without buttons, delivered directly (QTest::mouseMove would warp the real cursor).
void hover(QWidget& w, QPoint pos)
{
    QMouseEvent ev(QEvent::MouseMove, QPointF(pos), QPointF(w.mapToGlobal(pos)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &ev);
}

QImage render(PlotWidget& w)
{
    return w.grab().toImage();
}

} // namespace

class TestPlotWidget : public QObject {
    Q_OBJECT

private slots:
    void niceTicks()
    {
        const QVector<double> unit = PlotWidget::niceTicks(0.0, 1.0, 5);
        QCOMPARE(unit.size(), 6);
        for (int i = 0; i < 6; ++i)
            QVERIFY(qAbs(unit[i] - 0.2 * i) < 1e-12);
        // step: 11.1 / 5 = 2.22 → 2
        const QVector<double> t = PlotWidget::niceTicks(-3.2, 7.9, 5);
        QCOMPARE(t.size(), 5);
        QCOMPARE(t.front(), -2.0);
        QCOMPARE(t.back(), 6.0);
        // step: 900 / 4 = 225 → 200
        const QVector<double> big = PlotWidget::niceTicks(100.0, 1000.0, 4);
        QCOMPARE(big.front(), 200.0);
        QCOMPARE(big.back(), 1000.0);
        QCOMPARE(big.size(), 5);
        // Degenerate ranges still give ticks, never a division by zero.
        QVERIFY(!PlotWidget::niceTicks(3.0, 3.0, 5).isEmpty());
        QVERIFY(!PlotWidget::niceTicks(0.0, 0.0, 5).isEmpty());
    }

    void axisEndsMapToPlotCorners()
    {
        PlotWidget w;
        w.resize(400, 300);
        w.setTitle("mapping");
        w.setAxisTitles("x", "y");
        w.addLine({0, 10}, {0, 5}, kRed, "line");
        w.setXRange(0, 10);
        w.setYRange(0, 5);
        const QRectF r = w.plotRect();
        QVERIFY(r.width() > 200 && r.height() > 150);
        QVERIFY(QRectF(w.rect()).contains(r));
        const QPointF lo = w.toPixel(0, 0), hi = w.toPixel(10, 5);
        QCOMPARE(lo.x(), r.left());
        QCOMPARE(lo.y(), r.bottom());
        QCOMPARE(hi.x(), r.right());
        QCOMPARE(hi.y(), r.top());
        const QPointF mid = w.toPixel(5, 2.5);
        QVERIFY(qAbs(mid.x() - r.center().x()) < 1e-9);
        QVERIFY(qAbs(mid.y() - r.center().y()) < 1e-9);
        QVERIFY(qAbs(w.toDataX(w.toPixel(3.7, 0).x()) - 3.7) < 1e-9);

        // Automatic range: the data ends lie strictly inside the plot, in the right order.
        w.setAutoRange();
        const QPointF a = w.toPixel(0, 0), b = w.toPixel(10, 5);
        QVERIFY(r.contains(a) && r.contains(b));
        QVERIFY(a.x() < b.x());
        QVERIFY(a.y() > b.y());
        QVERIFY(a.x() > r.left() && b.x() < r.right());
    }

    void logYMapping()
    {
        PlotWidget w;
        w.resize(400, 300);
        w.setLogY(true);
        w.addLine({0, 1, 2, 3}, {1, 10, 100, 1000}, kRed, "loss");
        w.setYRange(1, 1000);
        const QRectF r = w.plotRect();
        QCOMPARE(w.toPixel(0, 1).y(), r.bottom());
        QCOMPARE(w.toPixel(0, 1000).y(), r.top());
        QVERIFY(qAbs(w.toPixel(0, 10).y() - (r.bottom() - r.height() / 3)) < 1e-6);
        QVERIFY(qAbs(w.toPixel(0, 100).y() - (r.bottom() - 2 * r.height() / 3)) < 1e-6);
        QVERIFY(std::isnan(w.toPixel(0, 0).y()));  // not representable on a log axis
        QVERIFY(std::isnan(w.toPixel(0, -1).y()));

        // Automatic log range over a loss curve with a zero and a NaN (both skipped).
        w.setAutoRange();
        w.clear();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        w.addLine({0, 1, 2, 3, 4}, {0.5, 0.05, nan, 0.0, 0.001}, kRed, "loss");
        const QPointF top = w.toPixel(0, 0.5), bottom = w.toPixel(4, 0.001);
        QVERIFY(w.plotRect().contains(top) && w.plotRect().contains(bottom));
        QVERIFY(top.y() < w.toPixel(1, 0.05).y());
        QVERIFY(w.toPixel(1, 0.05).y() < bottom.y());
        QVERIFY(!render(w).isNull());
    }

    void draggingTheMarkerEmitsTheValueUnderTheCursor()
    {
        PlotWidget w;
        w.resize(420, 300);
        w.addBars({0, 2, 4, 6, 8, 10}, {1, 3, 5, 2, 1}, QColor(70, 130, 180), "counts");
        w.setXRange(0, 10);
        w.setMarker(5.0);
        w.setMarkerDraggable(true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 60000));
        QSignalSpy spy(&w, &PlotWidget::markerMoved);
        const double y = w.plotRect().center().y();
        const double onePixel = 10.0 / w.plotRect().width();

        // Hovering near the marker shows the horizontal resize cursor, elsewhere the normal one.
        hover(w, QPoint(qRound(w.toPixel(5.0, 0).x()) + 2, int(y)));
        QCOMPARE(w.cursor().shape(), Qt::SizeHorCursor);
        hover(w, QPoint(qRound(w.toPixel(8.0, 0).x()), int(y)));
        QCOMPARE(w.cursor().shape(), Qt::ArrowCursor);
        QCOMPARE(spy.count(), 0);

        // Press on the marker (no jump), drag to x = 7.3, release.
        QTest::mousePress(&w, Qt::LeftButton, {}, QPoint(qRound(w.toPixel(5.0, 0).x()), int(y)));
        QCOMPARE(spy.count(), 0);
        QTest::mouseMove(&w, QPoint(qRound(w.toPixel(6.1, 0).x()), int(y)));
        const QPoint end(qRound(w.toPixel(7.3, 0).x()), int(y));
        QTest::mouseMove(&w, end);
        QTest::mouseRelease(&w, Qt::LeftButton, {}, end);
        QCOMPARE(spy.count(), 2);
        QVERIFY(qAbs(spy.at(0).at(0).toDouble() - 6.1) <= onePixel);
        const double x = spy.last().at(0).toDouble();
        QVERIFY2(qAbs(x - 7.3) <= onePixel, qPrintable(QString::number(x)));
        QCOMPARE(w.marker(), x);

        // After the release moving the mouse does not drag.
        hover(w, QPoint(qRound(w.toPixel(2.0, 0).x()), int(y)));
        QCOMPARE(spy.count(), 2);

        // Dragging past the plot clamps to the axis end.
        QTest::mousePress(&w, Qt::LeftButton, {}, QPoint(qRound(w.toPixel(x, 0).x()), int(y)));
        QTest::mouseMove(&w, QPoint(w.width() - 1, int(y)));
        QTest::mouseRelease(&w, Qt::LeftButton, {}, QPoint(w.width() - 1, int(y)));
        QCOMPARE(spy.last().at(0).toDouble(), 10.0);

        // A click elsewhere in the plot moves the marker there.
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(qRound(w.toPixel(3.0, 0).x()), int(y)));
        QVERIFY(qAbs(w.marker() - 3.0) <= onePixel);

        // Not draggable: clicks change nothing.
        w.setMarkerDraggable(false);
        const int before = spy.count();
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(qRound(w.toPixel(8.0, 0).x()), int(y)));
        QCOMPARE(spy.count(), before);
    }

    void emptyAndDegenerateDataDoNotCrash()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        PlotWidget w;
        w.resize(300, 200);
        QVERIFY(!render(w).isNull()); // nothing at all
        QVERIFY(std::isfinite(w.toPixel(0.5, 0.5).x()) && std::isfinite(w.toDataX(100)));

        w.addLine({}, {}, kRed, "empty");
        w.addLine({nan, nan}, {nan, 1.0}, kRed, "nan");
        QVERIFY(!render(w).isNull());

        // One point: the range is widened around it and the point is drawn.
        w.clear();
        w.addLine({3.0}, {2.0}, kRed, "single");
        const QPointF p = w.toPixel(3.0, 2.0);
        QVERIFY(std::isfinite(p.x()) && std::isfinite(p.y()));
        QVERIFY(w.plotRect().contains(p));
        QVERIFY(hasColourNear(render(w), p, kRed, 1));

        // All values equal, fixed empty ranges, zero-count bars, log axis without positive values.
        w.clear();
        w.addLine({1, 1, 1}, {4, 4, 4}, kRed, "flat");
        w.addBars({0, 0, 0}, {0, 0}, Qt::blue, "zero");
        QVERIFY(std::isfinite(w.toPixel(1, 4).y()));
        w.setXRange(1, 1);
        w.setYRange(4, 4);
        QVERIFY(std::isfinite(w.toPixel(1, 4).x()) && std::isfinite(w.toPixel(1, 4).y()));
        QVERIFY(std::isfinite(w.toDataX(50)));
        QVERIFY(!render(w).isNull());
        w.setAutoRange();
        w.setLogY(true);
        w.clear();
        w.addLine({0, 1}, {0, -2}, kRed, "non-positive");
        w.setMarker(nan);
        QVERIFY(!render(w).isNull());
        w.setMarker(1e300);
        w.addLine({0, 1e300}, {1, 1e-300}, kRed, "huge");
        QVERIFY(!render(w).isNull());

        // Tiny widget.
        w.resize(20, 10);
        QVERIFY(!render(w).isNull());
    }

    void linePixelsAreWhereToPixelSaysSo()
    {
        PlotWidget w;
        w.resize(400, 300);
        w.setTitle("pixels");
        w.setAxisTitles("x", "y");
        w.addLine({0, 10}, {0, 10}, kRed, "diagonal", 2.0);
        const QImage img = render(w);
        for (double t : {2.0, 5.0, 8.0})
            QVERIFY2(hasColourNear(img, w.toPixel(t, t), kRed), qPrintable(QString::number(t)));
        QVERIFY(!hasColourNear(img, w.toPixel(8, 2), kRed, 2));
        QVERIFY(!hasColourNear(img, w.toPixel(2, 8), kRed, 2));
    }

    void decimatedLineKeepsItsEnvelope()
    {
        // 100k points alternating between 0 and 1: every pixel column must span the whole range.
        const int n = 100000;
        QVector<double> x(n), y(n);
        for (int i = 0; i < n; ++i) {
            x[i] = double(i) / (n - 1);
            y[i] = i % 2;
        }
        PlotWidget w;
        w.resize(400, 300);
        w.addLine(x, y, kRed, {}, 1.0);
        const QImage img = render(w);
        for (double at : {0.25, 0.5, 0.75})
            for (double v : {0.0, 0.5, 1.0})
                QVERIFY2(hasColourNear(img, w.toPixel(at, v), kRed, 1), qPrintable(QString("%1 %2").arg(at).arg(v)));
    }

    void legendNeverCoversDataInASmallPlot()
    {
        // The evaluation panel's PR plot in a small dock: the curve runs along the top and drops
        // at the right, the chance line runs along the bottom, so the legend (three entries)
        // would cover data in every corner; it has to go outside the plot area. Checked against
        // the curves sampled every 1/400 of their data-space length and mapped through the
        // widget's own toPixel, and the operating point with its radius.
        const QVector<double> rx{0.0, 0.2, 0.5, 0.8, 0.95, 1.0}, ry{1.0, 1.0, 0.97, 0.9, 0.6, 0.1};
        const auto covered = [&](const PlotWidget& w, const QRectF& legend, int* hits) {
            const QRectF box = legend.adjusted(-1.5, -1.5, 1.5, 1.5); // the 2 px pen's half width
            *hits = 0;
            const auto line = [&](const QVector<double>& x, const QVector<double>& y) {
                for (int i = 0; i + 1 < x.size(); ++i)
                    for (int t = 0; t <= 400; ++t) {
                        const double u = t / 400.0;
                        if (box.contains(w.toPixel(x[i] + u * (x[i + 1] - x[i]), y[i] + u * (y[i + 1] - y[i]))))
                            ++*hits;
                    }
            };
            line(rx, ry);
            line({0.0, 1.0}, {0.1, 0.1});
            const QPointF op = w.toPixel(0.8, 0.9);
            if (box.intersects(QRectF(op - QPointF(5, 5), QSizeF(10, 10))))
                ++*hits;
        };
        const auto make = [&](PlotWidget& w) {
            w.setTitle("Precision–recall");
            w.setAxisTitles("recall", "precision");
            w.setXRange(0, 1);
            w.setYRange(0, 1.02);
            w.addLine({0.0, 1.0}, {0.1, 0.1}, Qt::gray, "random (0.100)", 1.2, Qt::DashLine);
            w.addLine(rx, ry, kRed, "PR", 2.0);
            w.addPoints({0.8}, {0.9}, Qt::black, "threshold", 4.5);
        };
        int outside = 0;
        for (const QSize size : {QSize(220, 160), QSize(180, 240), QSize(320, 140), QSize(200, 130)}) {
            PlotWidget w;
            w.resize(size);
            make(w);
            const QRectF legend = w.legendRect();
            QVERIFY(!legend.isEmpty());
            QVERIFY2(QRectF(w.rect()).contains(legend), qPrintable(QString("%1x%2").arg(size.width()).arg(size.height())));
            int hits = -1;
            covered(w, legend, &hits);
            QVERIFY2(hits == 0, qPrintable(QString("%1x%2: %3 curve samples under the legend")
                                               .arg(size.width()).arg(size.height()).arg(hits)));
            // Inside the plot (a free spot) or wholly outside it (the plot made room for it).
            QVERIFY(w.plotRect().contains(legend) || !legend.intersects(w.plotRect()));
            outside += !legend.intersects(w.plotRect()) ? 1 : 0;
            // The painted legend is where legendRect says: its frame's grey at the box's corner.
            const QImage img = render(w);
            QVERIFY(hasColourNear(img, legend.topLeft(), QColor(170, 170, 170), 1, 30));
        }
        QVERIFY(outside > 0);
        // A large plot keeps the legend inside, in a corner free of data.
        PlotWidget big;
        big.resize(600, 450);
        big.setXRange(0, 1);
        big.setYRange(0, 1);
        const QVector<double> ox{0.0, 0.0, 0.1, 0.3, 1.0}, oy{0.0, 0.6, 0.9, 1.0, 1.0};
        big.addLine(ox, oy, kRed, "ROC", 2.0);
        big.addLine({0.0, 1.0}, {0.0, 1.0}, Qt::gray, "random", 1.2, Qt::DashLine);
        const QRectF inside = big.legendRect();
        QVERIFY(big.plotRect().contains(inside));
        const QRectF box = inside.adjusted(-1.5, -1.5, 1.5, 1.5);
        for (const auto& [x, y] : {std::pair{ox, oy}, std::pair{QVector<double>{0.0, 1.0}, QVector<double>{0.0, 1.0}}})
            for (int i = 0; i + 1 < x.size(); ++i)
                for (int t = 0; t <= 400; ++t) {
                    const double u = t / 400.0;
                    QVERIFY(!box.contains(big.toPixel(x[i] + u * (x[i + 1] - x[i]), y[i] + u * (y[i + 1] - y[i]))));
                }
    }
};

OLENS_GUI_TEST_MAIN(TestPlotWidget)
#include "TestPlotWidget.moc"
