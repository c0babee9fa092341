#include "docks/FlowLayout.h"

#include <QWidget>

#include <algorithm>

namespace olens {

FlowLayout::FlowLayout(QWidget* parent, int hSpacing, int vSpacing)
    : QLayout(parent), m_hSpacing(hSpacing), m_vSpacing(vSpacing)
{
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { m_items.append(item); }

QLayoutItem* FlowLayout::itemAt(int index) const
{
    return index >= 0 && index < m_items.size() ? m_items.at(index) : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index)
{
    return index >= 0 && index < m_items.size() ? m_items.takeAt(index) : nullptr;
}

int FlowLayout::heightForWidth(int width) const { return place(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const
{
    // The widest single item: narrower than that, an item would be cut whatever the rows.
    QSize size;
    for (const QLayoutItem* item : m_items)
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // One row when there is room for it.
    int w = 0, h = 0;
    for (const QLayoutItem* item : m_items)
        if (!item->isEmpty()) {
            w += item->sizeHint().width() + (w > 0 ? m_hSpacing : 0);
            h = std::max(h, item->sizeHint().height());
        }
    const QMargins m = contentsMargins();
    return {w + m.left() + m.right(), h + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    place(rect, true);
}

int FlowLayout::place(const QRect& rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    int x = area.x(), y = area.y(), rowHeight = 0;
    // Items of a row are centred vertically on the row's tallest (labels beside spin boxes).
    QList<QPair<QLayoutItem*, QRect>> row;
    auto flush = [&] {
        if (apply)
            for (auto& [item, r] : row)
                item->setGeometry(QRect(r.x(), r.y() + (rowHeight - r.height()) / 2, r.width(), r.height()));
        row.clear();
    };
    for (QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        QSize s = item->sizeHint().expandedTo(item->minimumSize());
        s.setWidth(std::min(s.width(), area.width())); // wider than a row: cut to it (the grid text)
        if (x > area.x() && x + s.width() > area.right() + 1) {
            flush();
            x = area.x();
            y += rowHeight + m_vSpacing;
            rowHeight = 0;
        }
        row.append({item, QRect(QPoint(x, y), s)});
        x += s.width() + m_hSpacing;
        rowHeight = std::max(rowHeight, s.height());
    }
    flush();
    const QMargins m = contentsMargins();
    return y + rowHeight - rect.y() + m.bottom();
}

} // namespace olens
