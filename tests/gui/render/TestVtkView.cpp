// The VTK-in-Qt6 view: real pixels where points project, background elsewhere, picking,
// 2D/3D modes, screenshots and clean teardown. Runs under xvfb-run (Mesa llvmpipe).
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "GuiTestSupport.h"
#include "base/Rng.h"
#include "display/PointSizing.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <vtkActor.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>

#include <cmath>

using namespace olens;

namespace {

// Eight points on a circle of radius 1 plus one at the centre offset; labels alternate 0/1.
Dataset ring2d()
{
    Dataset d;
    d.source = "ring2d";
    d.featureNames = {"x", "y"};
    const int n = 8;
    d.X.resize(n, 2);
    d.labels.resize(n);
    for (int i = 0; i < n; ++i) {
        const double t = 2.0 * M_PI * i / n;
        d.X(i, 0) = std::cos(t);
        d.X(i, 1) = std::sin(t);
        d.labels(i) = i % 2;
    }
    d.labelName = "label";
    return d;
}

Dataset cube3d()
{
    Dataset d;
    d.source = "cube3d";
    d.featureNames = {"x", "y", "z"};
    d.X.resize(8, 3);
    for (int i = 0; i < 8; ++i) {
        d.X(i, 0) = (i & 1) ? 1 : -1;
        d.X(i, 1) = (i & 2) ? 1 : -1;
        d.X(i, 2) = (i & 4) ? 1 : -1;
    }
    return d;
}

using test::devicePixel;

} // namespace

class TestVtkView : public QObject {
    Q_OBJECT

private slots:
    void repaintsWithoutChangesShowTheLastFrameWithoutRendering()
    {
        // Qt repaints the GL widget whenever an ancestor repaints (a dock resized, a tooltip): with
        // the scene unchanged that must not render it again (a million sprites: half a second under
        // llvmpipe). A change through the view (scheduleRender) or a resize does render.
        DataDocument doc;
        CloudView view(&doc);
        view.resize(320, 240);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(ring2d(), "ring.csv");
        QTRY_VERIFY_WITH_TIMEOUT(view.framesDrawn() > 0, 20000);
        view.grabImage(); // the current state rendered now: nothing is left to render
        const int before = view.framesDrawn();
        view.update(); // what an ancestor's repaint amounts to
        view.repaint();
        QCOMPARE(view.framesDrawn(), before);
        view.scheduleRender();
        QTRY_COMPARE_WITH_TIMEOUT(view.framesDrawn(), before + 1, 20000);
        view.resize(330, 240);
        QTRY_COMPARE_WITH_TIMEOUT(view.framesDrawn(), before + 2, 20000);
        // grabImage always renders the current state (it may have been changed through VTK directly).
        view.grabImage();
        QCOMPARE(view.framesDrawn(), before + 3);
    }

    void captureNextFrameReturnsTheFrameDrawnWithoutRenderingAgain()
    {
        DataDocument doc;
        CloudView view(&doc);
        view.resize(320, 240);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(ring2d(), "ring.csv");
        view.grabImage(); // the current state rendered now: nothing is left to render
        const int before = view.framesDrawn();
        QImage captured;
        int calls = 0;
        view.captureNextFrame([&](const QImage& img) { captured = img; ++calls; });
        view.scheduleRender();
        QTRY_COMPARE_WITH_TIMEOUT(calls, 1, 20000);
        QCOMPARE(view.framesDrawn(), before + 1); // the frame drawn anyway, read as it was drawn
        const QImage grabbed = view.grabImage();  // a render of its own
        QCOMPARE(view.framesDrawn(), before + 2);
        QCOMPARE(captured.convertToFormat(QImage::Format_RGB32), grabbed.convertToFormat(QImage::Format_RGB32));
        int coloured = 0; // the ring's points, not an empty frame
        for (int y = 0; y < captured.height(); ++y)
            for (int x = 0; x < captured.width(); ++x)
                coloured += test::colourDistance(captured.pixel(x, y), qRgb(255, 255, 255)) > 60 ? 1 : 0;
        QVERIFY2(coloured > 20, qPrintable(QString::number(coloured)));
    }

    void heldRepaintsWaitForTheReleaseOrTheDeadline()
    {
        // A new result is held for its field (CloudView::holdRepaintForField): changes made during
        // the hold are drawn once, at the release, or when the hold runs out.
        DataDocument doc;
        CloudView view(&doc);
        view.resize(320, 240);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(ring2d(), "ring.csv");
        view.grabImage(); // the current state rendered now: nothing is left to render
        const int before = view.framesDrawn();
        view.holdRepaint(60000);
        QVERIFY(view.repaintHeld());
        view.scheduleRender();
        view.scheduleRender();
        view.repaint(); // a repaint Qt asks for shows the last frame meanwhile
        QCOMPARE(view.framesDrawn(), before);
        // ... and so does one from the event loop: the window composed again (frameSwapped), the
        // scene still not rendered.
        QSignalSpy composed(&view, &QOpenGLWidget::frameSwapped);
        view.update();
        QVERIFY(composed.wait(20000));
        QVERIFY(view.repaintHeld());
        QCOMPARE(view.framesDrawn(), before);
        view.releaseRepaint();
        QVERIFY(!view.repaintHeld());
        QTRY_COMPARE_WITH_TIMEOUT(view.framesDrawn(), before + 1, 20000);
        view.holdRepaint(50);
        view.scheduleRender();
        QTRY_COMPARE_WITH_TIMEOUT(view.framesDrawn(), before + 2, 20000); // the deadline
        // Input over the view ends a hold: the user acts on what is shown.
        view.holdRepaint(10000);
        view.scheduleRender();
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(5, 5));
        QVERIFY(!view.repaintHeld());
    }

    void rendersSphereInPlainView()
    {
        VtkView view;
        view.resize(300, 240);
        vtkNew<vtkSphereSource> sphere;
        vtkNew<vtkPolyDataMapper> mapper;
        mapper->SetInputConnection(sphere->GetOutputPort());
        vtkNew<vtkActor> actor;
        actor->SetMapper(mapper);
        actor->GetProperty()->SetColor(0.0, 1.0, 0.0);
        actor->GetProperty()->LightingOff();
        view.renderer()->AddActor(actor);
        view.renderer()->SetBackground(0.0, 0.0, 0.0);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        view.resetCamera();
        const QImage img = view.grabImage();
        QVERIFY(!img.isNull());
        const QRgb centre = img.pixel(img.width() / 2, img.height() / 2);
        QVERIFY2(test::colourDistance(centre, qRgb(0, 255, 0)) < 10, qPrintable(QString::number(centre, 16)));
        QCOMPARE(img.pixel(2, 2) & 0xffffff, 0u);
    }

    void pointsAppearWhereTheyProject2D()
    {
        DataDocument doc;
        CloudView view(&doc);
        view.resize(420, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(ring2d(), "ring2d.csv");
        QCOMPARE(view.mode(), VtkView::Mode::View2D);
        const QImage img = view.grabImage();
        for (int i = 0; i < 8; ++i) {
            const QPoint px = devicePixel(view, i, img);
            QVERIFY(img.rect().contains(px));
            const QColor want = CloudView::colourFor(i % 2);
            const int dist = test::colourDistance(img.pixel(px), want.rgb());
            QVERIFY2(dist < 60, qPrintable(QStringLiteral("point %1 at (%2,%3): got %4, want %5")
                                               .arg(i).arg(px.x()).arg(px.y())
                                               .arg(QColor(img.pixel(px)).name(), want.name())));
        }
        // The centre of the ring is empty: background (white).
        const auto& P = view.displayPoints();
        Q_UNUSED(P);
        const QPointF c = view.worldToWidget(0, 0, 0);
        const QPoint cp(int(c.x() * img.width() / view.width()), int(c.y() * img.height() / view.height()));
        QVERIFY2(test::colourDistance(img.pixel(cp), qRgb(255, 255, 255)) < 8,
                 qPrintable(QColor(img.pixel(cp)).name()));
    }

    void pointsAppearWhereTheyProject3D()
    {
        DataDocument doc;
        CloudView view(&doc);
        view.resize(420, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(cube3d(), "cube3d.csv");
        QCOMPARE(view.mode(), VtkView::Mode::View3D);
        const QImage img = view.grabImage();
        const QColor want = CloudView::colourFor(std::nan(""));
        int hits = 0;
        for (int i = 0; i < 8; ++i) {
            const QPoint px = devicePixel(view, i, img);
            if (test::colourDistance(img.pixel(px), want.rgb()) < 60)
                ++hits;
        }
        // Corners can hide behind each other in perspective; at least 7 of 8 must be visible.
        QVERIFY2(hits >= 7, qPrintable(QString::number(hits)));
        const QPointF c = view.worldToWidget(0, 0, 0);
        const QPoint cp(int(c.x() * img.width() / view.width()), int(c.y() * img.height() / view.height()));
        QVERIFY(test::colourDistance(img.pixel(cp), qRgb(255, 255, 255)) < 8);
    }

    void flaggedPointsAreDrawnInFrontIn3D()
    {
        // 3 000 points on a unit sphere (a Fibonacci lattice: evenly spread, an opaque shell at this
        // sprite size) and one outlier at its centre. Coloured by score, the outlier is flagged
        // (score above the threshold) and must show at its pixel through the shell; inliers whose
        // score is below the threshold stay where the depth puts them.
        Dataset d;
        d.source = "shell3d";
        d.featureNames = {"x", "y", "z"};
        const int n = 3000;
        d.X.resize(n + 1, 3);
        for (int i = 0; i < n; ++i) {
            const double z = 1.0 - 2.0 * (i + 0.5) / n, r = std::sqrt(1.0 - z * z), phi = i * 2.399963229728653;
            d.X.row(i) << r * std::cos(phi), r * std::sin(phi), z;
        }
        d.X.row(n) << 0.0, 0.0, 0.0;
        auto result = std::make_shared<FitResult>();
        result->scores.resize(n + 1);
        for (int i = 0; i <= n; ++i)
            result->scores(i) = i == n ? 1.0 : 0.1 + 0.2 * (i % 7) / 6.0;
        result->threshold = 0.5;
        result->outlier = (result->scores.array() > 0.5).cast<int>();
        result->detectorId = "hand";
        DataDocument doc;
        CloudView view(&doc);
        view.resize(420, 360);
        view.setPointSize(12);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(d, "shell3d.csv");
        QCOMPARE(view.mode(), VtkView::Mode::View3D);
        ColourRangeSpec minMax; // [0.1, 1]: the inliers dark, the outlier alone at the top colour
        minMax.mode = ColourRangeMode::MinMax;
        view.setColourRange(minMax);
        doc.setResult(result);
        const QImage img = view.grabImage();
        const QPoint c = devicePixel(view, n, img);
        const QRgb top = view.pointColours()[static_cast<std::size_t>(n)]; // the outlier's colour as drawn
        QVERIFY2(test::colourDistance(img.pixel(c), top) < 60,
                 qPrintable(QString("centre %1, outlier colour %2").arg(img.pixel(c), 0, 16).arg(top, 0, 16)));
        // Raising the threshold above every score puts the outlier back behind the shell.
        doc.setThreshold(2.0);
        QVERIFY(test::colourDistance(view.grabImage().pixel(c), top) > 60);
    }

    void dragDrawsALevelOfDetailAndReleaseTheFullCloud()
    {
        // Above the level-of-detail budget: even rows form a cluster at x = −1, odd rows one at
        // x = +1. With every 2nd point drawn during a drag, the odd cluster vanishes until release.
        const int half = int(kLodPointBudget / 2) + 1;
        Dataset d;
        d.source = "lod";
        d.featureNames = {"x", "y", "z"};
        d.X.resize(2 * half, 3);
        Rng rng(5);
        for (int i = 0; i < 2 * half; ++i)
            d.X.row(i) << (i % 2 ? 1.0 : -1.0) + 0.15 * rng.normal(), 0.15 * rng.normal(), 0.15 * rng.normal();
        QCOMPARE(lodStride(d.X.rows()), 2);
        DataDocument doc;
        CloudView view(&doc);
        view.resize(420, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(d, "lod.csv");
        const QColor odd = CloudView::colourFor(std::nan(""));
        // Pixels of the point colour in a box around each cluster's centre (the mean of its rows).
        auto coverage = [&](const QImage& img, int parity) {
            Eigen::RowVector3d c = Eigen::RowVector3d::Zero();
            const auto& P = view.displayPoints();
            for (int i = parity; i < P.rows(); i += 2)
                c += P.row(i);
            c /= half;
            const QPointF w = view.worldToWidget(c(0), c(1), c(2));
            const QPoint px(int(w.x() * img.width() / view.width()), int(w.y() * img.height() / view.height()));
            int hits = 0;
            for (int y = px.y() - 6; y <= px.y() + 6; ++y)
                for (int x = px.x() - 6; x <= px.x() + 6; ++x)
                    hits += img.rect().contains(x, y) && test::colourDistance(img.pixel(x, y), odd.rgb()) < 80;
            return hits;
        };
        const QImage still = view.grabImage();
        QVERIFY2(coverage(still, 0) > 100 && coverage(still, 1) > 100,
                 qPrintable(QString("%1 %2").arg(coverage(still, 0)).arg(coverage(still, 1))));
        QSignalSpy dragging(&view, &VtkView::cameraDragging);
        const QPoint from(view.width() / 2, view.height() / 2);
        QTest::mousePress(&view, Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(2, 0)), view.mapToGlobal(QPointF(from + QPoint(2, 0))),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
        QCOMPARE(dragging.count(), 1);
        QCOMPARE(dragging.at(0).at(0).toBool(), true);
        const QImage moving = view.grabImage();
        QVERIFY2(coverage(moving, 0) > 100 && coverage(moving, 1) == 0,
                 qPrintable(QString("%1 %2").arg(coverage(moving, 0)).arg(coverage(moving, 1))));
        QTest::mouseRelease(&view, Qt::LeftButton, {}, from + QPoint(2, 0));
        QCOMPARE(dragging.count(), 2);
        QCOMPARE(dragging.at(1).at(0).toBool(), false);
        QVERIFY(coverage(view.grabImage(), 1) > 100);
        // A wheel step is no drag.
        QWheelEvent wheel(QPointF(from), view.mapToGlobal(QPointF(from)), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QCOMPARE(dragging.count(), 2);
    }

    void denseCloudsAreTranslucentAndFlaggedPointsStayOpaque()
    {
        // A uniform 2-D square of n points at the automatic (smallest) sprite size: the layer's
        // opacity is display/PointSizing's autoPointOpacity of n, the square's area on screen and
        // the sprite size; 1 for a small cloud; halved by twice the points; raised while a drag
        // draws fewer (the level of detail). Drawn, the square is shade, not a solid blob: against the same
        // sprites drawn opaque (a set size of 2 px, the old look) a box of pixels is darkened only
        // by 1 − E[(1 − α)^K] = 1 − exp(−αD) ≈ 1 − 1/e of it (K ~ Poisson(D) sprites over a
        // pixel, α = 1/D). The one flagged point keeps its colour, opaque, in front.
        const auto square = [](int n) {
            Dataset d;
            d.source = "square";
            d.featureNames = {"x", "y"};
            d.X.resize(n, 2);
            Rng rng(11);
            for (int i = 0; i < n; ++i)
                d.X.row(i) << rng.uniform(), rng.uniform();
            d.X.row(n - 1) << 0.5, 0.5;
            return d;
        };
        DataDocument doc;
        CloudView view(&doc);
        view.resize(420, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        const auto expected = [&](Eigen::Index n) {
            // The square's corners on screen, in device pixels.
            const qreal dpr = view.devicePixelRatioF();
            const QPointF a = view.worldToWidget(view.displayPoints().col(0).minCoeff(), view.displayPoints().col(1).minCoeff(), 0.0);
            const QPointF b = view.worldToWidget(view.displayPoints().col(0).maxCoeff(), view.displayPoints().col(1).maxCoeff(), 0.0);
            const double area = std::abs(b.x() - a.x()) * dpr * std::abs(b.y() - a.y()) * dpr;
            return autoPointOpacity(n, area, view.effectivePointSize());
        };
        doc.setDataset(square(2000), "square.csv");
        view.grabImage();
        QCOMPARE(view.pointOpacity(), 1.0);

        const int n = 300000;
        doc.setDataset(square(n), "square.csv");
        QCOMPARE(view.mode(), VtkView::Mode::View2D);
        QImage translucent = view.grabImage();
        const double alpha = view.pointOpacity();
        QVERIFY2(alpha > 0.05 && alpha < 0.3, qPrintable(QString::number(alpha)));
        // (The view estimates the density around a typical point from a sample: within a few %.)
        QVERIFY2(std::abs(alpha - expected(n)) < 0.06 * alpha, qPrintable(QString("%1 vs %2").arg(alpha).arg(expected(n))));

        // Shade: a 40 × 40 box around (0.25, 0.25), darkening against the opaque drawing.
        const auto darkness = [&](const QImage& img) {
            const QPointF w = view.worldToWidget(view.displayPoints().col(0).minCoeff() * 0.75 + view.displayPoints().col(0).maxCoeff() * 0.25,
                                                 view.displayPoints().col(1).minCoeff() * 0.75 + view.displayPoints().col(1).maxCoeff() * 0.25, 0.0);
            const QPoint p(int(w.x() * img.width() / view.width()), int(w.y() * img.height() / view.height()));
            double sum = 0.0;
            for (int y = p.y() - 20; y < p.y() + 20; ++y)
                for (int x = p.x() - 20; x < p.x() + 20; ++x)
                    sum += 255.0 - qGray(img.pixel(x, y));
            return sum / 1600.0;
        };
        // Without a result every sprite has one colour (no label column): shade is coverage alone.
        const double shaded = darkness(translucent);
        view.setPointSize(2.0); // the same 2 px sprites, opaque
        const QImage opaque = view.grabImage();
        QCOMPARE(view.pointOpacity(), 1.0);
        const double ratio = shaded / darkness(opaque);
        QVERIFY2(ratio > 0.45 && ratio < 0.8, qPrintable(QString("darkening %1 of the opaque cloud's (1 - 1/e = 0.63)").arg(ratio)));
        view.setPointSize(0.0); // automatic again
        view.grabImage();
        QVERIFY(std::abs(view.pointOpacity() - alpha) < 1e-9);

        // A result flags the centre point (score 1 over a threshold of 0.5; the rest 0.1–0.3).
        auto result = std::make_shared<FitResult>();
        result->scores = Eigen::VectorXd::Constant(n, 0.1);
        for (int i = 0; i < n; ++i)
            result->scores(i) = 0.1 + 0.2 * (i % 5) / 4.0;
        result->scores(n - 1) = 1.0;
        result->threshold = 0.5;
        result->outlier = (result->scores.array() > 0.5).cast<int>();
        result->detectorId = "hand";
        doc.setResult(result);
        translucent = view.grabImage();
        QVERIFY(view.pointOpacity() < 1.0);
        const QPoint c = devicePixel(view, n - 1, translucent);
        const QRgb flagged = view.pointColours()[static_cast<std::size_t>(n - 1)];
        // Its sprite (3.6 px: 2 px × 1.8 for the top score) has a dark rim: the best of the pixels
        // around its centre shows its colour.
        const auto nearest = [&](const QImage& img) {
            int best = 1000;
            for (int y = c.y() - 1; y <= c.y() + 1; ++y)
                for (int x = c.x() - 1; x <= c.x() + 1; ++x)
                    best = std::min(best, test::colourDistance(img.pixel(x, y), flagged));
            return best;
        };
        QVERIFY2(nearest(translucent) < 40, qPrintable(QString("flagged colour %1 at best %2 away").arg(flagged, 0, 16).arg(nearest(translucent))));

        // Twice the points: half the opacity (unclamped here).
        doc.setDataset(square(2 * n), "square.csv");
        view.grabImage();
        QVERIFY2(std::abs(view.pointOpacity() - expected(2 * n)) < 0.06 * view.pointOpacity(), qPrintable(QString::number(view.pointOpacity())));
        QVERIFY(std::abs(view.pointOpacity() - alpha / 2) < 0.06 * alpha);
        // While a drag draws every k-th point (level of detail: k = 3, 200 000 drawn) the opacity
        // is that of the points drawn (3 × as opaque), and returns on release.
        const int k = lodStride(2 * n);
        QCOMPARE(k, 3);
        const QPoint from(view.width() / 2, view.height() / 2);
        QTest::mousePress(&view, Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(2, 0)), view.mapToGlobal(QPointF(from + QPoint(2, 0))),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
        view.grabImage();
        QVERIFY2(std::abs(view.pointOpacity() - expected((2 * n + k - 1) / k)) < 0.06 * view.pointOpacity(),
                 qPrintable(QString::number(view.pointOpacity())));
        QVERIFY(std::abs(view.pointOpacity() - 1.5 * alpha) < 0.1 * alpha);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, from + QPoint(2, 0));
        view.grabImage();
        QVERIFY(std::abs(view.pointOpacity() - alpha / 2) < 0.06 * alpha);
    }

    void clickPicksThePointUnderTheCursor()
    {
        DataDocument doc;
        CloudView view(&doc);
        view.resize(420, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(ring2d(), "ring2d.csv");
        // Two features: the view's own coordinates, z = 0.
        QVERIFY(view.displayPoints().data() != doc.dataset().X.data());
        QVERIFY(view.displayPoints().col(2).isZero(0.0));
        QVERIFY(view.displayPoints().leftCols(2) == doc.dataset().X);
        QSignalSpy spy(&view, &VtkView::pointPicked);
        for (int target : {2, 5}) {
            const auto& P = view.displayPoints();
            const QPointF w = view.worldToWidget(P(target, 0), P(target, 1), 0);
            QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, w.toPoint());
            QCOMPARE(spy.count(), 1);
            QCOMPARE(spy.takeFirst().at(0).toInt(), target);
            QCOMPARE(doc.selectedPoint(), target);
        }
        // Empty space (ring centre) picks nothing.
        const QPointF c = view.worldToWidget(0, 0, 0);
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, c.toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.takeFirst().at(0).toInt(), -1);
    }

    void pickingWorksIn3D()
    {
        DataDocument doc;
        CloudView view(&doc);
        view.resize(420, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(cube3d(), "cube3d.csv");
        view.grabImage();
        // Three features shown as they are: the view's coordinates are the data's rows themselves
        // (issue #54: no 24 B-a-point copy).
        QVERIFY(view.displayPoints().data() == doc.dataset().X.data());
        QCOMPARE(view.displayPoints().rows(), doc.dataset().X.rows());
        // The corner nearest the camera is never occluded.
        const auto& P = view.displayPoints();
        const QPointF w = view.worldToWidget(P(1, 0), P(1, 1), P(1, 2));
        QCOMPARE(view.pickPoint(w.toPoint()), 1);
    }

    void screenshotWritesPng()
    {
        DataDocument doc;
        CloudView view(&doc);
        view.resize(320, 240);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(ring2d(), "ring2d.csv");
        QTemporaryDir dir;
        const QString path = dir.filePath("shot.png");
        QString error;
        QVERIFY2(view.saveScreenshot(path, &error), qPrintable(error));
        QImage img(path);
        QVERIFY(!img.isNull());
        QVERIFY(img.width() >= 320);
        QVERIFY(!view.saveScreenshot(dir.filePath("missing/dir/shot.png"), &error));
        QVERIFY(error.contains("missing/dir"));
    }

    void teardownIsClean()
    {
        // Create, render and destroy several views, also while shown in a window.
        for (int i = 0; i < 3; ++i) {
            auto* doc = new DataDocument;
            auto* view = new CloudView(doc);
            view->resize(200, 160);
            view->show();
            QVERIFY(QTest::qWaitForWindowExposed(view, 60000));
            doc->setDataset(cube3d(), "c.csv");
            view->grabImage();
            delete view;
            delete doc;
        }
    }
};

OLENS_GUI_TEST_MAIN(TestVtkView)
#include "TestVtkView.moc"
