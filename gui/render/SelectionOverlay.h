#pragma once
// The rubber band of a box or lasso selection, drawn over the central view while the user drags:
// a transparent child widget (mouse events pass through) that paints the rectangle or the polygon
// traced so far. It also keeps the gesture's points, in the view's logical pixel coordinates.
#include <QPolygonF>
#include <QWidget>

namespace olens {

class SelectionOverlay : public QWidget {
    Q_OBJECT
public:
    enum class Shape { Box, Lasso };
    explicit SelectionOverlay(QWidget* view);

    /// Starts a gesture at `pos` (covers the whole view while it lasts).
    void begin(Shape shape, QPointF pos);
    /// The cursor moved: the box's opposite corner, or the lasso's next vertex.
    void extend(QPointF pos);
    /// Ends the gesture and returns the region: the box's 4 corners or the lasso's vertices.
    QPolygonF finish();
    void cancel();
    bool active() const { return m_active; }
    QPolygonF region() const;

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    Shape m_shape = Shape::Box;
    bool m_active = false;
    QPolygonF m_points; // box: [start, current]; lasso: the traced vertices
};

} // namespace olens
