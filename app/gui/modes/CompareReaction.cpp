#include "modes/CompareReaction.h"
#include "shell/SavedDocks.h"

#include "compare/CompareView.h"
#include "document/DataDocument.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTimer>

namespace olens {

CompareReaction::CompareReaction(QAction* action, QMainWindow* window, DataDocument* document)
    : QObject(action), m_window(window), m_document(document), m_action(action), m_stack(new QStackedWidget)
{
    action->setObjectName("actionCompareDetectors");
    action->setCheckable(true);
    action->setShortcut(QKeySequence(tr("Ctrl+M")));
    action->setToolTip(tr("Compare several detectors side by side on the same data (Ctrl+M)"));
    m_main = window->takeCentralWidget();
    m_stack->setObjectName("CentralStack");
    if (m_main)
        m_stack->addWidget(m_main);
    window->setCentralWidget(m_stack);
    connect(action, &QAction::toggled, this, &CompareReaction::setActive);
}

void CompareReaction::arrangeDocks(const std::function<void()>& arrange)
{
    arrangeSavedDocks(m_window, m_dockState, arrange);
}

bool CompareReaction::isActive() const
{
    return m_view && m_stack->currentWidget() == m_page;
}

void CompareReaction::setActive(bool on)
{
    if (m_action->isChecked() != on) {
        m_action->setChecked(on); // re-enters through toggled
        return;
    }
    if (!on) {
        if (m_main)
            m_stack->setCurrentWidget(m_main);
        if (!m_dockState.isEmpty()) {
            // The docks as they were: visibility, areas, sizes, tabs and floating ones.
            m_window->restoreState(m_dockState);
            m_dockState.clear();
        }
        return;
    }
    if (m_dockState.isEmpty()) {
        m_dockState = m_window->saveState();
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
            dock->hide();
    }
    const bool first = !m_view;
    if (first) {
        m_view = new CompareView(m_document);
        // The strip's "Export PNG…": File → Export figure, whose first target is the compare page.
        connect(m_view, &CompareView::exportRequested, this, [this] {
            if (auto* a = m_window->findChild<QAction*>(QStringLiteral("actionExportFigure")))
                a->trigger();
        });
        // Small screens: the page scrolls rather than widening the window.
        auto* scroll = new QScrollArea;
        scroll->setObjectName("CompareScroll");
        scroll->setWidget(m_view);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        m_page = scroll;
        m_stack->addWidget(m_page);
    }
    m_stack->setCurrentWidget(m_page);
    if (first && !m_document->isEmpty())
        // Deferred: a caller that sets its own detectors right after opening trains those instead.
        QTimer::singleShot(0, m_view, [view = m_view] {
            if (!view->isTraining() && !view->panelDocument(0)->result())
                view->trainAll();
        });
}

} // namespace olens
