#include "modes/ClassroomReaction.h"

#include "shell/SavedDocks.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

namespace olens {

namespace {
const char* kPanelsKey = "classroom/panels";
}

ClassroomReaction::ClassroomReaction(QAction* action, QMenu* keep, QMainWindow* window)
    : QObject(window), m_action(action), m_window(window), m_keep(keep),
      m_panels(QSettings().value(kPanelsKey).toStringList())
{
    action->setCheckable(true);
    action->setShortcut(QKeySequence(tr("F11")));
    action->setShortcutContext(Qt::WindowShortcut);
    action->setToolTip(tr("Full screen with only the view, the lesson caption, the timeline and the docks chosen "
                          "in View → Keep in classroom (F11 again to leave)"));
    window->addAction(action); // the key works while the menu bar is hidden
    connect(action, &QAction::toggled, this, &ClassroomReaction::setActive);
    keep->setToolTipsVisible(true);
    for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
        QAction* a = keep->addAction(dock->windowTitle());
        a->setObjectName(dock->objectName());
        a->setCheckable(true);
        a->setChecked(m_panels.contains(dock->objectName()));
        a->setToolTip(tr("Keep the %1 dock visible in classroom mode").arg(dock->windowTitle()));
        connect(a, &QAction::toggled, this, [this, a](bool on) {
            QStringList p = m_panels;
            p.removeAll(a->objectName());
            if (on)
                p << a->objectName();
            setPanels(p);
        });
    }
}

void ClassroomReaction::setPanels(const QStringList& objectNames)
{
    m_panels = objectNames;
    QSettings().setValue(kPanelsKey, m_panels);
    for (QAction* a : m_keep->actions()) {
        const QSignalBlocker block(a);
        a->setChecked(m_panels.contains(a->objectName()));
    }
    if (m_active)
        showChosenDocks();
}

void ClassroomReaction::showChosenDocks()
{
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>())
        d->setVisible(m_panels.contains(d->objectName()));
}

void ClassroomReaction::arrangeDocks(const std::function<void()>& arrange)
{
    arrangeSavedDocks(m_window, m_state, arrange);
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
        showChosenDocks();
        for (QToolBar* t : m_window->findChildren<QToolBar*>())
            t->hide();
        // A hidden menu bar takes its menus' shortcuts with it (Qt matches a window shortcut only
        // through a visible widget): Ctrl+S, Ctrl+O … did nothing in classroom mode. The window
        // itself carries them while the menu bar is hidden.
        std::function<void(QMenu*)> lend = [&](QMenu* menu) {
            for (QAction* a : menu->actions()) {
                if (a->menu())
                    lend(a->menu());
                else if (!a->shortcut().isEmpty() && !m_window->actions().contains(a)) {
                    m_window->addAction(a);
                    m_lent.push_back(a);
                }
            }
        };
        for (QAction* top : m_window->menuBar()->actions())
            if (top->menu())
                lend(top->menu());
        m_window->menuBar()->hide();
        m_window->statusBar()->hide();
        if (strip)
            strip->hide();
        m_window->showFullScreen();
    } else {
        for (QAction* a : m_lent)
            if (a)
                m_window->removeAction(a);
        m_lent.clear();
        m_window->menuBar()->show();
        m_window->statusBar()->show();
        if (strip)
            strip->show();
        m_window->restoreState(m_state);
        m_state.clear(); // out of classroom mode: nothing saved to arrange (arrangeDocks)
        if (!m_wasFullScreen)
            m_window->showNormal();
    }
}

} // namespace olens
