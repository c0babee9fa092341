// The Evaluation dock on a hand-made 10-point data set with hand-set scores: AUROC / AUPRC text,
// live metrics at the document's threshold, the operating point on the ROC plot, dragging the
// histogram's threshold marker, and the messages shown without labels or without a result.
#include "document/DataDocument.h"
#include "docks/EvaluationPanel.h"
#include "plots/PlotWidget.h"

#include <QApplication>
#include <QLabel>
#include "registry/Registry.h"

#include <QtTest>

#include "GuiTestSupport.h"

#include <cmath>

using namespace olens;

namespace {

// Scores 0.1, 0.2, ..., 1.0 for samples 0..9; outliers (label 1) are samples 3, 6, 8, 9.
// In decreasing score order the labels read 1 1 0 1 0 0 1 0 0 0 (P = 4, N = 6).
//   AUROC = (6 + 6 + 5 + 3) / (4·6) = 20/24 = 0.8333
//   AP    = (1/1 + 2/2 + 3/4 + 4/7) / 4 = 0.8304
Dataset tenPoints(bool withLabels = true)
{
    Dataset d;
    d.source = "ten points";
    d.featureNames = {"x", "y"};
    d.X.resize(10, 2);
    for (int i = 0; i < 10; ++i) {
        d.X(i, 0) = i;
        d.X(i, 1) = (i * 7) % 10;
    }
    if (withLabels) {
        d.labelName = "label";
        d.labels = Eigen::VectorXd::Zero(10);
        for (int i : {3, 6, 8, 9})
            d.labels(i) = 1.0;
    }
    return d;
}

std::shared_ptr<FitResult> handResult(double threshold)
{
    auto r = std::make_shared<FitResult>();
    r->scores.resize(10);
    for (int i = 0; i < 10; ++i)
        r->scores(i) = 0.1 * (i + 1);
    r->outlier = (r->scores.array() > threshold).cast<int>();
    r->threshold = threshold;
    r->detectorId = "hand";
    return r;
}

} // namespace

class TestEvaluationPanel : public QObject {
    Q_OBJECT

private slots:
    void summaryShowsHandComputedAurocAndAuprc()
    {
        DataDocument doc;
        doc.setDataset(tenPoints(), "ten.csv");
        EvaluationPanel panel(&doc);
        doc.setResult(handResult(0.55));
        QCOMPARE(panel.summaryText(), QString("AUROC 0.833   AUPRC 0.830"));
        QVERIFY(panel.rocPlot()->isVisibleTo(&panel));
        // At the detector's threshold 0.55: flagged 0.6..1.0 → TP 3, FP 2, FN 1, TN 4.
        const QString m = panel.metricsText();
        QVERIFY2(m.contains("flagged 5 of 10"), qPrintable(m));
        QVERIFY2(m.contains("precision 0.600"), qPrintable(m));
        QVERIFY2(m.contains("recall 0.750"), qPrintable(m));
        QVERIFY2(m.contains("F1 0.667"), qPrintable(m));
        QCOMPARE(panel.histogram()->marker(), 0.55);
    }

    void theSelectionIsARugUnderTheHistogram()
    {
        // Issue #22: the selection the view and the Ranking share also shows in the plots.
        DataDocument doc;
        doc.setDataset(tenPoints(), "ten.csv");
        EvaluationPanel panel(&doc);
        doc.setResult(handResult(0.55));
        const int s = panel.selectionSeries();
        QVERIFY(s >= 0);
        QVERIFY(panel.histogram()->seriesData(s).first.isEmpty());
        doc.setPointSelection({2, 7, 9});
        const auto data = panel.histogram()->seriesData(s);
        QCOMPARE(data.first.size(), 3);
        QCOMPARE(data.first[0], 0.3);
        QCOMPARE(data.first[1], 0.8);
        QCOMPARE(data.first[2], 1.0);
        QCOMPARE(data.second, (QVector<double>{0.0, 0.0, 0.0}));
        doc.setSelectedPoint(-1);
        QVERIFY(panel.histogram()->seriesData(s).first.isEmpty());
        // A new result rebuilds the plots and keeps showing the selection.
        doc.setPointSelection({0});
        doc.setResult(handResult(0.35));
        QCOMPARE(panel.histogram()->seriesData(panel.selectionSeries()).first, (QVector<double>{0.1}));
    }

    void theThresholdSaysWhatItMeans()
    {
        // Issue #17: the detector's own threshold is named by its rule where it is shown.
        DataDocument doc;
        doc.setDataset(tenPoints(), "ten.csv");
        EvaluationPanel panel(&doc);
        auto r = handResult(0.55);
        auto det = Registry::instance().create("knn", {{"k", "2"}, {"contamination", "0.2"}});
        det->fit(tenPoints().X);
        r->detector = std::move(det);
        doc.setResult(r);
        QVERIFY2(panel.metricsText().contains("80th percentile of the training scores (contamination 0.2)"),
                 qPrintable(panel.metricsText()));
        auto g = handResult(0.55);
        auto gods = Registry::instance().create("gods", {{"decision", "eq23"}});
        gods->fit(tenPoints().X);
        g->detector = std::move(gods);
        doc.setResult(g);
        QVERIFY2(panel.metricsText().contains("eq. 23"), qPrintable(panel.metricsText()));
    }

    void axisTitlesAreNotCutOnShortPlots()
    {
        // "true positive rate" read "true po…" on a short ROC plot: titles use a smaller font first.
        DataDocument doc;
        doc.setDataset(tenPoints(), "ten.csv");
        EvaluationPanel panel(&doc);
        doc.setResult(handResult(0.55));
        panel.rocPlot()->resize(220, 130);
        QCOMPARE(panel.rocPlot()->shownAxisTitles().second, QStringLiteral("true positive rate"));
        QCOMPARE(panel.rocPlot()->shownAxisTitles().first, QStringLiteral("false positive rate"));
    }

    void thresholdChangesUpdateTheMetrics()
    {
        DataDocument doc;
        doc.setDataset(tenPoints(), "ten.csv");
        EvaluationPanel panel(&doc);
        doc.setResult(handResult(0.55));
        // score > 0.75 flags 0.8, 0.9, 1.0: TP 2, FP 1, FN 2, TN 5.
        //   precision 2/3, recall 1/2, F1 = 4/7, TNR 5/6, NPV 5/7, F1-bar = 50/65.
        doc.setThreshold(0.75);
        const QString m = panel.metricsText();
        for (const char* part : {"threshold 0.75", "flagged 3 of 10", "precision 0.667", "recall 0.500", "F1 0.571",
                                 "F1-bar 0.769", "TNR 0.833", "NPV 0.714"})
            QVERIFY2(m.contains(part), qPrintable(part + QString(" in: ") + m));
        QCOMPARE(panel.histogram()->marker(), 0.75);

        // The operating point (FPR 1/6, TPR 1/2) is drawn on the ROC plot, (recall 1/2, precision 2/3) on PR.
        panel.resize(350, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel, 60000));
        const QImage roc = panel.rocPlot()->grab().toImage();
        const QPoint p = panel.rocPlot()->toPixel(1.0 / 6.0, 0.5).toPoint();
        QVERIFY(test::colourDistance(roc.pixel(p), qRgb(20, 20, 20)) < 40);
        const QImage pr = panel.prPlot()->grab().toImage();
        const QPoint q = panel.prPlot()->toPixel(0.5, 2.0 / 3.0).toPoint();
        QVERIFY(test::colourDistance(pr.pixel(q), qRgb(20, 20, 20)) < 40);

        // Above every score nothing is flagged.
        QVERIFY2(panel.metricsText().contains("flagged 3 of 10 (30.0 %)"), qPrintable(panel.metricsText()));
        // A threshold other than the result's own is the user's, and says so (issue #17).
        QVERIFY2(panel.metricsText().contains("set by you; the detector's own is 0.55"), qPrintable(panel.metricsText()));
        doc.setThreshold(2.0);
        QVERIFY(panel.metricsText().contains("flagged 0 of 10"));
        QVERIFY(panel.metricsText().contains("recall 0.000"));
    }

    void draggingTheHistogramMarkerSetsTheThreshold()
    {
        DataDocument doc;
        doc.setDataset(tenPoints(), "ten.csv");
        EvaluationPanel panel(&doc);
        panel.resize(350, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel, 60000));
        doc.setResult(handResult(0.55));
        PlotWidget* h = panel.histogram();
        const double y = h->plotRect().center().y();
        const double onePixel = h->toDataX(1.0) - h->toDataX(0.0);
        QTest::mousePress(h, Qt::LeftButton, {}, QPoint(qRound(h->toPixel(0.55, 0).x()), int(y)));
        const QPoint end(qRound(h->toPixel(0.32, 0).x()), int(y));
        QTest::mouseMove(h, end);
        QTest::mouseRelease(h, Qt::LeftButton, {}, end);
        QVERIFY2(qAbs(doc.threshold() - 0.32) <= onePixel, qPrintable(QString::number(doc.threshold())));
        QCOMPARE(h->marker(), doc.threshold());
        // score > 0.32 flags 0.4..1.0: TP 4, FP 3 → precision 4/7, recall 1.
        QVERIFY2(panel.metricsText().contains("flagged 7 of 10"), qPrintable(panel.metricsText()));
        QVERIFY(panel.metricsText().contains("precision 0.571"));
        QVERIFY(panel.metricsText().contains("recall 1.000"));
    }

    void messagesWithoutLabelsOrResult()
    {
        DataDocument doc;
        EvaluationPanel panel(&doc);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel, 60000));
        QVERIFY(panel.summaryText().contains("Load a data set"));
        QVERIFY(!panel.rocPlot()->isVisible());

        doc.setDataset(tenPoints(), "ten.csv");
        QCOMPARE(panel.summaryText(), QString("Train a detector to see its evaluation."));
        QVERIFY(!panel.histogram()->isVisible());
        QVERIFY(panel.metricsText().isEmpty());

        doc.setResult(handResult(0.55));
        QVERIFY(panel.rocPlot()->isVisible());
        doc.setResult(nullptr);
        QCOMPARE(panel.summaryText(), QString("Train a detector to see its evaluation."));
        QVERIFY(!panel.rocPlot()->isVisible());
        doc.setThreshold(0.3); // no result: nothing to update, no crash
        QVERIFY(panel.metricsText().isEmpty());

        doc.setDataset(tenPoints(false), "unlabelled.csv");
        doc.setResult(handResult(0.55));
        QVERIFY(doc.result());
        QVERIFY2(panel.summaryText().startsWith("No label column"), qPrintable(panel.summaryText()));
        QVERIFY(panel.summaryText().contains("1 = outlier"));
        QVERIFY(!panel.prPlot()->isVisible());

        Dataset oneClass = tenPoints();
        oneClass.labels.setZero();
        doc.setDataset(oneClass, "inliers.csv");
        doc.setResult(handResult(0.55));
        QVERIFY2(panel.summaryText().contains("only inliers"), qPrintable(panel.summaryText()));
    }
};

OLENS_GUI_TEST_MAIN(TestEvaluationPanel)
#include "TestEvaluationPanel.moc"
