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
    /// The training step the lesson's current step is about, as the detector numbers it (the
    /// recorded step at or before the one it names; the trained model's last step), or -1 when
    /// it names none or no recorded path is there to resolve it.
    int describedStep() const;
    /// False while the window shows another step than the one the caption describes (a replay, a
    /// step-by-step training, a scrub): the caption then says so and offers to go there.
    bool describesShown() const;
    QLabel* mismatchNote() const { return m_note; }

public slots:
    void next();
    void back();
    void goTo(int index);

signals:
    /// Step `index` of lesson() is shown (also when a lesson starts).
    void stepEntered(int index);
    /// The lesson ended (other data) or was replaced by none.
    void lessonEnded();
    /// The user asked to see the step the caption describes (its "Show …" link).
    void showDescribedRequested(int index);

private:
    void showCurrent();
    void updateNote();

    DataDocument* m_doc;
    QLabel* m_label;
    QToolButton* m_back;
    QToolButton* m_next;
    QLabel* m_count;
    QLabel* m_note; // "this step is about …; the view shows …" 
    Lesson m_lesson;
};

} // namespace olens
