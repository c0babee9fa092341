#include "plots/PlotExporter.h"

#include "plots/PlotWidget.h"

#include <QBuffer>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace olens {

QImage PlotExporter::image(const PlotWidget& plot, double scale, bool transparent)
{
    // Laid out at the widget's size, drawn scaled: a 2× image is the same figure, twice as sharp.
    scale = std::clamp(scale, 0.25, 16.0);
    QImage img(QSize(int(std::lround(plot.width() * scale)), int(std::lround(plot.height() * scale))),
               QImage::Format_ARGB32_Premultiplied);
    img.fill(transparent ? Qt::transparent : Qt::white);
    QPainter p(&img);
    p.scale(scale, scale);
    plot.paintPlot(p, false);
    return img;
}

QByteArray PlotExporter::svg(const PlotWidget& plot, bool transparent)
{
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(plot.size());
    svg.setViewBox(QRect(QPoint(0, 0), plot.size()));
    svg.setResolution(96); // CSS pixels: the physical size slides expect
    svg.setTitle(plot.title().isEmpty() ? QStringLiteral("OutlierLens plot") : plot.title());
    svg.setDescription(QStringLiteral("OutlierLens"));
    QPainter p(&svg);
    plot.paintPlot(p, !transparent);
    p.end();
    return out;
}

QByteArray PlotExporter::pdf(const PlotWidget& plot)
{
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setResolution(96);
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setPageSize(QPageSize(QSizeF(plot.width(), plot.height()) * 72.0 / 96.0, QPageSize::Point));
    pdf.setTitle(plot.title());
    pdf.setCreator(QStringLiteral("OutlierLens"));
    QPainter p(&pdf);
    plot.paintPlot(p, true);
    p.end();
    return out;
}

} // namespace olens
