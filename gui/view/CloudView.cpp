// CloudView is the scene host: it owns the camera, the renderers, picking and hovering (VtkView),
// observes the document, computes the display coordinates and the point colours, requests score
// fields, and tells its layers what changed (view/ViewLayer.h). The layers draw; the numbers they
// draw with come from core (display/). Its helpers: view/SpriteSizer (size and opacity before
// each render), view/ScenePicker (regions), view/CameraFlight, view/PointDescription (tooltip).
#include "display/PointSizing.h"
#include "view/CloudView.h"

#include "document/DataDocument.h"
#include "display/Grid.h"
#include "metrics/Thresholds.h"
#include "pipeline/FitPipeline.h"
#include "render/CameraFlight.h"
#include "render/CameraRig.h"
#include "view/layers/FieldLayer.h"
#include "view/layers/GeometryLayer.h"
#include "view/layers/LegendAxesLayer.h"
#include "view/layers/PointColouring.h"
#include "view/PointDescription.h"
#include "view/layers/PointLayer.h"
#include "render/ScenePicker.h"
#include "view/layers/SelectionLayer.h"
#include "view/SpriteSizer.h"
#include "view/layers/UncertaintyLayer.h"

#include <QTimer>
#include <QToolTip>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <limits>

namespace olens {

CloudView::CloudView(DataDocument* document, QWidget* parent)
    : VtkView(parent), m_doc(document), m_colouring(std::make_unique<PointColouring>())
{
    m_layerOn.fill(true);
    m_colouring->setColourMap(m_colourMap);

    // Drawing order (the order props are added): score image, glyphs, points, axes; the field's
    // contours and the geometry are added behind them as they arrive.
    auto field = std::make_unique<FieldLayer>(m_colouring.get());
    auto geometry = std::make_unique<GeometryLayer>();
    auto uncertainty = std::make_unique<UncertaintyLayer>();
    auto selection = std::make_unique<SelectionLayer>(m_spriteScale);
    auto training = std::make_unique<SelectionLayer>(m_spriteScale, SelectionLayer::Marks::Training);
    auto points = std::make_unique<PointLayer>(m_spriteScale);
    auto legendAxes = std::make_unique<LegendAxesLayer>();
    m_fieldLayer = field.get();
    m_uncertaintyLayer = uncertainty.get();
    m_pointLayer = points.get();
    m_selectionLayer = selection.get();
    m_trainingLayer = training.get();
    // At the start of the scene's render: the new viewport applies to the frame being drawn (VTK
    // sets the viewport up after StartEvent), so no frame shows the legend half-way.
    legendAxes->setMarginsChanged([this] { applySceneViewport(); });
    m_legendAxesLayer = legendAxes.get();
    m_sizer = std::make_unique<SpriteSizer>(m_pointLayer, m_spriteScale);
    m_layers.push_back(std::move(field));
    m_layers.push_back(std::move(geometry));
    m_layers.push_back(std::move(uncertainty));
    m_layers.push_back(std::move(selection)); // halos behind the points they surround
    m_layers.push_back(std::move(training));  // training rings over the halos, behind the points
    m_layers.push_back(std::move(points));
    m_layers.push_back(std::move(legendAxes)); // last: the legend describes the others
    for (auto& layer : m_layers)
        layer->attach(renderer(), overlayRenderer());
    renderer()->AddObserver(vtkCommand::StartEvent, this, &CloudView::adaptPointSize);
    setPickTarget(m_pointLayer->points());
    // Level of detail while a drag moves the camera (adaptPointSize sets it); the still frame's
    // is drawn again when it ends.
    connect(this, &VtkView::cameraDragging, this, [this](bool dragging) {
        m_dragging = dragging;
        if (!dragging)
            scheduleRender();
    });

    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        if (m_doc->changeIsEdit()) {
            rebuild(true); // an edit: same projection and camera
            return;
        }
        m_userProjection = false;
        rebuild();
    });
    // New counts of quadrics / frames (a result, or a training's first snapshot): the default
    // choice, "3 of many" in 3-D — a live preview drew all 35 of Satellite's quadrics (issue #35).
    auto adoptCounts = [this](const Geometry& g) {
        if (g.quadrics.size() != m_geometryChoice.quadrics.size() || g.frames.size() != m_geometryChoice.frames.size())
            m_geometryChoice = GeometryChoice::defaults(g.quadrics.size(), g.frames.size(), twoD());
    };
    connect(m_doc, &DataDocument::liveGeometryChanged, this, [this, adoptCounts] {
        if (const auto live = m_doc->liveGeometry())
            adoptCounts(*live);
    });
    connect(m_doc, &DataDocument::resultChanged, this, [this, adoptCounts] {
        if (const auto r = m_doc->result())
            adoptCounts(r->geometry);
        if (m_showReconstruction)
            refreshPositions();
        requestField(); // first: the worker computes while the points are recoloured
        holdRepaintForField();
        recolour();
        updateLayers(ViewLayer::TopK);
    });
    connect(m_doc, &DataDocument::thresholdChanged, this, [this] {
        if (m_panelStyle.decisionOnly)
            recolour(); // the regions and the points' colours split at the threshold
        updateLayers(ViewLayer::Threshold);
    });
    connect(m_doc, &DataDocument::topKChanged, this, [this] { updateLayers(ViewLayer::TopK); });
    // A step-by-step training moving to its next step with the snapshot already drawn: what the
    // view shows is that step now (drawnStep), nothing to redraw.
    connect(m_doc, &DataDocument::shownStepChanged, this, [this] {
        if (m_doc->liveGeometry() && m_doc->liveNormalizer())
            m_drawnStep = m_doc->shown().step;
    });
    connect(m_doc, &DataDocument::agreementChanged, this, [this] {
        takeAgreement();
        if (m_colourBy == ColourBy::Agreement)
            recolour();
    });
    // A training snapshot: its field and geometry. None (the training ended: done, failed or
    // cancelled): back to what the result shows, or nothing without one — a cancelled training
    // used to leave its last snapshot's surfaces and field drawn (issue #35).
    connect(m_doc, &DataDocument::liveGeometryChanged, this, &CloudView::requestField);
    connect(m_doc, &DataDocument::selectionChanged, this, &CloudView::showSelection);
    connect(m_doc, &DataDocument::pointSelectionChanged, this, [this] { updateLayers(ViewLayer::Selection); });
    connect(this, &VtkView::pointPicked, m_doc, &DataDocument::setSelectedPoint);
    connect(this, &VtkView::regionSelected, this, [this](const QPolygonF& polygon, Qt::KeyboardModifiers mods) {
        // ParaView / CloudCompare: Shift adds to the selection, Ctrl subtracts from it.
        selectRegion(polygon, (mods & Qt::ControlModifier) ? SelectionOp::Subtract
                              : (mods & Qt::ShiftModifier) ? SelectionOp::Add
                                                           : SelectionOp::Replace);
    });
    connect(this, &VtkView::pointClickedWithModifiers, this, [this](int index, Qt::KeyboardModifiers mods) {
        m_doc->setPointSelection(combineSelection(m_doc->pointSelection(), {index},
                                                  (mods & Qt::ControlModifier) ? SelectionOp::Subtract : SelectionOp::Add));
    });
    connect(this, &VtkView::pointHovered, this, &CloudView::onHover);
    connect(&m_fields, &FieldComputer::ready, this, &CloudView::onField);
    connect(&m_fields, &FieldComputer::progress, this, &CloudView::fieldProgress);
    connect(&m_fields, &FieldComputer::busyChanged, this, &CloudView::fieldBusyChanged);
    connect(&m_fields, &FieldComputer::cancelled, this, &CloudView::fieldCancelled);
    connect(&m_fields, &FieldComputer::cancelled, this, &VtkView::releaseRepaint);
    rebuild();
}

CloudView::~CloudView() = default;

QColor CloudView::colourFor(double label)
{
    return PointColouring::colourFor(label);
}

QColor CloudView::componentColour(int k)
{
    return PointColouring::componentColour(k);
}

QStringList CloudView::colourMaps()
{
    return PointColouring::colourMaps();
}

ViewContext CloudView::context() const
{
    ViewContext c;
    c.doc = m_doc;
    c.projection = &m_projection;
    c.display = &m_display;
    c.twoD = twoD();
    c.field = m_field;
    // Flats are drawn from the live training snapshot while there is one, else from the result.
    const auto result = m_doc->result();
    const auto live = m_doc->liveGeometry();
    const auto liveNorm = m_doc->liveNormalizer();
    if (live && liveNorm) {
        c.flatGeometry = live.get();
        c.flatNormalizer = liveNorm.get();
    } else if (result) {
        c.flatGeometry = &result->geometry;
        c.flatNormalizer = &result->normalizer;
    }
    c.colouring = m_colouring.get();
    c.colourBy = effectiveColourBy();
    c.customTitle = showsAgreement() ? m_agreementTitle : m_customTitle;
    c.layerOn = m_layerOn;
    c.isoOpacity = m_isoOpacity;
    c.sigmaScale = m_sigmaScale;
    c.canShowUncertainty = canShowUncertainty();
    c.selected = m_selected;
    c.gridText = gridDescription();
    c.sameCamera = m_sameCamera;
    c.stillQuietBudget = std::max<std::int64_t>(1, m_stillQuietBudget / m_stillBudgetShare);
    c.stillPointBudget = std::max<std::int64_t>(1, kStillPointBudget / m_stillBudgetShare);
    c.geometryChoice = &m_geometryChoice;
    c.bareOverlay = m_panelStyle.bareOverlay;
    return c;
}

void CloudView::updateLayers(unsigned changes)
{
    // The document's shared pointers stay alive for the whole pass (the context points into them).
    const auto result = m_doc->result();
    const auto live = m_doc->liveGeometry();
    const auto liveNorm = m_doc->liveNormalizer();
    const ViewContext ctx = context();
    for (auto& layer : m_layers)
        layer->update(ctx, changes);
    m_drawnStep = live && liveNorm ? m_doc->shown().step : result ? stepShownBy(*result) : -1;
    if ((changes & (ViewLayer::Points | ViewLayer::Positions | ViewLayer::Colours | ViewLayer::Threshold)) && isBigCloud(m_display.rows()))
        releaseMemoryAfterFrame(); // the cloud's old buffers, and a new result's temporaries
    applySceneViewport();
    requestRepaint();
}

void CloudView::holdRepaintForField()
{
    // When one frame costs more than a few tens of milliseconds (a large cloud under a software
    // rasteriser: most of a second at a million points), drawing the recoloured points first and
    // the field a moment later costs a whole frame and delays the field by it; so a new result is
    // drawn with its field, waiting at most about two frames' time for it (never more than 1 s).
    // With fast frames (a GPU, small data) there is no wait.
    const double frame = lastFrameMs();
    if (!isFieldBusy() || frame < 50.0)
        return;
    holdRepaint(int(std::min(1000.0, 2.0 * frame)));
}

void CloudView::refreshText()
{
    // Every layer rebuilds its text (legend entries, tick labels, titles) with the new size; the
    // margins of the 2-D frame and the colour bar follow.
    updateLayers(ViewLayer::Everything);
    if (CameraRig* rig = CameraRig::find(this)) // compare panels have no triad
        rig->applyTextSize();
}

void CloudView::applySceneViewport()
{
    // Margins in pixels, whatever the window's size: the 2-D frame's labels and titles (left,
    // bottom), the colour bar (right), the note and grid text (top). The scene keeps ≥ 40 %.
    const double w = std::max(1.0, double(width()) * devicePixelRatioF());
    const double h = std::max(1.0, double(height()) * devicePixelRatioF());
    const auto m = m_legendAxesLayer->sceneMargins();
    const double x0 = std::clamp(m[0] / w, 0.0, 0.3), y0 = std::clamp(m[1] / h, 0.0, 0.3);
    const double x1 = std::clamp(1.0 - m[2] / w, x0 + 0.4, 1.0), y1 = std::clamp(1.0 - m[3] / h, y0 + 0.4, 1.0);
    setSceneViewport(x0, y0, x1, y1);
    if (CameraRig* rig = CameraRig::find(this))
        rig->applyLayout();
}

void CloudView::resizeGL(int w, int h)
{
    VtkView::resizeGL(w, h);
    applySceneViewport();
}

void CloudView::setColourRange(const ColourRangeSpec& spec)
{
    m_colouring->setRange(spec);
    recolour();
}

const ColourScale& CloudView::colourScale() const
{
    return hasCustomScalars() || showsAgreement() ? m_colouring->customScale() : m_colouring->scoreScale();
}

std::vector<QRgb> CloudView::pointColours() const
{
    return m_colouring->rgb();
}

QRgb CloudView::pointColour(int row, long long rows, QRgb fallback) const
{
    return m_colouring->rgbAt(row, rows, fallback);
}

const ColourBar& CloudView::colourBar() const
{
    return m_legendAxesLayer->colourBar();
}

const AxesFrame2D& CloudView::axesFrame2D() const
{
    return m_legendAxesLayer->frame2D();
}

bool CloudView::canvasHintShown() const
{
    return m_legendAxesLayer->canvasHintShown();
}

std::vector<std::array<double, 4>> CloudView::axesLabelBoxes3D() const
{
    return m_legendAxesLayer->axes3D().textBoxes();
}

void CloudView::setColourMap(const QString& name)
{
    if (!m_colouring->setColourMap(name))
        return;
    m_colourMap = name;
    recolour();
}

void CloudView::setPointSize(double pixels)
{
    m_sizer->setPointSize(pixels);
    recolour();
}

bool CloudView::pointSizeIsAuto() const
{
    return m_sizer->isAuto();
}

double CloudView::effectivePointSize() const
{
    return m_sizer->effectiveSize(devicePixelRatioF());
}

void CloudView::adaptPointSize(vtkObject*, unsigned long, void*)
{
    // The one place the stride is set, before every frame: a drag's, else the still frame's (a new
    // result may have made the cloud quiet, or not; a big cloud's still frame draws every k-th).
    const int still = m_pointLayer->stillStride();
    m_pointLayer->setLodStride(m_dragging ? std::max(lodStride(m_display.rows()), still) : still);
    const int* size = renderWindow()->GetSize();
    m_sizer->adapt(renderer(), size[0], size[1], devicePixelRatioF());
}

double CloudView::pointOpacity() const
{
    return m_pointLayer->opacity();
}

int CloudView::quietStride() const
{
    return m_pointLayer->stillStride();
}

void CloudView::setStillQuietBudget(std::int64_t budget)
{
    m_stillQuietBudget = std::max<std::int64_t>(1, budget);
    recolour();
}

void CloudView::setStillBudgetShare(int views)
{
    views = std::max(1, views);
    if (views == m_stillBudgetShare)
        return;
    m_stillBudgetShare = views;
    recolour();
}

long long CloudView::quietPoints() const
{
    return static_cast<long long>(m_pointLayer->quietPoints());
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
    if (hasCustomScalars() || showsAgreement())
        return ColourBy::Custom;
    if (m_colourBy != ColourBy::Auto && m_colourBy != ColourBy::Agreement) // agreement without one: auto
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
        // No rows but columns (New data → empty canvas): the features as they are, so the canvas
        // has axes to click on.
        m_projection = n > 0 || (d.cols() > 0 && d.cols() <= 3) ? Projection::automatic(d.X, d.featureNames)
                                                                : Projection{};
    m_userProjection = m_userProjection && m_projection.origin.size() == d.cols();
    bool shown = false;
    if (m_showReconstruction && n > 0)
        if (const auto r = m_doc->result()) {
            auto R = std::make_shared<const Eigen::MatrixXd>(reconstructedRows(*r, d.X));
            if (R->rows() == n) {
                showRows(*R, R); // the data's own display was never shown
                shown = true;
            }
        }
    if (!shown)
        showRows(d.X, m_doc->sharedRows());
    m_sizer->setDisplay(m_display);
    updateColours();
    m_sameCamera = keepCamera;
    updateLayers(ViewLayer::Points | ViewLayer::Colours);
    m_sameCamera = false;

    const bool flat = twoD();
    setMode(flat ? Mode::View2D : Mode::View3D);
    if (!flat) {
        vtkCamera* cam = renderer()->GetActiveCamera();
        cam->SetFocalPoint(0, 0, 0);
        cam->SetPosition(1.0, -1.6, 1.1);
        cam->SetViewUp(0, 0, 1);
    }
    if (!keepCamera)
        m_field.reset(); // an edit keeps the contours until the new field arrives
    m_selected = m_doc->selectedPoint();
    updateLayers(ViewLayer::Field | ViewLayer::Flats | ViewLayer::TopK | ViewLayer::Selection);
    if (keepCamera && n > 0)
        setCameraState(camera);
    else
        resetCamera();
    requestField();
    emit gridChanged(gridDescription());
}

void CloudView::showRows(const Eigen::MatrixXd& X, std::shared_ptr<const void> owner)
{
    m_pointLayer->retire(m_displayOwner); // VTK reads its buffer until the Points or Positions update
    const Projection& p = m_projection;
    const bool asTheyAre = X.cols() == 3 && p.displayDims() == 3 && p.origin.size() == 3 && p.origin.isZero(0.0)
                           && p.basis == Eigen::Matrix3d::Identity();
    if (asTheyAre && owner) {
        m_displayOwner = std::move(owner);
        new (&m_display) DisplayPoints(X.data(), X.rows(), 3); // re-seating a Map (Eigen's documented way)
    } else {
        auto own = std::make_shared<const Eigen::MatrixX3d>(X.rows() > 0 ? p.toDisplay(X) : Eigen::MatrixX3d(0, 3));
        new (&m_display) DisplayPoints(own->data(), own->rows(), 3);
        m_displayOwner = std::move(own);
    }
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
    std::shared_ptr<const Eigen::MatrixXd> X = m_doc->sharedRows();
    if (m_showReconstruction)
        if (const auto r = m_doc->result()) {
            auto R = std::make_shared<const Eigen::MatrixXd>(reconstructedRows(*r, d.X));
            if (R->rows() == n)
                X = std::move(R);
        }
    showRows(*X, X);
    m_sizer->setDisplay(m_display);
    m_selected = m_doc->selectedPoint();
    updateLayers(ViewLayer::Positions);
}

void CloudView::setPanelStyle(const PanelStyle& style)
{
    if (style == m_panelStyle)
        return;
    m_panelStyle = style;
    m_colouring->setPanelStyle(style);
    recolour();
    updateLayers(ViewLayer::Field); // the grid note
}

void CloudView::recolour()
{
    m_colouring->setThreshold(m_doc->threshold());
    updateColours();
    updateLayers(ViewLayer::Colours);
    emit coloursChanged();
}

void CloudView::showSelection(int index)
{
    m_selected = index;
    updateLayers(ViewLayer::Selection);
}

void CloudView::flyTo(int index)
{
    if (index >= 0 && index < m_display.rows())
        CameraFlight::fly(this, m_display.row(index).transpose(), twoD());
}

std::vector<int> CloudView::pointsInRegion(const QPolygonF& widgetPolygon) const
{
    const int* size = renderWindow()->GetSize();
    return ScenePicker::pointsInRegion(renderer(), size[0], size[1], m_display, widgetPolygon, devicePixelRatioF());
}

void CloudView::selectRegion(const QPolygonF& widgetPolygon, SelectionOp op)
{
    m_doc->setPointSelection(combineSelection(m_doc->pointSelection(), pointsInRegion(widgetPolygon), op));
}

long CloudView::selectionHaloCount() const
{
    return m_selectionLayer->haloCount();
}

long CloudView::trainingRingCount() const
{
    return m_trainingLayer->haloCount();
}

GridSpec CloudView::gridSpec() const
{
    return gridAround(m_display, twoD() ? 2 : 3, m_margin, m_res2d, m_res3d);
}

QString CloudView::gridDescription() const
{
    return FieldComputer::describeGrid(gridSpec());
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

void CloudView::setGeometryChoice(const GeometryChoice& choice)
{
    m_geometryChoice = choice;
    updateLayers(ViewLayer::Visibility);
}

const std::vector<std::string>& CloudView::legendEntries() const
{
    return m_legendAxesLayer->legendEntries();
}

void CloudView::cancelField()
{
    m_fields.cancel();
}

void CloudView::requestField()
{
    const auto result = m_doc->result();
    const auto live = m_doc->liveGeometry();
    const auto liveNorm = m_doc->liveNormalizer();
    if (m_display.rows() == 0 || (!result && !(live && liveNorm))) {
        // Nothing to show (a training cancelled before its first result): a field of its live
        // geometry still being computed must not arrive after this.
        m_fields.cancel();
        m_field.reset();
        updateLayers(ViewLayer::Field | ViewLayer::Flats);
        return;
    }
    std::optional<FieldRequest> req = FieldComputer::requestFor(result.get(), live && liveNorm ? live.get() : nullptr,
                                                                liveNorm.get(), m_projection, gridSpec(), m_fieldComponent);
    if (!req) { // nothing to sample (no field for this result): none of an earlier one either
        m_fields.cancel();
        m_field.reset();
        updateLayers(ViewLayer::Field | ViewLayer::Flats);
        return;
    }
    m_fields.request(std::move(*req));
    updateLayers(ViewLayer::Flats);
}

void CloudView::onField(std::shared_ptr<const FieldData> field)
{
    m_field = std::move(field);
    updateLayers(ViewLayer::Field);
    releaseRepaint(); // the result with its field, in one frame
    emit fieldUpdated();
}

vtkIdType CloudView::thresholdContourCells() const
{
    return m_fieldLayer->thresholdCells();
}

void CloudView::setLayerVisible(Layer layer, bool on)
{
    m_layerOn[static_cast<int>(layer)] = on;
    // Glyphs are built only while shown.
    updateLayers(ViewLayer::Visibility | (layer == Layer::Uncertainty ? ViewLayer::Glyphs : 0u));
}

void CloudView::setIsoOpacity(double opacity)
{
    opacity = std::clamp(opacity, 0.0, 1.0);
    if (opacity == m_isoOpacity)
        return;
    m_isoOpacity = opacity;
    updateLayers(ViewLayer::Style);
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
    updateLayers(ViewLayer::Glyphs);
}

vtkPolyData* CloudView::uncertaintyGlyphs() const
{
    return m_uncertaintyLayer->glyphs();
}

vtkIdType CloudView::uncertaintyCellsPerGlyph() const
{
    return m_uncertaintyLayer->cellsPerGlyph();
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

bool CloudView::showsAgreement() const
{
    return !hasCustomScalars() && m_colourBy == ColourBy::Agreement && m_agreement.size() > 0
        && m_agreement.size() == m_doc->dataset().rows();
}

void CloudView::takeAgreement()
{
    if (!m_doc->hasAgreement()) {
        m_agreement.resize(0);
        return;
    }
    const auto& a = m_doc->agreement();
    m_agreement = a.flaggedBy.cast<double>();
    m_agreementHi = static_cast<double>(a.detectors.size());
    m_agreementTitle = tr("detectors that flag it (of %1)").arg(a.detectors.size());
}

void CloudView::updateColours()
{
    const bool agree = showsAgreement();
    m_colouring->update(m_doc->dataset(), m_doc->result().get(), effectiveColourBy(), agree ? m_agreement : m_custom,
                        agree ? 0.0 : m_customLo, agree ? m_agreementHi : m_customHi,
                        m_sizer->baseSize() * float(devicePixelRatioF()));
}

bool CloudView::hasCustomScalars() const
{
    return m_custom.size() > 0 && m_custom.size() == m_doc->dataset().rows();
}

QString CloudView::describePoint(int index) const
{
    const auto r = m_doc->result();
    if (showsAgreement())
        return PointDescription::describe(m_doc->dataset(), r.get(), index, m_agreement, m_agreementTitle);
    return PointDescription::describe(m_doc->dataset(), r.get(), index, hasCustomScalars() ? m_custom : Eigen::VectorXd(),
                                      m_customTitle);
}

void CloudView::onHover(int index, QPoint globalPos)
{
    if (index < 0 || index >= m_display.rows())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, describePoint(index), this);
}

} // namespace olens
