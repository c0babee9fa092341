// Axis labels as rendered (offscreen under xvfb): in 2-D the tick labels and titles lie outside
// the data area (the scene's viewport), inside the window, and never overlap each other, at a
// large and a compare-panel size and after zooming; in 3-D the tick labels never overlap, also
// when an axis is foreshortened.
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "GuiTestSupport.h"
#include "data/Generators.h"
#include "view/layers/AxesFrame2D.h"

#include <QApplication>
#include <QtTest>
#include <vtkCamera.h>
#include <vtkRenderer.h>

using namespace olens;

namespace {

using Box = std::array<double, 4>;

QString boxText(const Box& b)
{
    return QStringLiteral("[%1, %2] x [%3, %4]").arg(b[0]).arg(b[1]).arg(b[2]).arg(b[3]);
}

bool overlap(const Box& a, const Box& b)
{
    return a[0] < b[1] && b[0] < a[1] && a[2] < b[3] && b[2] < a[3];
}

void checkApart(const std::vector<Box>& boxes)
{
    for (std::size_t i = 0; i < boxes.size(); ++i)
        for (std::size_t j = i + 1; j < boxes.size(); ++j)
            QVERIFY2(!overlap(boxes[i], boxes[j]), qPrintable(boxText(boxes[i]) + " overlaps " + boxText(boxes[j])));
}

} // namespace

class TestAxesLabels : public QObject {
    Q_OBJECT

private slots:
    void twoDLabelsLieOutsideTheDataAndApart()
    {
        const Dataset d = generate("moons", 200, 2);
        for (const QSize size : {QSize(720, 520), QSize(300, 220)}) {
            DataDocument doc;
            CloudView view(&doc);
            view.resize(size);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
            doc.setDataset(d, "moons.csv");
            for (int zoom = 0; zoom < 2; ++zoom) {
                if (zoom == 1) { // zoomed in: other ticks, other labels
                    view.renderer()->GetActiveCamera()->Zoom(3.7);
                    view.update();
                }
                view.grabImage();
                const AxesFrame2D& frame = view.axesFrame2D();
                QVERIFY(frame.visible());
                QVERIFY2(frame.xLabels().size() >= 2, "at least two x ticks");
                QVERIFY2(frame.yLabels().size() >= 2, "at least two y ticks");
                const auto boxes = frame.textBoxes();
                const int* win = view.overlayRenderer()->GetSize();
                double vp[4];
                view.renderer()->GetViewport(vp);
                const Box data = {vp[0] * win[0], vp[2] * win[0], vp[1] * win[1], vp[3] * win[1]};
                for (const auto& b : boxes) {
                    QVERIFY2(b[0] >= 0 && b[1] <= win[0] && b[2] >= 0 && b[3] <= win[1], qPrintable(boxText(b)));
                    QVERIFY2(!overlap(b, data), qPrintable(boxText(b) + " inside the data area " + boxText(data)));
                }
                checkApart(boxes);
            }
        }
    }

    void threeDTickLabelsNeverOverlap()
    {
        const Dataset d = generate("seam", 300, 1);
        DataDocument doc;
        CloudView view(&doc);
        view.resize(520, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(d, "seam.csv");
        QCOMPARE(view.mode(), VtkView::Mode::View3D);
        vtkCamera* cam = view.renderer()->GetActiveCamera();
        // The default view, then nearly along x (x foreshortened), then from above (z foreshortened).
        for (int pose = 0; pose < 3; ++pose) {
            if (pose == 1)
                cam->Azimuth(55);
            if (pose == 2)
                cam->Elevation(70);
            cam->OrthogonalizeViewUp();
            view.renderer()->ResetCameraClippingRange();
            view.update();
            view.grabImage();
            const auto boxes = view.axesLabelBoxes3D();
            QVERIFY2(boxes.size() >= 4, qPrintable(QStringLiteral("pose %1: %2 labels").arg(pose).arg(boxes.size())));
            checkApart(boxes);
        }
    }
};

OLENS_GUI_TEST_MAIN(TestAxesLabels)
#include "TestAxesLabels.moc"
