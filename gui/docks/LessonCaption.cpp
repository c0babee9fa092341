#include "docks/LessonCaption.h"

#include "document/DataDocument.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace olens {

LessonCaption::LessonCaption(DataDocument* document, QWidget* parent)
    : QFrame(parent), m_doc(document), m_label(new QLabel(this)), m_back(new QToolButton(this)),
      m_next(new QToolButton(this)), m_count(new QLabel(this))
{
    setObjectName(QStringLiteral("LessonCaption"));
    setStyleSheet(QStringLiteral("#LessonCaption { background: #fff8dc; border-bottom: 1px solid #d8c890; }"));
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_back->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_back->setAutoRaise(true);
    m_back->setToolTip(tr("Previous step of the lesson (Page Up)"));
    m_next->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    m_next->setAutoRaise(true);
    m_next->setToolTip(tr("Next step of the lesson (Page Down, the key a presenter's remote sends)"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    row->addWidget(m_label, 1);
    row->addWidget(m_back, 0, Qt::AlignTop);
    row->addWidget(m_count, 0, Qt::AlignTop);
    row->addWidget(m_next, 0, Qt::AlignTop);
    connect(m_back, &QToolButton::clicked, this, &LessonCaption::back);
    connect(m_next, &QToolButton::clicked, this, &LessonCaption::next);
    setVisible(false);
    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        // Any other data end it (also data without a file name: New data, an embedded session);
        // a lesson is always set after its own data.
        if (hasLesson() && !m_doc->changeIsEdit()) {
            m_lesson = {};
            setVisible(false);
            emit lessonEnded();
        }
    });
}

void LessonCaption::setLesson(const Lesson& lesson)
{
    m_lesson = lesson;
    setVisible(hasLesson());
    if (!hasLesson()) {
        emit lessonEnded();
        return;
    }
    m_lesson.current = std::clamp(m_lesson.current, 0, static_cast<int>(m_lesson.steps.size()) - 1);
    showCurrent();
}

QString LessonCaption::lessonText() const
{
    return hasLesson() ? QString::fromStdString(m_lesson.steps[static_cast<std::size_t>(m_lesson.current)].text)
                       : QString();
}

void LessonCaption::next() { goTo(m_lesson.current + 1); }

void LessonCaption::back() { goTo(m_lesson.current - 1); }

void LessonCaption::goTo(int index)
{
    if (!hasLesson() || index < 0 || index >= static_cast<int>(m_lesson.steps.size()))
        return;
    m_lesson.current = index;
    showCurrent();
}

void LessonCaption::showCurrent()
{
    const int n = static_cast<int>(m_lesson.steps.size());
    const int i = m_lesson.current;
    const QString title = QString::fromStdString(m_lesson.title).toHtmlEscaped();
    m_label->setText((title.isEmpty() ? QString() : QStringLiteral("<b>%1.</b> ").arg(title)) + lessonText().toHtmlEscaped());
    setToolTip(n > 1 ? tr("A lesson in %1 steps; Page Down / Page Up (or the arrows) go through them").arg(n)
                     : tr("What this preset shows; it stays while the preset's data are loaded"));
    m_back->setVisible(n > 1);
    m_next->setVisible(n > 1);
    m_count->setVisible(n > 1);
    m_count->setText(tr("%1 / %2").arg(i + 1).arg(n));
    m_back->setEnabled(i > 0);
    m_next->setEnabled(i < n - 1);
    emit stepEntered(i);
}

} // namespace olens
