#include "HorizontalScrollArea.h"

#include <QEvent>
#include <QScrollBar>

namespace olens {

HorizontalScrollArea::HorizontalScrollArea(QWidget* content, QWidget* parent) : QScrollArea(parent)
{
    setObjectName("ViewControlsScroll");
    setWidget(content);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    content->installEventFilter(this); // controls shown/hidden with the data change its size
    updateHeight();
}

QSize HorizontalScrollArea::minimumSizeHint() const
{
    return {0, height()};
}

QSize HorizontalScrollArea::sizeHint() const
{
    return {widget() ? widget()->sizeHint().width() : 0, height()};
}

bool HorizontalScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Show))
        updateHeight();
    return QScrollArea::eventFilter(watched, event);
}

void HorizontalScrollArea::resizeEvent(QResizeEvent* event)
{
    QScrollArea::resizeEvent(event);
    updateHeight();
}

void HorizontalScrollArea::updateHeight()
{
    if (!widget())
        return;
    const bool scrolls = widget()->minimumSizeHint().width() > width();
    const int h = widget()->sizeHint().height() + (scrolls ? horizontalScrollBar()->sizeHint().height() : 0);
    if (h != height())
        setFixedHeight(h);
}

} // namespace olens
