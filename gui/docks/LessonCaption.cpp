#include "docks/LessonCaption.h"
#include "render/VtkSupport.h"

#include "document/DataDocument.h"
#include "detectors/TrainingHistory.h"
#include "pipeline/FitPipeline.h"

#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace olens {

LessonCaption::LessonCaption(DataDocument* document, QWidget* parent)
    : QFrame(parent), m_doc(document), m_label(new QLabel(this)), m_back(new QToolButton(this)),
      m_next(new QToolButton(this)), m_count(new QLabel(this)), m_note(new QLabel(this))
{
    setObjectName(QStringLiteral("LessonCaption"));
    setProperty(kScalesWithTextProperty, true); // View → Text size reaches it (TextSizeReaction)
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
    m_note->setObjectName(QStringLiteral("LessonMismatch"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_note->setStyleSheet(QStringLiteral("color: #8a4b00;"));
    m_note->setVisible(false);
    connect(m_note, &QLabel::linkActivated, this, [this] { emit showDescribedRequested(m_lesson.current); });
    auto* texts = new QVBoxLayout;
    texts->setContentsMargins(0, 0, 0, 0);
    texts->setSpacing(2);
    texts->addWidget(m_label);
    texts->addWidget(m_note);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    row->addLayout(texts, 1);
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
    connect(m_doc, &DataDocument::shownStepChanged, this, &LessonCaption::updateNote);
    connect(m_doc, &DataDocument::resultChanged, this, &LessonCaption::updateNote);
}

int LessonCaption::describedStep() const
{
    if (!hasLesson())
        return -1;
    const LessonStep& step = m_lesson.steps[static_cast<std::size_t>(m_lesson.current)];
    const auto trained = m_doc->trainedResult();
    const auto history = trained && trained->detector ? trained->detector->history() : nullptr;
    if (step.atStep == -1 || !history || history->empty())
        return -1;
    if (step.atStep == LessonStep::kLive)
        return history->steps.back().step;
    return history->steps[static_cast<std::size_t>(history->indexAtOrBefore(step.atStep))].step;
}

bool LessonCaption::describesShown() const
{
    if (!hasLesson())
        return true;
    const LessonStep& step = m_lesson.steps[static_cast<std::size_t>(m_lesson.current)];
    if (step.atStep == -1)
        return true; // a step about the whole lesson, not one training step
    const DataDocument::Shown shown = m_doc->shown();
    using Kind = DataDocument::Shown::Kind;
    if (shown.kind == Kind::Training || shown.kind == Kind::Nothing)
        return false;
    if (step.atStep == LessonStep::kLive)
        return shown.kind == Kind::Trained;
    const int described = describedStep();
    return described < 0 || shown.step == described;
}

void LessonCaption::updateNote()
{
    const bool show = hasLesson() && !describesShown();
    if (show) {
        const LessonStep& step = m_lesson.steps[static_cast<std::size_t>(m_lesson.current)];
        const DataDocument::Shown shown = m_doc->shown();
        const QString unit = shown.unit.isEmpty() ? tr("step") : shown.unit;
        const QString about = step.atStep == LessonStep::kLive ? tr("the trained model")
                                                               : tr("%1 %2").arg(unit).arg(describedStep() >= 0 ? describedStep() : step.atStep);
        QString now;
        switch (shown.kind) {
        case DataDocument::Shown::Kind::Training:
            now = tr("a new training at %1 %2").arg(unit).arg(shown.step);
            break;
        case DataDocument::Shown::Kind::Recorded:
            now = tr("%1 %2 of the replay").arg(unit).arg(shown.step);
            break;
        case DataDocument::Shown::Kind::Trained:
            now = tr("the trained model");
            break;
        case DataDocument::Shown::Kind::Nothing:
            now = tr("no trained model yet");
            break;
        }
        m_note->setText(tr("This step is about %1; the view shows %2. <a href=\"show\">Show %1</a>").arg(about, now));
        m_note->setToolTip(tr("The caption describes one training step; the view shows another (a replay, a step-by-step "
                              "training or the timeline). The link shows the step the caption is about."));
    }
    m_note->setVisible(show);
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
    updateNote();
    emit stepEntered(i);
}

} // namespace olens
