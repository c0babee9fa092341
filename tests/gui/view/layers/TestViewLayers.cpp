// The view's layers driven by a ViewContext alone (no CloudView, no window): what each draws for a
// given context, and that the layer switches and change flags reach the right props.
#include "document/DataDocument.h"
#include "display/GeometryChoice.h"
#include "pipeline/FitPipeline.h"
#include "view/layers/FieldLayer.h"
#include "view/layers/GeometryLayer.h"
#include "view/layers/LegendAxesLayer.h"
#include "view/layers/PointColouring.h"
#include "view/layers/PointLayer.h"
#include <vtkDataArray.h>
#include <vtkPoints.h>
#include "view/layers/UncertaintyLayer.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <set>

#include <vtkActor.h>
#include <vtkActorCollection.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPropCollection.h>
#include <vtkLookupTable.h>
#include <vtkMapper.h>
#include <vtkRenderer.h>
#include <vtkPointData.h>
#include <vtkFloatArray.h>
#include <vtkUnsignedCharArray.h>

using namespace olens;

namespace {

Dataset square(bool sigma)
{
    Dataset d;
    d.featureNames = {"x", "y"};
    d.X.resize(4, 2);
    d.X << 0, 0, 2, 0, 0, 2, 2, 2;
    if (sigma)
        d.sigma = Eigen::MatrixXd::Constant(4, 2, 0.1);
    return d;
}

/// The document, display and colours a context points to, kept alive for the test.
struct Scene {
    DataDocument doc;
    Projection projection;
    std::shared_ptr<Eigen::MatrixX3d> display; // what the view's display coordinates live in
    DisplayPoints shown{nullptr, 0, 3};
    PointColouring colouring;
    vtkNew<vtkRenderer> scene, overlay;

    explicit Scene(const Dataset& d)
    {
        doc.setDataset(d, QString());
        projection = Projection::automatic(d.X, d.featureNames);
        show(std::make_shared<Eigen::MatrixX3d>(projection.toDisplay(d.X)));
        colouring.update(d, nullptr, ColourBy::Label, Eigen::VectorXd(), 0.0, 1.0, 9.0f);
    }
    void show(std::shared_ptr<Eigen::MatrixX3d> m)
    {
        display = std::move(m);
        new (&shown) DisplayPoints(display->data(), display->rows(), 3);
    }
    ViewContext context() const
    {
        ViewContext c;
        c.doc = &doc;
        c.projection = &projection;
        c.display = &shown;
        c.twoD = true;
        c.colouring = &colouring;
        c.layerOn.fill(true);
        c.canShowUncertainty = doc.dataset().hasSigma();
        return c;
    }
    /// Visible props of the scene (actors and the score image).
    int visibleProps()
    {
        int n = 0;
        vtkPropCollection* props = scene->GetViewProps();
        props->InitTraversal();
        while (vtkProp* p = props->GetNextProp())
            n += p->GetVisibility() ? 1 : 0;
        return n;
    }
};

} // namespace

class TestViewLayers : public QObject {
    Q_OBJECT

private slots:
    void fieldLayerDrawsTheThresholdContour()
    {
        Scene s(square(false));
        FieldLayer layer(&s.colouring);
        layer.attach(s.scene, s.overlay);
        // f = x² + y² on [−2, 2]²: the threshold 1 is the unit circle.
        auto field = std::make_shared<FieldData>();
        field->grid.dims = 2;
        field->grid.lo = Eigen::Vector3d(-2, -2, 0);
        field->grid.hi = Eigen::Vector3d(2, 2, 0);
        field->grid.res = Eigen::Vector3i(41, 41, 1);
        const Eigen::MatrixXd U = field->grid.displayPoints(0, field->grid.count());
        field->score = U.rowwise().squaredNorm();
        s.doc.setThreshold(1.0);
        ViewContext c = s.context();
        QCOMPARE(layer.thresholdCells(), vtkIdType(0));
        c.field = field;
        layer.update(c, ViewLayer::Field);
        QVERIFY(layer.thresholdCells() > 20); // a closed polyline around the circle
        const int shown = s.visibleProps();  // image + threshold (no result: no quartile contours)
        QCOMPARE(shown, 2);
        c.layerOn[static_cast<int>(LayerSwitch::Contours)] = false;
        layer.update(c, ViewLayer::Visibility);
        QCOMPARE(s.visibleProps(), 1);
        c.field = nullptr;
        layer.update(c, ViewLayer::Field);
        QCOMPARE(layer.thresholdCells(), vtkIdType(0));
        QCOMPARE(s.visibleProps(), 0);
    }

    void geometryLayerDrawsFlatsAtTheirCorners()
    {
        Scene s(square(false));
        GeometryLayer layer;
        layer.attach(s.scene, s.overlay);
        Geometry g;
        Flat fl;
        fl.origin = Eigen::Vector2d(0, 1);
        fl.basis = Eigen::Vector2d(1, 0);
        fl.lower = Eigen::VectorXd::Constant(1, 0.0);
        fl.upper = Eigen::VectorXd::Constant(1, 2.0);
        g.flats = {fl, fl};
        g.flats[1].upper(0) = 0.0; // no extent: not drawn
        Normalizer none; // the result's normaliser (fitted, identity)
        none.fit(s.doc.dataset().X);
        ViewContext c = s.context();
        c.flatGeometry = &g;
        c.flatNormalizer = &none;
        layer.update(c, ViewLayer::Flats);
        QCOMPARE(s.scene->GetActors()->GetNumberOfItems(), 1);
        double b[6];
        s.scene->GetActors()->GetLastActor()->GetBounds(b);
        QCOMPARE(b[0], 0.0);
        QCOMPARE(b[1], 2.0);
        QCOMPARE(b[2], 1.0);
        QCOMPARE(b[3], 1.0);
        c.layerOn[static_cast<int>(LayerSwitch::Flats)] = false;
        layer.update(c, ViewLayer::Visibility);
        QCOMPARE(s.visibleProps(), 0);
        c.flatGeometry = nullptr;
        layer.update(c, ViewLayer::Flats);
        QCOMPARE(s.scene->GetActors()->GetNumberOfItems(), 0);
    }

    void uncertaintyLayerBuildsOneGlyphPerPointWhileShown()
    {
        Scene s(square(true));
        UncertaintyLayer layer;
        layer.attach(s.scene, s.overlay);
        ViewContext c = s.context();
        layer.update(c, ViewLayer::Points);
        QVERIFY(layer.cellsPerGlyph() >= 1);
        QVERIFY(layer.glyphs()->GetNumberOfPoints() > 0);
        QCOMPARE(layer.glyphs()->GetNumberOfCells(), 4 * layer.cellsPerGlyph());
        double b[6];
        layer.glyphs()->GetBounds(b); // 0.1-σ circles around the corners of [0, 2]²
        QVERIFY(std::fabs(b[0] + 0.1) < 1e-6 && std::fabs(b[1] - 2.1) < 1e-6);
        c.layerOn[static_cast<int>(LayerSwitch::Uncertainty)] = false;
        layer.update(c, ViewLayer::Glyphs);
        QCOMPARE(layer.glyphs()->GetNumberOfPoints(), vtkIdType(0));
        QCOMPARE(s.visibleProps(), 0);
    }

    void componentPaletteDoesNotRepeat()
    {
        // Clusters, quadrics and frames beyond the tenth get colours of their own.
        for (int a = 0; a < 40; ++a)
            for (int b = a + 1; b < 40; ++b)
                QVERIFY2(PointColouring::componentColour(a) != PointColouring::componentColour(b),
                         qPrintable(QStringLiteral("components %1 and %2 share a colour").arg(a).arg(b)));
    }

    void frontPassDrawsExactlyTheFlaggedPoints()
    {
        // A translucent cloud draws the flagged points (score above the threshold) opaque in their
        // own pass. That pass's input is those points alone, at their positions, in their colours,
        // with their (negative: in front) sizes; it follows the threshold.
        Dataset d = square(false);
        Scene s(d);
        auto r = std::make_shared<FitResult>();
        r->scores = (Eigen::VectorXd(4) << 0.1, 0.9, 0.2, 0.8).finished();
        r->threshold = 0.5;
        r->outlier = (r->scores.array() > 0.5).cast<int>();
        r->detectorId = "hand";
        s.doc.setResult(r);
        s.colouring.update(d, r.get(), ColourBy::Score, Eigen::VectorXd(), 0.0, 1.0, 9.0f);
        PointLayer layer(std::make_shared<float>(1.0f));
        layer.attach(s.scene, s.overlay);
        ViewContext ctx = s.context();
        ctx.colourBy = ColourBy::Score;
        layer.update(ctx, ViewLayer::Points | ViewLayer::Colours);
        layer.setOpacity(0.5);
        QVERIFY(layer.frontPoints()->GetVisibility());
        const auto front = [&] { return vtkPolyData::SafeDownCast(layer.frontPoints()->GetMapper()->GetInput()); };
        const auto check = [&](const std::vector<int>& rows) {
            vtkPolyData* f = front();
            QCOMPARE(f->GetNumberOfPoints(), vtkIdType(rows.size()));
            QCOMPARE(f->GetNumberOfVerts(), vtkIdType(rows.size()));
            auto* colours = vtkUnsignedCharArray::SafeDownCast(f->GetPointData()->GetScalars());
            auto* sizes = vtkFloatArray::SafeDownCast(f->GetPointData()->GetArray("olensPointSize"));
            QVERIFY(colours && sizes);
            for (std::size_t j = 0; j < rows.size(); ++j) {
                const int i = rows[j];
                double x[3];
                f->GetPoint(vtkIdType(j), x);
                for (int k = 0; k < 3; ++k) {
                    QCOMPARE(x[k], (*s.display)(i, k));
                    QCOMPARE(colours->GetTypedComponent(vtkIdType(j), k), s.colouring.colours()->GetTypedComponent(i, k));
                }
                QVERIFY(sizes->GetValue(vtkIdType(j)) < 0.0f);
                QCOMPARE(-sizes->GetValue(vtkIdType(j)), s.colouring.sizes()->GetValue(i));
            }
        };
        check({1, 3});
        s.doc.setThreshold(0.85);
        layer.update(ctx, ViewLayer::Threshold);
        check({1});
        s.doc.setThreshold(0.95);
        layer.update(ctx, ViewLayer::Threshold);
        check({});
    }

    void theCloudsPointsAreTheDisplayMatrixItself()
    {
        // Issue #54: VTK reads the display coordinates in place (no 24 B-a-point copy). A display
        // matrix assigned anew is retired to the layer first, so VTK's points stay readable until
        // the next Points update takes the new one (were the assignment or another layer to throw
        // in between, VTK read freed memory). 1 M rows: the buffer is mmap'ed, so a read after
        // its release faults at once instead of passing by luck.
        Dataset d;
        d.featureNames = {"x", "y", "z"};
        d.X = Eigen::MatrixXd::Random(1'000'000, 3);
        Scene s(d);
        PointLayer layer(std::make_shared<float>(1.0f));
        layer.attach(s.scene, s.overlay);
        const ViewContext ctx = s.context();
        layer.update(ctx, ViewLayer::Points | ViewLayer::Colours);
        const auto cloud = [&] { return vtkPolyData::SafeDownCast(layer.points()->GetMapper()->GetInput()); };
        QCOMPARE(cloud()->GetNumberOfPoints(), vtkIdType(1'000'000));
        QCOMPARE(cloud()->GetPoints()->GetData()->GetNumberOfComponents(), 3);
        for (const vtkIdType i : {vtkIdType(0), vtkIdType(123'457), vtkIdType(999'999)}) {
            double x[3];
            cloud()->GetPoint(i, x);
            for (int k = 0; k < 3; ++k)
                QCOMPARE(x[k], (*s.display)(i, k));
        }
        // In place: a value changed in the matrix is the value VTK reads.
        (*s.display)(5, 1) = 42.0;
        QCOMPARE(cloud()->GetPoint(5)[1], 42.0);

        const Eigen::MatrixX3d before = *s.display;
        layer.retire(s.display);
        s.show(std::make_shared<Eigen::MatrixX3d>(Eigen::MatrixX3d::Constant(10, 3, 7.0))); // the old buffer is gone from the view
        double last[3];
        cloud()->GetPoint(999'999, last); // still the retired buffer, not freed memory
        QCOMPARE(last[2], before(999'999, 2));
        layer.update(s.context(), ViewLayer::Points | ViewLayer::Colours);
        QCOMPARE(cloud()->GetNumberOfPoints(), vtkIdType(10));
        QCOMPARE(cloud()->GetPoint(9)[0], 7.0);
    }

    void scoreColoursAreTheTablesColourPerPoint()
    {
        // Colour by score maps the scores through the lookup table in one call: each point's colour
        // must be what the table gives that score alone (vtkLookupTable::GetColor, the per-point
        // path it replaced), on a linear and a log scale, NaN / ±inf / out-of-range scores included.
        Dataset d;
        d.featureNames = {"x", "y"};
        const int n = 40;
        d.X = Eigen::MatrixXd::Random(n, 2);
        FitResult r;
        r.scores.resize(n);
        for (int i = 0; i < n; ++i)
            r.scores(i) = 0.05 * std::pow(1.3, i); // 0.05 … 1.3e3: the top few beyond the 99th percentile
        r.scores(3) = std::numeric_limits<double>::quiet_NaN();
        r.scores(5) = std::numeric_limits<double>::infinity();
        r.scores(7) = -std::numeric_limits<double>::infinity();
        r.scores(9) = -2.0;
        for (bool log : {false, true}) {
            PointColouring c;
            ColourRangeSpec spec;
            spec.log = log;
            c.setRange(spec);
            c.update(d, &r, ColourBy::Score, Eigen::VectorXd(), 0.0, 1.0, 9.0f);
            QCOMPARE(c.scoreTable()->GetScale(), log ? VTK_SCALE_LOG10 : VTK_SCALE_LINEAR);
            vtkUnsignedCharArray* got = c.colours();
            QCOMPARE(got->GetNumberOfTuples(), vtkIdType(n));
            std::set<int> distinct;
            for (int i = 0; i < n; ++i) {
                double rgb[3];
                c.scoreTable()->GetColor(r.scores(i), rgb);
                for (int k = 0; k < 3; ++k)
                    QVERIFY2(long(got->GetTypedComponent(i, k)) == std::lround(255.0 * rgb[k]),
                             qPrintable(QStringLiteral("point %1 channel %2 (log %3)").arg(i).arg(k).arg(log)));
                distinct.insert(got->GetTypedComponent(i, 0) * 65536 + got->GetTypedComponent(i, 1) * 256
                                + got->GetTypedComponent(i, 2));
            }
            QVERIFY(distinct.size() > 10); // a real ramp, not one colour for all
        }
    }

    void legendAndGeometryShowOnlyWhatIsDrawnAndChosen()
    {
        // Issue #19 item 4: the legend stopped at 6 of 29 quadrics, listed GODS "W2" with nothing
        // drawn for it, and 29 surfaces could not be thinned out. Now: chosen quadrics/frames only,
        // frames whose planes cross the grid only, many of them as one line "n of N shown".
        Scene s(square(false));
        auto r = std::make_shared<FitResult>();
        r->scores = Eigen::VectorXd::Zero(4);
        r->outlier = Eigen::VectorXi::Zero(4);
        r->geometry.quadrics.resize(8);
        r->geometry.frames = {{"W1", {Hyperplane{}}}, {"W2", {Hyperplane{}}}};
        s.doc.setResult(r);
        QVERIFY(s.doc.result());
        auto field = std::make_shared<FieldData>();
        field->grid.dims = 2;
        field->grid.lo = Eigen::Vector3d(-2, -2, 0);
        field->grid.hi = Eigen::Vector3d(2, 2, 0);
        field->grid.res = Eigen::Vector3i(21, 21, 1);
        const Eigen::MatrixXd U = field->grid.displayPoints(0, field->grid.count());
        for (int k = 0; k < 8; ++k) // circles of radius 0.2 … 1.6 around the origin: all on the grid
            field->quadricValues.push_back(U.rowwise().squaredNorm().array() - std::pow(0.2 * (k + 1), 2));
        field->planeValues = {U.col(0), U.col(0).array() + 10.0}; // W1: x = 0; W2: x = −10, off the box
        field->planeFrame = {0, 1};
        GeometryChoice choice = GeometryChoice::defaults(8, 2, true); // 6 of 8 quadrics
        ViewContext c = s.context();
        c.field = field;
        c.geometryChoice = &choice;
        LegendAxesLayer legend;
        legend.attach(s.scene, s.overlay);
        legend.update(c, ViewLayer::Points | ViewLayer::Colours | ViewLayer::Field);
        auto has = [&](const std::string& text) {
            const auto& e = legend.legendEntries();
            return std::find(e.begin(), e.end(), text) != e.end();
        };
        QVERIFY(has("W1"));
        QVERIFY(!has("W2")); // nothing drawn for it
        QVERIFY(has("quadrics: 6 of 8 shown (choose: Layers menu)"));
        QVERIFY(!has("quadric 1 (zero set)")); // many: one compact line, no list
        GeometryLayer geometry;
        geometry.attach(s.scene, s.overlay);
        const int before = s.visibleProps();
        geometry.update(c, ViewLayer::Field);
        QCOMPARE(s.visibleProps() - before, 6 + 2); // the chosen quadrics, both plane actors (W2's is empty)
        // Three quadrics chosen, W1 hidden: listed one by one, W1 gone from view and legend.
        choice.quadrics.assign(8, false);
        choice.quadrics[1] = choice.quadrics[4] = true;
        choice.frames[0] = false;
        r->geometry.quadrics.resize(5); // few enough to list (the field keeps 8 values: a live snapshot)
        geometry.update(c, ViewLayer::Visibility);
        QCOMPARE(s.visibleProps() - before, 2 + 1);
        legend.update(c, ViewLayer::Visibility);
        QVERIFY(has("quadric 2 (zero set)"));
        QVERIFY(has("quadric 5 (zero set)"));
        QVERIFY(!has("quadric 1 (zero set)"));
        QVERIFY(has("quadrics: 2 of 5 shown (choose: Layers menu)"));
        QVERIFY(!has("W1"));
        QVERIFY(!has("W2"));
        // The Quadrics layer off: no quadric entries at all.
        c.layerOn[static_cast<int>(LayerSwitch::Quadrics)] = false;
        legend.update(c, ViewLayer::Visibility);
        QVERIFY(!has("quadric 2 (zero set)"));
        QVERIFY(!has("quadrics: 2 of 5 shown (choose: Layers menu)"));
    }

    void pointAndLegendLayersFollowTheContext()
    {
        Scene s(square(false));
        PointLayer points(std::make_shared<float>(1.0f));
        LegendAxesLayer legend;
        points.attach(s.scene, s.overlay);
        legend.attach(s.scene, s.overlay);
        ViewContext c = s.context();
        c.colourBy = ColourBy::Label;
        points.update(c, ViewLayer::Points | ViewLayer::Colours | ViewLayer::TopK | ViewLayer::Selection);
        legend.update(c, ViewLayer::Points | ViewLayer::Colours);
        auto* poly = vtkPolyData::SafeDownCast(points.points()->GetMapper()->GetInput());
        QVERIFY(poly);
        QCOMPARE(poly->GetNumberOfPoints(), vtkIdType(4));
        QVERIFY(!legend.colourBarShown()); // label colours: a legend, no colour bar
        c.colourBy = ColourBy::Custom;
        c.customTitle = "similarity";
        legend.update(c, ViewLayer::Colours);
        QVERIFY(legend.colourBarShown());
    }

    void panelStyleColoursByRankOrDecision()
    {
        // Compare panels (PanelStyle): rank colours are the map at each point's mid-rank among the
        // finite scores (here 3: ranks 1/6, 1/2, 5/6, by hand), whatever the scores' units; an
        // infinite score ranks above all (1) and leaves the table's range finite; the
        // decision display splits points and table at the threshold; leaving the style restores
        // the ordinary score table.
        const Dataset d = square(false);
        FitResult r;
        r.scores.resize(4);
        r.scores << 0.5, 40.0, 3.0, std::numeric_limits<double>::infinity();
        PointColouring c;
        c.setColourMap("viridis");
        PanelStyle style;
        style.rankColours = true;
        c.setPanelStyle(style);
        c.update(d, &r, ColourBy::Score, Eigen::VectorXd(), 0.0, 1.0, 9.0f);
        const auto rgb = c.rgb();
        const double ranks[] = {1.0 / 6.0, 5.0 / 6.0, 0.5, 1.0};
        for (int i = 0; i < 4; ++i)
            QCOMPARE(QColor(rgb[std::size_t(i)]).name(), c.mapColour(ranks[i]).name());
        QVERIFY(std::isfinite(c.scoreScale().lo) && std::isfinite(c.scoreScale().hi));
        QCOMPARE(c.scoreScale().hi, 40.0);
        // The table (the field's colours) agrees with the ranks between the scores: at 20, 2 of
        // the 3 finite scores lie below: rank 2/3.
        double t[3];
        c.scoreTable()->GetColor(20.0, t);
        const QColor mid = c.mapColour(2.0 / 3.0);
        QVERIFY(std::abs(t[0] - mid.redF()) < 0.01 && std::abs(t[1] - mid.greenF()) < 0.01);

        style.decisionOnly = true;
        c.setPanelStyle(style);
        c.setThreshold(3.0); // flagged: 40 and inf (score > threshold)
        c.update(d, &r, ColourBy::Score, Eigen::VectorXd(), 0.0, 1.0, 9.0f);
        const auto dec = c.rgb();
        QCOMPARE(dec[0], PointColouring::inlierPointColour().rgb());
        QCOMPARE(dec[1], PointColouring::outlierPointColour().rgb());
        QCOMPARE(dec[2], PointColouring::inlierPointColour().rgb());
        QCOMPARE(dec[3], PointColouring::outlierPointColour().rgb());
        c.scoreTable()->GetColor(10.0, t);
        QCOMPARE(QColor::fromRgbF(float(t[0]), float(t[1]), float(t[2])).name(), PointColouring::outlierRegionColour().name());
        c.scoreTable()->GetColor(1.0, t);
        QCOMPARE(QColor::fromRgbF(float(t[0]), float(t[1]), float(t[2])).name(), PointColouring::inlierRegionColour().name());

        c.setPanelStyle(PanelStyle{});
        c.update(d, &r, ColourBy::Score, Eigen::VectorXd(), 0.0, 1.0, 9.0f);
        QCOMPARE(c.scoreTable()->GetNumberOfTableValues(), vtkIdType(256));
    }
};

QTEST_MAIN(TestViewLayers)
#include "TestViewLayers.moc"
