#pragma once
// The strip of controls above the central view: colour by / colour map, layer toggles, iso-surface
// opacity, grid resolution and margin (with the current extent shown), point size, and for p > 3
// the projection (PCA or three chosen feature axes; fields on the slice through the mean).
#include <QVariantMap>
#include <QWidget>
#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;
class QStringListModel;

namespace olens {

class CloudView;
class DataDocument;

class ViewControls : public QWidget {
    Q_OBJECT
public:
    /// The threshold iso-surface's default opacity (percent): 3-D data, and projected data (p > 3),
    /// where the surface is a slice through the mean and must not hide the flagged points.
    static constexpr int kIsoPercent = 35;
    static constexpr int kProjectedIsoPercent = 12;
    /// A big cloud (metrics/Thresholds kBigCloudRows): no surface by default — at its threshold
    /// (the 1000 highest) a neighbour field's iso-surface is a froth around every sparse point that
    /// hid the cloud (issue #54); the flagged points show the decision.
    static constexpr int kBigCloudIsoPercent = 0;
    ViewControls(DataDocument* document, CloudView* view, QWidget* parent = nullptr);

    QComboBox* projection() const { return m_projection; }
    QSpinBox* clusterSpin() const { return m_clusterSpin; }
    QCheckBox* reconstruction() const { return m_reconstruction; }
    /// Layers → Choose quadrics and planes… (enabled with quadrics or hyperplanes in the result).
    QAction* chooseGeometryAction() const { return m_chooseGeometry; }

    /// The view settings as flat key → value pairs (sessions): colour_by, colour_map, point_size,
    /// grid_2d, grid_3d, margin_percent, opacity_percent, layer_<name>, clusters, reconstruction,
    /// uncertainty_scale, colour_range (auto|minmax|symmetric|percentile|manual), colour_percentile,
    /// colour_lo, colour_hi, colour_log.
    QVariantMap settings() const;
    /// Applies settings (unknown keys and out-of-range values are ignored: spin boxes clamp).
    void applySettings(const QVariantMap& settings);

private:
    void onDataset();
    void applyProjection();
    void setAxisChoices(bool pcs);
    void onResult();
    void applyClusterCount(int L);
    void applyColourRange();

    DataDocument* m_doc;
    CloudView* m_view;
    QComboBox* m_colourBy;
    QComboBox* m_colourMap;
    QSpinBox* m_pointSize;
    QSpinBox* m_res2d;
    QSpinBox* m_res3d;
    QSpinBox* m_margin;
    QSpinBox* m_opacity;
    QComboBox* m_projection;
    /// Chosen principal components are offered up to PC50: beyond, a wide table's components are
    /// noise, and each choice costs a leading decomposition of that size.
    static constexpr int kMaxChosenComponents = 50;
    QComboBox* m_axis[3];
    QStringListModel* m_axisNames;
    QLabel* m_grid;
    QWidget* m_projectionBox;
    QWidget* m_clusterBox;
    QSlider* m_clusterSlider;
    QSpinBox* m_clusterSpin;
    QCheckBox* m_reconstruction;
    QDoubleSpinBox* m_sigmaScale = nullptr;
    QComboBox* m_component = nullptr;
    QComboBox* m_range = nullptr;
    QDoubleSpinBox* m_percentile = nullptr;
    QDoubleSpinBox* m_lo = nullptr;
    QDoubleSpinBox* m_hi = nullptr;
    QCheckBox* m_log = nullptr;
    std::vector<std::pair<QString, QAction*>> m_layerActions; // session key → menu action
    QAction* m_chooseGeometry = nullptr;
    bool m_opacityChosen = false; // the iso opacity was set by the user or a session
    bool m_settingOpacity = false;
};

} // namespace olens
