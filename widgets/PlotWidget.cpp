// PlotWidget: every frame is laid out from the widget size and fonts (Frame), so painting, mouse
// handling and toPixel/toDataX always agree. Ranges follow the data unless fixed; degenerate
// ranges are widened so no mapping ever divides by zero. Long lines are decimated per pixel
// column (first/min/max/last of each column), which keeps their visual envelope exact.
#include "PlotWidget.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace olens {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kGrab = 6.0;      // pixels either side of the marker that grab it
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

void extend(double& lo, double& hi, double v)
{
    if (std::isnan(lo) || v < lo)
        lo = v;
    if (std::isnan(hi) || v > hi)
        hi = v;
}

/// Widens an empty or inverted range so that hi - lo > 0.
void widenDegenerate(double& lo, double& hi)
{
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = 0.0;
        hi = 1.0;
        return;
    }
    if (lo > hi)
        std::swap(lo, hi);
    const double scale = std::max({std::fabs(lo), std::fabs(hi), 1e-300});
    if (hi - lo <= scale * 1e-12) {
        const double half = lo == 0.0 ? 0.5 : std::fabs(lo) * 0.1;
        lo -= half;
        hi += half;
    }
}

/// 1, 2 or 5 × 10^k closest above raw.
double niceStep(double raw)
{
    if (!(raw > 0.0) || !std::isfinite(raw))
        return 1.0;
    const double e = std::floor(std::log10(raw));
    const double base = std::pow(10.0, e);
    const double f = raw / base;
    const double m = f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0;
    return m * base;
}

std::vector<double> linearTicks(double lo, double hi, int target, double& step)
{
    step = niceStep((hi - lo) / std::max(1, target));
    std::vector<double> ticks;
    const double first = std::ceil(lo / step - 1e-9) * step;
    for (int k = 0; k < 200; ++k) {
        double v = first + k * step;
        if (v > hi + step * 1e-9)
            break;
        if (std::fabs(v) < step * 1e-9)
            v = 0.0;
        ticks.push_back(v);
    }
    return ticks;
}

/// "1e-05" → "1e-5", "1e+06" → "1e6".
QString tidyExponent(QString s)
{
    const int e = s.indexOf('e');
    if (e < 0)
        return s;
    QString mant = s.left(e);
    QString exp = s.mid(e + 1);
    bool neg = exp.startsWith('-');
    if (exp.startsWith('+') || neg)
        exp.remove(0, 1);
    while (exp.size() > 1 && exp.startsWith('0'))
        exp.remove(0, 1);
    return mant + 'e' + (neg ? "-" : "") + exp;
}

QString linearLabel(double v, double step, double magnitude)
{
    if (magnitude >= 1e6 || step < 1e-5)
        return tidyExponent(QString::number(v, 'g', 4));
    const int decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 8);
    return QString::number(v, 'f', decimals);
}

QString logLabel(double v)
{
    const double e = std::log10(v);
    if (e >= -3.0 - 1e-9 && e < 5.0)
        return QString::number(v, 'g', 4);
    return tidyExponent(QString::number(v, 'g', 3));
}

QString markerValue(double v)
{
    return tidyExponent(QString::number(v, 'g', 4));
}

/// Ticks of a log axis (lo10/hi10 are log10 of the range); values in data space.
std::vector<double> logTicks(double lo10, double hi10, int target)
{
    std::vector<double> ticks;
    const int d0 = static_cast<int>(std::ceil(lo10 - 1e-9));
    const int d1 = static_cast<int>(std::floor(hi10 + 1e-9));
    const int decades = d1 - d0 + 1;
    if (decades >= 2) {
        const int every = std::max(1, (decades + target - 1) / std::max(1, target));
        for (int d = d0; d <= d1; d += every)
            ticks.push_back(std::pow(10.0, d));
        if (decades * 3 <= target) { // few decades: add 2 and 5 between them
            std::vector<double> more;
            for (int d = d0 - 1; d <= d1; ++d)
                for (double m : {2.0, 5.0}) {
                    const double v = m * std::pow(10.0, d);
                    const double l = std::log10(v);
                    if (l >= lo10 - 1e-9 && l <= hi10 + 1e-9)
                        more.push_back(v);
                }
            ticks.insert(ticks.end(), more.begin(), more.end());
            std::sort(ticks.begin(), ticks.end());
        }
        return ticks;
    }
    for (int d = static_cast<int>(std::floor(lo10)) - 1; d <= static_cast<int>(std::ceil(hi10)); ++d)
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, d);
            const double l = std::log10(v);
            if (l >= lo10 - 1e-9 && l <= hi10 + 1e-9)
                ticks.push_back(v);
        }
    if (ticks.size() >= 2)
        return ticks;
    // Less than a factor 2 of range: ordinary nice ticks on the values.
    double step = 0.0;
    ticks = linearTicks(std::pow(10.0, lo10), std::pow(10.0, hi10), target, step);
    ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [](double v) { return v <= 0.0; }), ticks.end());
    return ticks;
}

QFont tickFont(const QFont& base)
{
    QFont f = base;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 0.9);
    else if (f.pixelSize() > 0)
        f.setPixelSize(std::max(8, static_cast<int>(f.pixelSize() * 0.9)));
    return f;
}

QFont titleFont(const QFont& base)
{
    QFont f = base;
    f.setBold(true);
    return f;
}

/// The layout of one frame: plot rectangle, ranges (y in log10 when logY) and ticks.
struct Frame {
    QRectF plot;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    bool logY = false;
    std::vector<double> xticks, yticks;
    QStringList xlabels, ylabels;

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

} // namespace

struct PlotWidget::Impl {
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

    const Bounds& dataBounds() const
    {
        if (!boundsDirty)
            return bounds;
        Bounds b;
        for (const Series& s : series) {
            if (s.kind == Kind::Bars) {
                const int bars = std::min<int>(s.y.size(), s.x.size() - 1);
                for (int i = 0; i < bars; ++i) {
                    const double e0 = s.x[i], e1 = s.x[i + 1], c = s.y[i];
                    if (!std::isfinite(e0) || !std::isfinite(e1) || !std::isfinite(c))
                        continue;
                    b.bars = true;
                    extend(b.xmin, b.xmax, e0);
                    extend(b.xmin, b.xmax, e1);
                    extend(b.ymin, b.ymax, c);
                    extend(b.ymin, b.ymax, 0.0);
                    if (c > 0.0)
                        extend(b.yposmin, b.yposmax, c);
                }
                continue;
            }
            const int n = std::min(s.x.size(), s.y.size());
            for (int i = 0; i < n; ++i) {
                const double x = s.x[i], y = s.y[i];
                if (!std::isfinite(x) || !std::isfinite(y))
                    continue;
                extend(b.xmin, b.xmax, x);
                extend(b.ymin, b.ymax, y);
                if (y > 0.0)
                    extend(b.yposmin, b.yposmax, y);
            }
        }
        bounds = b;
        boundsDirty = false;
        return bounds;
    }

    Frame frame(const QWidget* w) const
    {
        Frame f;
        f.logY = logY;
        const Bounds& b = dataBounds();

        // x range
        if (fixedX) {
            f.x0 = fx0;
            f.x1 = fx1;
        } else if (b.any()) {
            f.x0 = b.xmin;
            f.x1 = b.xmax;
            const bool onlyBars = b.bars && std::all_of(series.begin(), series.end(),
                                                        [](const Series& s) { return s.kind == Kind::Bars; });
            const double pad = onlyBars ? 0.0 : 0.03 * (f.x1 - f.x0);
            f.x0 -= pad;
            f.x1 += pad;
        }
        widenDegenerate(f.x0, f.x1);

        // y range (log10 space when logY)
        if (logY) {
            double lo = kNaN, hi = kNaN;
            if (fixedY && fy1 > 0.0) {
                hi = fy1;
                lo = fy0 > 0.0 ? fy0 : (std::isfinite(b.yposmin) && b.yposmin < hi ? b.yposmin : hi / 1000.0);
                f.y0 = std::log10(lo);
                f.y1 = std::log10(hi);
            } else if (std::isfinite(b.yposmin)) {
                f.y0 = std::log10(b.yposmin);
                f.y1 = std::log10(b.yposmax);
                const double pad = 0.05 * (f.y1 - f.y0);
                f.y0 -= pad;
                f.y1 += pad;
            } else {
                f.y0 = 0.0;
                f.y1 = 1.0;
            }
            if (f.y1 - f.y0 <= 1e-12) {
                f.y0 -= 0.5;
                f.y1 += 0.5;
            }
        } else if (fixedY) {
            f.y0 = fy0;
            f.y1 = fy1;
        } else if (b.any()) {
            f.y0 = b.ymin;
            f.y1 = b.ymax;
            const double span = f.y1 - f.y0;
            if (!(b.bars && f.y0 == 0.0))
                f.y0 -= 0.05 * span;
            f.y1 += 0.05 * span;
        }
        if (!logY)
            widenDegenerate(f.y0, f.y1);

        // Layout: top/bottom margins from the fonts, then y ticks, then the left margin, then x ticks.
        const QFontMetricsF tfm(tickFont(w->font()));
        const QFontMetricsF fm(w->font());
        const QFontMetricsF titleFm(titleFont(w->font()));
        const double pad = 4.0;
        const double top = pad + (title.isEmpty() ? 6.0 : titleFm.height() + 4.0);
        const double bottom = pad + tfm.height() + 6.0 + (xTitle.isEmpty() ? 0.0 : fm.height() + 2.0);
        const double plotH = std::max(10.0, w->height() - top - bottom);

        const int yTarget = std::clamp(static_cast<int>(plotH / 36.0), 2, 10);
        if (logY) {
            f.yticks = logTicks(f.y0, f.y1, yTarget);
            for (double v : f.yticks)
                f.ylabels << logLabel(v);
        } else {
            double step = 1.0;
            f.yticks = linearTicks(f.y0, f.y1, yTarget, step);
            const double mag = std::max(std::fabs(f.y0), std::fabs(f.y1));
            for (double v : f.yticks)
                f.ylabels << linearLabel(v, step, mag);
        }
        double labelW = 0.0;
        for (const QString& s : f.ylabels)
            labelW = std::max(labelW, tfm.horizontalAdvance(s));
        const double left = pad + (yTitle.isEmpty() ? 0.0 : fm.height() + 4.0) + labelW + 7.0;
        const double right = 12.0;
        const double plotW = std::max(10.0, w->width() - left - right);
        f.plot = QRectF(left, top, plotW, plotH);

        int xTarget = std::clamp(static_cast<int>(plotW / 60.0), 2, 10);
        const double xmag = std::max(std::fabs(f.x0), std::fabs(f.x1));
        for (;;) { // fewer ticks until the labels do not touch
            double step = 1.0;
            f.xticks = linearTicks(f.x0, f.x1, xTarget, step);
            f.xlabels.clear();
            double widest = 0.0;
            for (double v : f.xticks) {
                f.xlabels << linearLabel(v, step, xmag);
                widest = std::max(widest, tfm.horizontalAdvance(f.xlabels.back()));
            }
            const double spacing = step / (f.x1 - f.x0) * plotW;
            if (xTarget <= 2 || widest + 8.0 <= spacing)
                break;
            --xTarget;
        }
        return f;
    }

    /// Pixel polylines of a line series, split at invalid values, decimated per pixel column.
    std::vector<QPolygonF> polylines(const Series& s, const Frame& f) const
    {
        std::vector<QPolygonF> out;
        QPolygonF cur;
        const int n = std::min(s.x.size(), s.y.size());
        const bool decimate = n > 4 * f.plot.width();
        auto flush = [&] {
            if (!cur.isEmpty())
                out.push_back(cur);
            cur = QPolygonF();
        };
        // Decimation state: the points of the current pixel column.
        bool has = false;
        long column = 0;
        QPointF first, last, lo, hi;
        int loIdx = 0, hiIdx = 0, firstIdx = 0, lastIdx = 0;
        auto emitColumn = [&] {
            if (!has)
                return;
            cur << first;
            const bool loFirst = loIdx <= hiIdx;
            const QPointF a = loFirst ? lo : hi, b = loFirst ? hi : lo;
            const int ai = loFirst ? loIdx : hiIdx, bi = loFirst ? hiIdx : loIdx;
            if (ai != firstIdx && ai != lastIdx)
                cur << a;
            if (bi != firstIdx && bi != lastIdx && bi != ai)
                cur << b;
            if (lastIdx != firstIdx)
                cur << last;
            has = false;
        };
        for (int i = 0; i < n; ++i) {
            const double x = s.x[i], y = s.y[i];
            const double py = std::isfinite(x) ? f.py(y) : kNaN;
            if (std::isnan(py)) {
                emitColumn();
                flush();
                continue;
            }
            const QPointF p(f.px(x), py);
            if (!decimate) {
                cur << p;
                continue;
            }
            const long c = static_cast<long>(std::floor(p.x()));
            if (has && c == column) {
                last = p;
                lastIdx = i;
                if (p.y() < lo.y()) {
                    lo = p;
                    loIdx = i;
                }
                if (p.y() > hi.y()) {
                    hi = p;
                    hiIdx = i;
                }
                continue;
            }
            emitColumn();
            has = true;
            column = c;
            first = last = lo = hi = p;
            firstIdx = lastIdx = loIdx = hiIdx = i;
        }
        emitColumn();
        flush();
        return out;
    }

    bool hasData() const { return dataBounds().any(); }
};

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent), d(std::make_shared<Impl>())
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void PlotWidget::setTitle(const QString& title)
{
    d->title = title;
    update();
}

void PlotWidget::setAxisTitles(const QString& x, const QString& y)
{
    d->xTitle = x;
    d->yTitle = y;
    update();
}

void PlotWidget::setXRange(double lo, double hi)
{
    d->fixedX = true;
    d->fx0 = lo;
    d->fx1 = hi;
    update();
}

void PlotWidget::setYRange(double lo, double hi)
{
    d->fixedY = true;
    d->fy0 = lo;
    d->fy1 = hi;
    update();
}

void PlotWidget::setAutoRange()
{
    d->fixedX = d->fixedY = false;
    update();
}

void PlotWidget::setLogY(bool on)
{
    d->logY = on;
    update();
}

void PlotWidget::clear()
{
    d->series.clear();
    d->boundsDirty = true;
    update();
}

int PlotWidget::addLine(const QVector<double>& x, const QVector<double>& y, const QColor& colour, const QString& name,
                        double width, Qt::PenStyle style)
{
    Series s;
    s.kind = Kind::Line;
    s.x = x;
    s.y = y;
    s.colour = colour;
    s.name = name;
    s.width = width;
    s.style = style;
    d->series.push_back(std::move(s));
    d->boundsDirty = true;
    update();
    return static_cast<int>(d->series.size()) - 1;
}

int PlotWidget::addBars(const QVector<double>& edges, const QVector<double>& counts, const QColor& colour,
                        const QString& name)
{
    Series s;
    s.kind = Kind::Bars;
    s.x = edges;
    s.y = counts;
    s.colour = colour;
    s.name = name;
    d->series.push_back(std::move(s));
    d->boundsDirty = true;
    update();
    return static_cast<int>(d->series.size()) - 1;
}

int PlotWidget::addPoints(const QVector<double>& x, const QVector<double>& y, const QColor& colour,
                          const QString& name, double radius)
{
    Series s;
    s.kind = Kind::Points;
    s.x = x;
    s.y = y;
    s.colour = colour;
    s.name = name;
    s.radius = radius;
    d->series.push_back(std::move(s));
    d->boundsDirty = true;
    update();
    return static_cast<int>(d->series.size()) - 1;
}

void PlotWidget::setLineData(int series, const QVector<double>& x, const QVector<double>& y)
{
    if (series < 0 || series >= static_cast<int>(d->series.size()))
        return;
    d->series[static_cast<std::size_t>(series)].x = x;
    d->series[static_cast<std::size_t>(series)].y = y;
    d->boundsDirty = true;
    update();
}

void PlotWidget::setMarker(double x, bool visible)
{
    d->marker = x;
    d->markerVisible = visible && std::isfinite(x);
    update();
}

void PlotWidget::setMarkerDraggable(bool on)
{
    d->draggable = on;
    if (!on) {
        d->dragging = false;
        unsetCursor();
    }
}

double PlotWidget::marker() const
{
    return d->marker;
}

bool PlotWidget::markerVisible() const
{
    return d->markerVisible;
}

void PlotWidget::setMarkerLabel(const QString& label)
{
    d->markerLabel = label;
    update();
}

QRectF PlotWidget::plotRect() const
{
    return d->frame(this).plot;
}

QPointF PlotWidget::toPixel(double x, double y) const
{
    const Frame f = d->frame(this);
    return {f.px(x), f.py(y)};
}

double PlotWidget::toDataX(double px) const
{
    return d->frame(this).dataX(px);
}

QVector<double> PlotWidget::niceTicks(double lo, double hi, int target)
{
    widenDegenerate(lo, hi);
    double step = 1.0;
    const std::vector<double> t = linearTicks(lo, hi, std::max(1, target), step);
    return QVector<double>(t.begin(), t.end());
}

void PlotWidget::paintEvent(QPaintEvent*)
{
    const Frame f = d->frame(this);
    const QRectF& plot = f.plot;
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    p.setRenderHint(QPainter::Antialiasing, true);

    const QFont tfont = tickFont(font());
    const QFontMetricsF tfm(tfont);
    const QFontMetricsF fm(font());

    // Title
    if (!d->title.isEmpty()) {
        const QFont tf = titleFont(font());
        p.setFont(tf);
        p.setPen(QColor(30, 30, 30));
        const QFontMetricsF titleFm(tf);
        const QString text = titleFm.elidedText(d->title, Qt::ElideRight, width() - 8);
        p.drawText(QRectF(4, 3, width() - 8, titleFm.height()), Qt::AlignHCenter | Qt::AlignVCenter, text);
    }

    // Grid, frame, ticks and tick labels
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPen gridPen(QColor(232, 232, 232), 1);
    const QPen axisPen(QColor(90, 90, 90), 1);
    p.setFont(tfont);
    std::vector<double> xpix, ypix;
    for (double v : f.xticks)
        xpix.push_back(f.px(v));
    for (double v : f.yticks)
        ypix.push_back(f.py(v));
    p.setPen(gridPen);
    for (double x : xpix)
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    for (double y : ypix)
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    p.setPen(axisPen);
    p.drawRect(plot);
    p.setPen(QColor(60, 60, 60));
    for (std::size_t i = 0; i < xpix.size(); ++i) {
        p.drawLine(QPointF(xpix[i], plot.bottom()), QPointF(xpix[i], plot.bottom() + 4));
        const double w = tfm.horizontalAdvance(f.xlabels[static_cast<int>(i)]);
        const double x = std::clamp(xpix[i] - w / 2, 0.0, std::max(0.0, width() - w - 1.0));
        p.drawText(QRectF(x, plot.bottom() + 5, w + 1, tfm.height()), Qt::AlignCenter, f.xlabels[static_cast<int>(i)]);
    }
    for (std::size_t i = 0; i < ypix.size(); ++i) {
        p.drawLine(QPointF(plot.left() - 4, ypix[i]), QPointF(plot.left(), ypix[i]));
        const double w = tfm.horizontalAdvance(f.ylabels[static_cast<int>(i)]);
        p.drawText(QRectF(plot.left() - 6 - w, ypix[i] - tfm.height() / 2, w, tfm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, f.ylabels[static_cast<int>(i)]);
    }

    // Axis titles
    p.setFont(font());
    p.setPen(QColor(40, 40, 40));
    if (!d->xTitle.isEmpty()) {
        const QRectF r(plot.left(), plot.bottom() + 5 + tfm.height() + 1, plot.width(), fm.height());
        p.drawText(r, Qt::AlignCenter, fm.elidedText(d->xTitle, Qt::ElideRight, plot.width()));
    }
    if (!d->yTitle.isEmpty()) {
        p.save();
        p.translate(4, plot.center().y());
        p.rotate(-90);
        const QRectF r(-plot.height() / 2, 0, plot.height(), fm.height());
        p.drawText(r, Qt::AlignCenter, fm.elidedText(d->yTitle, Qt::ElideRight, plot.height()));
        p.restore();
    }

    // Data
    p.save();
    p.setClipRect(plot.adjusted(-1, -1, 1, 1));
    std::vector<std::vector<QPolygonF>> lines(d->series.size());
    for (const Series& s : d->series) {
        if (s.kind != Kind::Bars)
            continue;
        QColor fill = s.colour;
        fill.setAlpha(110);
        p.setPen(QPen(s.colour.darker(115), 1));
        p.setBrush(fill);
        const int bars = std::min<int>(s.y.size(), s.x.size() - 1);
        for (int i = 0; i < bars; ++i) {
            const double c = s.y[i];
            if (!std::isfinite(s.x[i]) || !std::isfinite(s.x[i + 1]) || !std::isfinite(c) || c == 0.0)
                continue;
            const double top = f.py(c);
            if (std::isnan(top))
                continue;
            const double base = f.logY ? plot.bottom() + 1 : f.py(0.0);
            const double x0 = f.px(s.x[i]), x1 = f.px(s.x[i + 1]);
            p.drawRect(QRectF(QPointF(std::min(x0, x1), std::min(top, base)), QPointF(std::max(x0, x1), std::max(top, base))));
        }
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setBrush(Qt::NoBrush);
    for (std::size_t k = 0; k < d->series.size(); ++k) {
        const Series& s = d->series[k];
        if (s.kind != Kind::Line)
            continue;
        lines[k] = d->polylines(s, f);
        QPen pen(s.colour, s.width, s.style, Qt::RoundCap, Qt::RoundJoin);
        p.setPen(pen);
        for (const QPolygonF& poly : lines[k]) {
            if (poly.size() == 1) { // a lone point: a dot so it stays visible
                p.setBrush(s.colour);
                p.drawEllipse(poly.front(), s.width + 1.0, s.width + 1.0);
                p.setBrush(Qt::NoBrush);
            } else {
                p.drawPolyline(poly);
            }
        }
    }
    for (const Series& s : d->series) {
        if (s.kind != Kind::Points)
            continue;
        p.setPen(QPen(Qt::white, 1.5));
        p.setBrush(s.colour);
        const int n = std::min(s.x.size(), s.y.size());
        for (int i = 0; i < n; ++i) {
            const double y = f.py(s.y[i]);
            if (!std::isfinite(s.x[i]) || std::isnan(y))
                continue;
            p.drawEllipse(QPointF(f.px(s.x[i]), y), s.radius, s.radius);
        }
    }
    p.restore();

    if (!d->hasData()) {
        p.setPen(QColor(140, 140, 140));
        p.setFont(font());
        p.drawText(plot, Qt::AlignCenter, tr("no data"));
    }

    // Marker: dashed dark line with its value at the top
    if (d->markerVisible) {
        const double mx = f.px(d->marker);
        const bool inside = mx >= plot.left() - 0.5 && mx <= plot.right() + 0.5;
        QString text = markerValue(d->marker);
        if (!d->markerLabel.isEmpty())
            text = d->markerLabel + ' ' + text;
        QFont mf = tfont;
        mf.setBold(true);
        const QFontMetricsF mfm(mf);
        if (inside) {
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setPen(QPen(QColor(25, 25, 25), 2, Qt::DashLine));
            p.drawLine(QPointF(mx, plot.top()), QPointF(mx, plot.bottom()));
            p.setRenderHint(QPainter::Antialiasing, true);
        } else {
            text = mx < plot.left() ? QStringLiteral("◀ ") + text : text + QStringLiteral(" ▶");
        }
        const double w = mfm.horizontalAdvance(text) + 6;
        double x = inside ? mx + 4 : (mx < plot.left() ? plot.left() + 2 : plot.right() - 2 - w);
        if (inside && x + w > plot.right() - 1)
            x = mx - 4 - w;
        x = std::max(x, plot.left() + 1);
        const QRectF box(x, plot.top() + 2, w, mfm.height() + 2);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 255, 255, 225));
        p.drawRect(box);
        p.setFont(mf);
        p.setPen(QColor(25, 25, 25));
        p.drawText(box, Qt::AlignCenter, text);
    }

    // Legend: named series, placed in the corner of the plot that hides the least data.
    std::vector<int> entries;
    for (std::size_t k = 0; k < d->series.size(); ++k)
        if (!d->series[k].name.isEmpty())
            entries.push_back(static_cast<int>(k));
    if (entries.empty())
        return;
    p.setFont(tfont);
    const double lh = tfm.height() + 1;
    const double sample = 18.0;
    const double maxText = std::max(30.0, plot.width() * 0.6);
    double textW = 0.0;
    for (int k : entries)
        textW = std::min(maxText, std::max(textW, tfm.horizontalAdvance(d->series[static_cast<std::size_t>(k)].name)));
    const QSizeF size(6 + sample + 5 + textW + 6, 4 + lh * entries.size() + 3);
    const double inset = 5.0;
    const QRectF candidates[] = {
        QRectF(QPointF(plot.right() - inset - size.width(), plot.top() + inset + (d->markerVisible ? tfm.height() + 4 : 0)), size),
        QRectF(QPointF(plot.left() + inset, plot.top() + inset + (d->markerVisible ? tfm.height() + 4 : 0)), size),
        QRectF(QPointF(plot.right() - inset - size.width(), plot.bottom() - inset - size.height()), size),
        QRectF(QPointF(plot.left() + inset, plot.bottom() - inset - size.height()), size),
    };
    double best = std::numeric_limits<double>::infinity();
    QRectF box = candidates[0];
    for (const QRectF& c : candidates) {
        double cost = 0.0;
        for (std::size_t k = 0; k < d->series.size(); ++k) {
            const Series& s = d->series[k];
            if (s.kind == Kind::Line) {
                for (const QPolygonF& poly : lines[k]) {
                    for (int i = 0; i + 1 < poly.size(); ++i) {
                        const QPointF a = poly[i], b = poly[i + 1];
                        const double len = std::hypot(b.x() - a.x(), b.y() - a.y());
                        const int steps = std::clamp(static_cast<int>(len / 3.0), 1, 200);
                        for (int t = 0; t <= steps; ++t)
                            if (c.contains(a + (b - a) * (double(t) / steps)))
                                cost += 1.0;
                    }
                    if (poly.size() == 1 && c.contains(poly.front()))
                        cost += 5.0;
                }
            } else if (s.kind == Kind::Points) {
                const int n = std::min(s.x.size(), s.y.size());
                for (int i = 0; i < n; ++i)
                    if (c.contains(QPointF(f.px(s.x[i]), f.py(s.y[i]))))
                        cost += 20.0;
            } else {
                const int bars = std::min<int>(s.y.size(), s.x.size() - 1);
                for (int i = 0; i < bars; ++i) {
                    if (!std::isfinite(s.y[i]) || s.y[i] == 0.0)
                        continue;
                    const double top = f.py(s.y[i]);
                    if (std::isnan(top))
                        continue;
                    const double base = f.logY ? plot.bottom() : f.py(0.0);
                    const QRectF r(QPointF(f.px(s.x[i]), std::min(top, base)), QPointF(f.px(s.x[i + 1]), std::max(top, base)));
                    const QRectF in = r.normalized().intersected(c);
                    cost += in.width() * in.height() / 9.0;
                }
            }
        }
        if (d->markerVisible) {
            const double mx = f.px(d->marker);
            if (mx >= c.left() && mx <= c.right())
                cost += c.height() / 3.0;
        }
        if (cost < best - 1e-9) {
            best = cost;
            box = c;
        }
    }
    p.setPen(QPen(QColor(170, 170, 170), 1));
    p.setBrush(QColor(255, 255, 255, 230));
    p.drawRect(box);
    for (std::size_t e = 0; e < entries.size(); ++e) {
        const Series& s = d->series[static_cast<std::size_t>(entries[e])];
        const double cy = box.top() + 4 + lh * e + lh / 2;
        const double sx = box.left() + 6;
        if (s.kind == Kind::Line) {
            p.setPen(QPen(s.colour, std::max(1.5, s.width), s.style, Qt::FlatCap));
            p.drawLine(QPointF(sx, cy), QPointF(sx + sample, cy));
        } else if (s.kind == Kind::Bars) {
            QColor fill = s.colour;
            fill.setAlpha(110);
            p.setPen(QPen(s.colour.darker(115), 1));
            p.setBrush(fill);
            p.drawRect(QRectF(sx + 3, cy - lh * 0.32, sample - 6, lh * 0.64));
        } else {
            p.setPen(QPen(Qt::white, 1.5));
            p.setBrush(s.colour);
            p.drawEllipse(QPointF(sx + sample / 2, cy), std::min(s.radius, lh * 0.4), std::min(s.radius, lh * 0.4));
        }
        p.setPen(QColor(30, 30, 30));
        p.drawText(QRectF(sx + sample + 5, cy - lh / 2, textW + 2, lh), Qt::AlignLeft | Qt::AlignVCenter,
                   tfm.elidedText(s.name, Qt::ElideRight, textW + 1));
    }
}

void PlotWidget::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !d->draggable || !d->markerVisible) {
        QWidget::mousePressEvent(e);
        return;
    }
    const Frame f = d->frame(this);
    const QPointF pos = e->position();
    const bool inY = pos.y() >= f.plot.top() - kGrab && pos.y() <= f.plot.bottom() + kGrab;
    const bool nearMarker = std::fabs(pos.x() - f.px(d->marker)) <= kGrab;
    const bool inPlot = pos.x() >= f.plot.left() && pos.x() <= f.plot.right();
    if (!inY || (!nearMarker && !inPlot)) {
        QWidget::mousePressEvent(e);
        return;
    }
    d->dragging = true;
    setCursor(Qt::SizeHorCursor);
    if (!nearMarker) { // a click elsewhere in the plot moves the marker there
        const double x = f.dataX(std::clamp(pos.x(), f.plot.left(), f.plot.right()));
        d->marker = x;
        update();
        emit markerMoved(x);
    }
    e->accept();
}

void PlotWidget::mouseMoveEvent(QMouseEvent* e)
{
    const Frame f = d->frame(this);
    const QPointF pos = e->position();
    if (d->dragging) {
        const double x = f.dataX(std::clamp(pos.x(), f.plot.left(), f.plot.right()));
        if (x != d->marker) {
            d->marker = x;
            update();
            emit markerMoved(x);
        }
        e->accept();
        return;
    }
    const bool hover = d->draggable && d->markerVisible && std::fabs(pos.x() - f.px(d->marker)) <= kGrab
                       && pos.y() >= f.plot.top() - kGrab && pos.y() <= f.plot.bottom() + kGrab;
    if (hover)
        setCursor(Qt::SizeHorCursor);
    else
        unsetCursor();
    QWidget::mouseMoveEvent(e);
}

void PlotWidget::mouseReleaseEvent(QMouseEvent* e)
{
    if (d->dragging && e->button() == Qt::LeftButton) {
        d->dragging = false;
        e->accept();
        return;
    }
    QWidget::mouseReleaseEvent(e);
}

} // namespace olens
