#pragma once
// The lesson above the view: a teaching preset's (or a saved session's) steps — what to look at
// and the paper's equation or figure it illustrates — with Back / Next and "2 / 4". Entering a
// step emits stepEntered; the window shows what the step asks for (a training step, a point).
// Shown while the lesson's data are loaded; other data end the lesson.
#include "session/Session.h"

#include <QFrame>

class QLabel;
class QToolButton;

namespace olens {

class DataDocument;

class LessonCaption : public QFrame {
    Q_OBJECT
public:
    explicit LessonCaption(DataDocument* document, QWidget* parent = nullptr);
    /// Starts `lesson` for the data now loaded, at its current step; an empty lesson hides the caption.
    void setLesson(const Lesson& lesson);
    /// The lesson (its `current` the step shown), empty when none is shown.
    const Lesson& lesson() const { return m_lesson; }
    bool hasLesson() const { return !m_lesson.empty(); }
    /// The shown step's text.
    QString lessonText() const;
    QLabel* label() const { return m_label; }

public slots:
    void next();
    void back();
    void goTo(int index);

signals:
    /// Step `index` of lesson() is shown (also when a lesson starts).
    void stepEntered(int index);
    /// The lesson ended (other data) or was replaced by none.
    void lessonEnded();

private:
    void showCurrent();

    DataDocument* m_doc;
    QLabel* m_label;
    QToolButton* m_back;
    QToolButton* m_next;
    QLabel* m_count;
    Lesson m_lesson;
};

} // namespace olens
