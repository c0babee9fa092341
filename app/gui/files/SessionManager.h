#pragma once
// Sessions in the app: capture the window's state as a core Session (data, detector, fitted model,
// threshold, camera, view settings, compare layout), apply one back, save/open through the File
// menu, autosave on every meaningful change (load, parameters, threshold, training start and end;
// debounced) and every few minutes, and offer to restore the autosave when the previous run did not
// exit cleanly (crash, kill, power loss).
//
// Crash detection: a QLockFile in the state directory is held while the app runs, and a "dirty"
// marker naming the run is removed on a clean exit. A marker left by a process whose lock is gone
// means that run ended abnormally; the autosave is offered only if that same run wrote it (an
// "autosave.run" file holds the writer's run id and a hash of the bytes). A second instance running
// at the same time gets no lock and does not autosave (it would overwrite the first one's file); a
// state directory that cannot be written is reported once in the log and the status bar.
#include "base/Progress.h"
#include "session/Session.h"

#include <QLockFile>
#include <QObject>
#include <QString>
#include "shell/ReactionContext.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QTimer>
#include <memory>

class QAction;
class QMenu;

namespace olens {

class ClassroomReaction;
class CompareReaction;
class CompareView;
class DetectorPanel;
class LessonCaption;
class ViewControls;

/// The parts of the window a session captures and restores besides the context's document, view
/// and trainer: each named here, so that what a session touches is visible in one place.
struct SessionParts {
    DetectorPanel* detector = nullptr;   ///< its settings changing schedules an autosave
    ViewControls* viewControls = nullptr; ///< colouring, contours, sizes
    LessonCaption* caption = nullptr;     ///< the lesson
    ClassroomReaction* classroom = nullptr; ///< classroom mode and its kept docks (setModes)
    CompareReaction* compare = nullptr;   ///< compare mode and its panels (setModes)
};

class SessionManager : public QObject {
    Q_OBJECT
public:
    /// stateDir: where the autosave and the lock live (default: $OLENS_STATE_DIR or the platform's
    /// app-data directory).
    SessionManager(const ReactionContext& context, const SessionParts& parts, const QString& stateDir = {});
    ~SessionManager() override;

    /// The View menu's modes, made after the sessions' File menu entries.
    void setModes(ClassroomReaction* classroom, CompareReaction* compare);
    /// Adds Save session and Save session with data to a menu (Open session and Restore autosave
    /// open in the background: OpenSessionReaction, RestoreAutosaveReaction).
    void addActions(QMenu* file);
    /// The file dialogs' filter for session files.
    static QString fileFilter();

    /// What a saved session holds of data read from a file: a reference (the autosave), the rows
    /// themselves when the file is at most embedLimitBytes() (a session a teacher can hand out), or
    /// the rows always (File → Save session with data). Edited or generated data are always embedded.
    enum class DataPolicy { Reference, Auto, Embed };
    /// Settings "sessions/embed_limit_mb", default 20 MB.
    static qint64 embedLimitBytes();
    /// withModel = false leaves Session::model empty (autosave adds it off the GUI thread).
    /// `sessionPath`: where it will be written (for the data's path relative to it).
    Session capture(bool withModel = true, DataPolicy data = DataPolicy::Reference, const QString& sessionPath = {}) const;
    /// What applying a session computes before the window changes: the data read, the model
    /// restored, its scores, explanations and label-free diagnostics (seconds for a million rows).
    /// Touches no window state: BackgroundOpen runs it on the executor. Throws on any failure, and
    /// Cancelled when `progress` asks for it (checked after the data are read and after the model
    /// is restored; the scores, explanations and warnings of the result are not interrupted).
    struct Prepared;
    static std::shared_ptr<Prepared> prepare(Session s, const ProgressCallback& progress = {});
    /// Puts a prepared session into the window (GUI thread; cannot fail). Moves p's rows out.
    void install(Prepared& p);
    /// Reads and parses a session file; DataError names the file, ParseError the JSON path.
    static Session readSessionFile(const QString& path);
    /// A session whose data file is not where it was saved: s.dataPath is pointed at the copy found
    /// (locateData; interactively the user may be asked). False with *error when none is found.
    bool resolveData(Session& s, const QString& sessionPath, QString* error);
    /// Bookkeeping after a session file was opened: logged, remembered for Save, sessionOpened().
    void markOpened(const QString& path);

    /// Writes the session now. A save to the autosave file itself first lets the autosave being
    /// written finish and drops the queued one: an autosave captured earlier never lands after it.
    bool save(const QString& path, QString* error = nullptr, DataPolicy data = DataPolicy::Auto);
    /// Save for the user: to the session file last opened or saved, or else to a path asked for
    /// in a file dialog. Returns false when cancelled or failed (the user was told why).
    bool saveInteractively();
    /// A path-based session whose data file is gone: the same file relative to the session, then
    /// the file's name next to the session; interactively the user is then asked to locate it.
    /// Returns the path to use, or empty with *error naming every place looked at.
    QString locateData(const Session& s, const QString& sessionPath, QString* error) const;
    /// Reads, validates and applies, on the GUI thread (scripts, tests, crash recovery; the menus
    /// open through BackgroundOpen::openSession); errors name the file and the JSON path.
    bool open(const QString& path, QString* error = nullptr);

    QString autosavePath() const;
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
    /// True when the previous run left an autosave without a clean exit.
    bool recoveryAvailable() const { return m_recovery; }
    /// Where a crashed run's autosave waits until an interactive start restores or declines it
    /// (headless runs leave it alone).
    QString recoveryPath() const;
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

    static constexpr int kAutosaveIntervalMs = 3 * 60 * 1000;
    static constexpr int kAutosaveDebounceMs = 1500;
    /// A training's recorded path (the timeline) is saved with the session up to this size.
    static constexpr std::size_t kSessionHistoryBytes = std::size_t(8) << 20;

public slots:
    /// A meaningful change: autosave after a short quiet period.
    void scheduleAutosave();

signals:
    /// A session file was opened (also from the command line) or saved by the user.
    void sessionOpened(const QString& path);
    void sessionSaved(const QString& path);

private:
    bool saveAs(const QString& path, DataPolicy data = DataPolicy::Auto); // writes, reports, remembers the path
    CompareView* compareView() const; // the compare page, or null before it was first shown
    void reportProblem(const QString& text); // once until an autosave succeeds again
    QString m_current;
    ReactionContext m_context;
    SessionParts m_parts;
    QString m_dir;
    std::unique_ptr<QLockFile> m_lock;
    bool m_owner = false;   // holds the instance lock
    bool m_recovery = false;
    bool m_crashedWithoutAutosave = false;
    bool m_problemReported = false;
    QString m_lastProblem;
    QByteArray m_runId; // "pid-start ms", written to the dirty marker and beside each autosave
    int m_autosaves = 0;
    void autosaveFinished();
    // One idle-priority thread writes autosaves: a save (100 MB of JSON for a knn model of a million
    // points) then takes only CPU that training, score fields and drawing leave unused.
    QFutureWatcher<QString> m_saving; // the autosave being written; result: an error or empty
    bool m_saveQueued = false;
    bool m_closing = false;
    int m_startedSave = 0, m_handledSave = 0; // autosaves started / whose result was handled
    QElapsedTimer m_saveClock;
    QTimer m_timer;
    QTimer m_debounce;
};

} // namespace olens
