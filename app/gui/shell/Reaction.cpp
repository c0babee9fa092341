#include "shell/Reaction.h"

#include "shell/LastFolder.h"
#include "docks/LogPanel.h"
#include "document/DataDocument.h"
#include "jobs/TrainingController.h"

#include <QAction>
#include <QKeySequence>
#include <QMainWindow>
#include <QMessageBox>

namespace olens {

Reaction::Reaction(QAction* action, const ReactionContext& context)
    : QObject(action), m_action(action), m_context(context)
{
    connect(action, &QAction::triggered, this, [this] { onTriggered(); });
}

void Reaction::describe(const char* objectName, const QKeySequence& shortcut, const QString& toolTip)
{
    m_action->setObjectName(QString::fromLatin1(objectName));
    m_action->setShortcut(shortcut);
    m_action->setToolTip(toolTip);
}

void Reaction::describe(const char* objectName, const QString& toolTip)
{
    m_action->setObjectName(QString::fromLatin1(objectName));
    m_action->setToolTip(toolTip);
}

void Reaction::trackEnabled()
{
    if (m_context.document)
        connect(m_context.document, &DataDocument::datasetChanged, this, &Reaction::updateEnabled);
    if (m_context.trainer)
        connect(m_context.trainer, &TrainingController::runningChanged, this, &Reaction::updateEnabled);
    updateEnabled();
}

void Reaction::reportWritten(const QString& path, const QString& error, const QString& done, const QString& title)
{
    if (error.isEmpty()) {
        LastFolder::remember(path);
        m_context.log->info(done);
    } else {
        m_context.log->error(error);
        QMessageBox::warning(m_context.window, title, error);
    }
}

void Reaction::updateEnabled()
{
    m_action->setEnabled(isEnabledNow());
}

} // namespace olens
