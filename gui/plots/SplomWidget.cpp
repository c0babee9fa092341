#include "plots/SplomWidget.h"

#include "document/DataDocument.h"
#include "display/SelectionGeometry.h"
#include "display/ShortLabels.h"
#include "view/layers/PointColouring.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace olens {

namespace {
constexpr double kLeft = 40.0, kBottom = 38.0, kTop = 6.0, kRight = 6.0, kGap = 6.0;
constexpr int kBins = 20;
const QColor kSelectedHist(230, 120, 20);

QString number(double v)
{
    return QString::number(v, 'g', 3);
}

// Faded version of an unselected point's colour while a selection exists (linked brushing).
QRgb faded(QRgb c)
{
    auto mix = [](int v) { return (v + 3 * 235) / 4; };
    return qRgb(mix(qRed(c)), mix(qGreen(c)), mix(qBlue(c)));
}
} // namespace

SplomWidget::SplomWidget(DataDocument* document, QWidget* parent) : QWidget(parent), m_doc(document)
{
    setObjectName("splomWidget");
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("Drag a box in a cell to select the points inside (Shift adds, Ctrl subtracts); a click picks a point (Shift-click adds it)"));
    connect(m_doc, &DataDocument::datasetChanged, this, &SplomWidget::invalidate);
    connect(m_doc, &DataDocument::resultChanged, this, &SplomWidget::invalidate);
    connect(m_doc, &DataDocument::pointSelectionChanged, this, &SplomWidget::invalidate);
    connect(m_doc, &DataDocument::selectionChanged, this, qOverload<>(&SplomWidget::update));
}

void SplomWidget::setFeatures(std::vector<int> features)
{
    const int p = static_cast<int>(m_doc->dataset().cols());
    features.erase(std::remove_if(features.begin(), features.end(), [p](int f) { return f < 0 || f >= p; }),
                   features.end());
    if (features.size() > std::size_t(kMaxFeatures))
        features.resize(std::size_t(kMaxFeatures));
    m_features = std::move(features);
    invalidate();
}

void SplomWidget::setColourSource(ColourSource source)
{
    m_colourSource = std::move(source);
    invalidate();
}

bool SplomWidget::isDecimated() const
{
    return m_doc->dataset().rows() > kMaxPoints;
}

void SplomWidget::invalidate()
{
    m_dirty = true;
    relayout();
    update();
}

void SplomWidget::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    invalidate();
}

void SplomWidget::relayout()
{
    const Dataset& d = m_doc->dataset();
    std::vector<int> f;
    for (int j : m_features)
        if (j < d.cols())
            f.push_back(j);
    const SplomRect area{kLeft, kTop, std::max(0.0, width() - kLeft - kRight), std::max(0.0, height() - kTop - kBottom)};
    m_layout = SplomLayout(d.X, f, area, kGap);
}

QRgb SplomWidget::colourOf(int row) const
{
    const Dataset& d = m_doc->dataset();
    const QRgb byLabel = PointColouring::colourFor(d.hasLabels() ? d.labels(row) : std::nan("")).rgb();
    return m_colourSource ? m_colourSource(row, byLabel) : byLabel;
}

void SplomWidget::render()
{
    const Dataset& d = m_doc->dataset();
    const qreal dpr = devicePixelRatioF();
    m_cache = QImage((size() * dpr), QImage::Format_RGB32);
    m_cache.setDevicePixelRatio(dpr);
    m_cache.fill(palette().color(QPalette::Base));
    m_dirty = false;
    if (m_layout.count() == 0 || d.rows() == 0)
        return;

    // Drawing order: low scores first so the outliers are never hidden under the bulk.
    m_drawn = splomDecimation(int(d.rows()), kMaxPoints, m_doc->pointSelection());
    if (auto r = m_doc->result(); r && r->scores.size() == d.rows())
        std::stable_sort(m_drawn.begin(), m_drawn.end(), [&](int a, int b) { return r->scores(a) < r->scores(b); });
    std::vector<QRgb> colours(m_drawn.size());
    for (std::size_t k = 0; k < m_drawn.size(); ++k)
        colours[k] = colourOf(m_drawn[k]);

    QPainter p(&m_cache);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QColor frame = palette().color(QPalette::Mid);
    for (int r = 0; r < m_layout.count(); ++r)
        for (int c = 0; c < m_layout.count(); ++c) {
            const SplomRect cell = m_layout.cell(r, c);
            p.fillRect(QRectF(cell.x, cell.y, cell.w, cell.h), r == c ? QColor(246, 246, 246) : Qt::white);
        }
    for (int k = 0; k < m_layout.count(); ++k)
        drawHistogram(p, k);
    p.end();
    drawPoints(m_cache, colours);
    p.begin(&m_cache);
    p.setPen(frame);
    for (int r = 0; r < m_layout.count(); ++r)
        for (int c = 0; c < m_layout.count(); ++c) {
            const SplomRect cell = m_layout.cell(r, c);
            p.drawRect(QRectF(cell.x, cell.y, cell.w, cell.h));
        }
    drawLabels(p);
}

void SplomWidget::drawPoints(QImage& img, const std::vector<QRgb>& colours)
{
    // Direct pixel writes: ~10⁴ points × 64 cells in milliseconds, where QPainter shapes take seconds.
    const Dataset& d = m_doc->dataset();
    const qreal dpr = img.devicePixelRatio();
    const bool anySelected = !m_doc->pointSelection().empty();
    const int half = std::max(1, int(std::lround(1.0 * dpr))); // 3×3 pixels (5×5 with the outline)
    const int m = m_layout.count();
    auto put = [&](int px, int py, int rad, QRgb colour, const QRect& clip) {
        for (int y = std::max(clip.top(), py - rad); y <= std::min(clip.bottom(), py + rad); ++y) {
            auto* line = reinterpret_cast<QRgb*>(img.scanLine(y));
            for (int x = std::max(clip.left(), px - rad); x <= std::min(clip.right(), px + rad); ++x)
                line[x] = colour;
        }
    };
    for (int pass = 0; pass < (anySelected ? 2 : 1); ++pass) // unselected (faded) first, then the selection
        for (int r = 0; r < m; ++r)
            for (int c = 0; c < m; ++c) {
                if (r == c)
                    continue;
                const SplomRect cell = m_layout.cell(r, c);
                const QRect clip(int(std::ceil(cell.x * dpr)) + 1, int(std::ceil(cell.y * dpr)) + 1,
                                 std::max(0, int(cell.w * dpr) - 2), std::max(0, int(cell.h * dpr) - 2));
                const int fx = m_layout.features()[std::size_t(c)], fy = m_layout.features()[std::size_t(r)];
                for (std::size_t k = 0; k < m_drawn.size(); ++k) {
                    const int i = m_drawn[k];
                    const bool sel = anySelected && m_doc->isSelected(i);
                    if (anySelected && sel != (pass == 1))
                        continue;
                    const int px = int(std::lround(m_layout.toPixelX(c, d.X(i, fx)) * dpr));
                    const int py = int(std::lround(m_layout.toPixelY(r, d.X(i, fy)) * dpr));
                    if (sel) {
                        put(px, py, half + 1, qRgb(20, 20, 20), clip);
                        put(px, py, half, colours[k], clip);
                    } else {
                        put(px, py, half, anySelected ? faded(colours[k]) : colours[k], clip);
                    }
                }
            }
}

void SplomWidget::drawHistogram(QPainter& p, int k)
{
    const Dataset& d = m_doc->dataset();
    const int f = m_layout.features()[std::size_t(k)];
    const double lo = m_layout.low(k), hi = m_layout.high(k);
    std::vector<int> all(kBins, 0), sel(kBins, 0);
    auto bin = [&](double v) { return std::clamp(int((v - lo) / (hi - lo) * kBins), 0, kBins - 1); };
    for (Eigen::Index i = 0; i < d.rows(); ++i)
        ++all[std::size_t(bin(d.X(i, f)))];
    for (int i : m_doc->pointSelection())
        if (i < d.rows())
            ++sel[std::size_t(bin(d.X(i, f)))];
    const int top = *std::max_element(all.begin(), all.end());
    if (top == 0)
        return;
    const SplomRect cell = m_layout.cell(k, k);
    const double bw = cell.w / kBins, usable = cell.h * 0.8; // room for the name at the top
    for (int b = 0; b < kBins; ++b) {
        const double h = usable * all[std::size_t(b)] / top, hs = usable * sel[std::size_t(b)] / top;
        p.fillRect(QRectF(cell.x + b * bw, cell.y + cell.h - h, bw - 1, h), QColor(170, 170, 180));
        if (hs > 0)
            p.fillRect(QRectF(cell.x + b * bw, cell.y + cell.h - hs, bw - 1, hs), kSelectedHist);
    }
}

void SplomWidget::drawLabels(QPainter& p)
{
    const Dataset& d = m_doc->dataset();
    const int m = m_layout.count();
    QFont small = font();
    small.setPointSizeF(std::max(6.5, font().pointSizeF() * 0.8));
    QFont bold = font();
    bold.setBold(true);
    const QFontMetricsF fmSmall(small), fmBold(bold), fm(font());
    // Names cut word by word, distinct when the names are (display/ShortLabels): the same cell
    // width for every column, so one call per font and room.
    std::vector<std::string> names;
    for (int f : m_layout.features())
        names.push_back(d.featureNames[std::size_t(f)]);
    const SplomRect first = m_layout.cell(0, 0);
    auto fitting = [&names](const QFontMetricsF& metrics, double room) {
        return shortLabels(names, [&metrics, room](const std::string& s) {
            return metrics.horizontalAdvance(QString::fromStdString(s)) <= room;
        });
    };
    const std::vector<std::string> diagonal = fitting(fmBold, first.w - 6), below = fitting(fm, first.w),
                                   beside = fitting(fm, first.h);
    p.setPen(palette().color(QPalette::Text));
    for (int k = 0; k < m; ++k) {
        const int f = m_layout.features()[std::size_t(k)];
        const double lo = d.X.col(f).minCoeff(), hi = d.X.col(f).maxCoeff();
        // Diagonal: the name inside its histogram cell.
        const SplomRect dg = m_layout.cell(k, k);
        p.setFont(bold);
        p.drawText(QRectF(dg.x + 3, dg.y + 1, dg.w - 6, fmBold.height()), Qt::AlignLeft | Qt::AlignTop,
                   QString::fromStdString(diagonal[std::size_t(k)]));
        // Bottom: the column's extremes under the last row, then its name.
        const SplomRect b = m_layout.cell(m - 1, k);
        p.setFont(small);
        const double ty = b.y + b.h + 2;
        p.drawText(QRectF(m_layout.toPixelX(k, lo) - 2, ty, b.w / 2, fmSmall.height()), Qt::AlignLeft, number(lo));
        p.drawText(QRectF(m_layout.toPixelX(k, hi) - b.w / 2 + 2, ty, b.w / 2, fmSmall.height()), Qt::AlignRight,
                   number(hi));
        p.setFont(font());
        p.drawText(QRectF(b.x, ty + fmSmall.height(), b.w, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                   QString::fromStdString(below[std::size_t(k)]));
        // Left: the row's name and extremes, rotated to read upwards.
        const SplomRect l = m_layout.cell(k, 0);
        p.save();
        p.translate(0, l.y + l.h);
        p.rotate(-90);
        p.drawText(QRectF(0, 0, l.h, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                   QString::fromStdString(beside[std::size_t(k)]));
        p.setFont(small);
        const double ylo = l.y + l.h - m_layout.toPixelY(k, lo), yhi = l.y + l.h - m_layout.toPixelY(k, hi);
        p.drawText(QRectF(ylo - 2, fm.height(), l.h / 2, fmSmall.height()), Qt::AlignLeft, number(lo));
        p.drawText(QRectF(yhi - l.h / 2 + 2, fm.height(), l.h / 2, fmSmall.height()), Qt::AlignRight, number(hi));
        p.restore();
    }
}

void SplomWidget::paintEvent(QPaintEvent*)
{
    if (m_dirty || m_cache.size() != size() * devicePixelRatioF())
        render();
    QPainter p(this);
    p.drawImage(0, 0, m_cache);
    const Dataset& d = m_doc->dataset();
    if (m_layout.count() == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   d.rows() == 0 ? tr("Open or create data to see the scatter-plot matrix")
                                 : tr("Choose the features to plot"));
        return;
    }
    // The current point: a ring in every cell.
    const int cur = m_doc->selectedPoint();
    if (cur >= 0 && cur < d.rows()) {
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(QColor(220, 30, 30), 2));
        p.setBrush(Qt::NoBrush);
        for (int r = 0; r < m_layout.count(); ++r)
            for (int c = 0; c < m_layout.count(); ++c)
                if (r != c) {
                    const QPointF at(m_layout.toPixelX(c, d.X(cur, m_layout.features()[std::size_t(c)])),
                                     m_layout.toPixelY(r, d.X(cur, m_layout.features()[std::size_t(r)])));
                    p.drawEllipse(at, 6, 6);
                }
    }
    if (m_boxCell.first >= 0) {
        const SplomRect cell = m_layout.cell(m_boxCell.first, m_boxCell.second);
        const QRectF c(cell.x, cell.y, cell.w, cell.h);
        p.setPen(QPen(QColor(30, 90, 200), 1, Qt::DashLine));
        p.setBrush(QColor(30, 90, 200, 40));
        p.drawRect(QRectF(m_boxStart, m_boxEnd).normalized().intersected(c));
    }
}

void SplomWidget::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(e);
    m_boxCell = m_layout.cellAt(e->position().x(), e->position().y());
    m_boxStart = m_boxEnd = e->position();
    update();
}

void SplomWidget::mouseMoveEvent(QMouseEvent* e)
{
    if (m_boxCell.first < 0)
        return;
    m_boxEnd = e->position();
    update();
}

void SplomWidget::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || m_boxCell.first < 0)
        return QWidget::mouseReleaseEvent(e);
    const auto [row, col] = m_boxCell;
    m_boxCell = {-1, -1};
    m_boxEnd = e->position();
    update();
    const QPointF delta = m_boxEnd - m_boxStart;
    const SelectionOp op = e->modifiers() & Qt::ShiftModifier     ? SelectionOp::Add
                           : e->modifiers() & Qt::ControlModifier ? SelectionOp::Subtract
                                                                  : SelectionOp::Replace;
    if (std::abs(delta.x()) < 3 && std::abs(delta.y()) < 3) { // a click: the nearest point, or nothing
        const int hit = nearestDrawn(row, col, m_boxEnd);
        if (op == SelectionOp::Replace)
            m_doc->setSelectedPoint(hit);
        else if (hit >= 0) // Shift-click adds the point (and makes it current), Ctrl-click removes it
            m_doc->setPointSelection(combineSelection(m_doc->pointSelection(), {hit}, op),
                                     op == SelectionOp::Add ? hit : DataDocument::kKeepCurrent);
        return;
    }
    const std::vector<int> hits =
        m_layout.rowsInBox(m_doc->dataset().X, row, col, m_boxStart.x(), m_boxStart.y(), m_boxEnd.x(), m_boxEnd.y());
    m_doc->setPointSelection(combineSelection(m_doc->pointSelection(), hits, op));
}

int SplomWidget::nearestDrawn(int row, int col, QPointF pos) const
{
    if (row == col)
        return -1;
    const Dataset& d = m_doc->dataset();
    const int fx = m_layout.features()[std::size_t(col)], fy = m_layout.features()[std::size_t(row)];
    int best = -1;
    double bestD2 = 8.0 * 8.0; // pick radius in pixels
    for (int i : m_drawn) {
        const double dx = m_layout.toPixelX(col, d.X(i, fx)) - pos.x(), dy = m_layout.toPixelY(row, d.X(i, fy)) - pos.y();
        if (dx * dx + dy * dy < bestD2) {
            bestD2 = dx * dx + dy * dy;
            best = i;
        }
    }
    return best;
}

} // namespace olens
