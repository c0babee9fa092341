// The Similarity dock and the view's uncertainty layer on seeded `classes` data (sigma_ columns):
// training in the worker, colouring by LR similarity to the picked point equal to an independent
// core fit, same-class points more similar than others, JB ↔ UA-JB recolouring (different with noise,
// identical without), the eq. 17 gate, the EER shown equal to the core's on the same held-out pairs,
// and the tensor glyphs (counts, extents = scale·σ incl. the projected p > 3 case, pixels).
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "data/Generators.h"
#include "similarity/JointBayesian.h"
#include "metrics/Metrics.h"
#include "plots/PlotWidget.h"
#include "docks/SimilarityPanel.h"
#include "similarity/Verification.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include <vtkPoints.h>
#include <vtkPolyData.h>

#include "GuiTestSupport.h"
#include "Numeric.h"

#include <cmath>
#include <map>

using namespace olens;

namespace {

Dataset classes(double t, int n = 120, int dim = 2, std::uint64_t seed = 7)
{
    return generate("classes", n, seed,
                    {{"classes", "3"}, {"dim", std::to_string(dim)}, {"t", std::to_string(t)}, {"std", "0.6"},
                     {"spread", "3"}});
}

Dataset subsetRows(const Dataset& d, const std::vector<Eigen::Index>& rows)
{
    Dataset s = d;
    const auto m = static_cast<Eigen::Index>(rows.size());
    s.X.resize(m, d.cols());
    s.labels.resize(m);
    s.sigma.resize(d.hasSigma() ? m : 0, d.hasSigma() ? d.cols() : 0);
    for (Eigen::Index k = 0; k < m; ++k) {
        s.X.row(k) = d.X.row(rows[std::size_t(k)]);
        s.labels(k) = d.labels(rows[std::size_t(k)]);
        if (d.hasSigma())
            s.sigma.row(k) = d.sigma.row(rows[std::size_t(k)]);
    }
    return s;
}

using test::maxAbsDiff;

struct Fixture {
    DataDocument doc;
    CloudView view{&doc};
    SimilarityPanel panel{&doc, &view};

    bool trainOn(const Dataset& d)
    {
        doc.setDataset(d, "classes.csv");
        QSignalSpy done(&panel, &SimilarityPanel::trainingFinished);
        if (!panel.train())
            return false;
        return done.wait(20000);
    }
};

/// Semi-extent of glyph i along display axis a (max |coordinate − centre|).
double glyphHalfExtent(CloudView& view, Eigen::Index i, int a, vtkIdType perGlyph)
{
    vtkPoints* pts = view.uncertaintyGlyphs()->GetPoints();
    const double c = view.displayPoints()(i, a);
    double e = 0.0;
    for (vtkIdType k = 0; k < perGlyph; ++k)
        e = std::max(e, std::fabs(pts->GetPoint(i * perGlyph + k)[a] - c));
    return e;
}

} // namespace

class TestSimilarityPanel : public QObject {
    Q_OBJECT

private slots:
    void pickingColoursByLrSimilarity()
    {
        Fixture f;
        f.view.resize(400, 320);
        const Dataset d = classes(0.5);
        QVERIFY(f.trainOn(d));
        QVERIFY(f.panel.isTrained());
        QCOMPARE(f.panel.method(), SimilarityPanel::Method::UaJb);
        QVERIFY(!f.view.hasCustomScalars()); // nothing picked yet

        // An independent fit with the same parameters gives the same colouring.
        const int K = f.panel.dimBox()->value();
        QCOMPARE(K, 2); // min(10, p)
        JointBayesian ref(SimilarityPanel::paramsFor(SimilarityPanel::Method::UaJb, K));
        ref.fit(d.X, d.labels, d.sigma);

        double sameMean = 0.0, otherMean = 0.0;
        int wins = 0;
        const int picks[] = {0, 17, 40, 77, 101};
        for (int i : picks) {
            f.doc.setSelectedPoint(i);
            QVERIFY(f.view.hasCustomScalars());
            QCOMPARE(f.view.effectiveColourBy(), CloudView::ColourBy::Custom);
            QVERIFY(f.view.customTitle().contains(QStringLiteral("#%1").arg(i)));
            const Eigen::VectorXd s = f.view.customScalars();
            const Eigen::VectorXd want = ref.similarityToAll(i);
            QVERIFY2(maxAbsDiff(s, want) <= 1e-9 * (1.0 + want.cwiseAbs().maxCoeff()),
                     qPrintable(QString::number(maxAbsDiff(s, want))));
            double same = 0.0, other = 0.0;
            int ns = 0, no = 0;
            for (Eigen::Index j = 0; j < s.size(); ++j) {
                if (j == i)
                    continue;
                if (d.labels(j) == d.labels(i)) {
                    same += s(j);
                    ++ns;
                } else {
                    other += s(j);
                    ++no;
                }
            }
            same /= ns;
            other /= no;
            sameMean += same;
            otherMean += other;
            wins += same > other ? 1 : 0;
        }
        QCOMPARE(wins, 5);
        QVERIFY(sameMean > otherMean);

        // Clearing the selection or unticking the colouring gives the view its colour mode back.
        f.doc.setSelectedPoint(-1);
        QVERIFY(!f.view.hasCustomScalars());
        f.doc.setSelectedPoint(3);
        QVERIFY(f.view.hasCustomScalars());
        f.panel.colourBox()->setChecked(false);
        QVERIFY(!f.view.hasCustomScalars());
        f.panel.colourBox()->setChecked(true);
        QVERIFY(f.view.hasCustomScalars());
        // New data drop the models and the colouring.
        f.doc.setDataset(classes(0.5, 60), "other.csv");
        QVERIFY(!f.panel.isTrained());
        QVERIFY(!f.view.hasCustomScalars());
    }

    void switchingMethodsRecolours()
    {
        Fixture f;
        const Dataset noisy = classes(1.5);
        QVERIFY(f.trainOn(noisy));
        f.doc.setSelectedPoint(5);
        const Eigen::VectorXd ua = f.view.customScalars();
        f.panel.setMethod(SimilarityPanel::Method::Jb);
        QVERIFY(f.view.customTitle().contains("JB"));
        const Eigen::VectorXd jb = f.view.customScalars();
        QCOMPARE(jb.size(), ua.size());
        QVERIFY2(maxAbsDiff(ua, jb) > 1e-2, qPrintable(QString::number(maxAbsDiff(ua, jb))));
        JointBayesian ref(SimilarityPanel::paramsFor(SimilarityPanel::Method::Jb, 2));
        ref.fit(noisy.X, noisy.labels); // JB ignores σ
        QVERIFY(maxAbsDiff(jb, ref.similarityToAll(5)) <= 1e-9 * (1.0 + jb.cwiseAbs().maxCoeff()));

        // σ = 0 everywhere: both methods are the same model, so the colourings coincide.
        Dataset exact = noisy;
        exact.sigma.setZero();
        QVERIFY(f.trainOn(exact));
        f.doc.setSelectedPoint(5);
        const Eigen::VectorXd jb0 = f.view.customScalars();
        f.panel.setMethod(SimilarityPanel::Method::UaJb);
        const Eigen::VectorXd ua0 = f.view.customScalars();
        QVERIFY2(maxAbsDiff(ua0, jb0) <= 1e-8 * (1.0 + jb0.cwiseAbs().maxCoeff()),
                 qPrintable(QString::number(maxAbsDiff(ua0, jb0))));
    }

    void outlierGateOfEq17()
    {
        Fixture f;
        const Dataset d = classes(0.5, 60);
        QVERIFY(f.trainOn(d));
        QVERIFY(!f.panel.outlierGateBox()->isEnabled()); // no detector result yet
        // A hand-made detector result: point 4 scores above the threshold 0.5, the others below.
        auto r = std::make_shared<FitResult>();
        r->scores = Eigen::VectorXd::Constant(d.rows(), 0.1);
        r->scores(4) = 0.9;
        r->threshold = 0.5;
        r->outlier = (r->scores.array() > 0.5).cast<int>();
        r->detectorId = "hand";
        f.doc.setResult(r);
        QVERIFY(f.panel.outlierGateBox()->isEnabled());
        f.doc.setSelectedPoint(0);
        const Eigen::VectorXd plain = f.view.customScalars();
        f.panel.outlierGateBox()->setChecked(true);
        const Eigen::VectorXd gated = f.view.customScalars();
        QVERIFY(f.view.customTitle().contains("eq. 17"));
        QCOMPARE(gated(4), 0.0);
        for (Eigen::Index j = 0; j < d.rows(); ++j)
            if (j != 4)
                QCOMPARE(gated(j), plain(j));
        f.doc.setSelectedPoint(4); // the outlier itself: similar to nothing
        QCOMPARE(f.view.customScalars().cwiseAbs().maxCoeff(), 0.0);
        // Raising the threshold above every score lifts the gate.
        f.doc.setThreshold(0.95);
        QVERIFY(f.view.customScalars().cwiseAbs().maxCoeff() > 0.0);
    }

    void eerMatchesTheCoreOnTheSamePairs()
    {
        Fixture f;
        const Dataset d = classes(1.0, 150);
        QVERIFY(f.trainOn(d));
        const auto* v = f.panel.verification(SimilarityPanel::Method::UaJb);
        const auto* vj = f.panel.verification(SimilarityPanel::Method::Jb);
        QVERIFY(v && vj);
        // The split: class-stratified halves covering every row once.
        const auto& trainRows = f.panel.verificationTrainRows();
        const auto& testRows = f.panel.verificationTestRows();
        QCOMPARE(Eigen::Index(trainRows.size() + testRows.size()), d.rows());
        std::map<double, int> trainCount, testCount;
        for (auto r : trainRows)
            ++trainCount[d.labels(r)];
        for (auto r : testRows)
            ++testCount[d.labels(r)];
        for (const auto& [c, m] : trainCount)
            QVERIFY(m - testCount[c] == 0 || m - testCount[c] == 1);

        // The core on the same rows with the same options reproduces pairs, similarities and EER.
        VerificationOptions o;
        o.model = SimilarityPanel::paramsFor(SimilarityPanel::Method::UaJb, f.panel.dimBox()->value());
        o.maxPairs = SimilarityPanel::kMaxPairs;
        o.seed = SimilarityPanel::kSplitSeed;
        const VerificationResult core = runVerification(subsetRows(d, trainRows), subsetRows(d, testRows), o);
        QCOMPARE(core.pairs.size(), v->pairs.size());
        QVERIFY(core.pairs == v->pairs);
        QVERIFY(maxAbsDiff(core.similarity, v->similarity) <= 1e-9 * (1.0 + core.similarity.cwiseAbs().maxCoeff()));
        const double eer = equalErrorRate(core.similarity, core.genuine);
        QVERIFY(eer > 0.0 && eer < 0.5);

        // Shown: "EER = x.xx %" of the selected method.
        auto shown = [&] {
            QString t = f.panel.eerText();
            t.remove("EER = ").remove("%");
            bool ok = false;
            const double x = t.trimmed().toDouble(&ok);
            return ok ? x / 100.0 : -1.0;
        };
        QVERIFY2(std::fabs(shown() - eer) <= 5e-5 + 1e-12, qPrintable(f.panel.eerText()));
        f.panel.setMethod(SimilarityPanel::Method::Jb);
        QVERIFY2(std::fabs(shown() - equalErrorRate(vj->similarity, vj->genuine)) <= 5e-5,
                 qPrintable(f.panel.eerText()));
        // The DET plot zooms to the EERs: the EER point lies inside the axes, off the origin.
        PlotWidget* det = f.panel.detPlot();
        det->resize(300, 220);
        const QPointF at = det->toPixel(eer, eer);
        QVERIFY(det->plotRect().contains(at));
        QVERIFY(at.x() > det->plotRect().left() + 0.03 * det->plotRect().width());
    }

    void withoutClassLabelsSaysWhy()
    {
        Fixture f;
        Dataset d = classes(0.5, 30);
        d.labels.resize(0);
        d.labelName.clear();
        f.doc.setDataset(d, "nolabels.csv");
        QSignalSpy failed(&f.panel, &SimilarityPanel::trainingFailed);
        QVERIFY(!f.panel.train());
        QCOMPARE(failed.count(), 1);
        QVERIFY(f.panel.statusText().contains("class"));
        QVERIFY(!f.panel.isTrained());
    }

    void uncertaintyGlyphsFollowSigma()
    {
        // 2D: one disk per point, semi-axes = scale·σ.
        {
            DataDocument doc;
            CloudView view(&doc);
            const Dataset d = classes(0.8, 50);
            doc.setDataset(d, "c2.csv");
            QVERIFY(view.canShowUncertainty());
            const vtkIdType per = view.uncertaintyCellsPerGlyph();
            QCOMPARE(per, vtkIdType(1));
            QCOMPARE(view.uncertaintyGlyphs()->GetNumberOfCells(), d.rows() * per);
            const vtkIdType pts = view.uncertaintyGlyphs()->GetNumberOfPoints() / d.rows();
            QCOMPARE(view.uncertaintyGlyphs()->GetNumberOfPoints(), d.rows() * pts);
            view.setUncertaintyScale(2.0);
            for (Eigen::Index i : {0, 7, 33})
                for (int a = 0; a < 2; ++a) {
                    const double want = 2.0 * d.sigma(i, a);
                    const double got = glyphHalfExtent(view, i, a, pts);
                    QVERIFY2(std::fabs(got - want) <= 0.01 * want + 1e-9,
                             qPrintable(QStringLiteral("point %1 axis %2: %3 vs %4").arg(i).arg(a).arg(got).arg(want)));
                }
            view.setLayerVisible(CloudView::Layer::Uncertainty, false);
            QCOMPARE(view.uncertaintyGlyphs()->GetNumberOfCells(), vtkIdType(0));
            view.setLayerVisible(CloudView::Layer::Uncertainty, true);
            QCOMPARE(view.uncertaintyGlyphs()->GetNumberOfCells(), d.rows());
            Dataset plain = d;
            plain.sigma.resize(0, 0);
            doc.setDataset(plain, "plain.csv");
            QVERIFY(!view.canShowUncertainty());
            QCOMPARE(view.uncertaintyGlyphs()->GetNumberOfCells(), vtkIdType(0));
        }
        // 3D: ellipsoids; 5D: the covariance projected like the points (half-extent along display
        // axis a = s·sqrt((Bᵀ diag(σ²) B)_aa)).
        for (int dim : {3, 5}) {
            DataDocument doc;
            CloudView view(&doc);
            const Dataset d = classes(0.8, 40, dim);
            doc.setDataset(d, "c.csv");
            QVERIFY(view.canShowUncertainty());
            const vtkIdType per = view.uncertaintyCellsPerGlyph();
            QVERIFY(per > 100);
            QCOMPARE(view.uncertaintyGlyphs()->GetNumberOfCells(), d.rows() * per);
            const vtkIdType pts = view.uncertaintyGlyphs()->GetNumberOfPoints() / d.rows();
            const Eigen::MatrixXd& B = view.projection().basis;
            for (Eigen::Index i : {1, 20})
                for (int a = 0; a < 3; ++a) {
                    double c = 0.0;
                    for (int j = 0; j < dim; ++j)
                        c += B(j, a) * B(j, a) * d.sigma(i, j) * d.sigma(i, j);
                    const double want = std::sqrt(c);
                    const double got = glyphHalfExtent(view, i, a, pts);
                    // the tessellated sphere reaches cos(π/20) of the true extent at worst
                    QVERIFY2(got <= want * 1.001 + 1e-9 && got >= want * 0.97,
                             qPrintable(QStringLiteral("p=%1 point %2 axis %3: %4 vs %5").arg(dim).arg(i).arg(a).arg(got).arg(want)));
                }
        }
    }

    void uncertaintyIsVisibleInPixels()
    {
        // Two points far apart: A with σ = (1, 1), B with σ = 0; 0.6 units to the right of A the
        // ellipse tints the background, next to B it stays white.
        Dataset d;
        d.source = "two";
        d.featureNames = {"x", "y"};
        d.X.resize(4, 2);
        d.X << -3, 0, 3, 0, 0, 3, 0, -3;
        d.sigma = Eigen::MatrixXd::Zero(4, 2);
        d.sigma.row(0) << 1.0, 1.0;
        DataDocument doc;
        CloudView view(&doc);
        view.resize(420, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view, 60000));
        doc.setDataset(d, "two.csv");
        const QImage img = view.grabImage();
        auto pixelAt = [&](double x, double y) {
            const QPointF w = view.worldToWidget(x, y, 0.0);
            const QPoint p(int(std::lround(w.x() * img.width() / view.width())),
                           int(std::lround(w.y() * img.height() / view.height())));
            return img.pixel(p);
        };
        const QRgb white = qRgb(255, 255, 255);
        const QRgb nearA = pixelAt(-3 + 0.6, 0.0), nearB = pixelAt(3 + 0.6, 0.0);
        QVERIFY2(test::colourDistance(nearA, white) > 15, qPrintable(QColor(nearA).name()));
        QVERIFY2(test::colourDistance(nearB, white) < 6, qPrintable(QColor(nearB).name()));
        // Outside A's ellipse (1.4σ) the background is white again.
        const QRgb outsideA = pixelAt(-3 + 1.4, 0.0);
        QVERIFY2(test::colourDistance(outsideA, white) < 6, qPrintable(QColor(outsideA).name()));
        // Scale 2: the ellipse now reaches 1.4σ.
        view.setUncertaintyScale(2.0);
        const QImage img2 = view.grabImage();
        const QPointF w = view.worldToWidget(-3 + 1.4, 0.0, 0.0);
        const QRgb scaled = img2.pixel(int(std::lround(w.x() * img2.width() / view.width())),
                                       int(std::lround(w.y() * img2.height() / view.height())));
        QVERIFY2(test::colourDistance(scaled, white) > 15, qPrintable(QColor(scaled).name()));
    }
};

OLENS_GUI_TEST_MAIN(TestSimilarityPanel)
#include "TestSimilarityPanel.moc"
