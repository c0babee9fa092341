#pragma once
// Train → Replay: the timeline's actions with their keys ([ step back, ] step forward, P play /
// pause, { the fit's start, } back to the trained model), enabled while the result has a recorded path. The
// buttons on the timeline under the view call the same slots.
#include <QObject>

class QAction;
class QMenu;

namespace olens {

class TimelineBar;

class TimelineReactions : public QObject {
    Q_OBJECT
public:
    TimelineReactions(QMenu* menu, TimelineBar* timeline, QObject* parent);

private:
    void updateEnabled();
    TimelineBar* m_timeline;
    QAction* m_back;
    QAction* m_forward;
    QAction* m_play;
    QAction* m_live;
    QAction* m_first;
};

} // namespace olens
