#include "shell/EditModeIndicator.h"

#include <QAction>
#include <QFrame>
#include <QLabel>
#include <QStatusBar>

namespace olens {

EditModeIndicator::EditModeIndicator(QAction* editMode, QFrame* viewFrame, QStatusBar* statusBar)
    : QObject(editMode), m_frame(viewFrame), m_badge(new QLabel)
{
    m_badge->setObjectName("EditModeBadge");
    m_badge->setText(tr(" EDIT MODE "));
    m_badge->setToolTip(tr("Edit points is on (E toggles): click adds an inlier, shift-click an outlier, drag moves "
                           "a point, Del deletes the selected one, Ctrl+Z undoes"));
    m_badge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; font-weight: bold; border-radius: 3px; }")
                               .arg(QLatin1String(kColour)));
    statusBar->addPermanentWidget(m_badge);
    connect(editMode, &QAction::toggled, this, &EditModeIndicator::show);
    show(editMode->isChecked());
}

void EditModeIndicator::show(bool on)
{
    m_badge->setVisible(on);
    // The border is always there (transparent when off), so the view does not change size.
    m_frame->setStyleSheet(QStringLiteral("QFrame#ViewFrame { border: 3px solid %1; }")
                               .arg(on ? QLatin1String(kColour) : QLatin1String("transparent")));
}

} // namespace olens
