#include "shell/FieldProgressIndicator.h"

#include "view/CloudView.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QProgressBar>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace olens {

FieldProgressIndicator::FieldProgressIndicator(CloudView* view, QStatusBar* bar)
    : QWidget(bar), m_progress(new QProgressBar(this)), m_cancel(new QToolButton(this)), m_message(new QLabel(this)),
      m_messageTimer(new QTimer(this))
{
    setObjectName("fieldIndicator");
    m_progress->setObjectName("fieldProgress");
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setFormat(tr("score field %p %"));
    m_progress->setMinimumWidth(150);
    m_progress->setMaximumWidth(180);
    m_progress->setToolTip(tr("The score field (image, contours, iso-surface) is computed in the background; "
                              "a newer request (view change, retraining) replaces it."));
    m_cancel->setObjectName("fieldCancel");
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton));
    m_cancel->setAutoRaise(true);
    // Shown only while a field computes: holding the keyboard focus, its hiding passed the focus on
    // to the next widget in the chain (a spin box or table that then ate a presenter's Page Down).
    m_cancel->setFocusPolicy(Qt::NoFocus);
    m_cancel->setToolTip(tr("Stop computing the score field (Esc when no training runs); the view keeps what it shows"));
    m_cancel->setAccessibleName(tr("Cancel score field"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_message->setObjectName("fieldMessage");
    m_message->setText(tr("score field cancelled"));
    m_message->hide();
    m_messageTimer->setSingleShot(true);
    layout->addWidget(m_message);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancel);
    hide();
    connect(m_cancel, &QToolButton::clicked, view, &CloudView::cancelField);
    connect(view, &CloudView::fieldBusyChanged, this, [this](bool busy) {
        m_progress->setValue(0);
        m_progress->setVisible(busy);
        m_cancel->setVisible(busy);
        if (busy) {
            m_messageTimer->stop();
            m_message->hide();
        }
        setVisible(busy || m_message->isVisibleTo(this));
    });
    connect(view, &CloudView::fieldProgress, this, [this](double f) {
        m_progress->setValue(static_cast<int>(std::lround(100.0 * std::clamp(f, 0.0, 1.0))));
    });
    // Cancelled: the bar and its button go, the message stays a few seconds.
    connect(view, &CloudView::fieldCancelled, this, [this] {
        m_progress->hide();
        m_cancel->hide();
        m_message->show();
        show();
        m_messageTimer->start(kMessageMs);
    });
    connect(m_messageTimer, &QTimer::timeout, this, [this] {
        m_message->hide();
        setVisible(m_progress->isVisibleTo(this));
    });
}

} // namespace olens
