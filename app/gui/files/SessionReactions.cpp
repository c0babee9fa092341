#include "files/SessionReactions.h"

#include "files/BackgroundOpen.h"
#include "files/SessionManager.h"
#include "shell/UnsavedChanges.h"
#include "shell/WindowShell.h"
#include "docks/LogPanel.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMainWindow>
#include <QMessageBox>
#include <QSettings>

namespace olens {

OpenSessionReaction::OpenSessionReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener,
                                         UnsavedChanges* unsaved)
    : Reaction(action, context), m_opener(opener), m_unsaved(unsaved)
{
    describe("actionOpenSession", QKeySequence(tr("Ctrl+Shift+O")),
             tr("Restore data, detector, fitted model, camera and view from a session file"));
}

void OpenSessionReaction::onTriggered()
{
    if (!m_unsaved->confirm(tr("open a session")))
        return;
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(m_context.window, tr("Open session"),
                                                      settings.value("lastSessionDir").toString(), SessionManager::fileFilter());
    if (path.isEmpty())
        return;
    settings.setValue("lastSessionDir", QFileInfo(path).absolutePath());
    m_opener->openSession(path); // failures are reported there
}

RestoreAutosaveReaction::RestoreAutosaveReaction(QAction* action, const ReactionContext& context,
                                                 const SessionManager* sessions, BackgroundOpen* opener,
                                                 UnsavedChanges* unsaved)
    : Reaction(action, context), m_sessions(sessions), m_opener(opener), m_unsaved(unsaved)
{
    describe("actionRestoreAutosave", tr("Load the session saved automatically (every %1 minutes and after each training)")
                                          .arg(SessionManager::kAutosaveIntervalMs / 60000));
}

void RestoreAutosaveReaction::onTriggered()
{
    if (!m_unsaved->confirm(tr("restore the autosave")))
        return;
    const QString path = m_sessions->autosavePath();
    if (!QFile::exists(path)) {
        const QString text = tr("There is no autosaved session yet.");
        m_context.log->info(text);
        if (m_context.shell->isInteractive())
            QMessageBox::information(m_context.window, tr("Restore autosave"), text);
        return;
    }
    m_opener->openSession(path); // failures are reported there
}

} // namespace olens
