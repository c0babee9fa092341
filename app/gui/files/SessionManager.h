#pragma once
// The session store: capture the window's state as a core Session (data, detector, fitted model,
// threshold, camera, view settings, compare layout), write it, read one and apply it back, and find
// a session's data file that moved. The autosave and crash recovery are files/Autosave; the File
// menu's session entries files/SessionReactions.
#include "base/Progress.h"
#include "session/Session.h"

#include <QObject>
#include <QString>
#include "files/TrustedFolders.h"
#include "shell/ReactionContext.h"

#include <memory>

class QAction;
class QMenu;

namespace olens {

class Autosave;
class ClassroomReaction;
class CompareReaction;
class CompareView;
class DetectorPanel;
class LessonCaption;
class ViewControls;
class TimelineBar;

/// The parts of the window a session captures and restores besides the context's document, view
/// and trainer: each named here, so that what a session touches is visible in one place.
struct SessionParts {
    DetectorPanel* detector = nullptr;   ///< the detector chosen and its settings
    ViewControls* viewControls = nullptr; ///< colouring, contours, sizes
    LessonCaption* caption = nullptr;     ///< the lesson
    ClassroomReaction* classroom = nullptr; ///< classroom mode and its kept docks (setModes)
    CompareReaction* compare = nullptr;   ///< compare mode and its panels (setModes)
    TimelineBar* timeline = nullptr;      ///< the recorded step shown
};

class SessionManager : public QObject {
    Q_OBJECT
public:
    SessionManager(const ReactionContext& context, const SessionParts& parts);
    /// The window's autosave, which a save to its own file must wait for.
    void setAutosave(Autosave* autosave) { m_autosave = autosave; }

    /// The View menu's modes, made after the sessions' File menu entries.
    void setModes(ClassroomReaction* classroom, CompareReaction* compare);
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
    /// A data file outside the session's folder and the trusted folders is read only when the user
    /// says yes (asked; refused in a scripted run without setOutsideDataAllowed), #51.
    bool resolveData(Session& s, const QString& sessionPath, QString* error);
    /// `--allow-data-outside`: a scripted run reads a session's data wherever it is.
    void setOutsideDataAllowed(bool on) { m_outsideAllowed = on; }
    /// Whether the next sessions opened bring their saved text size (File → Open session as
    /// presented, `--as-presented`) or keep the viewer's own (the default: a teacher's projector
    /// size made a student's 1280×720 laptop view oversized, issue #52).
    void setTextSizeFromSession(bool on) { m_textSizeFromSession = on; }
    bool textSizeFromSession() const { return m_textSizeFromSession; }
    /// The folders whose data files sessions read without asking (the user's own data folders).
    TrustedFolders& trustedFolders() { return m_trusted; }
    /// What the last session installed could not restore (its fitted model: the data changed since
    /// the save), or empty. A scripted run reports it and exits non-zero (#51: the reason was only
    /// in the window's Log and the exit status 0).
    QString restoreProblem() const { return m_restoreProblem; }
    /// Bookkeeping after a session file was opened: logged, remembered for Save, sessionOpened().
    void markOpened(const QString& path);

    /// Writes the session now. A save to the autosave file itself first lets the autosave being
    /// written finish and drops the queued one: an autosave captured earlier never lands after it.
    bool save(const QString& path, QString* error = nullptr, DataPolicy data = DataPolicy::Auto);
    /// Save for the user to `path`: writes, reports a failure, remembers the path (Ctrl+S, the title).
    bool saveAs(const QString& path, DataPolicy data = DataPolicy::Auto);
    /// The save-file dialog for a session, starting at `start` (or the last session folder), which
    /// it remembers; ".olens.json" added when the name has no .json; "" when cancelled.
    QString askSessionPath(const QString& title, const QString& start = {});

    /// The session file last opened or saved (empty: none, or other data since).
    QString currentPath() const { return m_current; }
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

    /// A training's recorded path (the timeline) is saved with the session up to this size.
    static constexpr std::size_t kSessionHistoryBytes = std::size_t(8) << 20;

signals:
    /// A session file was opened (also from the command line) or saved by the user.
    /// `path`: the session's name from now on (empty for a restored autosave of unsaved work);
    /// `autosaved`: it was the app's own autosave (its state is not saved anywhere yet).
    void sessionOpened(const QString& path, bool autosaved);
    void sessionSaved(const QString& path);

private:
    CompareView* compareView() const; // the compare page, or null before it was first shown
    QString m_current;
    QString m_installedOrigin; // the last session installed: the file an autosave stands for
    ReactionContext m_context;
    SessionParts m_parts;
    Autosave* m_autosave = nullptr;
    TrustedFolders m_trusted;
    QString m_restoreProblem;
    bool m_outsideAllowed = false;
    bool m_textSizeFromSession = false;
};

} // namespace olens
