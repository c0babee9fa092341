#pragma once
// The status bar's indicator for the score field that is computed in the background after a
// training or a view change (issue: a KIC field on 3 000 points arrived 20–60 s after "trained,
// 100 %" with nothing on screen). Visible only while a field is being computed: a progress bar
// ("score field N %", object name fieldProgress) and a small cancel button (fieldCancel) that
// stops the computation; the indicator then says "score field cancelled" for a few seconds (a
// QStatusBar::showMessage had no room next to the permanent status text). Esc does the same
// through Train → Cancel (CancelTrainingReaction) when no training runs.
#include <QWidget>

class QLabel;
class QProgressBar;
class QTimer;
class QStatusBar;
class QToolButton;

namespace olens {

class CloudView;

class FieldProgressIndicator : public QWidget {
    Q_OBJECT
public:
    FieldProgressIndicator(CloudView* view, QStatusBar* bar);

    QProgressBar* progressBar() const { return m_progress; }
    QToolButton* cancelButton() const { return m_cancel; }
    /// "score field cancelled" after a cancel (object name fieldMessage).
    QLabel* message() const { return m_message; }
    static constexpr int kMessageMs = 5000;

private:
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QLabel* m_message;
    QTimer* m_messageTimer;
};

} // namespace olens
