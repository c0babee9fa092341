#include "view/SpriteSizer.h"

#include "display/PointSizing.h"
#include "view/layers/PointLayer.h"
#include "render/ScenePicker.h"

#include <vtkRenderer.h>

#include <algorithm>

namespace olens {

SpriteSizer::SpriteSizer(PointLayer* layer, std::shared_ptr<float> scale)
    : m_layer(layer), m_scale(std::move(scale)), m_pointSize(float(kMaxAutoPointSize))
{
}

void SpriteSizer::setPointSize(double pixels)
{
    m_auto = !(pixels > 0);
    // Automatic: sprites are built at the largest automatic size and scaled down in the shader.
    m_pointSize = m_auto ? float(kMaxAutoPointSize) : static_cast<float>(pixels);
    m_layer->setPointSize(m_pointSize);
    if (!m_auto)
        *m_scale = 1.0f;
}

void SpriteSizer::setDisplay(const Eigen::Ref<const Eigen::MatrixX3d>& display)
{
    m_rows = display.rows();
    if (m_rows == 0)
        return;
    m_lo = display.colwise().minCoeff();
    m_hi = display.colwise().maxCoeff();
    // Every k-th point, at most kDensitySample of them: the screen density's sample.
    const Eigen::Index step = std::max<Eigen::Index>(1, (m_rows + kDensitySample - 1) / kDensitySample);
    m_sample.resize((m_rows + step - 1) / step, 3);
    for (Eigen::Index i = 0, r = 0; i < m_rows; i += step, ++r)
        m_sample.row(r) = display.row(i);
}

void SpriteSizer::adapt(vtkRenderer* ren, int width, int height, double pixelRatio)
{
    const Eigen::Index n = m_rows;
    if (!m_auto || n == 0) {
        m_layer->setOpacity(1.0); // a size the user set: the look the user chose, opaque
        return;
    }
    // The data's bounding box projected to the screen.
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (int c = 0; c < 8; ++c) {
        ren->SetWorldPoint(c & 1 ? m_hi(0) : m_lo(0), c & 2 ? m_hi(1) : m_lo(1), c & 4 ? m_hi(2) : m_lo(2), 1.0);
        ren->WorldToDisplay();
        const double* d = ren->GetDisplayPoint();
        x0 = std::min(x0, d[0]), x1 = std::max(x1, d[0]), y0 = std::min(y0, d[1]), y1 = std::max(y1, d[1]);
    }
    // Not clipped to the viewport: zoomed in, fewer points are in view, and the density (n over the
    // whole box's area) is what sets the size.
    const int* size = ren->GetSize();
    // A cloud on a line or seen edge-on has no area: count it as a band one tenth of the view high.
    const double band = 0.1 * std::min(size[0], size[1]);
    const double area = std::max(x1 - x0, band) * std::max(y1 - y0, band);
    const double px = autoPointSize(n, area, pixelRatio);
    *m_scale = float(px / (kMaxAutoPointSize * pixelRatio));
    // Dense clouds translucent once the sprites are as small as they get, from the density around
    // a typical point on screen (of the points drawn: every k-th while a drag lasts).
    const int k = m_layer->lodStride();
    const double density = screenDensity(ScenePicker::toScreen(ren, width, height, m_sample), (n + k - 1) / k,
                                         kDensityCell * pixelRatio);
    m_layer->setOpacity(cloudOpacity((n + k - 1) / k, area, density, pixelRatio));
}

} // namespace olens
