#include "FieldProgressIndicator.h"

#include "CloudView.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace olens {

FieldProgressIndicator::FieldProgressIndicator(CloudView* view, QStatusBar* bar)
    : QWidget(bar), m_progress(new QProgressBar(this)), m_cancel(new QToolButton(this))
{
    setObjectName("fieldIndicator");
    m_progress->setObjectName("fieldProgress");
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setFormat(tr("score field %p %"));
    m_progress->setMaximumWidth(180);
    m_progress->setToolTip(tr("The score field (image, contours, iso-surface) is computed in the background; "
                              "a newer request (view change, retraining) replaces it."));
    m_cancel->setObjectName("fieldCancel");
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton));
    m_cancel->setAutoRaise(true);
    m_cancel->setToolTip(tr("Stop computing the score field (Esc when no training runs); the view keeps what it shows"));
    m_cancel->setAccessibleName(tr("Cancel score field"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancel);
    hide();
    connect(m_cancel, &QToolButton::clicked, view, &CloudView::cancelField);
    connect(view, &CloudView::fieldBusyChanged, this, [this](bool busy) {
        m_progress->setValue(0);
        setVisible(busy);
    });
    connect(view, &CloudView::fieldProgress, this, [this](double f) {
        m_progress->setValue(static_cast<int>(std::lround(100.0 * std::clamp(f, 0.0, 1.0))));
    });
    connect(view, &CloudView::fieldCancelled, bar, [bar] { bar->showMessage(tr("score field cancelled"), 5000); });
}

} // namespace olens
