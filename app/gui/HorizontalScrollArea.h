#pragma once
// A one-row strip for a wide bar of controls (the view controls above the view): scrolls
// horizontally when the window is narrower than the controls instead of widening the window,
// and is exactly as tall as the controls (plus the scroll bar only while it is shown).
#include <QScrollArea>

namespace olens {

class HorizontalScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit HorizontalScrollArea(QWidget* content, QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateHeight();
};

} // namespace olens
