#pragma once
// The central view is a scene host (CloudView: camera, renderers, interaction, the document) plus
// layers behind this one small interface. The host describes the current state in a ViewContext
// and tells every layer what changed; each layer rebuilds or restyles only its own VTK props.
// Layers never talk to each other: what one needs from another's inputs (point colours, whether
// glyphs are shown) is derived from the context.
#include "display/PointSizing.h"
#include "display/GeometryChoice.h"
#include "display/ScoreField.h"
#include "linalg/Projection.h"

#include <Eigen/Core>
#include <QString>
#include <array>
#include <memory>

class vtkRenderer;

namespace olens {

class DataDocument;
class PointColouring;

/// How points are coloured. Agreement: how many compare-panel detectors flag each point
/// (DataDocument::agreement; drawn as custom values). Custom: external per-point values
/// (CloudView::setCustomScalars).
enum class ColourBy { Auto, Label, Score, Cluster, Agreement, Custom };

/// The user's layer switches (Layers menu).
enum class LayerSwitch { ScoreImage, Contours, IsoSurface, Quadrics, Hyperplanes, Flats, Uncertainty, LayerCount };
constexpr int kLayerSwitches = static_cast<int>(LayerSwitch::LayerCount);

/// How a view draws as one panel of a figure of small multiples (compare mode). Scores of
/// different detectors are on different scales, so one colour bar for all panels needs a common
/// scale: rankColours colours by the training-score percentile (display/ColourScale
/// percentileRanks) instead of the score; decisionOnly draws two flat regions (inlier / outlier,
/// split at the view's threshold) and colours the points by the decision; bareOverlay leaves out
/// the colour bar, the legend, the projection note and the grid note (the figure shows them once).
struct PanelStyle {
    bool rankColours = false;
    bool decisionOnly = false;
    bool bareOverlay = false;
    bool operator==(const PanelStyle& o) const
    {
        return rankColours == o.rankColours && decisionOnly == o.decisionOnly && bareOverlay == o.bareOverlay;
    }
};

/// n×3 display coordinates of a view's points: the data's own rows when they are shown as they
/// are (three features, the identity projection; not a copy: 480 MB at 20 M rows, issue #54), else
/// their projection.
using DisplayPoints = Eigen::Map<const Eigen::MatrixX3d>;

/// What a layer may draw from; valid for the duration of one update.
struct ViewContext {
    const DataDocument* doc = nullptr;
    const Projection* projection = nullptr;
    const DisplayPoints* display = nullptr;     ///< n×3 display coordinates of the points
    bool twoD = true;                           ///< the projection shows ≤ 2 dimensions
    std::shared_ptr<const FieldData> field;     ///< the sampled field to draw (null: none yet)
    const Geometry* flatGeometry = nullptr;     ///< live snapshot or result geometry (flats)
    const Normalizer* flatNormalizer = nullptr; ///< the normaliser that geometry lives behind
    const PointColouring* colouring = nullptr;  ///< lookup tables, per-point colours and sizes
    ColourBy colourBy = ColourBy::Label;        ///< effective (Auto resolved)
    QString customTitle;                        ///< scalar-bar title in Custom mode
    std::array<bool, kLayerSwitches> layerOn{};
    double isoOpacity = 0.35;
    double sigmaScale = 1.0;
    bool canShowUncertainty = false;
    int selected = -1;                          ///< selected point (-1: none)
    QString gridText;                           ///< grid extent and resolution, shown with a field
    const GeometryChoice* geometryChoice = nullptr; ///< quadrics / frames the user chose to draw (null: all)
    bool bareOverlay = false;                   ///< PanelStyle::bareOverlay: no colour bar, legend, notes
    bool sameCamera = false;                    ///< an edit: camera kept, so the 2-D frame keeps its margins
    std::int64_t stillQuietBudget = kStillQuietBudget; ///< quiet points a still frame draws at most
    std::int64_t stillPointBudget = kStillPointBudget; ///< unflagged points a still frame draws at most

    bool quadricShown(std::size_t k) const { return !geometryChoice || geometryChoice->quadricShown(k); }
    bool frameShown(std::size_t f) const { return !geometryChoice || geometryChoice->frameShown(f); }

    bool on(LayerSwitch s) const { return layerOn[static_cast<std::size_t>(s)]; }
};

class ViewLayer {
public:
    /// What changed since the last update (bit flags).
    enum Change : unsigned {
        Points = 1u << 0,     ///< new data or projection: display coordinates rebuilt
        Positions = 1u << 1,  ///< the same points moved (data ↔ reconstruction)
        Colours = 1u << 2,    ///< colour mode, map, scores or custom values
        Field = 1u << 3,      ///< a new sampled field, or none
        Threshold = 1u << 4,  ///< the decision threshold
        Flats = 1u << 5,      ///< the geometry drawn directly (flats): result or live snapshot
        TopK = 1u << 6,       ///< the number of highlighted top-ranked points
        Selection = 1u << 7,  ///< the current point or the selected set (DataDocument::pointSelection)
        Glyphs = 1u << 8,     ///< uncertainty glyphs: scale or layer switch
        Visibility = 1u << 9, ///< layer switches
        Style = 1u << 10,     ///< iso-surface opacity
        Everything = ~0u,     ///< every flag, present and future (View → Text size: every layer's text)
    };

    virtual ~ViewLayer() = default;
    /// Adds the layer's permanent props (once, in drawing order).
    virtual void attach(vtkRenderer* scene, vtkRenderer* overlay) = 0;
    /// Brings the layer up to date with the context; `changes` is a set of Change flags.
    virtual void update(const ViewContext& ctx, unsigned changes) = 0;
};

} // namespace olens
