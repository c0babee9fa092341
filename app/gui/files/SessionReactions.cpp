#include "files/SessionReactions.h"

#include "files/Autosave.h"
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

SaveSessionReaction::SaveSessionReaction(QAction* action, const ReactionContext& context, SessionManager* sessions,
                                         bool withData)
    : Reaction(action, context), m_sessions(sessions), m_withData(withData)
{
    if (withData)
        describe("actionSaveSessionWithData",
                 tr("Save the session with the data's rows inside, whatever their size: one file to hand out "
                    "(Save session does so for data files up to %1 MB)")
                     .arg(SessionManager::embedLimitBytes() / (1024 * 1024)));
    else
        describe("actionSaveSession", QKeySequence::Save,
                 tr("Save data (embedded when edited or generated), detector, fitted model, camera and view"));
}

void SaveSessionReaction::onTriggered()
{
    const QString path = m_withData ? m_sessions->askSessionPath(tr("Save session with data"))
                                    : m_sessions->askSessionPath(tr("Save session"), m_sessions->currentPath());
    if (path.isEmpty())
        return;
    // With data as without: the title, recent files and Ctrl+S follow the file saved.
    m_sessions->saveAs(path, m_withData ? SessionManager::DataPolicy::Embed : SessionManager::DataPolicy::Auto);
}

OpenSessionReaction::OpenSessionReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener,
                                         UnsavedChanges* unsaved, SessionManager* sessions, bool asPresented)
    : Reaction(action, context), m_opener(opener), m_unsaved(unsaved), m_sessions(sessions), m_asPresented(asPresented)
{
    if (asPresented)
        describe("actionOpenSessionAsPresented",
                 tr("Open a session with the text size it was saved with (a presenter's projector size); "
                    "Open session keeps yours"));
    else
        describe("actionOpenSession", QKeySequence(tr("Ctrl+Shift+O")),
                 tr("Restore data, detector, fitted model, camera and view from a session file (your own text size stays)"));
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
    m_sessions->setTextSizeFromSession(m_asPresented);
    m_opener->openSession(path); // failures are reported there
}

RestoreAutosaveReaction::RestoreAutosaveReaction(QAction* action, const ReactionContext& context,
                                                 const Autosave* autosave, BackgroundOpen* opener,
                                                 UnsavedChanges* unsaved)
    : Reaction(action, context), m_autosave(autosave), m_opener(opener), m_unsaved(unsaved)
{
    describe("actionRestoreAutosave", tr("Load the session saved automatically (every %1 minutes and after each training)")
                                          .arg(Autosave::kIntervalMs / 60000));
}

void RestoreAutosaveReaction::onTriggered()
{
    if (!m_unsaved->confirm(tr("restore the autosave")))
        return;
    const QString path = m_autosave->path();
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
