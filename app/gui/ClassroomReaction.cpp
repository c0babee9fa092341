#include "ClassroomReaction.h"

#include "MainWindow.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

namespace olens {

ClassroomReaction::ClassroomReaction(QAction* action, MainWindow* window)
    : QObject(window), m_action(action), m_window(window)
{
    action->setCheckable(true);
    action->setShortcut(QKeySequence(tr("F11")));
    action->setShortcutContext(Qt::WindowShortcut);
    action->setToolTip(tr("Full screen with only the view, the lesson caption and the timeline (F11 again to leave)"));
    window->addAction(action); // the key works while the menu bar is hidden
    connect(action, &QAction::toggled, this, &ClassroomReaction::setActive);
}

void ClassroomReaction::setActive(bool on)
{
    if (on == m_active)
        return;
    m_active = on;
    if (m_action->isChecked() != on)
        m_action->setChecked(on);
    QWidget* strip = m_window->findChild<QWidget*>(QStringLiteral("ViewControlsStrip"));
    if (on) {
        m_state = m_window->saveState();
        m_wasFullScreen = m_window->isFullScreen();
        for (QDockWidget* d : m_window->findChildren<QDockWidget*>())
            d->hide();
        for (QToolBar* t : m_window->findChildren<QToolBar*>())
            t->hide();
        m_window->menuBar()->hide();
        m_window->statusBar()->hide();
        if (strip)
            strip->hide();
        m_window->showFullScreen();
    } else {
        m_window->menuBar()->show();
        m_window->statusBar()->show();
        if (strip)
            strip->show();
        m_window->restoreState(m_state);
        if (!m_wasFullScreen)
            m_window->showNormal();
    }
}

} // namespace olens
