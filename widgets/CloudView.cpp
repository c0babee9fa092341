#include "CloudView.h"

#include "DataDocument.h"
#include "pipeline/FitPipeline.h"

#include <QFile>
#include <QToolTip>
#include <QVariantAnimation>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkColorTransferFunction.h>
#include <vtkContourFilter.h>
#include <vtkCubeAxesActor.h>
#include <vtkDoubleArray.h>
#include <vtkFlyingEdges3D.h>
#include <vtkGlyph3DMapper.h>
#include <vtkImageActor.h>
#include <vtkImageData.h>
#include <vtkImageMapToColors.h>
#include <vtkImageMapper3D.h>
#include <vtkLegendBoxActor.h>
#include <vtkLineSource.h>
#include <vtkLookupTable.h>
#include <vtkPlaneSource.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkProperty2D.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkShaderProperty.h>
#include <vtkFloatArray.h>
#include <vtkTextActor.h>
#include <vtkSphereSource.h>
#include <vtkTensorGlyph.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <map>

namespace olens {

namespace {

vtkSmartPointer<vtkPolyData> vertexCloud(const Eigen::MatrixX3d& P)
{
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    vtkNew<vtkPoints> pts;
    pts->SetDataTypeToDouble();
    pts->SetNumberOfPoints(P.rows());
    vtkNew<vtkCellArray> verts;
    verts->AllocateExact(P.rows(), P.rows());
    for (Eigen::Index i = 0; i < P.rows(); ++i) {
        pts->SetPoint(i, P(i, 0), P(i, 1), P(i, 2));
        const vtkIdType id = i;
        verts->InsertNextCell(1, &id);
    }
    poly->SetPoints(pts);
    poly->SetVerts(verts);
    return poly;
}

std::string shaderText(const char* name)
{
    QFile f(QStringLiteral(":/shaders/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("OutlierLens: shader resource %s missing", name);
    return f.readAll().toStdString();
}

void styleText(vtkTextProperty* t, int size)
{
    t->SetColor(0.1, 0.1, 0.1);
    t->SetFontSize(size);
    t->SetFontFamilyToArial();
    t->ShadowOff();
    t->BoldOff();
    t->ItalicOff();
}

// Colour maps as a few control points (perceptually ordered; viridis/magma after matplotlib).
const std::map<QString, std::vector<std::array<double, 3>>>& colourMapStops()
{
    static const std::map<QString, std::vector<std::array<double, 3>>> maps = {
        {"viridis", {{0.267, 0.005, 0.329}, {0.283, 0.141, 0.458}, {0.254, 0.265, 0.530}, {0.207, 0.372, 0.553},
                     {0.164, 0.471, 0.558}, {0.128, 0.567, 0.551}, {0.135, 0.659, 0.518}, {0.267, 0.749, 0.441},
                     {0.478, 0.821, 0.318}, {0.741, 0.873, 0.150}, {0.993, 0.906, 0.144}}},
        {"magma", {{0.001, 0.000, 0.014}, {0.114, 0.065, 0.277}, {0.316, 0.071, 0.485}, {0.513, 0.148, 0.508},
                   {0.716, 0.215, 0.475}, {0.904, 0.318, 0.392}, {0.986, 0.536, 0.382}, {0.996, 0.749, 0.533},
                   {0.987, 0.991, 0.750}}},
        {"coolwarm", {{0.230, 0.299, 0.754}, {0.552, 0.690, 0.996}, {0.866, 0.866, 0.866}, {0.958, 0.604, 0.482},
                      {0.706, 0.016, 0.150}}},
        {"greys", {{0.95, 0.95, 0.95}, {0.05, 0.05, 0.05}}},
    };
    return maps;
}

vtkSmartPointer<vtkImageData> makeImage(const GridSpec& g, const Eigen::VectorXd& values, double zOffset)
{
    auto img = vtkSmartPointer<vtkImageData>::New();
    img->SetDimensions(g.res[0], g.res[1], g.res[2]);
    img->SetOrigin(g.lo[0], g.lo[1], g.dims == 2 ? zOffset : g.lo[2]);
    img->SetSpacing(g.spacing(0), g.spacing(1), g.dims == 2 ? 1.0 : g.spacing(2));
    vtkNew<vtkDoubleArray> a;
    a->SetName("value");
    a->SetNumberOfTuples(values.size());
    for (Eigen::Index i = 0; i < values.size(); ++i)
        a->SetValue(i, values(i));
    img->GetPointData()->SetScalars(a);
    return img;
}

vtkSmartPointer<vtkPolyData> contourOf(vtkImageData* img, const std::vector<double>& levels, bool surface)
{
    auto out = vtkSmartPointer<vtkPolyData>::New();
    if (surface) {
        vtkNew<vtkFlyingEdges3D> fe;
        fe->SetInputData(img);
        fe->SetNumberOfContours(static_cast<int>(levels.size()));
        for (std::size_t i = 0; i < levels.size(); ++i)
            fe->SetValue(static_cast<int>(i), levels[i]);
        fe->ComputeNormalsOn();
        fe->Update();
        out->DeepCopy(fe->GetOutput());
    } else {
        vtkNew<vtkContourFilter> cf;
        cf->SetInputData(img);
        cf->SetNumberOfContours(static_cast<int>(levels.size()));
        for (std::size_t i = 0; i < levels.size(); ++i)
            cf->SetValue(static_cast<int>(i), levels[i]);
        cf->Update();
        out->DeepCopy(cf->GetOutput());
    }
    return out;
}

vtkSmartPointer<vtkActor> polyActor(vtkPolyData* poly, const QColor& c, double width, double opacity)
{
    vtkNew<vtkPolyDataMapper> m;
    m->SetInputData(poly);
    m->ScalarVisibilityOff();
    auto a = vtkSmartPointer<vtkActor>::New();
    a->SetMapper(m);
    a->GetProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
    a->GetProperty()->SetLineWidth(static_cast<float>(width));
    a->GetProperty()->SetOpacity(opacity);
    a->PickableOff();
    return a;
}

} // namespace

// The result layers: rebuilt when a field arrives or the threshold moves.
struct CloudView::Layers {
    vtkSmartPointer<vtkImageData> scoreImage;
    vtkNew<vtkImageMapToColors> imageColours;
    vtkNew<vtkImageActor> image;
    vtkSmartPointer<vtkActor> contours;   // quantile levels, thin grey
    vtkSmartPointer<vtkActor> threshold;  // decision threshold, emphasised
    vtkSmartPointer<vtkPolyData> thresholdPoly;
    std::vector<vtkSmartPointer<vtkActor>> quadrics, planes, flats;
    // Uncertainty: one tensor glyph per point (translucent fill + outline in 2D, ellipsoid in 3D).
    vtkNew<vtkPolyData> glyphs;
    vtkNew<vtkActor> glyphFill;
    vtkNew<vtkActor> glyphOutline;
    vtkIdType glyphSourcePoints = 0, glyphSourceCells = 0;
    vtkNew<vtkLookupTable> customLut; // the colour map over the custom scalars' range
};

CloudView::CloudView(DataDocument* document, QWidget* parent)
    : VtkView(parent), m_doc(document), m_layers(std::make_unique<Layers>())
{
    m_layerOn.fill(true);

    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(m_poly);
    mapper->SetScalarModeToUsePointData();
    mapper->SetColorModeToDirectScalars();
    m_points->SetMapper(mapper);
    m_points->GetProperty()->SetRepresentationToPoints();
    m_points->GetProperty()->SetPointSize(9);
    m_points->GetProperty()->LightingOff();
    // Round anti-aliased sprites with an outline, sized per point (shaders/points.*.glsl).
    mapper->MapDataArrayToVertexAttribute("olensPointSize", "olensPointSize", vtkDataObject::FIELD_ASSOCIATION_POINTS, -1);
    vtkShaderProperty* sp = m_points->GetShaderProperty();
    sp->AddVertexShaderReplacement("//VTK::PositionVC::Dec", true, shaderText("points.vert.dec.glsl"), false);
    sp->AddVertexShaderReplacement("//VTK::PositionVC::Impl", true, shaderText("points.vert.impl.glsl"), false);
    sp->AddFragmentShaderReplacement("//VTK::Light::Impl", true, shaderText("points.frag.impl.glsl"), false);

    vtkNew<vtkPolyDataMapper> selMapper;
    selMapper->SetInputData(m_selPoly);
    selMapper->ScalarVisibilityOff();
    m_selection->SetMapper(selMapper);
    m_selection->GetProperty()->SetRepresentationToPoints();
    m_selection->GetProperty()->RenderPointsAsSpheresOn();
    m_selection->GetProperty()->SetPointSize(17);
    m_selection->GetProperty()->SetColor(1.0, 0.75, 0.0);
    m_selection->PickableOff();
    m_selection->VisibilityOff();

    // Top-k: a ring glyph around each highlighted point.
    vtkNew<vtkRegularPolygonSource> ring;
    ring->SetNumberOfSides(32);
    ring->GeneratePolygonOff();
    ring->GeneratePolylineOn();
    vtkNew<vtkGlyph3DMapper> ringMapper;
    ringMapper->SetInputData(m_topPoly);
    ringMapper->SetSourceConnection(ring->GetOutputPort());
    ringMapper->ScalingOff();
    ringMapper->ScalarVisibilityOff();
    m_top->SetMapper(ringMapper);
    m_top->GetProperty()->SetColor(0.55, 0.0, 0.0);
    m_top->GetProperty()->SetLineWidth(2.5f);
    m_top->GetProperty()->LightingOff();
    m_top->PickableOff();
    m_top->VisibilityOff();

    m_axes->SetCamera(renderer()->GetActiveCamera());
    m_axes->SetGridLineLocation(vtkCubeAxesActor::VTK_GRID_LINES_FURTHEST);
    m_axes->SetFlyModeToOuterEdges();
    m_axes->SetScreenSize(11.0);
    m_axes->SetLabelOffset(12.0);
    m_axes->SetTitleOffset(14.0);
    for (int i = 0; i < 3; ++i) {
        m_axes->GetTitleTextProperty(i)->SetColor(0.15, 0.15, 0.15);
        m_axes->GetLabelTextProperty(i)->SetColor(0.15, 0.15, 0.15);
    }
    m_axes->GetXAxesLinesProperty()->SetColor(0.3, 0.3, 0.3);
    m_axes->GetYAxesLinesProperty()->SetColor(0.3, 0.3, 0.3);
    m_axes->GetZAxesLinesProperty()->SetColor(0.3, 0.3, 0.3);
    m_axes->PickableOff();

    m_legend->SetNumberOfEntries(0);
    m_legend->BorderOn();
    m_legend->BoxOn();
    m_legend->GetBoxProperty()->SetColor(1, 1, 1);
    m_legend->SetBackgroundColor(1, 1, 1);
    m_legend->SetBackgroundOpacity(0.85);
    m_legend->UseBackgroundOn();
    m_legend->GetEntryTextProperty()->SetColor(0.1, 0.1, 0.1);
    m_legend->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_legend->GetPosition2Coordinate()->SetCoordinateSystemToNormalizedViewport();
    m_legend->PickableOff();

    m_lut->SetNumberOfTableValues(256);
    setColourMap(m_colourMap);
    m_scalarBar->SetLookupTable(m_lut);
    m_scalarBar->SetTitle("outlier score");
    m_scalarBar->SetNumberOfLabels(5);
    m_scalarBar->SetLabelFormat("%-#.3g");
    m_scalarBar->SetOrientationToVertical();
    m_scalarBar->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_scalarBar->GetPositionCoordinate()->SetValue(0.885, 0.08);
    m_scalarBar->SetWidth(0.1);
    m_scalarBar->SetHeight(0.6);
    m_scalarBar->SetMaximumWidthInPixels(70);
    styleText(m_scalarBar->GetTitleTextProperty(), 13);
    styleText(m_scalarBar->GetLabelTextProperty(), 11);
    m_scalarBar->UnconstrainedFontSizeOn();
    m_scalarBar->VisibilityOff();

    styleText(m_noteActor->GetTextProperty(), 13);
    m_noteActor->SetDisplayPosition(10, 10);
    styleText(m_gridActor->GetTextProperty(), 11);
    m_gridActor->GetTextProperty()->SetColor(0.35, 0.35, 0.35);
    m_gridActor->SetDisplayPosition(10, 28);

    // A 1-pixel placeholder keeps the image pipeline valid before the first field arrives.
    {
        auto placeholder = vtkSmartPointer<vtkImageData>::New();
        placeholder->SetDimensions(1, 1, 1);
        placeholder->AllocateScalars(VTK_DOUBLE, 1);
        placeholder->GetPointData()->GetScalars()->SetComponent(0, 0, 0.0);
        m_layers->imageColours->SetInputData(placeholder);
    }
    m_layers->imageColours->SetLookupTable(m_lut);
    m_layers->imageColours->SetOutputFormatToRGB();
    m_layers->image->SetOpacity(0.4);
    m_layers->image->PickableOff();
    m_layers->image->VisibilityOff();
    m_layers->image->GetMapper()->SetInputConnection(m_layers->imageColours->GetOutputPort());

    for (vtkActor* a : {m_layers->glyphFill.Get(), m_layers->glyphOutline.Get()}) {
        vtkNew<vtkPolyDataMapper> gm;
        gm->SetInputData(m_layers->glyphs);
        gm->SetScalarModeToUsePointData();
        gm->SetColorModeToDirectScalars();
        a->SetMapper(gm);
        a->PickableOff();
        a->VisibilityOff();
    }
    m_layers->glyphOutline->GetProperty()->SetRepresentationToWireframe();
    m_layers->glyphOutline->GetProperty()->SetLineWidth(1.2f);
    m_layers->glyphOutline->GetProperty()->SetOpacity(0.8);
    m_layers->glyphOutline->GetProperty()->LightingOff();
    m_layers->customLut->SetNumberOfTableValues(256);

    renderer()->AddActor(m_layers->image);
    renderer()->AddActor(m_layers->glyphFill);
    renderer()->AddActor(m_layers->glyphOutline);
    renderer()->AddActor(m_points);
    renderer()->AddActor(m_top);
    renderer()->AddActor(m_selection);
    renderer()->AddActor(m_axes);
    overlayRenderer()->AddActor2D(m_legend);
    overlayRenderer()->AddActor2D(m_scalarBar);
    overlayRenderer()->AddActor2D(m_noteActor);
    overlayRenderer()->AddActor2D(m_gridActor);
    setPickTarget(m_points);

    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        if (m_doc->changeIsEdit()) {
            rebuild(true); // an edit: same projection and camera
            return;
        }
        m_userProjection = false;
        rebuild();
    });
    connect(m_doc, &DataDocument::resultChanged, this, [this] {
        if (m_showReconstruction)
            refreshPositions();
        recolour();
        updateTopK();
        requestField();
    });
    connect(m_doc, &DataDocument::thresholdChanged, this, [this] { updateThreshold(); });
    connect(m_doc, &DataDocument::topKChanged, this, [this] { updateTopK(); });
    connect(m_doc, &DataDocument::liveGeometryChanged, this, [this] {
        if (m_doc->liveGeometry())
            requestField();
    });
    connect(m_doc, &DataDocument::selectionChanged, this, &CloudView::showSelection);
    connect(this, &VtkView::pointPicked, m_doc, &DataDocument::setSelectedPoint);
    connect(this, &VtkView::pointHovered, this, &CloudView::onHover);
    connect(&m_fields, &FieldComputer::ready, this, &CloudView::onField);
    rebuild();
}

CloudView::~CloudView() = default;

QColor CloudView::colourFor(double label)
{
    if (std::isnan(label))
        return QColor(40, 110, 180); // unlabelled: one calm blue
    if (label == 0.0)
        return QColor(70, 130, 180);  // inlier
    if (label == 1.0)
        return QColor(220, 50, 40);   // outlier
    return componentColour(static_cast<int>(std::lround(std::fabs(label))));
}

QColor CloudView::componentColour(int k)
{
    // A qualitative palette (Tableau-like), cycling.
    static const QColor palette[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {148, 103, 189},
                                     {140, 86, 75}, {227, 119, 194}, {188, 189, 34}, {23, 190, 207},
                                     {214, 39, 40}, {127, 127, 127}};
    return palette[((k % 10) + 10) % 10];
}

QStringList CloudView::colourMaps()
{
    QStringList names;
    for (const auto& [name, stops] : colourMapStops())
        names << name;
    return names;
}

void CloudView::setColourMap(const QString& name)
{
    const auto& maps = colourMapStops();
    const auto it = maps.find(name);
    if (it == maps.end())
        return;
    m_colourMap = name;
    vtkNew<vtkColorTransferFunction> ctf;
    const auto& stops = it->second;
    for (std::size_t i = 0; i < stops.size(); ++i)
        ctf->AddRGBPoint(double(i) / double(stops.size() - 1), stops[i][0], stops[i][1], stops[i][2]);
    for (int i = 0; i < 256; ++i) {
        double rgb[3];
        ctf->GetColor(i / 255.0, rgb);
        m_lut->SetTableValue(i, rgb[0], rgb[1], rgb[2], 1.0);
    }
    m_lut->Modified();
    recolour();
}

void CloudView::setPointSize(double pixels)
{
    m_pointSize = static_cast<float>(pixels);
    m_points->GetProperty()->SetPointSize(m_pointSize);
    recolour();
}

bool CloudView::twoD() const
{
    return m_projection.displayDims() <= 2;
}

void CloudView::setProjection(const Projection& projection)
{
    m_projection = projection;
    m_userProjection = true;
    rebuild();
}

CloudView::ColourBy CloudView::effectiveColourBy() const
{
    if (hasCustomScalars())
        return ColourBy::Custom;
    if (m_colourBy != ColourBy::Auto)
        return m_colourBy;
    const auto r = m_doc->result();
    // Clustering methods (ACDT) are read by their clusters; other detectors by their scores.
    if (r && static_cast<Eigen::Index>(r->geometry.clusterOfPoint.size()) == m_doc->dataset().rows())
        return ColourBy::Cluster;
    if (r)
        return ColourBy::Score;
    return ColourBy::Label;
}

void CloudView::setColourBy(ColourBy c)
{
    m_colourBy = c;
    recolour();
}

void CloudView::rebuild(bool keepCamera)
{
    const CameraState camera = cameraState(); // before anything (legend, viewport) can move it
    const Dataset& d = m_doc->dataset();
    const Eigen::Index n = d.rows();
    if ((!m_userProjection && !keepCamera) || m_projection.origin.size() != d.cols())
        m_projection = n > 0 ? Projection::automatic(d.X, d.featureNames) : Projection{};
    m_userProjection = m_userProjection && m_projection.origin.size() == d.cols();
    m_display = n > 0 ? m_projection.toDisplay(d.X) : Eigen::MatrixX3d(0, 3);
    if (m_showReconstruction && n > 0)
        if (const auto r = m_doc->result()) {
            const Eigen::MatrixXd R = reconstructedRows(*r, d.X);
            if (R.rows() == n)
                m_display = m_projection.toDisplay(R);
        }

    m_poly->DeepCopy(vertexCloud(m_display));
    recolour();
    buildUncertainty();

    double bounds[6] = {0, 1, 0, 1, 0, 0};
    if (n > 0)
        for (int j = 0; j < 3; ++j) {
            bounds[2 * j] = m_display.col(j).minCoeff();
            bounds[2 * j + 1] = m_display.col(j).maxCoeff();
        }
    const bool flat = twoD();
    std::array<std::string, 3> titles = {"x", "y", "z"};
    for (std::size_t j = 0; j < m_projection.axisNames.size() && j < 3; ++j)
        titles[j] = m_projection.axisNames[j];
    m_axes->SetBounds(bounds);
    m_axes->SetXTitle(titles[0].c_str());
    m_axes->SetYTitle(m_projection.displayDims() >= 2 ? titles[1].c_str() : "");
    m_axes->SetZTitle(titles[2].c_str());
    m_axes->SetYAxisVisibility(m_projection.displayDims() >= 2);
    m_axes->SetZAxisVisibility(!flat);
    m_axes->SetDrawZGridlines(false);
    // 2D: one x and one y axis with screen-aligned labels; 3D: the outer edges of the data box.
    m_axes->SetUse2DMode(flat ? 1 : 0);
    m_axes->SetFlyMode(flat ? vtkCubeAxesActor::VTK_FLY_CLOSEST_TRIAD : vtkCubeAxesActor::VTK_FLY_OUTER_EDGES);
    m_axes->SetVisibility(n > 0);

    m_noteActor->SetInput(m_projection.note.c_str());
    m_noteActor->SetVisibility(!m_projection.note.empty());

    setMode(flat ? Mode::View2D : Mode::View3D);
    if (!flat) {
        vtkCamera* cam = renderer()->GetActiveCamera();
        cam->SetFocalPoint(0, 0, 0);
        cam->SetPosition(1.0, -1.6, 1.1);
        cam->SetViewUp(0, 0, 1);
    }
    if (!keepCamera)
        m_field.reset(); // an edit keeps the contours until the new field arrives
    drawField();
    drawFlats();
    updateTopK();
    showSelection(m_doc->selectedPoint());
    if (keepCamera && n > 0)
        setCameraState(camera);
    else
        resetCamera();
    requestField();
    emit gridChanged(gridDescription());
}

void CloudView::setShowReconstruction(bool on)
{
    m_showReconstruction = on;
    refreshPositions();
}

bool CloudView::hasReconstruction() const
{
    const auto r = m_doc->result();
    // A yes/no question answered from the capability, without computing the reconstruction.
    return r && r->detector && r->detector->reconstruction() && m_doc->dataset().rows() > 0;
}

void CloudView::refreshPositions()
{
    // Points move (data ↔ reconstruction) without touching the camera or the fields.
    const Dataset& d = m_doc->dataset();
    const Eigen::Index n = d.rows();
    if (n == 0)
        return;
    Eigen::MatrixXd X = d.X;
    if (m_showReconstruction)
        if (const auto r = m_doc->result()) {
            Eigen::MatrixXd R = reconstructedRows(*r, d.X);
            if (R.rows() == n)
                X = std::move(R);
        }
    m_display = m_projection.toDisplay(X);
    vtkPoints* pts = m_poly->GetPoints();
    for (Eigen::Index i = 0; i < n; ++i)
        pts->SetPoint(i, m_display(i, 0), m_display(i, 1), m_display(i, 2));
    pts->Modified();
    m_poly->Modified();
    buildUncertainty();
    updateTopK();
    showSelection(m_doc->selectedPoint());
}

void CloudView::recolour()
{
    const Dataset& d = m_doc->dataset();
    const Eigen::Index n = d.rows();
    const auto result = m_doc->result();
    const ColourBy by = effectiveColourBy();
    if (result && result->scores.size() == n && n > 0) {
        const Eigen::VectorXd& s = result->scores;
        std::vector<double> sorted(s.data(), s.data() + n);
        std::sort(sorted.begin(), sorted.end());
        m_scoreLo = sorted.front();
        m_scoreHi = sorted[static_cast<std::size_t>(0.99 * double(n - 1))];
        if (!(m_scoreHi > m_scoreLo))
            m_scoreHi = sorted.back() > m_scoreLo ? sorted.back() : m_scoreLo + 1.0;
    }
    m_lut->SetTableRange(m_scoreLo, m_scoreHi);
    m_lut->Build();
    vtkLookupTable* customLut = m_layers->customLut;
    if (by == ColourBy::Custom) {
        for (int k = 0; k < 256; ++k)
            customLut->SetTableValue(k, m_lut->GetTableValue(k));
        customLut->SetTableRange(m_customLo, m_customHi);
        customLut->Modified();
    }

    vtkNew<vtkUnsignedCharArray> colours;
    colours->SetName("colours");
    colours->SetNumberOfComponents(3);
    colours->SetNumberOfTuples(n);
    const auto& clusters = result ? result->geometry.clusterOfPoint : std::vector<int>{};
    for (Eigen::Index i = 0; i < n; ++i) {
        QColor c;
        if (by == ColourBy::Custom) {
            double rgb[3];
            customLut->GetColor(std::isfinite(m_custom(i)) ? m_custom(i) : m_customLo, rgb);
            c = QColor::fromRgbF(float(rgb[0]), float(rgb[1]), float(rgb[2]));
        } else if (by == ColourBy::Score && result && result->scores.size() == n) {
            double rgb[3];
            m_lut->GetColor(result->scores(i), rgb);
            c = QColor::fromRgbF(float(rgb[0]), float(rgb[1]), float(rgb[2]));
        } else if (by == ColourBy::Cluster && static_cast<Eigen::Index>(clusters.size()) == n) {
            c = componentColour(clusters[static_cast<std::size_t>(i)]);
        } else {
            c = colourFor(d.hasLabels() ? d.labels(i) : std::numeric_limits<double>::quiet_NaN());
        }
        const unsigned char rgb[3] = {static_cast<unsigned char>(c.red()), static_cast<unsigned char>(c.green()),
                                      static_cast<unsigned char>(c.blue())};
        colours->SetTypedTuple(i, rgb);
    }
    m_poly->GetPointData()->SetScalars(colours);
    // Sprite size: the base size, grown with the score (up to 1.8×) when colouring by score.
    vtkNew<vtkFloatArray> sizes;
    sizes->SetName("olensPointSize");
    sizes->SetNumberOfTuples(n);
    const float base = m_pointSize * float(devicePixelRatioF());
    for (Eigen::Index i = 0; i < n; ++i) {
        float s = base;
        if (by == ColourBy::Score && result && result->scores.size() == n) {
            const double t = std::clamp((result->scores(i) - m_scoreLo) / (m_scoreHi - m_scoreLo), 0.0, 1.0);
            s = base * float(0.8 + t);
        }
        sizes->SetValue(i, s);
    }
    m_poly->GetPointData()->AddArray(sizes);
    m_poly->Modified();
    m_layers->imageColours->Modified();
    colourUncertainty();
    updateLegend();
    update();
}

void CloudView::updateLegend()
{
    const Dataset& d = m_doc->dataset();
    const Eigen::Index n = d.rows();
    const auto result = m_doc->result();
    const ColourBy by = effectiveColourBy();
    const bool customMode = by == ColourBy::Custom;
    const bool scoreMode = (by == ColourBy::Score && result) || customMode; // a scalar bar, no label legend
    m_scalarBar->SetVisibility(scoreMode);
    m_scalarBar->SetLookupTable(customMode ? m_layers->customLut.Get() : m_lut.Get());
    m_scalarBar->SetTitle(customMode ? m_customTitle.toUtf8().constData() : "outlier score");
    // Leave the colour bar its own strip on the right.
    setSceneViewport(0.0, 0.0, scoreMode ? 0.87 : 1.0, 1.0);

    vtkNew<vtkRegularPolygonSource> disk;
    disk->SetNumberOfSides(24);
    disk->SetRadius(0.5);
    disk->Update();
    std::vector<std::pair<QString, QColor>> entries;
    if (by == ColourBy::Cluster && result && !result->geometry.clusterOfPoint.empty()) {
        std::map<int, long> counts;
        for (int c : result->geometry.clusterOfPoint)
            ++counts[c];
        for (const auto& [c, cnt] : counts) {
            if (entries.size() >= 12)
                break;
            entries.emplace_back(tr("cluster %1 (%2)").arg(c).arg(cnt), componentColour(c));
        }
    } else if (!scoreMode && d.hasLabels()) {
        std::map<double, long> counts;
        for (Eigen::Index i = 0; i < n; ++i)
            ++counts[d.labels(i)];
        const bool binary = std::all_of(counts.begin(), counts.end(),
                                        [](const auto& kv) { return kv.first == 0.0 || kv.first == 1.0; });
        for (const auto& [lab, cnt] : counts) {
            if (entries.size() >= 12)
                break;
            QString text;
            if (binary)
                text = lab == 1.0 ? tr("outlier (%1)").arg(cnt) : tr("inlier (%1)").arg(cnt);
            else {
                const auto k = static_cast<std::size_t>(lab);
                const QString name = (lab >= 0 && lab == std::floor(lab) && k < d.labelNames.size())
                    ? QString::fromStdString(d.labelNames[k])
                    : QString::number(lab);
                text = QString::fromStdString(d.labelName) + " " + name + QStringLiteral(" (%1)").arg(cnt);
            }
            entries.emplace_back(text, colourFor(lab));
        }
    } else if (!scoreMode && n > 0) {
        entries.emplace_back(tr("points (%1)").arg(n), colourFor(std::numeric_limits<double>::quiet_NaN()));
    }
    if (m_layers->glyphFill->GetVisibility())
        entries.emplace_back(tr("uncertainty, %1 sigma (%2)").arg(m_sigmaScale, 0, 'g', 3)
                                 .arg(twoD() ? tr("ellipses") : tr("ellipsoids")), QColor(130, 130, 130));
    if (result) {
        const Geometry& g = result->geometry;
        for (std::size_t k = 0; k < g.quadrics.size() && k < 6; ++k)
            entries.emplace_back(tr("quadric %1 (zero set)").arg(k + 1), componentColour(static_cast<int>(k)));
        for (std::size_t f = 0; f < g.frames.size() && f < 4; ++f)
            entries.emplace_back(QString::fromStdString(g.frames[f].name.empty() ? "frame " + std::to_string(f + 1) : g.frames[f].name),
                                 componentColour(static_cast<int>(f)));
        if (!g.flats.empty() && by != ColourBy::Cluster)
            entries.emplace_back(tr("flat%1 over the data extent").arg(g.flats.size() > 1 ? "s" : ""), componentColour(g.flats.front().cluster < 0 ? 0 : g.flats.front().cluster));
        if (m_doc->topK() > 0)
            entries.emplace_back(tr("top %1 by score (ring)").arg(m_doc->topK()), QColor(140, 0, 0));
        entries.emplace_back(twoD() ? tr("threshold contour") : tr("threshold iso-surface"), QColor(20, 20, 20));
    }
    m_legend->SetNumberOfEntries(static_cast<int>(entries.size()));
    for (std::size_t e = 0; e < entries.size(); ++e) {
        double rgb[3] = {entries[e].second.redF(), entries[e].second.greenF(), entries[e].second.blueF()};
        m_legend->SetEntry(static_cast<int>(e), disk->GetOutput(), entries[e].first.toUtf8().constData(), rgb);
    }
    const double h = std::min(0.5, 0.045 * double(std::max<std::size_t>(1, entries.size())));
    const double x = scoreMode ? 0.62 : 0.76;
    m_legend->GetPositionCoordinate()->SetValue(x, 0.97 - h);
    m_legend->GetPosition2Coordinate()->SetValue(0.23, h);
    m_legend->SetVisibility(!entries.empty());
}

void CloudView::updateTopK()
{
    const int k = std::min<int>(m_doc->topK(), static_cast<int>(m_doc->ranking().size()));
    Eigen::MatrixX3d P(k, 3);
    for (int r = 0; r < k; ++r)
        P.row(r) = m_display.row(m_doc->ranking()[static_cast<std::size_t>(r)]);
    m_topPoly->DeepCopy(vertexCloud(P));
    // Ring radius: a small fraction of the data box.
    double diag = 1.0;
    if (m_display.rows() > 0)
        diag = std::max(1e-12, (m_display.colwise().maxCoeff() - m_display.colwise().minCoeff()).norm());
    if (auto* gm = vtkGlyph3DMapper::SafeDownCast(m_top->GetMapper())) {
        gm->SetScaleFactor(1.0);
        m_top->SetScale(1.0);
    }
    m_top->GetProperty()->SetLineWidth(2.5f);
    vtkNew<vtkRegularPolygonSource> ring;
    ring->SetNumberOfSides(32);
    ring->SetRadius(0.025 * diag);
    ring->GeneratePolygonOff();
    ring->GeneratePolylineOn();
    static_cast<vtkGlyph3DMapper*>(m_top->GetMapper())->SetSourceConnection(ring->GetOutputPort());
    m_top->SetVisibility(k > 0);
    updateLegend();
    update();
}

void CloudView::showSelection(int index)
{
    if (index < 0 || index >= m_display.rows()) {
        m_selection->VisibilityOff();
    } else {
        Eigen::MatrixX3d one = m_display.row(index);
        m_selPoly->DeepCopy(vertexCloud(one));
        m_selection->VisibilityOn();
    }
    update();
}

void CloudView::flyTo(int index)
{
    if (index < 0 || index >= m_display.rows())
        return;
    vtkCamera* cam = renderer()->GetActiveCamera();
    double f0[3], p0[3];
    cam->GetFocalPoint(f0);
    cam->GetPosition(p0);
    const Eigen::Vector3d from(f0[0], f0[1], f0[2]);
    Eigen::Vector3d to = m_display.row(index).transpose();
    if (twoD())
        to.z() = from.z();
    auto* anim = new QVariantAnimation(this);
    anim->setDuration(350);
    anim->setStartValue(0.0);
    anim->setEndValue(1.0);
    anim->setEasingCurve(QEasingCurve::InOutCubic);
    connect(anim, &QVariantAnimation::valueChanged, this, [=](const QVariant& v) {
        const double t = v.toDouble();
        const Eigen::Vector3d f = from + t * (to - from);
        const Eigen::Vector3d shift = f - from;
        cam->SetFocalPoint(f.x(), f.y(), f.z());
        cam->SetPosition(p0[0] + shift.x(), p0[1] + shift.y(), p0[2] + shift.z());
        renderer()->ResetCameraClippingRange();
        update();
    });
    anim->start(QAbstractAnimation::DeleteWhenStopped);
}

GridSpec CloudView::gridSpec() const
{
    GridSpec g;
    g.dims = twoD() ? 2 : 3;
    if (m_display.rows() == 0)
        return g;
    Eigen::Vector3d lo = m_display.colwise().minCoeff().transpose();
    Eigen::Vector3d hi = m_display.colwise().maxCoeff().transpose();
    const Eigen::Vector3d size = (hi - lo).cwiseMax(1e-9);
    const double biggest = size.maxCoeff();
    for (int a = 0; a < 3; ++a) {
        // A degenerate axis (e.g. p = 1: y is flat) still gets a visible band.
        const double s = size[a] < 1e-6 * biggest ? biggest * 0.2 : size[a];
        lo[a] -= m_margin * s;
        hi[a] += m_margin * s;
    }
    g.lo = lo;
    g.hi = hi;
    if (g.dims == 2) {
        g.lo[2] = g.hi[2] = 0.0;
        g.res = Eigen::Vector3i(m_res2d, m_res2d, 1);
    } else {
        g.res = Eigen::Vector3i(m_res3d, m_res3d, m_res3d);
    }
    return g;
}

QString CloudView::gridDescription() const
{
    const GridSpec g = gridSpec();
    QString s = tr("grid %1").arg(g.dims == 2 ? QStringLiteral("%1×%1").arg(g.res[0])
                                              : QStringLiteral("%1×%1×%1").arg(g.res[0]));
    const char* axes[] = {"x", "y", "z"};
    for (int a = 0; a < g.dims; ++a)
        s += QStringLiteral("  %1∈[%2, %3]").arg(axes[a]).arg(g.lo[a], 0, 'g', 3).arg(g.hi[a], 0, 'g', 3);
    return s;
}

void CloudView::setGridResolution2D(int n)
{
    m_res2d = std::clamp(n, 8, 1024);
    emit gridChanged(gridDescription());
    requestField();
}

void CloudView::setGridResolution3D(int n)
{
    m_res3d = std::clamp(n, 8, 128);
    emit gridChanged(gridDescription());
    requestField();
}

void CloudView::setGridMargin(double fraction)
{
    m_margin = std::clamp(fraction, 0.0, 2.0);
    emit gridChanged(gridDescription());
    requestField();
}

void CloudView::setFieldComponent(int k)
{
    if (k == m_fieldComponent)
        return;
    m_fieldComponent = k;
    requestField();
}

void CloudView::requestField()
{
    const auto result = m_doc->result();
    const auto live = m_doc->liveGeometry();
    const auto liveNorm = m_doc->liveNormalizer();
    if (m_display.rows() == 0 || (!result && !(live && liveNorm))) {
        m_field.reset();
        drawField();
        drawFlats();
        return;
    }
    FieldRequest req;
    if (live && liveNorm) {
        req.normalizer = *liveNorm;
        req.geometry = *live;
    } else {
        req.detector = result->detector;
        req.normalizer = result->normalizer;
        req.geometry = result->geometry;
        if (m_fieldComponent >= 0 && result->detector &&
            m_fieldComponent < static_cast<int>(result->detector->scoreComponents().size()))
            req.component = m_fieldComponent;
    }
    req.geometry.flats.clear(); // drawn directly, not sampled
    req.projection = m_projection;
    req.grid = gridSpec();
    if (req.grid.dims == 3 && !req.detector && req.geometry.quadrics.empty() && req.geometry.frames.empty()) {
        drawFlats();
        return;
    }
    m_fields.request(std::move(req));
    drawFlats();
}

void CloudView::onField(std::shared_ptr<const FieldData> field)
{
    m_field = std::move(field);
    drawField();
    emit fieldUpdated();
}

void CloudView::drawField()
{
    Layers& L = *m_layers;
    auto removeAll = [this](std::vector<vtkSmartPointer<vtkActor>>& actors) {
        for (auto& a : actors)
            renderer()->RemoveActor(a);
        actors.clear();
    };
    removeAll(L.quadrics);
    removeAll(L.planes);
    if (L.contours)
        renderer()->RemoveActor(L.contours);
    if (L.threshold)
        renderer()->RemoveActor(L.threshold);
    L.contours = nullptr;
    L.threshold = nullptr;
    L.thresholdPoly = nullptr;
    L.scoreImage = nullptr;
    L.image->VisibilityOff();

    const auto& f = m_field;
    if (!f) {
        m_gridActor->SetVisibility(false);
        update();
        return;
    }
    const GridSpec& g = f->grid;
    const bool flat = g.dims == 2;
    const double diag = (g.hi - g.lo).norm();
    const double below = -2e-3 * diag;

    if (f->score.size() == g.count()) {
        L.scoreImage = makeImage(g, f->score, below);
        if (flat) {
            L.imageColours->SetInputData(L.scoreImage);
            L.imageColours->Update();
            L.image->SetVisibility(m_layerOn[int(Layer::ScoreImage)]);
            // Quantile contour levels of the training scores, thin and grey.
            const auto result = m_doc->result();
            if (result) {
                std::vector<double> s(result->scores.data(), result->scores.data() + result->scores.size());
                std::sort(s.begin(), s.end());
                std::vector<double> levels;
                for (double q : {0.25, 0.5, 0.75, 0.9})
                    levels.push_back(s[static_cast<std::size_t>(q * double(s.size() - 1))]);
                auto poly = contourOf(L.scoreImage, levels, false);
                L.contours = polyActor(poly, QColor(90, 90, 90), 1.0, 0.8);
                L.contours->SetPosition(0, 0, -below * 0.5);
                renderer()->AddActor(L.contours);
            }
        }
        updateThreshold();
    }
    // Quadric zero sets (quadrics paper eq. 3): curves in 2D, translucent surfaces in 3D.
    for (std::size_t k = 0; k < f->quadricValues.size(); ++k) {
        auto img = makeImage(g, f->quadricValues[k], 0.0);
        auto poly = contourOf(img, {0.0}, !flat);
        auto a = polyActor(poly, componentColour(static_cast<int>(k)), flat ? 2.5 : 1.0, flat ? 1.0 : 0.45);
        renderer()->AddActor(a);
        L.quadrics.push_back(a);
    }
    // Hyperplanes wᵀx + b = 0, clipped to the grid box by construction, coloured by frame.
    for (std::size_t h = 0; h < f->planeValues.size(); ++h) {
        auto img = makeImage(g, f->planeValues[h], 0.0);
        auto poly = contourOf(img, {0.0}, !flat);
        auto a = polyActor(poly, componentColour(f->planeFrame[h]), flat ? 2.5 : 1.0, flat ? 1.0 : 0.4);
        renderer()->AddActor(a);
        L.planes.push_back(a);
    }
    m_gridActor->SetInput(gridDescription().toUtf8().constData());
    m_gridActor->SetVisibility(true);
    applyLayerVisibility();
}

void CloudView::updateThreshold()
{
    Layers& L = *m_layers;
    if (L.threshold)
        renderer()->RemoveActor(L.threshold);
    L.threshold = nullptr;
    L.thresholdPoly = nullptr;
    if (!L.scoreImage || !m_field) {
        update();
        return;
    }
    const bool flat = m_field->grid.dims == 2;
    L.thresholdPoly = contourOf(L.scoreImage, {m_doc->threshold()}, !flat);
    if (flat) {
        L.threshold = polyActor(L.thresholdPoly, QColor(15, 15, 15), 3.5, 1.0);
        const double diag = (m_field->grid.hi - m_field->grid.lo).norm();
        L.threshold->SetPosition(0, 0, 1e-3 * diag);
    } else {
        L.threshold = polyActor(L.thresholdPoly, QColor(120, 140, 170), 1.0, m_isoOpacity);
        L.threshold->GetProperty()->SetSpecular(0.2);
    }
    renderer()->AddActor(L.threshold);
    applyLayerVisibility();
}

vtkIdType CloudView::thresholdContourCells() const
{
    return m_layers->thresholdPoly ? m_layers->thresholdPoly->GetNumberOfCells() : 0;
}

void CloudView::drawFlats()
{
    Layers& L = *m_layers;
    for (auto& a : L.flats)
        renderer()->RemoveActor(a);
    L.flats.clear();
    const auto result = m_doc->result();
    const auto live = m_doc->liveGeometry();
    const auto liveNorm = m_doc->liveNormalizer();
    const Geometry* geo = nullptr;
    const Normalizer* norm = nullptr;
    if (live && liveNorm) {
        geo = live.get();
        norm = liveNorm.get();
    } else if (result) {
        geo = &result->geometry;
        norm = &result->normalizer;
    }
    if (!geo || geo->flats.empty() || m_doc->isEmpty()) {
        update();
        return;
    }
    const Eigen::VectorXd fill = m_doc->dataset().X.colwise().mean().transpose();
    for (const Flat& fl : geo->flats) {
        const int d = static_cast<int>(fl.basis.cols());
        if (d < 1 || d > 2 || fl.lower.size() != d || fl.upper.size() != d)
            continue;
        // Tiny clusters (one point, or collinear members of a 2-flat) have no area to draw.
        if (((fl.upper - fl.lower).array() <= 1e-12 * (1.0 + fl.origin.norm())).any())
            continue;
        // Corners of the flat's extent in normalised space → feature space → display.
        std::vector<Eigen::VectorXd> corners;
        if (d == 1) {
            corners = {fl.origin + fl.basis.col(0) * fl.lower(0), fl.origin + fl.basis.col(0) * fl.upper(0)};
        } else {
            corners = {fl.origin + fl.basis * Eigen::Vector2d(fl.lower(0), fl.lower(1)),
                       fl.origin + fl.basis * Eigen::Vector2d(fl.upper(0), fl.lower(1)),
                       fl.origin + fl.basis * Eigen::Vector2d(fl.lower(0), fl.upper(1))};
        }
        Eigen::MatrixXd C(static_cast<Eigen::Index>(corners.size()), fl.origin.size());
        for (std::size_t i = 0; i < corners.size(); ++i)
            C.row(static_cast<Eigen::Index>(i)) = corners[i].transpose();
        Eigen::MatrixX3d P;
        try {
            P = m_projection.toDisplay(norm->inverseTransform(C, fill));
        } catch (const std::exception&) {
            continue;
        }
        vtkSmartPointer<vtkPolyData> poly;
        if (d == 1) {
            vtkNew<vtkLineSource> line;
            line->SetPoint1(P(0, 0), P(0, 1), P(0, 2));
            line->SetPoint2(P(1, 0), P(1, 1), P(1, 2));
            line->Update();
            poly = line->GetOutput();
        } else {
            vtkNew<vtkPlaneSource> plane;
            plane->SetOrigin(P(0, 0), P(0, 1), P(0, 2));
            plane->SetPoint1(P(1, 0), P(1, 1), P(1, 2));
            plane->SetPoint2(P(2, 0), P(2, 1), P(2, 2));
            plane->Update();
            poly = plane->GetOutput();
        }
        auto a = polyActor(poly, componentColour(fl.cluster < 0 ? 0 : fl.cluster), 4.0, d == 1 ? 1.0 : 0.5);
        renderer()->AddActor(a);
        L.flats.push_back(a);
    }
    applyLayerVisibility();
}

void CloudView::setLayerVisible(Layer layer, bool on)
{
    m_layerOn[static_cast<int>(layer)] = on;
    if (layer == Layer::Uncertainty)
        buildUncertainty(); // built only while shown
    applyLayerVisibility();
}

void CloudView::applyLayerVisibility()
{
    Layers& L = *m_layers;
    const bool flat = twoD();
    L.image->SetVisibility(flat && L.scoreImage && m_layerOn[int(Layer::ScoreImage)]);
    if (L.contours)
        L.contours->SetVisibility(m_layerOn[int(Layer::Contours)]);
    if (L.threshold)
        L.threshold->SetVisibility(flat ? m_layerOn[int(Layer::Contours)] : m_layerOn[int(Layer::IsoSurface)]);
    for (auto& a : L.quadrics)
        a->SetVisibility(m_layerOn[int(Layer::Quadrics)]);
    for (auto& a : L.planes)
        a->SetVisibility(m_layerOn[int(Layer::Hyperplanes)]);
    for (auto& a : L.flats)
        a->SetVisibility(m_layerOn[int(Layer::Flats)]);
    const bool glyphs = m_layerOn[int(Layer::Uncertainty)] && L.glyphs->GetNumberOfPoints() > 0;
    L.glyphFill->SetVisibility(glyphs);
    L.glyphOutline->SetVisibility(glyphs && flat);
    update();
}

void CloudView::setIsoOpacity(double opacity)
{
    m_isoOpacity = std::clamp(opacity, 0.0, 1.0);
    if (m_layers->threshold && !twoD())
        m_layers->threshold->GetProperty()->SetOpacity(m_isoOpacity);
    update();
}

// ---- uncertainty glyphs and custom scalars ------------------------------------------------------

bool CloudView::canShowUncertainty() const
{
    const Dataset& d = m_doc->dataset();
    return d.hasSigma() && d.sigma.rows() == d.rows() && d.sigma.cols() == d.cols() && d.rows() > 0
        && m_projection.displayDims() >= 2 && m_display.rows() == d.rows();
}

void CloudView::setUncertaintyScale(double scale)
{
    m_sigmaScale = std::clamp(scale, 0.01, 100.0);
    buildUncertainty();
}

vtkPolyData* CloudView::uncertaintyGlyphs() const
{
    return m_layers->glyphs;
}

vtkIdType CloudView::uncertaintyCellsPerGlyph() const
{
    return m_layers->glyphSourceCells;
}

void CloudView::buildUncertainty()
{
    Layers& L = *m_layers;
    L.glyphs->Initialize();
    L.glyphSourcePoints = L.glyphSourceCells = 0;
    if (!m_layerOn[int(Layer::Uncertainty)] || !canShowUncertainty()) {
        applyLayerVisibility();
        updateLegend();
        return;
    }
    const Dataset& d = m_doc->dataset();
    const Eigen::Index n = d.rows();
    const bool flat = twoD();
    // Each glyph is the unit disk / sphere mapped by M_i with M_i M_iᵀ = s² Bᵀ diag(σ_i²) B (the
    // display covariance of the point, padded to 3×3): for p ≤ 3 simply diag(s σ_i). M_i is taken
    // symmetric (the square root), so vtkTensorGlyph's column convention does not matter.
    const Eigen::MatrixXd& B = m_projection.basis; // p×q
    const int q = static_cast<int>(B.cols());
    vtkNew<vtkDoubleArray> tensors;
    tensors->SetNumberOfComponents(9);
    tensors->SetNumberOfTuples(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        Eigen::Matrix3d M = Eigen::Matrix3d::Zero();
        const Eigen::VectorXd s = d.sigma.row(i).transpose().cwiseAbs();
        if (m_projection.identity) {
            for (int a = 0; a < q && a < s.size(); ++a)
                M(a, a) = m_sigmaScale * s(a);
        } else {
            Eigen::Matrix3d C = Eigen::Matrix3d::Zero();
            C.topLeftCorner(q, q) = B.transpose() * s.array().square().matrix().asDiagonal() * B;
            Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(C);
            M = m_sigmaScale * es.eigenvectors() * es.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal()
                * es.eigenvectors().transpose();
        }
        tensors->SetTypedTuple(i, M.data()); // column-major, as vtkTensorGlyph reads it
    }
    vtkNew<vtkPolyData> centres;
    vtkNew<vtkPoints> pts;
    pts->SetDataTypeToDouble();
    pts->SetNumberOfPoints(n);
    for (Eigen::Index i = 0; i < n; ++i)
        pts->SetPoint(i, m_display(i, 0), m_display(i, 1), m_display(i, 2));
    centres->SetPoints(pts);
    centres->GetPointData()->SetTensors(tensors);

    vtkSmartPointer<vtkPolyData> source;
    if (flat) {
        vtkNew<vtkRegularPolygonSource> disk;
        disk->SetNumberOfSides(40);
        disk->SetRadius(1.0);
        disk->GeneratePolygonOn();
        disk->GeneratePolylineOff();
        disk->Update();
        source = disk->GetOutput();
    } else {
        vtkNew<vtkSphereSource> sphere;
        sphere->SetRadius(1.0);
        const bool many = n > 2000; // keep large clouds interactive
        sphere->SetThetaResolution(many ? 12 : 20);
        sphere->SetPhiResolution(many ? 8 : 12);
        sphere->Update();
        source = sphere->GetOutput();
    }
    vtkNew<vtkTensorGlyph> glyph;
    glyph->SetInputData(centres);
    glyph->SetSourceData(source);
    glyph->ExtractEigenvaluesOff();
    glyph->ScalingOn();
    glyph->SetScaleFactor(1.0);
    glyph->ClampScalingOff();
    glyph->ColorGlyphsOff();
    glyph->Update();
    L.glyphs->DeepCopy(glyph->GetOutput());
    L.glyphSourcePoints = source->GetNumberOfPoints();
    L.glyphSourceCells = source->GetNumberOfCells();

    // 2D: just under the points (above the score image); 3D: lit translucent ellipsoids.
    double diag = 1.0;
    if (n > 0)
        diag = std::max(1e-12, (m_display.colwise().maxCoeff() - m_display.colwise().minCoeff()).norm());
    L.glyphFill->SetPosition(0, 0, flat ? -1e-3 * diag : 0.0);
    L.glyphOutline->SetPosition(0, 0, flat ? -0.9e-3 * diag : 0.0);
    L.glyphFill->GetProperty()->SetOpacity(flat ? 0.18 : 0.22);
    if (flat)
        L.glyphFill->GetProperty()->LightingOff();
    else
        L.glyphFill->GetProperty()->LightingOn();
    colourUncertainty();
    applyLayerVisibility();
    updateLegend();
}

void CloudView::colourUncertainty()
{
    Layers& L = *m_layers;
    auto* pointColours = vtkUnsignedCharArray::SafeDownCast(m_poly->GetPointData()->GetScalars());
    const vtkIdType n = m_poly->GetNumberOfPoints();
    if (!pointColours || L.glyphSourcePoints == 0 || L.glyphs->GetNumberOfPoints() != n * L.glyphSourcePoints)
        return;
    vtkNew<vtkUnsignedCharArray> colours;
    colours->SetName("colours");
    colours->SetNumberOfComponents(3);
    colours->SetNumberOfTuples(L.glyphs->GetNumberOfPoints());
    for (vtkIdType i = 0; i < n; ++i) {
        unsigned char rgb[3];
        pointColours->GetTypedTuple(i, rgb);
        for (vtkIdType k = 0; k < L.glyphSourcePoints; ++k)
            colours->SetTypedTuple(i * L.glyphSourcePoints + k, rgb);
    }
    L.glyphs->GetPointData()->SetScalars(colours);
    L.glyphs->Modified();
}

void CloudView::setCustomScalars(const Eigen::VectorXd& values, const QString& title, double lo, double hi)
{
    m_custom = values;
    m_customTitle = title;
    double vlo = std::numeric_limits<double>::infinity(), vhi = -vlo;
    for (Eigen::Index i = 0; i < values.size(); ++i)
        if (std::isfinite(values(i))) {
            vlo = std::min(vlo, values(i));
            vhi = std::max(vhi, values(i));
        }
    m_customLo = std::isfinite(lo) ? lo : (std::isfinite(vlo) ? vlo : 0.0);
    m_customHi = std::isfinite(hi) ? hi : (std::isfinite(vhi) ? vhi : 1.0);
    if (!(m_customHi > m_customLo))
        m_customHi = m_customLo + 1.0;
    recolour();
}

void CloudView::clearCustomScalars()
{
    if (m_custom.size() == 0)
        return;
    m_custom.resize(0);
    m_customTitle.clear();
    recolour();
}

bool CloudView::hasCustomScalars() const
{
    return m_custom.size() > 0 && m_custom.size() == m_doc->dataset().rows();
}

QString CloudView::describePoint(int index) const
{
    const Dataset& d = m_doc->dataset();
    QString s = tr("point %1").arg(index);
    const Eigen::Index shown = std::min<Eigen::Index>(d.cols(), 6);
    for (Eigen::Index j = 0; j < shown; ++j)
        s += QStringLiteral("\n%1 = %2").arg(QString::fromStdString(d.featureNames[static_cast<std::size_t>(j)]))
                 .arg(d.X(index, j), 0, 'g', 6);
    if (d.cols() > shown)
        s += tr("\n… %1 more features").arg(d.cols() - shown);
    if (d.hasLabels())
        s += QStringLiteral("\n%1 = %2").arg(QString::fromStdString(d.labelName)).arg(d.labels(index));
    if (d.hasSigma()) {
        QStringList sd;
        for (Eigen::Index j = 0; j < shown; ++j)
            sd << QString::number(d.sigma(index, j), 'g', 3);
        s += tr("\nσ = (%1%2)").arg(sd.join(", "), d.cols() > shown ? QStringLiteral(", …") : QString());
    }
    if (hasCustomScalars())
        s += QStringLiteral("\n%1 = %2").arg(m_customTitle).arg(m_custom(index), 0, 'g', 5);
    if (const auto r = m_doc->result(); r && index < r->scores.size()) {
        s += tr("\nscore = %1").arg(r->scores(index), 0, 'g', 5);
        if (static_cast<std::size_t>(index) < r->explanations.size() && !r->explanations[static_cast<std::size_t>(index)].empty())
            s += "\n" + QString::fromStdString(r->explanations[static_cast<std::size_t>(index)]);
    }
    return s;
}

void CloudView::onHover(int index, QPoint globalPos)
{
    if (index < 0 || index >= m_display.rows())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, describePoint(index), this);
}

} // namespace olens
