#pragma once
// Opening a data file from the menus (File → Open, recent files, Import) without freezing the
// window: the file is read and parsed on the shared executor (gui/jobs/Worker), the window keeps
// painting and answering, the status bar says what is loading, and the parsed data replace the
// document on the GUI thread. A second open while one is reading replaces it (newest wins); Esc
// (CancelTrainingReaction, "stop what is going on") drops it and keeps the current data. Data
// edited while the file was read are not replaced without asking again. Scripts and tests use the
// synchronous MainWindow::openFile and SessionManager::open.
// Sessions (File → Open session, recent sessions) the same way, in two jobs: the file is read and
// parsed; on the GUI thread a moved data file is located (the user may be asked); then its data are
// read, the model restored and its scores, explanations and warnings computed
// (SessionManager::prepare: seconds at a million rows, which froze the window before); the window
// takes the result (SessionManager::install).
#include "shell/ReactionContext.h"

#include <QObject>
#include <QString>
#include <memory>

namespace olens {

struct Session;

class SessionManager;
class UnsavedChanges;
class Worker;

class BackgroundOpen : public QObject {
    Q_OBJECT
public:
    /// `sessions` restores what a session file holds; `unsaved` asks before data edited while a file
    /// was read are replaced. Status messages go to context.window's status bar.
    BackgroundOpen(const ReactionContext& context, SessionManager* sessions, UnsavedChanges* unsaved);

    /// Starts reading `path`; false when it does not exist (reported like a failed open).
    bool open(const QString& path);
    /// Starts opening the session file `path`; false when it does not exist (reported).
    bool openSession(const QString& path);
    bool isBusy() const;
    QString loadingPath() const { return m_path; }

public slots:
    /// Drops the read in progress (its thread finishes parsing and the data are discarded).
    void cancel();

signals:
    void busyChanged(bool busy);
    /// After the data are in the document (ok) or the open failed or was cancelled (!ok).
    void finished(bool ok);

private:
    void restoreSession(const QString& path, std::shared_ptr<Session> session, unsigned generation);
    void fail(const QString& message);
    void reportSessionFailure(const QString& path, const QString& message);
    void reportCancelled();
    /// A file was read: true when its contents may replace the document's (asks again when the data
    /// were edited during the read; false reports that the edits are kept and ends the open).
    bool mayReplace(const QString& question);
    void setPending(bool on);
    ReactionContext m_context;
    SessionManager* m_sessions;
    UnsavedChanges* m_unsaved;
    Worker* m_worker;
    QString m_path;
    bool m_session = false; ///< the file being opened is a session
    /// Bumped by every open and cancel: a queued step of an older session open does nothing.
    unsigned m_generation = 0;
    /// Between a session's two jobs (the worker is idle there, the open is not over).
    bool m_sessionPending = false;
    bool m_editedMeanwhile = false; ///< the data changed while the file was read: ask before replacing
};

} // namespace olens
