#include "StartupTimeline.h"

#include "CloudView.h"
#include "MainWindow.h"
#include "TrainingController.h"

#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <cstdio>

namespace olens {

StartupTimeline::StartupTimeline()
{
    m_clock.start();
}

void StartupTimeline::mark(const char* what) const
{
    std::fprintf(stderr, "outlierlens: [timings] %.3f s %s\n", double(m_clock.nsecsElapsed()) * 1e-9, what);
    std::fflush(stderr);
}

void StartupTimeline::watch(MainWindow* window)
{
    // The GL widget that draws the cloud is a child of the view: watch paints of the whole subtree.
    m_view = window->view();
    for (QWidget* w : m_view->findChildren<QWidget*>())
        w->installEventFilter(this);
    m_view->installEventFilter(this);
    connect(window->trainer(), &TrainingController::started, this, [this] { mark("training started"); });
    connect(window->trainer(), &TrainingController::finished, this, [this] { mark("training finished"); });
    connect(window->view(), &CloudView::fieldUpdated, this, [this] { mark("score field shown"); });
}

bool StartupTimeline::eventFilter(QObject* watched, QEvent* event)
{
    if (!m_frameSeen && event->type() == QEvent::Paint) {
        m_frameSeen = true;
        // After this paint has been handled (the frame is drawn), not before.
        QTimer::singleShot(0, this, [this] { mark("first frame"); });
    }
    return QObject::eventFilter(watched, event);
}

} // namespace olens
