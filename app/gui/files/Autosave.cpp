#include "files/Autosave.h"
#include "detectors/TrainingHistory.h"

#include "files/SessionManager.h"
#include "base/AtomicWriter.h"
#include "base/Memory.h"
#include "base/ParallelFor.h"
#include "docks/DetectorPanel.h"
#include "document/DataDocument.h"
#include "jobs/Executor.h"
#include "jobs/TrainingController.h"
#include "docks/LogPanel.h"
#include "session/Session.h"

#include <nlohmann/json.hpp>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QMainWindow>
#include <QStandardPaths>
#include <QStatusBar>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdio>
#include <mutex>
#include <pthread.h>
#include <sched.h>

namespace olens {

namespace {

QString defaultStateDir()
{
    const QString env = qEnvironmentVariable("OLENS_STATE_DIR");
    if (!env.isEmpty())
        return env;
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
}

QString dirtyMarker(const QString& dir) { return QDir(dir).filePath("running.dirty"); }

/// Beside the autosave: the run that wrote it and a hash of its bytes. A restart offers the autosave
/// only when the dirty marker left by the crashed run names the same run and the hash matches, so an
/// older run's autosave is never offered as the crashed one's session.
QString autosaveOwner(const QString& dir) { return QDir(dir).filePath("autosave.run"); }

QByteArray readSmallFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(1 << 16).trimmed();
}

/// The hash of a file's bytes, read by blocks (an autosave can be hundreds of MB); empty when it
/// cannot be read.
QByteArray contentHash(const QString& path)
{
    QFile f(path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!f.open(QIODevice::ReadOnly) || !hash.addData(&f))
        return {};
    return hash.result().toHex();
}

} // namespace

/// The pool thread writing an autosave runs at SCHED_IDLE (it takes no CPU from training or
/// drawing) and gets its own policy back afterwards; raise() (from the thread that waits for the
/// save) gives it the normal policy at once: under load a SCHED_IDLE thread gets no CPU at all, and
/// closing the window waited for ever. (Not QThread::setPriority: Qt keeps a thread's SCHED_IDLE
/// policy when asked for NormalPriority, so a pool thread that wrote one autosave stayed
/// idle-scheduled for every later job on it — trainings and score fields included.)
class Autosave::IdleWhileSaving {
public:
    void enter()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_thread = pthread_self();
        pthread_getschedparam(m_thread, &m_policy, &m_param);
        m_running = true;
        if (!m_raised) {
            sched_param idle{};
            pthread_setschedparam(m_thread, SCHED_IDLE, &idle);
        }
    }
    void leave()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        pthread_setschedparam(m_thread, m_policy, &m_param);
        m_running = false;
    }
    void raise()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_raised = true;
        if (m_running)
            pthread_setschedparam(m_thread, m_policy, &m_param);
    }

private:
    std::mutex m_mutex;
    pthread_t m_thread{};
    int m_policy = SCHED_OTHER;
    sched_param m_param{};
    bool m_running = false, m_raised = false;
};

Autosave::Autosave(const ReactionContext& context, SessionManager* sessions, DetectorPanel* detector, const QString& stateDir)
    : QObject(context.window), m_context(context), m_sessions(sessions), m_dir(stateDir.isEmpty() ? defaultStateDir() : stateDir)
{
    const bool made = QDir().mkpath(m_dir);
    m_lock = std::make_unique<QLockFile>(QDir(m_dir).filePath("instance.lock"));
    m_owner = made && m_lock->tryLock(0); // a lock left by a dead process is stale and taken over
    if (!m_owner && (!made || m_lock->error() != QLockFile::LockFailedError)) {
        // Not a second instance: the directory itself cannot be used. Said once, where it is seen.
        reportProblem(tr("the state directory %1 cannot be written: autosave and crash recovery are off "
                         "(set OLENS_STATE_DIR to a writable directory)")
                          .arg(QDir::toNativeSeparators(m_dir)));
    }
    if (m_owner) {
        m_runId = QByteArray::number(QCoreApplication::applicationPid()) + '-' +
                  QByteArray::number(QDateTime::currentMSecsSinceEpoch());
        const bool unclean = QFile::exists(dirtyMarker(m_dir));
        const QByteArray crashedRun = readSmallFile(dirtyMarker(m_dir));
        const QList<QByteArray> owner = readSmallFile(autosaveOwner(m_dir)).split('\n');
        // (Hashed only after a crash: an autosave can be hundreds of MB.)
        const bool ownAutosave = unclean && !crashedRun.isEmpty() && owner.size() == 2 && owner[0] == crashedRun &&
                                 !owner[1].isEmpty() && contentHash(path()) == owner[1];
        // The crashed run's autosave becomes the pending recovery, a file no later run writes: the
        // next run (a headless one, say) autosaves and rewrites the dirty marker, and would otherwise
        // erase what the crash left before an interactive start could offer it.
        if (ownAutosave) {
            QFile::remove(recoveryPath());
            if (QFile::rename(path(), recoveryPath()))
                QFile::remove(autosaveOwner(m_dir));
        }
        m_recovery = QFile::exists(recoveryPath());
        m_crashedWithoutAutosave = unclean && !ownAutosave;
        QFile marker(dirtyMarker(m_dir));
        if (!marker.open(QIODevice::WriteOnly) || marker.write(m_runId) != m_runId.size())
            reportProblem(tr("cannot write %1: crash recovery is off").arg(QDir::toNativeSeparators(marker.fileName())));
    }
    m_timer.setInterval(kIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] { autosave(); });
    m_timer.start();
    // Autosave on every meaningful change, debounced: a crash loses at most the last second or so.
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, [this] { autosave(); });
    connect(&m_saving, &QFutureWatcher<QString>::finished, this, &Autosave::autosaveFinished);
    DataDocument* doc = context.document;
    connect(doc, &DataDocument::datasetChanged, this, &Autosave::scheduleAutosave);
    connect(doc, &DataDocument::resultChanged, this, &Autosave::scheduleAutosave);
    connect(doc, &DataDocument::topKChanged, this, &Autosave::scheduleAutosave);
    connect(doc, &DataDocument::thresholdChanged, this, &Autosave::scheduleAutosave);
    connect(detector, &DetectorPanel::settingsChanged, this, &Autosave::scheduleAutosave);
    // A crash during the first training must not lose the loaded file and the choices: save now.
    connect(context.trainer, &TrainingController::started, this, [this] { autosave(); });
    connect(context.trainer, &TrainingController::finished, this, [this] { autosave(); });
    sessions->setAutosave(this);
}

void Autosave::scheduleAutosave()
{
    if (m_owner)
        m_debounce.start();
}

void Autosave::reportProblem(const QString& text)
{
    if (m_problemReported)
        return;
    m_problemReported = true;
    m_lastProblem = text;
    // The log exists already; the status bar message waits until the window is up.
    m_context.log->warning(text);
    QTimer::singleShot(0, m_context.window, [w = m_context.window, text] { w->statusBar()->showMessage(text, 15000); });
}

Autosave::~Autosave()
{
    m_closing = true; // inside the window's teardown: report nothing to its (dying) log
    markCleanExit();
}

void Autosave::markCleanExit()
{
    if (!m_owner)
        return;
    // The file being written is completed; no queued save starts (the window may be half gone, and
    // the state it would save is this run's last, already in the save being written but for edits
    // of the last second or so).
    m_saveQueued = false;
    waitForAutosave();
    QFile::remove(dirtyMarker(m_dir)); // the autosave stays: File → Restore autosave
    m_lock->unlock();
    m_owner = false;
}

QString Autosave::path() const
{
    return QDir(m_dir).filePath("autosave.olens.json");
}

bool Autosave::autosave()
{
    m_debounce.stop();
    if (!m_owner || m_context.document->isEmpty())
        return false;
    if (m_startedSave != m_handledSave) {
        // One is being written, or written but its result not yet handled (setFuture would drop that
        // pending result): one more save when it is handled, with the state of then.
        m_saveQueued = true;
        return true;
    }
    // Cheap here (the data are copied, 24 MB at a million 3-D points); the model's JSON (knn keeps
    // every point), the text and the write are not, and run on a pool thread. The fitted result is
    // immutable and shared, so reading it there is safe while the GUI goes on.
    Session session;
    try {
        session = m_sessions->capture(false);
        session.origin = QFile::encodeName(m_sessions->currentPath()).toStdString();
    } catch (const std::exception& e) {
        reportProblem(tr("autosave failed, crash recovery is off until it works again: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    std::shared_ptr<const FitResult> result = m_context.document->trainedResult();
    // A model that keeps its training rows (knn, lof) refers to them in the data: the rows of a
    // file the session names, shared with the document (not copied), for the check that they are
    // the rows it was fitted on; embedded rows are in the session already.
    std::shared_ptr<const Eigen::MatrixXd> fileRows;
    if (result && result->detector->memorisedRows() && !session.embedded)
        fileRows = m_context.document->sharedRows();
    const std::string file = QFile::encodeName(path()).toStdString();
    const std::string ownerPath = QFile::encodeName(autosaveOwner(m_dir)).toStdString();
    const QByteArray runId = m_runId;
    m_saveClock.start();
    ++m_startedSave;
    // On the GUI's one executor, at idle priority for the time of the save (SCHED_IDLE on Linux:
    // it takes no CPU from training or drawing), one thread of the budget.
    auto idle = std::make_shared<IdleWhileSaving>();
    m_idle = idle;
    m_saving.setFuture(QtConcurrent::run(Executor::pool(), [session = std::move(session), result, fileRows, file, ownerPath, runId, idle]() mutable {
        const JobThreads budget;
        idle->enter();
        struct Leave {
            IdleWhileSaving* s;
            ~Leave() { s->leave(); }
        } leave{idle.get()};
        try {
            if (result) {
                // With its recorded path while small, as a saved session: a restored lesson shows
                // its step and the timeline again (without it the timeline was gone, issue #52).
                const auto h = result->detector->history();
                session.model = sessionModelJson(*result->detector, result->normalizer,
                                                 session.embedded ? &session.data.X : fileRows.get(), result->trainingRows,
                                                 h && h->bytes <= SessionManager::kSessionHistoryBytes);
            }
            // Written as it is made, the model consumed: a 20 M-row knn's training scores alone are
            // 213 MB of text, which existed three times over (#54). The hash reads the file back.
            writeFileAtomically(file, [&](std::ostream& out) { writeSession(std::move(session), out); });
            const QString written = QFile::decodeName(file.c_str());
            const QByteArray hash = contentHash(written);
            if (hash.isEmpty())
                return QStringLiteral("cannot read back %1").arg(QDir::toNativeSeparators(written));
            const QByteArray owner = runId + '\n' + hash;
            writeFileAtomically(ownerPath, [&](std::ostream& out) { out.write(owner.constData(), owner.size()); });
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    }));
    return true;
}

void Autosave::autosaveFinished()
{
    if (m_handledSave == m_startedSave) // already handled (waitForAutosave, then the queued signal)
        return;
    m_handledSave = m_startedSave;
    const QString error = m_saving.result();
    if (!error.isEmpty() && m_closing) {
        std::fprintf(stderr, "outlierlens: autosave failed: %s\n", qPrintable(error)); // the window is going
    } else if (!error.isEmpty()) {
        reportProblem(tr("autosave failed, crash recovery is off until it works again: %1").arg(error));
    } else {
        m_problemReported = false; // a later failure is news again
        ++m_autosaves;
    }
    releaseFreedMemory(); // the model's text (213 MB at 20 M rows) is freed on the pool thread
    // Big embedded data make a save slow: then save less often (never more than ~10 % of the time).
    m_debounce.setInterval(std::max<qint64>(kDebounceMs, 10 * m_saveClock.elapsed()));
    if (m_saveQueued) {
        m_saveQueued = false;
        autosave();
    }
}

void Autosave::supersede()
{
    if (!m_owner)
        return;
    m_saveQueued = false;
    waitForAutosave();
}

void Autosave::flushAutosave()
{
    if (m_debounce.isActive())
        autosave();
    waitForAutosave();
}

void Autosave::waitForAutosave()
{
    while (m_handledSave != m_startedSave) {
        if (m_idle)
            m_idle->raise(); // waited for: no longer only on CPU nobody else wants
        m_saving.waitForFinished();
        autosaveFinished(); // may start the queued save: the loop then waits for that one too
    }
}

bool Autosave::restoreRecovery(QString* error)
{
    m_recovery = false;
    const bool ok = m_sessions->open(recoveryPath(), error);
    if (ok)
        QFile::remove(recoveryPath()); // restored: this run's autosaves carry it on
    return ok;
}

void Autosave::discardRecovery()
{
    m_recovery = false;
    QFile::remove(recoveryPath());
}

bool Autosave::ownsFile(const QString& path) const
{
    const QString folder = QFileInfo(QFileInfo(path).absolutePath()).canonicalFilePath();
    return !folder.isEmpty() && folder == QFileInfo(m_dir).canonicalFilePath();
}

QString Autosave::recoveryPath() const
{
    return QDir(m_dir).filePath("crashed.olens.json");
}

} // namespace olens
