#pragma once
// The view's colours: the label / component palettes, the named colour maps, and per update the
// score lookup table (over the range the user chose, display/ColourScale; by default [min, 99th
// percentile] of the scores, linear or log), the custom-values lookup table
// and one RGB colour and sprite size per point. Shared by the point, field, uncertainty and
// legend layers through the ViewContext.
#include "display/ColourScale.h"
#include "view/layers/ViewLayer.h"

#include <Eigen/Core>
#include <QColor>
#include <QStringList>
#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <array>
#include <vector>

class vtkFloatArray;
class vtkLookupTable;
class vtkUnsignedCharArray;

namespace olens {

struct Dataset;
struct FitResult;

class PointColouring {
public:
    PointColouring();
    ~PointColouring();

    /// Colour for a label value (0 inlier, 1 outlier, other ids from a palette; NaN = unlabelled).
    static QColor colourFor(double label);
    /// Colour of the k-th geometry component (quadric, frame, cluster).
    static QColor componentColour(int k);
    static QStringList colourMaps();
    /// Fills the score table from a named map; false (nothing changed) for an unknown name.
    bool setColourMap(const QString& name);

    /// Recomputes the tables and the per-point arrays. `custom` (with its range) is used in
    /// Custom mode; sprites are `baseSize` pixels, grown with the score (up to 1.8×) in Score mode.
    void update(const Dataset& d, const FitResult* result, ColourBy by, const Eigen::VectorXd& custom,
                double customLo, double customHi, float baseSize);

    /// Compare panels: colour by the training-score percentile, or by the decision at the
    /// threshold (ViewLayer.h PanelStyle); applied at the next update.
    void setPanelStyle(const PanelStyle& style) { m_style = style; }
    const PanelStyle& panelStyle() const { return m_style; }
    void setThreshold(double threshold) { m_threshold = threshold; }
    /// The decision display's colours: flat regions (drawn translucent) and points.
    static QColor inlierRegionColour() { return QColor(120, 170, 220); }
    static QColor outlierRegionColour() { return QColor(250, 160, 90); }
    static QColor inlierPointColour() { return QColor(40, 90, 160); }
    static QColor outlierPointColour() { return QColor(215, 80, 0); }
    /// The colour map at t ∈ [0, 1] (the score table's colours before any range is applied).
    QColor mapColour(double t) const;

    /// The score colour range (mode, percentile, manual ends, log); applied at the next update.
    void setRange(const ColourRangeSpec& spec) { m_range = spec; }
    /// The scales of the last update: scores (what the score table spans) and custom values.
    const ColourScale& scoreScale() const { return m_scoreScale; }
    const ColourScale& customScale() const { return m_customScale; }

    vtkLookupTable* scoreTable() const;
    vtkLookupTable* customTable() const;
    /// n×3 unsigned char colours ("colours") and n sprite sizes ("olensPointSize") of the last
    /// update (null before the first).
    vtkUnsignedCharArray* colours() const;
    vtkFloatArray* sizes() const;
    /// The colours of the last update as RGB values (empty before the first).
    std::vector<QRgb> rgb() const;
    /// rgb()[row] without the copy of every row's; `fallback` unless the colours are for `rows` rows.
    QRgb rgbAt(long long row, long long rows, QRgb fallback) const;

private:
    /// Rank / decision tables over the training scores' range (PanelStyle).
    void buildPanelTable(const Eigen::VectorXd& scores);

    vtkNew<vtkLookupTable> m_lut;
    std::vector<std::array<double, 3>> m_map; // the colour map, 256 entries
    PanelStyle m_style;
    double m_threshold = 0.0;
    vtkNew<vtkLookupTable> m_customLut; // the colour map over the custom scalars' range
    vtkSmartPointer<vtkUnsignedCharArray> m_colours;
    vtkSmartPointer<vtkFloatArray> m_sizes;
    ColourRangeSpec m_range;
    ColourScale m_scoreScale;  // kept while there are no scores
    ColourScale m_customScale;
};

} // namespace olens
