// PlotWidget: paints the plot model's Frame (PlotModel.h: ranges, ticks, layout, decimation) and
// handles the draggable marker; every frame is laid out from the widget size and fonts, so
// painting, mouse handling and toPixel/toDataX always agree.
#include "plots/PlotWidget.h"

#include "plots/PlotModel.h"
#include "display/Ticks.h"

#include <QApplication>
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

using namespace plot;

namespace {
constexpr double kGrab = 6.0; // pixels either side of the marker that grab it
} // namespace

// The widget's state is the plot model; painting and mouse handling read its Frame.
struct PlotWidget::Impl : PlotModel {
};

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent), d(std::make_shared<Impl>())
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

std::unique_ptr<PlotWidget> PlotWidget::figureCopy(QSize size, double textScale) const
{
    auto copy = std::make_unique<PlotWidget>();
    *copy->d = *d; // the series, ranges, titles and marker (plain data)
    copy->setAttribute(Qt::WA_DontShowOnScreen);
    copy->resize(size.isValid() && !size.isEmpty() ? size : this->size());
    copy->setTextScale(textScale > 0.0 ? textScale : font().pointSizeF() / QApplication::font(this).pointSizeF());
    return copy;
}

void PlotWidget::setTextScale(double scale)
{
    QFont f = QApplication::font(this);
    f.setPointSizeF(f.pointSizeF() * scale);
    setFont(f); // every layout and text of the plot derives from font()
    update();
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

void PlotWidget::setSeriesName(int series, const QString& name)
{
    if (series < 0 || series >= static_cast<int>(d->series.size()))
        return;
    d->series[static_cast<std::size_t>(series)].name = name;
    update();
}

QPair<QVector<double>, QVector<double>> PlotWidget::seriesData(int series) const
{
    if (series < 0 || series >= static_cast<int>(d->series.size()))
        return {};
    const auto& s = d->series[static_cast<std::size_t>(series)];
    return {s.x, s.y};
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

void PlotWidget::setMarkerLabel(const QString& label)
{
    d->markerLabel = label;
    update();
}

QPair<QString, QString> PlotWidget::shownAxisTitles() const
{
    QFont f;
    return {fittedTitle(font(), d->xTitle, width() - 8, &f), fittedTitle(font(), d->yTitle, height() - 8, &f)};
}

QRectF PlotWidget::plotRect() const
{
    return d->frame(this).plot;
}

QRectF PlotWidget::legendRect() const
{
    return d->frame(this).legend;
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
    widenDegenerate(lo, hi); // display/Ticks.h
    double step = 1.0;
    const std::vector<double> t = linearTicks(lo, hi, std::max(1, target), step);
    return QVector<double>(t.begin(), t.end());
}

void PlotWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintPlot(p, true);
}

QString PlotWidget::title() const
{
    return d->title;
}

bool PlotWidget::hasData() const
{
    for (const Series& s : d->series)
        if (!s.y.isEmpty())
            return true;
    return false;
}

void PlotWidget::paintPlot(QPainter& p, bool background) const
{
    const Frame f = d->frame(this);
    const QRectF& plot = f.plot;
    if (background)
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
    // Titles may use the widget's whole width / height (not only the plot's), in a smaller font
    // before anything is elided ("true positive rate" on a short ROC plot).
    const auto titles = shownAxisTitles();
    if (!d->xTitle.isEmpty()) {
        QFont f;
        fittedTitle(font(), d->xTitle, width() - 8, &f);
        p.setFont(f);
        const QRectF r(4, plot.bottom() + 5 + tfm.height() + 1, width() - 8, fm.height());
        p.drawText(r, Qt::AlignCenter, titles.first);
    }
    if (!d->yTitle.isEmpty()) {
        QFont f;
        fittedTitle(font(), d->yTitle, height() - 8, &f);
        p.setFont(f);
        p.save();
        p.translate(4, height() / 2.0);
        p.rotate(-90);
        const QRectF r(-(height() - 8) / 2.0, 0, height() - 8, fm.height());
        p.drawText(r, Qt::AlignCenter, titles.second);
        p.restore();
    }
    p.setFont(font());

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

    // Legend: named series, in the corner of the plot that hides no data, else outside the plot
    // (PlotModel::frame places it).
    if (f.legendEntries.empty())
        return;
    p.setFont(tfont);
    const std::vector<int>& entries = f.legendEntries;
    const double lh = tfm.height() + 1;
    const double sample = 18.0;
    const double textW = f.legendTextW;
    const double columnW = 6 + sample + 5 + textW + 6;
    const QRectF box = f.legend;
    p.setPen(QPen(QColor(170, 170, 170), 1));
    p.setBrush(QColor(255, 255, 255, 230));
    p.drawRect(box);
    for (std::size_t e = 0; e < entries.size(); ++e) {
        const Series& s = d->series[static_cast<std::size_t>(entries[e])];
        const int row = static_cast<int>(e) / f.legendColumns, column = static_cast<int>(e) % f.legendColumns;
        const double cy = box.top() + 4 + lh * row + lh / 2;
        const double sx = box.left() + columnW * column + 6;
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
