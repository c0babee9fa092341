#pragma once
// A layout that places its widgets left to right and wraps to a new row when the next does not
// fit (the view's control strip: at 1024 px a third row instead of controls behind a scroll bar).
// Hidden widgets take no room. Height follows the width (hasHeightForWidth), so the parent's box
// layout gives the strip as many rows as its width needs.
#include <QLayout>
#include <QList>

namespace olens {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int hSpacing = 6, int vSpacing = 2);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(m_items.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    /// Places the items in `rect` (or only measures, `apply` false); returns the height used.
    int place(const QRect& rect, bool apply) const;

    QList<QLayoutItem*> m_items;
    int m_hSpacing;
    int m_vSpacing;
};

} // namespace olens
