#pragma once
// The central view: a scene host (camera, renderers, interaction, the document, the field
// requests) plus layers behind one interface (view/ViewLayer.h). Shows the document's data (2D for
// p ≤ 2, 3D for p = 3, a projection with an on-screen note for p > 3) coloured by label, score or
// cluster (PointLayer), the score field (FieldLayer: 2D image + contours with the decision
// threshold emphasised, 3D iso-surface), the detector's geometry (GeometryLayer: quadric zero
// sets, hyperplanes, flats), uncertainty glyphs (UncertaintyLayer) and the legend, colour bar and
// axes (LegendAxesLayer), each switchable. Fields are computed off the GUI thread.
#include "jobs/FieldComputer.h"
#include "display/ColourScale.h"
#include "display/SelectionGeometry.h"
#include "linalg/Projection.h"
#include "view/layers/ViewLayer.h"
#include "render/VtkView.h"

#include <Eigen/Core>
#include <QColor>
#include <QPolygonF>
#include <QStringList>
#include <array>
#include <cmath>
#include <memory>
#include <vector>
#include <vtkType.h>

class vtkPolyData;

namespace olens {

class AxesFrame2D;
class ColourBar;
class DataDocument;
class FieldLayer;
class LegendAxesLayer;
class PointColouring;
class PointLayer;
class SelectionLayer;
class SpriteSizer;
class UncertaintyLayer;

class CloudView : public VtkView {
    Q_OBJECT
public:
    /// The threshold iso-surface's opacity unless changed (View controls start big clouds at 0).
    static constexpr double kDefaultIsoOpacity = 0.35;
    /// The training step whose geometry the layers drew last (a step-by-step training's, a
    /// recorded step's, the trained model's last), -1 without one.
    int drawnStep() const { return m_drawnStep; }
    /// Custom: external per-point values (setCustomScalars); they override the other modes while set.
    using ColourBy = olens::ColourBy;
    using Layer = LayerSwitch;

    explicit CloudView(DataDocument* document, QWidget* parent = nullptr);
    ~CloudView() override;

    /// n×3 display coordinates of the samples (z = 0 in 2D): the data's rows themselves when they
    /// are shown as they are (DisplayPoints).
    const DisplayPoints& displayPoints() const { return m_display; }
    /// Colour for a label value (0 inlier, 1 outlier, other ids from a palette; NaN = unlabelled).
    static QColor colourFor(double label);
    /// Colour of the k-th geometry component (quadric, frame, cluster).
    static QColor componentColour(int k);
    QString projectionNote() const { return QString::fromStdString(m_projection.note); }
    const Projection& projection() const { return m_projection; }
    /// Replaces the projection (p > 3: PCA or chosen axes). Rebuilds the scene.
    void setProjection(const Projection& projection);

    void setColourBy(ColourBy c);
    /// What Auto resolves to: Score with a result, else Label/Cluster/none.
    ColourBy effectiveColourBy() const;
    static QStringList colourMaps();
    void setColourMap(const QString& name);
    QString colourMap() const { return m_colourMap; }
    /// The range the score colour map spans (auto, min–max, symmetric, percentile, manual; log).
    void setColourRange(const ColourRangeSpec& spec);
    /// The scale the colour bar shows now (scores, or the custom values while set).
    const ColourScale& colourScale() const;
    /// The colour bar (for tests: its texts' boxes and end markers).
    const ColourBar& colourBar() const;
    /// The points' colours as drawn (RGB, one per sample; empty before the first update), for
    /// views that colour like this one (the scatter-plot matrix); coloursChanged() follows changes.
    std::vector<QRgb> pointColours() const;
    /// One point's colour as drawn (pointColours()[row]), or `fallback` unless the view's colours
    /// are for `rows` rows.
    QRgb pointColour(int row, long long rows, QRgb fallback) const;
    /// The 2-D plot frame, and the boxes of the 3-D axes' texts (for tests).
    const AxesFrame2D& axesFrame2D() const;
    /// The legend, notes and axes (ViewTexts reads what they drew).
    const LegendAxesLayer& legendAxesLayer() const { return *m_legendAxesLayer; }
    const PointLayer& pointLayer() const { return *m_pointLayer; }
    /// The empty canvas's "click to add a point" hint is shown (data with columns and no rows).
    bool canvasHintShown() const;
    std::vector<std::array<double, 4>> axesLabelBoxes3D() const;
    /// Sprite size in pixels; ≤ 0 = automatic (display/PointSizing: from n and the data's area on
    /// screen, re-evaluated before every render so it follows the zoom).
    void setPointSize(double pixels);
    /// Lays out and redraws every text after View → Text size changed (render/VtkSupport's fontPx).
    void refreshText();
    bool pointSizeIsAuto() const;
    /// The base sprite size drawn now, in device pixels (score colouring grows outliers up to 1.8×).
    double effectivePointSize() const;
    /// Opacity of the unflagged sprites in the last render (display/PointSizing cloudOpacity: by
    /// the screen density around a typical point drawn, once the sprites are at their smallest): 1 unless the cloud is
    /// dense; flagged points stay opaque. Automatic point size only (a size the user set is opaque).
    double pointOpacity() const;
    /// Points drawn quiet: a big cloud's points below the threshold, small and faded (issue #54).
    long long quietPoints() const;
    /// A still frame draws every k-th quiet point (1: all); the layout report's "quiet_stride".
    int quietStride() const;
    /// At most this many quiet points in a still frame (display/PointSizing kStillQuietBudget; tests
    /// lower it to see the rule on a small cloud).
    void setStillQuietBudget(std::int64_t budget);
    /// This view is one of `views` that share the still frame's budgets (compare mode's panels):
    /// each draws at most 1/views of them. Two panels of a 5 M-point cloud drew 2.5 M points each
    /// and the software renderer held ~240 B a point drawn (issue #54).
    void setStillBudgetShare(int views);
    /// Shows the points where the model reconstructs them (acdt: projected on their cluster's flat).
    void setShowReconstruction(bool on);
    bool hasReconstruction() const;

    /// Drawing as a panel of compare mode's figure (view/ViewLayer.h PanelStyle).
    void setPanelStyle(const PanelStyle& style);
    const PanelStyle& panelStyle() const { return m_panelStyle; }

    void setLayerVisible(Layer layer, bool on);
    bool layerVisible(Layer layer) const { return m_layerOn[static_cast<int>(layer)]; }
    void setIsoOpacity(double opacity);
    double isoOpacity() const { return m_isoOpacity; }
    void setGridResolution2D(int n);
    void setGridResolution3D(int n);
    /// Extra margin around the data box, as a fraction of its size per side.
    void setGridMargin(double fraction);
    /// Which field is drawn: -1 = the score, k ≥ 0 = the detector's score component k (e.g. one
    /// GODS/KODS frame), falling back to the score when the detector has no such component.
    void setFieldComponent(int k);
    int gridResolution2D() const { return m_res2d; }
    int gridResolution3D() const { return m_res3d; }
    double gridMargin() const { return m_margin; }
    /// The grid the next field uses (display coordinates).
    GridSpec gridSpec() const;
    /// Human-readable grid extent and resolution (shown on screen).
    QString gridDescription() const;

    /// Per-point uncertainty (Dataset::sigma, standard deviations): one ellipse (2D) / ellipsoid (3D)
    /// per point, the scale·σ contour of N(x_i, diag(σ_i²)) (tensor glyphs; semi-axes scale·σ_j for
    /// p ≤ 3). For p > 3 the covariance is projected like the points: Bᵀ diag(σ²) B, so each glyph is
    /// the marginal ellipsoid in the shown PCA / feature-axis coordinates. Nothing without sigma.
    void setUncertaintyScale(double scale);
    double uncertaintyScale() const { return m_sigmaScale; }
    /// The data have sigma and the display has at least 2 dimensions.
    bool canShowUncertainty() const;
    /// The glyphs of the Uncertainty layer (all points; empty when not drawn), for tests.
    vtkPolyData* uncertaintyGlyphs() const;
    /// Cells of one glyph (1 polygon in 2D, the sphere's triangles in 3D).
    vtkIdType uncertaintyCellsPerGlyph() const;

    /// Colours the points by external values (one per sample) with the current colour map over
    /// [lo, hi] (NaN = the values' range) and a scalar bar with this title, until cleared. Ignored
    /// (back to the colour mode) when the size does not match the data.
    void setCustomScalars(const Eigen::VectorXd& values, const QString& title, double lo = std::nan(""),
                          double hi = std::nan(""));
    void clearCustomScalars();
    bool hasCustomScalars() const;
    const Eigen::VectorXd& customScalars() const { return m_custom; }
    QString customTitle() const { return m_customTitle; }

    /// Rows whose drawn point lies inside a polygon given in widget (logical pixel) coordinates —
    /// a box's 4 corners or a lasso — seen through the current camera; points outside the scene
    /// viewport or behind the camera are never inside. Sorted.
    std::vector<int> pointsInRegion(const QPolygonF& widgetPolygon) const;
    /// Combines the points in the region with the document's selection (replace / add / subtract).
    void selectRegion(const QPolygonF& widgetPolygon, SelectionOp op);
    /// Number of selection halos drawn (for tests).
    long selectionHaloCount() const;
    /// Number of training rings drawn (points a model fitted on a part was fitted on; for tests).
    long trainingRingCount() const;

    /// Which quadrics and hyperplane frames are drawn (their layers on): reset to
    /// GeometryChoice::defaults when a result brings other counts (3-D: the first 3 of many
    /// quadrics), kept across retrainings with the same counts. Layers → Choose… edits it.
    const GeometryChoice& geometryChoice() const { return m_geometryChoice; }
    void setGeometryChoice(const GeometryChoice& choice);
    /// The view legend's entries, top to bottom.
    const std::vector<std::string>& legendEntries() const;

    /// Stops the score field being computed (the status bar's cancel, Esc): it does not arrive,
    /// the view keeps what it drew before; fieldCancelled() follows. No-op when none runs.
    void cancelField();
    bool isFieldBusy() const { return m_fields.isBusy(); }

    /// The field currently drawn (null before one is ready).
    std::shared_ptr<const FieldData> field() const { return m_field; }
    /// Number of polyline cells in the emphasised threshold contour (2D) / triangles (3D).
    vtkIdType thresholdContourCells() const;

public slots:
    void rebuild(bool keepCamera = false);
    void showSelection(int index);
    /// Moves the camera focus to a sample (animated).
    void flyTo(int index);

signals:
    void fieldUpdated();
    /// The background score field: fraction done, and whether one is being computed (for the
    /// status bar's indicator: a KIC field on 3 000 points takes many seconds).
    void fieldProgress(double fraction);
    void fieldBusyChanged(bool busy);
    /// The running field was stopped by cancelField().
    void fieldCancelled();
    void coloursChanged();
    void gridChanged(const QString& description);

protected:
    void resizeGL(int w, int h) override;

private:
    void adaptPointSize(vtkObject*, unsigned long, void*); // before each render: m_sizer->adapt
    ViewContext context() const;
    void applySceneViewport();
    /// Brings every layer up to date (ViewLayer::Change flags), then the colour bar's strip.
    void updateLayers(unsigned changes);
    void onHover(int index, QPoint globalPos);
    QString describePoint(int index) const;
    void recolour();
    void refreshPositions();
    void requestField();
    void onField(std::shared_ptr<const FieldData> field);
    /// A new result waits for its score field before it is drawn (see the resultChanged handler).
    void holdRepaintForField();
    bool twoD() const;

    DataDocument* m_doc;
    Projection m_projection;
    bool m_userProjection = false;
    bool m_sameCamera = false; // during rebuild(true): the points must stay under the cursor
    bool m_dragging = false;   // a drag moves the camera: the drag's level of detail
    std::int64_t m_stillQuietBudget = kStillQuietBudget;
    int m_stillBudgetShare = 1;
    int m_fieldComponent = -1;
    /// What m_display's numbers live in: the data's rows (the document's shared dataset), or their
    /// projection. Kept by the point layer while VTK may still read the numbers (retire).
    std::shared_ptr<const void> m_displayOwner;
    DisplayPoints m_display{nullptr, 0, 3};
    /// Shows `X` (the data's rows, or their reconstruction): in place when the projection is the
    /// identity and `owner` keeps X alive, else projected into a matrix of the view's own.
    void showRows(const Eigen::MatrixXd& X, std::shared_ptr<const void> owner);
    ColourBy m_colourBy = ColourBy::Auto;
    PanelStyle m_panelStyle;
    QString m_colourMap = "viridis";
    std::array<bool, kLayerSwitches> m_layerOn{};
    double m_isoOpacity = kDefaultIsoOpacity;
    std::shared_ptr<float> m_spriteScale = std::make_shared<float>(1.0f); // shader factor on sprite sizes
    std::unique_ptr<SpriteSizer> m_sizer; // sprite size and opacity before each render
    bool m_showReconstruction = false;
    int m_res2d = 200;
    int m_res3d = 48;
    double m_margin = 0.15;
    double m_sigmaScale = 1.0;
    int m_selected = -1; // the selection shown (showSelection)
    Eigen::VectorXd m_custom;
    QString m_customTitle;
    double m_customLo = 0.0, m_customHi = 1.0;
    // Colour by agreement: the document's "flagged by k of m" as values over [0, m].
    Eigen::VectorXd m_agreement;
    QString m_agreementTitle;
    double m_agreementHi = 1.0;
    bool showsAgreement() const;
    void takeAgreement();
    void updateColours(); // m_colouring->update with what effectiveColourBy() shows

    FieldComputer m_fields;
    GeometryChoice m_geometryChoice;
    std::shared_ptr<const FieldData> m_field;
    std::unique_ptr<PointColouring> m_colouring;
    // The layers, in drawing and update order; typed pointers for their few specific queries.
    std::vector<std::unique_ptr<ViewLayer>> m_layers;
    FieldLayer* m_fieldLayer = nullptr;
    UncertaintyLayer* m_uncertaintyLayer = nullptr;
    PointLayer* m_pointLayer = nullptr;
    SelectionLayer* m_selectionLayer = nullptr;
    SelectionLayer* m_trainingLayer = nullptr; // rings around the training points of a part fit
    LegendAxesLayer* m_legendAxesLayer = nullptr;
    int m_drawnStep = -1;
};

} // namespace olens
