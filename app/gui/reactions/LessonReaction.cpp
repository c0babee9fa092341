#include "reactions/LessonReaction.h"

#include "detectors/TrainingHistory.h"
#include "docks/LessonCaption.h"
#include "docks/TimelineBar.h"
#include "document/DataDocument.h"
#include "pipeline/FitPipeline.h"

#include <QMainWindow>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTextEdit>
#include <QWidget>

namespace olens {

LessonReaction::LessonReaction(QMenu* menu, const ReactionContext& context, TimelineBar* timeline, LessonCaption* caption)
    : QObject(context.window), m_context(context), m_timeline(timeline), m_caption(caption)
{
    m_next = menu->addAction(tr("Next lesson step"));
    m_next->setShortcut(QKeySequence(Qt::Key_PageDown));
    m_next->setToolTip(tr("The lesson's next step (Page Down, a presenter's remote)"));
    m_back = menu->addAction(tr("Previous lesson step"));
    m_back->setShortcut(QKeySequence(Qt::Key_PageUp));
    m_back->setToolTip(tr("The lesson's previous step (Page Up)"));
    for (QAction* a : {m_next, m_back}) {
        a->setShortcutContext(Qt::WindowShortcut);
        context.window->addAction(a); // the keys work in classroom mode, with the menu bar hidden
    }
    // The keys page a table, a list, a text or a spin box that has the focus (the Ranking, the
    // Log): the shortcut hands them the key instead of stepping the lesson.
    // The action is disabled while the key is resent, so that the shortcut does not take it again.
    auto pass = [](QAction* action, Qt::Key key) {
        QWidget* w = QApplication::focusWidget();
        if (!w || !(qobject_cast<QAbstractItemView*>(w) || qobject_cast<QAbstractSpinBox*>(w)
                    || qobject_cast<QTextEdit*>(w) || qobject_cast<QPlainTextEdit*>(w)))
            return false;
        const bool enabled = action->isEnabled();
        action->setEnabled(false);
        QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier);
        QCoreApplication::sendEvent(w, &press);
        action->setEnabled(enabled);
        return true;
    };
    connect(m_next, &QAction::triggered, caption, [this, caption, pass] {
        if (!pass(m_next, Qt::Key_PageDown))
            caption->next();
    });
    connect(m_back, &QAction::triggered, caption, [this, caption, pass] {
        if (!pass(m_back, Qt::Key_PageUp))
            caption->back();
    });
    connect(caption, &LessonCaption::stepEntered, this, &LessonReaction::enter);
    connect(caption, &LessonCaption::showDescribedRequested, this, &LessonReaction::enter);
    connect(caption, &LessonCaption::lessonEnded, this, [this] {
        m_pending = -1;
        m_awaitIndex = -1;
        updateEnabled();
    });
    connect(timeline, &TimelineBar::historyChanged, this, [this] {
        if (m_pending >= 0 && m_timeline->stepCount() > 1)
            enter(m_pending);
    });
    connect(timeline, &TimelineBar::stepShown, this, [this](int index) {
        if (m_awaitIndex >= 0 && index == m_awaitIndex) { // not a step the user asked for meanwhile
            m_awaitIndex = -1;
            highlight();
        }
    });
    connect(timeline, &TimelineBar::failed, this, [this] { m_awaitIndex = -1; });
    updateEnabled();
}

void LessonReaction::enter(int index)
{
    updateEnabled();
    const Lesson& lesson = m_caption->lesson();
    if (index < 0 || index >= static_cast<int>(lesson.steps.size()))
        return;
    const LessonStep& step = lesson.steps[static_cast<std::size_t>(index)];
    m_pending = -1;
    m_highlight = step.highlight;
    m_awaitIndex = -1;
    if (step.atStep == -1) {
        highlight();
        return;
    }
    TimelineBar* timeline = m_timeline;
    const auto history = timeline->history();
    if (!history || timeline->stepCount() < 2) {
        m_pending = index; // shown when the training's recorded path arrives
        return;
    }
    timeline->pause();
    // The step's result is built off the GUI thread: the point is highlighted when it is shown.
    m_awaitIndex = step.atStep == LessonStep::kLive ? timeline->stepCount() - 1 : history->indexAtOrBefore(step.atStep);
    timeline->showIndex(m_awaitIndex);
}

void LessonReaction::highlight()
{
    DataDocument* doc = m_context.document;
    int row = m_highlight;
    if (row == LessonStep::kTop)
        row = doc->ranking().empty() ? -1 : doc->ranking().front();
    if (row >= 0 && row < doc->dataset().rows())
        doc->setSelectedPoint(row);
}

void LessonReaction::updateEnabled()
{
    const LessonCaption* caption = m_caption;
    const int n = static_cast<int>(caption->lesson().steps.size());
    m_next->setEnabled(n > 1 && caption->lesson().current < n - 1);
    m_back->setEnabled(n > 1 && caption->lesson().current > 0);
}

} // namespace olens
