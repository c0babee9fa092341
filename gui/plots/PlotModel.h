#pragma once
// The data and layout behind a PlotWidget: its series, ranges (fixed or following the data) and a
// Frame laid out from the widget size and fonts, so that painting, mouse handling and
// toPixel/toDataX always agree. Ranges and ticks come from display/Ticks.h.
#include <QColor>
#include <QFont>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

class QWidget;

namespace olens::plot {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kFarPixels = 1e5; // pixel coordinates are clamped to this far outside the plot

enum class Kind { Line, Bars, Points };

struct Series {
    Kind kind = Kind::Line;
    QVector<double> x; ///< bars: edges (bars + 1)
    QVector<double> y; ///< bars: counts
    QColor colour;
    QString name;
    double width = 1.5;
    Qt::PenStyle style = Qt::SolidLine;
    double radius = 4.0;
};

/// Extent of the data, for automatic ranges.
struct Bounds {
    double xmin = kNaN, xmax = kNaN;
    double ymin = kNaN, ymax = kNaN;       ///< finite y (bars include 0)
    double yposmin = kNaN, yposmax = kNaN; ///< finite positive y, for log scale
    bool bars = false;
    bool any() const { return !std::isnan(xmin); }
};

/// The layout of one frame: plot rectangle, ranges (y in log10 when logY) and ticks.
struct Frame {
    QRectF plot;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    bool logY = false;
    std::vector<double> xticks, yticks;
    QStringList xlabels, ylabels;
    /// The legend's box (empty: no named series), its entries (series indices), the width of their
    /// text, and how many columns they fill. Inside the plot in the corner that hides no data; when
    /// every corner would, outside it (right of or below the plot, which shrinks to make room).
    QRectF legend;
    std::vector<int> legendEntries;
    double legendTextW = 0.0;
    int legendColumns = 1;

    double px(double x) const
    {
        const double p = plot.left() + (x - x0) / (x1 - x0) * plot.width();
        return std::clamp(p, plot.left() - kFarPixels, plot.right() + kFarPixels);
    }
    /// NaN for values a log axis cannot show.
    double py(double y) const
    {
        double t = y;
        if (logY)
            t = y > 0.0 ? std::log10(y) : kNaN;
        if (!std::isfinite(t))
            return kNaN;
        const double p = plot.bottom() - (t - y0) / (y1 - y0) * plot.height();
        return std::clamp(p, plot.top() - kFarPixels, plot.bottom() + kFarPixels);
    }
    double dataX(double p) const { return x0 + (p - plot.left()) / plot.width() * (x1 - x0); }
};

/// "1e-05" → "1e-5", "1e+06" → "1e6".
QString tidyExponent(QString s);
/// A linear tick label with as many decimals as the step needs (exponent form when huge/tiny).
QString linearLabel(double v, double step, double magnitude);
QString logLabel(double v);
/// The marker's value as printed beside it.
QString markerValue(double v);
QFont tickFont(const QFont& base);
QFont titleFont(const QFont& base);
/// An axis title set in `base` or, when it is longer than `room` pixels, in a smaller font (down to
/// 70 %); elided only when even that is too long. Returns the text to draw; `font` receives its font.
QString fittedTitle(const QFont& base, const QString& text, double room, QFont* font);

/// Everything a PlotWidget shows; the widget only paints it and handles the mouse.
struct PlotModel {
    QString title, xTitle, yTitle;
    bool fixedX = false, fixedY = false;
    double fx0 = 0, fx1 = 1, fy0 = 0, fy1 = 1;
    bool logY = false;
    std::vector<Series> series;

    double marker = 0.0;
    bool markerVisible = false;
    bool draggable = false;
    bool dragging = false;
    QString markerLabel;

    mutable bool boundsDirty = true;
    mutable Bounds bounds;

    const Bounds& dataBounds() const;
    /// The layout for a widget of this size and font, the legend placed.
    Frame frame(const QWidget* w) const;
    /// How much of the data a legend box at `box` would hide (0: none): curve samples every 3 px,
    /// dots, bar area, and the marker line.
    /// `lines`: polylines(s, f) of every series (empty for the others), computed once per frame,
    /// not once per candidate box (a curve of a million points costs ~20 ms per pass).
    double legendCost(const Frame& f, const QRectF& box, const std::vector<std::vector<QPolygonF>>& lines) const;
    /// Pixel polylines of a line series, split at invalid values, decimated per pixel column.
    std::vector<QPolygonF> polylines(const Series& s, const Frame& f) const;
    bool hasData() const { return dataBounds().any(); }

private:
    /// Ranges, ticks and the plot rectangle with `reserve` pixels kept free right of / below it.
    Frame layout(const QWidget* w, QSizeF reserve) const;
};

} // namespace olens::plot
