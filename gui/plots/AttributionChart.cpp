#include "plots/AttributionChart.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace olens {

AttributionChart::AttributionChart(QWidget* parent) : QWidget(parent)
{
    setObjectName("attributionChart");
    showMessage(tr("Select a point to see the features that drive its score"));
}

void AttributionChart::setContributions(const Eigen::VectorXd& contributions, const std::vector<std::string>& names,
                                        const QString& title)
{
    m_title = title;
    m_names.clear();
    m_values.clear();
    m_total = contributions.sum();
    std::vector<int> order(static_cast<std::size_t>(contributions.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return std::abs(contributions(a)) > std::abs(contributions(b)); });
    for (std::size_t k = 0; k < order.size() && k < std::size_t(kMaxBars); ++k) {
        const auto j = static_cast<std::size_t>(order[k]);
        m_names << (j < names.size() ? QString::fromStdString(names[j]) : QString("x%1").arg(j + 1));
        m_values.push_back(contributions(order[k]));
    }
    update();
}

void AttributionChart::showMessage(const QString& message)
{
    m_title = message;
    m_names.clear();
    m_values.clear();
    update();
}

QSize AttributionChart::minimumSizeHint() const
{
    const int lineH = fontMetrics().height();
    return {200, 8 + lineH * 2 + kMaxBars * (lineH + 4)};
}

QStringList AttributionChart::shownFeatures() const
{
    return m_names;
}

void AttributionChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    p.setPen(palette().color(QPalette::Text));
    const QFontMetrics fm(font());
    const int lineH = fm.height();
    p.drawText(QRect(6, 2, width() - 12, lineH * 2), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_title);
    if (m_values.empty())
        return;
    const int top = 4 + lineH * 2;
    int nameW = 0;
    for (const QString& n : m_names)
        nameW = std::max(nameW, fm.horizontalAdvance(n));
    nameW = std::min(nameW + 8, width() / 3);
    const int valueW = fm.horizontalAdvance("−0.000e+00 (100%)") + 6;
    const int plotL = 6 + nameW, plotR = std::max(plotL + 20, width() - valueW);
    double maxAbs = 0.0;
    bool anyNegative = false;
    for (double v : m_values) {
        maxAbs = std::max(maxAbs, std::abs(v));
        anyNegative = anyNegative || v < 0;
    }
    if (maxAbs <= 0.0)
        maxAbs = 1.0;
    // Zero sits at the left, or in the middle when some contribution is negative.
    const double zeroX = anyNegative ? (plotL + plotR) / 2.0 : plotL;
    const double scale = (anyNegative ? (plotR - plotL) / 2.0 : double(plotR - plotL)) / maxAbs;
    const int rowH = std::clamp((height() - top - 4) / int(m_values.size()), lineH + 2, lineH + 6);
    for (std::size_t k = 0; k < m_values.size(); ++k) {
        const int y = top + int(k) * rowH;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(6, y, nameW - 4, rowH), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(m_names[int(k)], Qt::ElideRight, nameW - 4));
        const double v = m_values[k];
        const double x0 = v >= 0 ? zeroX : zeroX + v * scale, w = std::abs(v) * scale;
        p.fillRect(QRectF(x0, y + 2, std::max(1.0, w), rowH - 4), v >= 0 ? QColor(200, 80, 50) : QColor(60, 120, 190));
        const QString share = std::abs(m_total) > 0 ? QString(" (%1%)").arg(100.0 * v / m_total, 0, 'f', 0) : QString();
        p.drawText(QRect(plotR + 4, y, valueW, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::number(v, 'g', 3) + share);
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(QPointF(zeroX, top), QPointF(zeroX, top + rowH * int(m_values.size())));
}

} // namespace olens
