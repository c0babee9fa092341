#include "render/SelectionOverlay.h"

#include <QPainter>
#include <QPainterPath>

namespace olens {

SelectionOverlay::SelectionOverlay(QWidget* view) : QWidget(view)
{
    setObjectName("selectionOverlay");
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setAttribute(Qt::WA_TranslucentBackground);
    hide();
}

void SelectionOverlay::begin(Shape shape, QPointF pos)
{
    m_shape = shape;
    m_active = true;
    m_points = QPolygonF{pos, pos};
    if (shape == Shape::Lasso)
        m_points.resize(1);
    setGeometry(parentWidget()->rect());
    show();
    raise();
    update();
}

void SelectionOverlay::extend(QPointF pos)
{
    if (!m_active)
        return;
    if (m_shape == Shape::Box) {
        m_points[1] = pos;
    } else {
        // Vertices at least 2 px apart: a slow drag does not pile up thousands of them.
        const QPointF d = pos - m_points.back();
        if (d.x() * d.x() + d.y() * d.y() < 4.0)
            return;
        m_points << pos;
    }
    update();
}

QPolygonF SelectionOverlay::region() const
{
    if (m_shape == Shape::Lasso || m_points.size() < 2)
        return m_points;
    const QRectF r = QRectF(m_points[0], m_points[1]).normalized();
    return QPolygonF{r.topLeft(), r.topRight(), r.bottomRight(), r.bottomLeft()};
}

QPolygonF SelectionOverlay::finish()
{
    const QPolygonF out = region();
    cancel();
    return out;
}

void SelectionOverlay::cancel()
{
    m_active = false;
    m_points.clear();
    hide();
}

void SelectionOverlay::paintEvent(QPaintEvent*)
{
    if (!m_active)
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPolygonF poly = region();
    QPainterPath path;
    path.addPolygon(poly);
    path.closeSubpath();
    p.fillPath(path, QColor(230, 0, 160, 28));
    QPen pen(QColor(200, 0, 140), 1.5, Qt::DashLine);
    p.setPen(pen);
    p.drawPath(path);
}

} // namespace olens
