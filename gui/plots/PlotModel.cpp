// Ranges follow the data unless fixed; degenerate ranges are widened so no mapping ever divides by
// zero. Long lines are decimated per pixel column (first/min/max/last of each column), which keeps
// their visual envelope exact.
#include "plots/PlotModel.h"

#include "display/Ticks.h"

#include <QFontMetricsF>
#include <QWidget>

namespace olens::plot {

namespace {

void extend(double& lo, double& hi, double v)
{
    if (std::isnan(lo) || v < lo)
        lo = v;
    if (std::isnan(hi) || v > hi)
        hi = v;
}

} // namespace

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

QString fittedTitle(const QFont& base, const QString& text, double room, QFont* font)
{
    QFont f = base;
    const double size = f.pointSizeF() > 0 ? f.pointSizeF() : 0.0;
    for (double scale = 1.0; scale >= 0.7 - 1e-9; scale -= 0.05) {
        if (size > 0)
            f.setPointSizeF(size * scale);
        if (QFontMetricsF(f).horizontalAdvance(text) <= room || size <= 0)
            break;
    }
    *font = f;
    return QFontMetricsF(f).elidedText(text, Qt::ElideRight, room);
}

const Bounds& PlotModel::dataBounds() const
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

Frame PlotModel::layout(const QWidget* w, QSizeF reserve) const
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
    const double bottom = pad + tfm.height() + 6.0 + (xTitle.isEmpty() ? 0.0 : fm.height() + 2.0) + reserve.height();
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
    const double right = 12.0 + reserve.width();
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

Frame PlotModel::frame(const QWidget* w) const
{
    Frame f = layout(w, {});
    for (std::size_t k = 0; k < series.size(); ++k)
        if (!series[k].name.isEmpty())
            f.legendEntries.push_back(static_cast<int>(k));
    if (f.legendEntries.empty())
        return f;

    const QFontMetricsF tfm(tickFont(w->font()));
    const double lh = tfm.height() + 1;
    const double sample = 18.0;
    double widest = 0.0;
    for (int k : f.legendEntries)
        widest = std::max(widest, tfm.horizontalAdvance(series[static_cast<std::size_t>(k)].name));
    const auto boxSize = [&](double textW, int columns) {
        const int rows = (static_cast<int>(f.legendEntries.size()) + columns - 1) / columns;
        return QSizeF(columns * (6 + sample + 5 + textW + 6), 4 + lh * rows + 3);
    };

    // 1. Inside: the first corner (top right, top left, bottom right, bottom left), else the first
    // edge's middle (left, right, bottom, top), that hides no data.
    const double markerRow = markerVisible ? tfm.height() + 4 : 0.0;
    f.legendTextW = std::min(std::max(30.0, f.plot.width() * 0.6), widest);
    const QSizeF inSize = boxSize(f.legendTextW, 1);
    const double inset = 5.0;
    const QRectF corners[] = {
        QRectF(QPointF(f.plot.right() - inset - inSize.width(), f.plot.top() + inset + markerRow), inSize),
        QRectF(QPointF(f.plot.left() + inset, f.plot.top() + inset + markerRow), inSize),
        QRectF(QPointF(f.plot.right() - inset - inSize.width(), f.plot.bottom() - inset - inSize.height()), inSize),
        QRectF(QPointF(f.plot.left() + inset, f.plot.bottom() - inset - inSize.height()), inSize),
        QRectF(QPointF(f.plot.left() + inset, f.plot.center().y() - inSize.height() / 2), inSize),
        QRectF(QPointF(f.plot.right() - inset - inSize.width(), f.plot.center().y() - inSize.height() / 2), inSize),
        QRectF(QPointF(f.plot.center().x() - inSize.width() / 2, f.plot.bottom() - inset - inSize.height()), inSize),
        QRectF(QPointF(f.plot.center().x() - inSize.width() / 2, f.plot.top() + inset + markerRow), inSize),
    };
    std::vector<std::vector<QPolygonF>> lines(series.size());
    for (std::size_t k = 0; k < series.size(); ++k)
        if (series[k].kind == Kind::Line)
            lines[k] = polylines(series[k], f);
    double best = std::numeric_limits<double>::infinity();
    for (const QRectF& c : corners) {
        const bool fits = c.left() >= f.plot.left() && c.top() >= f.plot.top() + markerRow && c.bottom() <= f.plot.bottom();
        const double cost = fits ? legendCost(f, c, lines) : std::numeric_limits<double>::infinity();
        if (cost < best) {
            best = cost;
            f.legend = c;
        }
    }
    if (best <= 0.0)
        return f;

    // 2. Every corner hides data (a small dock): the legend goes outside the plot, to the right
    // (one column) or below (as many columns as fit), whichever leaves the larger plot (its
    // shorter side: ROC and PR plots are square in nature). The plot shrinks to make room.
    const double gap = 6.0;
    const double rightText = std::min(widest, std::max(30.0, w->width() * 0.3));
    const QSizeF rightSize = boxSize(rightText, 1);
    Frame right = layout(w, QSizeF(rightSize.width() + gap - 8.0, 0.0));
    right.legend = QRectF(QPointF(right.plot.right() + gap, right.plot.top()), rightSize);

    const double belowText = std::min(widest, std::max(30.0, w->width() - 40.0));
    int columns = static_cast<int>(f.legendEntries.size());
    while (columns > 1 && boxSize(belowText, columns).width() > w->width() - 8.0)
        --columns;
    const QSizeF belowSize = boxSize(belowText, columns);
    Frame below = layout(w, QSizeF(0.0, belowSize.height() + 2.0));
    const double bx = std::clamp(below.plot.center().x() - belowSize.width() / 2, 4.0,
                                 std::max(4.0, w->width() - 4.0 - belowSize.width()));
    below.legend = QRectF(QPointF(bx, w->height() - 3.0 - belowSize.height()), belowSize);
    below.legendColumns = columns;
    below.legendTextW = belowText;
    right.legendTextW = rightText;

    const auto side = [](const Frame& g) { return std::min(g.plot.width(), g.plot.height()); };
    Frame out = side(right) >= side(below) ? std::move(right) : std::move(below);
    out.legendEntries = f.legendEntries;
    return out;
}

double PlotModel::legendCost(const Frame& f, const QRectF& box, const std::vector<std::vector<QPolygonF>>& lines) const
{
    double cost = 0.0;
    for (std::size_t k = 0; k < series.size(); ++k) {
        const Series& s = series[k];
        // A line is as wide as its pen and a dot as its radius: the box grown by that (and a
        // pixel) must stay clear of their centres.
        const double grow = (s.kind == Kind::Line ? s.width / 2 : s.kind == Kind::Points ? s.radius : 0.0) + 1.0;
        const QRectF c = box.adjusted(-grow, -grow, grow, grow);
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
                const double base = f.logY ? f.plot.bottom() : f.py(0.0);
                const QRectF r(QPointF(f.px(s.x[i]), std::min(top, base)), QPointF(f.px(s.x[i + 1]), std::max(top, base)));
                const QRectF in = r.normalized().intersected(c);
                cost += in.width() * in.height() / 9.0;
            }
        }
    }
    if (markerVisible) {
        const double mx = f.px(marker);
        if (mx >= box.left() - 2.0 && mx <= box.right() + 2.0)
            cost += box.height() / 3.0;
    }
    return cost;
}

std::vector<QPolygonF> PlotModel::polylines(const Series& s, const Frame& f) const
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

} // namespace olens::plot
