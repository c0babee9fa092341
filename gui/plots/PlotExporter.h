#pragma once
// A PlotWidget as a figure for slides (File → Export figure, --export-plots): PNG drawn `scale`
// times as large (same layout, sharp text) with an optional transparent background, SVG
// (QSvgGenerator: text stays text, lines stay vectors) and one-page PDF (QPdfWriter).
#include <QByteArray>
#include <QImage>

namespace olens {

class PlotWidget;

class PlotExporter {
public:
    /// Laid out at the widget's size, drawn `scale` (0.25–16) times as large.
    static QImage image(const PlotWidget& plot, double scale = 1.0, bool transparent = false);
    /// SVG at the widget's size (96 dpi), without the white background when transparent.
    static QByteArray svg(const PlotWidget& plot, bool transparent = false);
    /// A one-page PDF whose page is the widget's size.
    static QByteArray pdf(const PlotWidget& plot);
};

} // namespace olens
