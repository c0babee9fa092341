#pragma once
// The point sprites' size and opacity (split from CloudView), re-evaluated before every render from
// where the data lie on screen (display/PointSizing): the automatic size from n and the data's box
// on screen (so it follows the zoom), and once the sprites are as small as they get, the opacity
// from the density around a typical point (a dense cloud shows its density; the level of detail's
// stride counted). A size the user sets is kept, opaque.
#include <Eigen/Core>

#include <memory>

class vtkRenderer;

namespace olens {

class PointLayer;

class SpriteSizer {
public:
    /// `layer` draws the sprites; `scale` is the shader factor every sprite actor of the view shares.
    SpriteSizer(PointLayer* layer, std::shared_ptr<float> scale);

    /// Sprite size in pixels; ≤ 0 = automatic.
    void setPointSize(double pixels);
    bool isAuto() const { return m_auto; }
    /// The size the colouring's per-point sizes start from (logical pixels; automatic: the largest
    /// automatic size, scaled down in the shader).
    float baseSize() const { return m_pointSize; }
    /// The base sprite size drawn now, in device pixels.
    double effectiveSize(double pixelRatio) const { return m_pointSize * pixelRatio * *m_scale; }

    /// Once per change of the display coordinates, not once per render (1M rows: a full scan).
    void setDisplay(const Eigen::Ref<const Eigen::MatrixX3d>& display);
    /// Before a render: size factor and opacity for the renderer's camera in a window of
    /// `width` × `height` device pixels.
    void adapt(vtkRenderer* renderer, int width, int height, double pixelRatio);

private:
    // At most this many display points (every k-th) stand for the cloud in the screen density:
    // projected and counted in 8-pixel cells before each render, well under a millisecond.
    static constexpr Eigen::Index kDensitySample = 20000;
    static constexpr double kDensityCell = 8.0;

    PointLayer* m_layer;
    std::shared_ptr<float> m_scale;
    float m_pointSize;
    bool m_auto = true;
    Eigen::Index m_rows = 0;
    Eigen::RowVector3d m_lo = Eigen::RowVector3d::Zero(), m_hi = Eigen::RowVector3d::Zero();
    Eigen::MatrixX3d m_sample;
};

} // namespace olens
