#pragma once
// The autosave and crash recovery: the window's session is saved on every meaningful change (load,
// parameters, threshold, training start and end; debounced) and every few minutes, off the GUI
// thread, and a restart after a crash offers that session back.
//
// Crash detection: a QLockFile in the state directory is held while the app runs, and a "dirty"
// marker naming the run is removed on a clean exit. A marker left by a process whose lock is gone
// means that run ended abnormally; the autosave is offered only if that same run wrote it (an
// "autosave.run" file holds the writer's run id and a hash of the bytes). A second instance running
// at the same time gets no lock and does not autosave (it would overwrite the first one's file); a
// state directory that cannot be written is reported once in the log and the status bar.
#include "shell/ReactionContext.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

namespace olens {

class DetectorPanel;
class SessionManager;

class Autosave : public QObject {
    Q_OBJECT
public:
    /// `sessions` captures the state to save and opens the recovered one; `detector`'s settings
    /// changing schedules a save. stateDir: where the autosave and the lock live (default:
    /// $OLENS_STATE_DIR or the platform's app-data directory).
    Autosave(const ReactionContext& context, SessionManager* sessions, DetectorPanel* detector,
             const QString& stateDir = {});
    ~Autosave() override;

    /// The autosave file (File → Restore autosave opens it).
    QString path() const;
    /// Starts writing the autosave now (no-op without data or without the instance lock): the state
    /// is captured here, the model's JSON, the text and the file are made on a pool thread (a million
    /// points make a 100 MB file: seconds the GUI must not freeze for). A request while one is being
    /// written is queued (one more save with the newest state). False when nothing was started.
    bool autosave();
    /// Blocks until the autosave being written (if any, and the queued one) has finished (tests, exit).
    void waitForAutosave();
    /// A scripted run's end (--exit): the newest state is saved before the process goes — an edit
    /// waiting for its debounce is saved now, and a save queued behind the one being written is
    /// written (markCleanExit drops it: the window is half gone there). Python's view() reads it.
    void flushAutosave();
    /// A save to path() is about to be written: the autosave in flight (it holds an older state)
    /// finishes first and the queued one is dropped, so none lands after it.
    void supersede();
    /// True when the previous run left an autosave without a clean exit.
    bool recoveryAvailable() const { return m_recovery; }
    /// Where a crashed run's autosave waits until an interactive start restores or declines it
    /// (headless runs leave it alone).
    QString recoveryPath() const;
    /// True for a file in the autosave's own folder (the autosave, the crash recovery): written by
    /// this app for this user, so its data are read without asking.
    bool ownsFile(const QString& path) const;
    /// The user declined the restore: the crashed run's session is removed.
    void discardRecovery();
    /// Loads the recovered autosave.
    bool restoreRecovery(QString* error = nullptr);
    /// True when the previous run ended abnormally without an autosave of its own (nothing to offer).
    bool crashedWithoutAutosave() const { return m_crashedWithoutAutosave; }
    /// Call on a clean exit: drops the dirty marker (the autosave stays for File → Restore autosave).
    void markCleanExit();
    /// Autosaves completed by this run (tests).
    int autosaveCount() const { return m_autosaves; }
    /// The last problem reported about the state directory or the autosave, or empty.
    QString lastProblem() const { return m_lastProblem; }

    static constexpr int kIntervalMs = 3 * 60 * 1000;
    static constexpr int kDebounceMs = 1500;

public slots:
    /// A meaningful change: autosave after a short quiet period.
    void scheduleAutosave();

private:
    void autosaveFinished();
    void reportProblem(const QString& text); // once until an autosave succeeds again
    ReactionContext m_context;
    SessionManager* m_sessions;
    QString m_dir;
    std::unique_ptr<QLockFile> m_lock;
    bool m_owner = false; // holds the instance lock
    bool m_recovery = false;
    bool m_crashedWithoutAutosave = false;
    bool m_problemReported = false;
    QString m_lastProblem;
    QByteArray m_runId; // "pid-start ms", written to the dirty marker and beside each autosave
    int m_autosaves = 0;
    // One idle-priority thread writes autosaves: a save (100 MB of JSON for a knn model of a million
    // points) then takes only CPU that training, score fields and drawing leave unused.
    QFutureWatcher<QString> m_saving; // the autosave being written; result: an error or empty
    bool m_saveQueued = false;
    bool m_closing = false;
    int m_startedSave = 0, m_handledSave = 0; // autosaves started / whose result was handled
    class IdleWhileSaving;
    std::shared_ptr<IdleWhileSaving> m_idle; // the scheduling of the save being written
    QElapsedTimer m_saveClock;
    QTimer m_timer;
    QTimer m_debounce;
};

} // namespace olens
