#pragma once
// The strip of controls above the central view: colour by / colour map, layer toggles, iso-surface
// opacity, grid resolution and margin (with the current extent shown), point size, and for p > 3
// the projection (PCA or three chosen feature axes; fields on the slice through the mean).
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace olens {

class CloudView;
class DataDocument;

class ViewControls : public QWidget {
    Q_OBJECT
public:
    ViewControls(DataDocument* document, CloudView* view, QWidget* parent = nullptr);

    QComboBox* colourBy() const { return m_colourBy; }
    QComboBox* projection() const { return m_projection; }
    QSpinBox* resolution2D() const { return m_res2d; }
    QSpinBox* resolution3D() const { return m_res3d; }
    QSpinBox* clusterSpin() const { return m_clusterSpin; }
    QCheckBox* reconstruction() const { return m_reconstruction; }

private:
    void onDataset();
    void applyProjection();
    void onResult();
    void applyClusterCount(int L);

    DataDocument* m_doc;
    CloudView* m_view;
    QComboBox* m_colourBy;
    QComboBox* m_colourMap;
    QSpinBox* m_pointSize;
    QSpinBox* m_res2d;
    QSpinBox* m_res3d;
    QSpinBox* m_margin;
    QSlider* m_opacity;
    QComboBox* m_projection;
    QComboBox* m_axis[3];
    QLabel* m_grid;
    QWidget* m_projectionBox;
    QWidget* m_clusterBox;
    QSlider* m_clusterSlider;
    QSpinBox* m_clusterSpin;
    QCheckBox* m_reconstruction;
};

} // namespace olens
