#pragma once
// What text the central view shows and where, read from the drawn VTK actors themselves (not from
// what the layers meant to draw): each text's box and font size in device pixels, the legend's box,
// and where the points that matter are (the selected point, the top ranked). The layout report
// (`--layout-report`'s "overlaps", "min_text_px", "highlighted_point_px") and tests check with it
// that no text covers another or a highlighted point, at every text size (issue #52).
#include <QRectF>
#include <QString>

#include <vector>

namespace olens {

class CloudView;

struct ViewText {
    QString what;    ///< "legend", or the text itself (its first line)
    QRectF box;      ///< view device pixels, y down (an image of the view)
    int fontPx = 0;  ///< the font size drawn, device pixels
};

/// Every visible text of the view: the legend as one box, the orientation triad's letters as
/// "triad X", "triad Y", "triad Z".
std::vector<ViewText> viewTexts(const CloudView& view);
/// The selected and top-ranked points in view device pixels, y down.
std::vector<QPointF> highlightedPoints(const CloudView& view);
/// The selected (current) point in view device pixels, y down; (-1, -1) without one.
QPointF selectedPointPx(const CloudView& view);
/// Pairs of texts whose boxes intersect, and texts over a highlighted point (within `ring` px),
/// each as "A / B".
QStringList textOverlaps(const CloudView& view, double ring);

} // namespace olens
