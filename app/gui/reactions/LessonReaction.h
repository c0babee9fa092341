#pragma once
// View → Next / Previous lesson step (Page Down / Page Up, what a presenter's remote sends), enabled
// while a lesson of two or more steps is shown, and what a step asks for: the timeline at a recorded
// training step (or the trained model) and a highlighted point (a row, or the one ranked first at
// that step). A step that needs a training not finished yet is shown when the recorded path arrives.
#include "shell/ReactionContext.h"

#include <QObject>

class QAction;
class QMenu;

namespace olens {

class LessonCaption;
class TimelineBar;

class LessonReaction : public QObject {
    Q_OBJECT
public:
    LessonReaction(QMenu* menu, const ReactionContext& context, TimelineBar* timeline, LessonCaption* caption);

private:
    void enter(int index);
    void highlight();
    void updateEnabled();

    ReactionContext m_context;
    TimelineBar* m_timeline;
    LessonCaption* m_caption;
    QAction* m_next;
    QAction* m_back;
    int m_pending = -1;         // a step waiting for a recorded path
    int m_highlight = -1;       // LessonStep::highlight of the step entered
    int m_awaitIndex = -1; // highlight once the timeline has shown this recorded index (-1: nothing awaited)
};

} // namespace olens
