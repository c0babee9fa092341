#include "scripted/StartupTimeline.h"

#include "view/CloudView.h"
#include "shell/ReactionContext.h"
#include "jobs/TrainingController.h"

#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace olens {

StartupTimeline::StartupTimeline()
{
    m_clock.start();
}

namespace {
constexpr int kHeartbeatMs = 10;
}

void StartupTimeline::mark(const char* what) const
{
    // A stall that ends with this mark (the mark's own slot was waiting behind it) belongs to it.
    if (m_heartbeat && m_heartbeat->isActive()) {
        const qint64 now = m_clock.nsecsElapsed();
        m_maxStallNs = std::max(m_maxStallNs, now - m_lastBeatNs - qint64(kHeartbeatMs) * 1000000);
        m_lastBeatNs = now; // counted here: not again at the next beat
    }
    if (m_heartbeat)
        std::fprintf(stderr, "outlierlens: [timings] %.3f s %s (longest GUI-thread stall before it: %.0f ms; "
                             "3-D view frames drawn: %d)\n",
                     double(m_clock.nsecsElapsed()) * 1e-9, what, double(m_maxStallNs) * 1e-6, m_view->framesDrawn());
    else
        std::fprintf(stderr, "outlierlens: [timings] %.3f s %s\n", double(m_clock.nsecsElapsed()) * 1e-9, what);
    std::fflush(stderr);
    m_maxStallNs = 0;
}

void StartupTimeline::beat()
{
    const qint64 now = m_clock.nsecsElapsed();
    m_maxStallNs = std::max(m_maxStallNs, now - m_lastBeatNs - qint64(kHeartbeatMs) * 1000000);
    m_lastBeatNs = now;
}

void StartupTimeline::watch(const ReactionContext& context)
{
    // The first frame of the cloud rendered from now on (the load is done). Not the first paint
    // event: a paint may only re-show the last frame, and the mark must not wait behind timers
    // that were due while the frame was being drawn (a scripted screenshot).
    m_view = context.view;
    connect(m_view, &VtkView::frameRendered, this, [this] {
        if (!std::exchange(m_frameSeen, true))
            mark("first frame");
    });
    // The heartbeat starts with the event loop: the synchronous load before it is marked on its own.
    m_heartbeat = new QTimer(this);
    m_heartbeat->setTimerType(Qt::PreciseTimer);
    m_heartbeat->setInterval(kHeartbeatMs);
    connect(m_heartbeat, &QTimer::timeout, this, &StartupTimeline::beat);
    QTimer::singleShot(0, this, [this] {
        m_lastBeatNs = m_clock.nsecsElapsed();
        m_maxStallNs = 0;
        m_heartbeat->start();
    });
    connect(context.trainer, &TrainingController::started, this, [this] { mark("training started"); });
    connect(context.trainer, &TrainingController::resultArrived, this, [this] { mark("training computed"); });
    connect(context.trainer, &TrainingController::finished, this, [this] { mark("result shown (document, views, plots updated)"); });
    connect(context.view, &CloudView::fieldUpdated, this, [this] { mark("score field shown"); });
}

} // namespace olens
