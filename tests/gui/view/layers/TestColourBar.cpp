// The colour bar as rendered (offscreen under xvfb): every text it draws (tick labels, title, end
// markers) lies inside the window and no two overlap, in a large view and a small compare-sized
// one; an end marker appears exactly when scores lie outside the chosen range; the range modes
// and log scale reach the bar.
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "GuiTestSupport.h"
#include "data/Generators.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"
#include "view/layers/ColourBar.h"

#include <QApplication>
#include <QtTest>
#include <vtkRenderer.h>

using namespace olens;

namespace {

std::shared_ptr<FitResult> knnResult(const Dataset& d)
{
    std::shared_ptr<Detector> det(Registry::instance().create("knn", {{"k", "5"}}));
    return fitPipeline(det, Normalizer(Normalization::None), d.X, FitOptions{});
}

QString boxText(const std::array<double, 4>& b)
{
    return QStringLiteral("[%1, %2] x [%3, %4]").arg(b[0]).arg(b[1]).arg(b[2]).arg(b[3]);
}

bool overlap(const std::array<double, 4>& a, const std::array<double, 4>& b)
{
    return a[0] < b[1] && b[0] < a[1] && a[2] < b[3] && b[2] < a[3];
}

/// Renders the view and checks the colour bar's texts: inside the window, pairwise apart.
void checkTextsInside(CloudView& view)
{
    view.grabImage();
    vtkRenderer* overlay = view.overlayRenderer();
    const int* size = overlay->GetSize();
    const auto boxes = view.colourBar().textBoxes(overlay);
    QVERIFY2(boxes.size() >= 3, "tick labels and the title are drawn");
    for (const auto& b : boxes) {
        QVERIFY2(b[0] >= 0 && b[1] <= size[0] && b[2] >= 0 && b[3] <= size[1],
                 qPrintable(boxText(b) + QStringLiteral(" outside %1x%2").arg(size[0]).arg(size[1])));
        QVERIFY(b[1] > b[0] && b[3] > b[2]);
    }
    for (std::size_t i = 0; i < boxes.size(); ++i)
        for (std::size_t j = i + 1; j < boxes.size(); ++j)
            QVERIFY2(!overlap(boxes[i], boxes[j]), qPrintable(boxText(boxes[i]) + " overlaps " + boxText(boxes[j])));
}

} // namespace

class TestColourBar : public QObject {
    Q_OBJECT

private slots:
    void textsLieInsideLargeAndSmallWindows()
    {
        const Dataset d = generate("moons", 300, 3);
        for (const QSize size : {QSize(720, 520), QSize(300, 220)}) {
            DataDocument doc;
            CloudView view(&doc);
            view.resize(size);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
            doc.setDataset(d, "moons.csv");
            doc.setResult(knnResult(d));
            QVERIFY(view.colourBar().visible());
            checkTextsInside(view);
            // Large scores (hundreds) and a long custom title still fit.
            Eigen::VectorXd big = Eigen::VectorXd::LinSpaced(d.rows(), 150.0, 1310.0);
            view.setCustomScalars(big, "log-likelihood ratio to point 12");
            checkTextsInside(view);
            view.clearCustomScalars();
        }
    }

    void endMarkerAppearsExactlyWhenScoresExceedTheRange()
    {
        const Dataset d = generate("moons", 300, 3);
        DataDocument doc;
        CloudView view(&doc);
        view.resize(600, 420);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(d, "moons.csv");
        doc.setResult(knnResult(d));
        QVERIFY(doc.result());
        const double maxScore = doc.result()->scores.maxCoeff();
        // Auto: [min, 99th percentile]; the top 1 % lies above it.
        view.grabImage();
        QVERIFY(view.colourScale().hi < maxScore);
        QVERIFY(!view.colourBar().highMarker().empty());
        QVERIFY(view.colourBar().lowMarker().empty());
        checkTextsInside(view);

        ColourRangeSpec s;
        s.mode = ColourRangeMode::MinMax;
        view.setColourRange(s);
        view.grabImage();
        QCOMPARE(view.colourScale().hi, maxScore);
        QVERIFY(view.colourBar().highMarker().empty());

        s.mode = ColourRangeMode::Manual;
        s.lo = 0.0;
        s.hi = maxScore / 10.0;
        view.setColourRange(s);
        view.grabImage();
        QCOMPARE(view.colourScale().hi, maxScore / 10.0);
        QCOMPARE(QString::fromStdString(view.colourBar().highMarker()),
                 QStringLiteral("max %1").arg(maxScore, 0, 'g', 3));
        checkTextsInside(view);

        s.mode = ColourRangeMode::MinMax;
        s.log = true;
        view.setColourRange(s);
        view.grabImage();
        QVERIFY(view.colourScale().log);
        QVERIFY(view.colourScale().lo > 0.0);
        checkTextsInside(view);
    }
};

OLENS_GUI_TEST_MAIN(TestColourBar)
#include "TestColourBar.moc"
