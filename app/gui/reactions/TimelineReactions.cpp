#include "reactions/TimelineReactions.h"

#include "docks/TimelineBar.h"
#include "document/DataDocument.h"

#include <QAction>
#include <QMenu>

namespace olens {

TimelineReactions::TimelineReactions(QMenu* menu, TimelineBar* timeline, QObject* parent)
    : QObject(parent), m_timeline(timeline)
{
    QMenu* replay = menu->addMenu(tr("&Replay training"));
    replay->setToolTipsVisible(true);
    m_play = replay->addAction(tr("&Play / pause"), QKeySequence(tr("P")), timeline, &TimelineBar::togglePlay);
    m_back = replay->addAction(tr("Step &back"), QKeySequence(tr("[")), timeline, &TimelineBar::stepBack);
    m_forward = replay->addAction(tr("Step &forward"), QKeySequence(tr("]")), timeline, [timeline] {
        timeline->pause();
        timeline->stepForward();
    });
    m_first = replay->addAction(tr("&Start of the training"), QKeySequence(tr("{")), timeline, &TimelineBar::goFirst);
    m_live = replay->addAction(tr("Back to the &trained model"), QKeySequence(tr("}")), timeline, &TimelineBar::goLive);
    for (QAction* a : {m_play, m_back, m_forward, m_first, m_live}) {
        a->setShortcutContext(Qt::WindowShortcut);
        a->setToolTip(tr("Iterative detectors (quadrics, gods, bods) record their training; the timeline "
                         "under the view replays it"));
    }
    // The window's actions: parent-less menus would not see the keys while the menu is closed.
    if (QWidget* w = timeline->window())
        w->addActions({m_play, m_back, m_forward, m_first, m_live});
    connect(timeline, &TimelineBar::stepShown, this, &TimelineReactions::updateEnabled);
    connect(timeline, &TimelineBar::historyChanged, this, &TimelineReactions::updateEnabled);
    updateEnabled();
}

void TimelineReactions::updateEnabled()
{
    const bool has = m_timeline->stepCount() > 1;
    for (QAction* a : {m_play, m_back, m_forward, m_first, m_live})
        a->setEnabled(has);
}

} // namespace olens
