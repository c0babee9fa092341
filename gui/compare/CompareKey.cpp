#include "compare/CompareKey.h"

#include "view/layers/PointColouring.h"

#include <QPainter>
#include <QPainterPath>

#include <functional>

#include <algorithm>
#include <cmath>

namespace olens {

namespace {
constexpr int kWidth = 150;
constexpr int kBarW = 16;
constexpr int kPad = 8;
} // namespace

CompareKey::CompareKey(QWidget* parent) : QWidget(parent), m_colours(std::make_unique<PointColouring>())
{
    setObjectName("CompareKey");
    m_colours->setColourMap(QStringLiteral("viridis")); // CloudView's default map
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, Qt::white); // exported with the panels: the same white figure
    setPalette(p);
}

CompareKey::~CompareKey() = default;

QString CompareKey::barTitle()
{
    return tr("score percentile");
}

void CompareKey::setQuantile(double q)
{
    m_quantile = q;
    update();
}

void CompareKey::setDecisionOnly(bool on)
{
    m_decision = on;
    update();
}

void CompareKey::setThreeD(bool on)
{
    if (on == m_threeD)
        return;
    m_threeD = on;
    update();
}

void CompareKey::setSurfaceShown(bool on)
{
    if (on == m_surface)
        return;
    m_surface = on;
    update();
}

QSize CompareKey::sizeHint() const
{
    return {kWidth, 260};
}

void CompareKey::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const int line = fm.lineSpacing();
    const int textW = width() - 2 * kPad;
    int y = kPad;
    // A wrapped paragraph at the left margin; returns its height.
    auto paragraph = [&](int x, int top, int w, const QString& text, const QColor& colour = QColor(40, 40, 40)) {
        const QRect r = fm.boundingRect(QRect(x, top, w, 1000), Qt::TextWordWrap, text);
        p.setPen(colour);
        p.drawText(QRect(x, top, w, r.height()), Qt::TextWordWrap, text);
        return r.height();
    };
    auto entry = [&](const QString& text, const std::function<void(QRect)>& symbol) {
        symbol(QRect(kPad, y, 22, line));
        y += paragraph(kPad + 28, y, textW - 28, text) + 4;
    };
    const double q = m_quantile;

    if (!m_decision) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        y += paragraph(kPad, y, textW, barTitle());
        p.setFont(font());
        y += paragraph(kPad, y, textW, tr("of the panel's own training scores"), QColor(110, 110, 110)) + 6;
        // The bar: 100 at the top, 0 at the bottom, ticks every 25 and the threshold quantile.
        const int barH = std::clamp(height() / 3, 90, 200);
        const QRect bar(kPad, y + line / 2, kBarW, barH);
        for (int i = 0; i < bar.height(); ++i) {
            const double t = 1.0 - (i + 0.5) / bar.height();
            p.setPen(m_colours->mapColour(t));
            p.drawLine(bar.left(), bar.top() + i, bar.right(), bar.top() + i);
        }
        p.setPen(QColor(60, 60, 60));
        p.setBrush(Qt::NoBrush);
        p.drawRect(bar.adjusted(0, 0, -1, -1));
        auto yAt = [&](double t) { return bar.top() + int(std::lround((1.0 - t) * (bar.height() - 1))); };
        // The threshold: each panel's contour is at the q-quantile of its scores, i.e. at
        // percentile 100·q on this bar; its label takes the place of a tick label it would touch.
        const int qy = yAt(q);
        for (int v = 0; v <= 100; v += 25) {
            const int ty = yAt(v / 100.0);
            p.setPen(QColor(60, 60, 60));
            p.drawLine(bar.right() + 1, ty, bar.right() + 4, ty);
            if (std::abs(ty - qy) >= line)
                p.drawText(QRect(bar.right() + 7, ty - line / 2, 40, line), Qt::AlignLeft | Qt::AlignVCenter,
                           QString::number(v));
        }
        p.setPen(QPen(QColor(15, 15, 15), 3));
        p.drawLine(bar.left() - 3, qy, bar.right() + 3, qy);
        p.setPen(QColor(15, 15, 15));
        p.setFont(bold);
        p.drawText(QRect(bar.right() + 7, qy - line / 2, width() - bar.right() - 9, line),
                   Qt::AlignLeft | Qt::AlignVCenter, tr("%1 threshold").arg(100.0 * q, 0, 'g', 7));
        p.setFont(font());
        y = bar.bottom() + line + 6;
    } else {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        y += paragraph(kPad, y, textW, tr("decision")) + 4;
        p.setFont(font());
        auto swatch = [&](const QColor& c) {
            return [&p, c](QRect r) {
                QColor flat = c; // drawn like the panels' field image: 40 % over white
                flat.setAlphaF(0.4f);
                p.setPen(QColor(150, 150, 150));
                p.setBrush(flat);
                p.drawRect(r.adjusted(2, 1, -2, -1));
            };
        };
        if (!m_threeD) { // 3-D panels draw the threshold surface, no regions
            entry(tr("inlier region (score ≤ threshold)"), swatch(PointColouring::inlierRegionColour()));
            entry(tr("outlier region"), swatch(PointColouring::outlierRegionColour()));
        }
        auto disk = [&](const QColor& c) {
            return [&p, c](QRect r) {
                p.setPen(Qt::NoPen);
                p.setBrush(c);
                p.drawEllipse(QPointF(r.center()), 4.5, 4.5);
            };
        };
        entry(tr("flagged point"), disk(PointColouring::outlierPointColour()));
        entry(tr("inlier point"), disk(PointColouring::inlierPointColour()));
        y += 4;
    }
    // What every panel draws.
    const bool surface = m_threeD && m_surface;
    const QString threshold = surface    ? tr("threshold surface: the %1-quantile of each panel's training scores")
                              : m_threeD ? tr("threshold: the %1-quantile of each panel's training scores (a big "
                                              "cloud: no surface, the points above it drawn large)")
                                         : tr("threshold: the %1-quantile of each panel's training scores");
    entry(threshold.arg(q, 0, 'g', 7), [&](QRect r) {
        if (m_threeD && !surface) {
            p.setPen(Qt::NoPen);
            p.setBrush(m_decision ? PointColouring::outlierPointColour() : m_colours->mapColour(1.0));
            p.drawEllipse(QPointF(r.center()), 4.5, 4.5);
            return;
        }
        if (m_threeD) {
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(120, 140, 170, 150)); // the iso-surface's colour (FieldLayer)
            p.drawRoundedRect(r.adjusted(3, 2, -3, -2), 4, 4);
            return;
        }
        p.setPen(QPen(QColor(15, 15, 15), 3));
        p.drawLine(r.left() + 2, r.center().y(), r.right() - 2, r.center().y());
    });
    if (!m_decision && !m_threeD) {
        entry(tr("contours at percentiles 25, 50, 75, 90"), [&](QRect r) {
            p.setPen(QPen(QColor(90, 90, 90), 1));
            p.drawLine(r.left() + 2, r.center().y(), r.right() - 2, r.center().y());
        });
    }
    if (!m_decision) {
        entry(tr("points: colour and size grow with the percentile"), [&](QRect r) {
            p.setPen(Qt::NoPen);
            p.setBrush(m_colours->mapColour(0.2));
            p.drawEllipse(QPointF(r.left() + 6, r.center().y()), 3.0, 3.0);
            p.setBrush(m_colours->mapColour(0.95));
            p.drawEllipse(QPointF(r.left() + 16, r.center().y()), 5.0, 5.0);
        });
    }
}

} // namespace olens
