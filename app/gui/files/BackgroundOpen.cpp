#include "files/BackgroundOpen.h"

#include "files/SessionManager.h"
#include "shell/UnsavedChanges.h"
#include "shell/WindowShell.h"
#include "dialogs/ImportDialog.h"
#include "docks/LogPanel.h"
#include "document/DataDocument.h"
#include "jobs/Worker.h"
#include "data/DataLoader.h"

#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>

namespace olens {

BackgroundOpen::BackgroundOpen(const ReactionContext& context, SessionManager* sessions, UnsavedChanges* unsaved)
    : QObject(context.window), m_context(context), m_sessions(sessions), m_unsaved(unsaved),
      m_worker(new Worker(Worker::Policy::NewestWins, this))
{
    connect(m_worker, &Worker::busyChanged, this, &BackgroundOpen::busyChanged);
    connect(context.document, &DataDocument::datasetChanged, this, [this] {
        if (isBusy())
            m_editedMeanwhile = true;
    });
    connect(m_worker, &Worker::failed, this, &BackgroundOpen::fail);
    connect(m_worker, &Worker::cancelled, this, &BackgroundOpen::reportCancelled);
}

void BackgroundOpen::reportCancelled()
{
    const QString text = tr("Loading %1 cancelled; the previous data are kept").arg(QFileInfo(m_path).fileName());
    m_context.window->statusBar()->showMessage(text, 5000);
    m_context.log->info(text);
    m_path.clear();
    emit finished(false);
}

void BackgroundOpen::reportSessionFailure(const QString& path, const QString& message)
{
    const QString text = tr("%1: %2").arg(path, message);
    m_context.log->error(text);
    if (m_context.shell->isInteractive())
        QMessageBox::warning(m_context.window, tr("Cannot open session"), text + tr("\n\nThe current state is kept."));
}

void BackgroundOpen::fail(const QString& message)
{
    m_context.window->statusBar()->clearMessage();
    if (m_session)
        reportSessionFailure(m_path, message);
    else
        m_context.shell->reportOpenFailure(message);
    m_path.clear();
    emit finished(false);
}

bool BackgroundOpen::mayReplace(const QString& question)
{
    m_context.window->statusBar()->clearMessage();
    // Points added or moved during the read were not covered by the question asked before it: ask
    // again rather than drop them.
    if (!m_editedMeanwhile || m_unsaved->confirm(question))
        return true;
    m_context.log->info(tr("%1 was read but not opened: the edited data are kept").arg(m_path));
    m_path.clear();
    emit finished(false);
    return false;
}

void BackgroundOpen::setPending(bool on)
{
    if (m_sessionPending == on)
        return;
    m_sessionPending = on;
    if (!on && !m_worker->isBusy())
        emit busyChanged(false);
}

void BackgroundOpen::cancel()
{
    ++m_generation;
    if (m_sessionPending) { // between a session's two jobs: nothing runs to be cancelled
        setPending(false);
        m_context.window->statusBar()->clearMessage();
        reportCancelled();
        return;
    }
    m_worker->cancel();
}

bool BackgroundOpen::isBusy() const
{
    return m_worker->isBusy() || m_sessionPending;
}

namespace {

// A session or a saved model is JSON: its first character (after a UTF-8 byte-order mark and white
// space) is "{", which no table starts with. The name alone missed sessions saved as *.json.
bool looksLikeSession(const QString& path)
{
    QFile f(path);
    if (!QFileInfo(path).isFile() || !f.open(QIODevice::ReadOnly))
        return false;
    QByteArray head = f.read(256);
    if (head.startsWith("\xEF\xBB\xBF"))
        head.remove(0, 3);
    return head.trimmed().startsWith('{');
}

} // namespace

bool BackgroundOpen::open(const QString& path)
{
    if (!QFileInfo::exists(path)) {
        m_context.shell->reportOpenFailure(tr("cannot open '%1': no such file").arg(path));
        emit finished(false);
        return false;
    }
    // A session handed to File → Open (the dialog's "All files") is opened as one: read as a table
    // it failed with "ragged row" and no hint of File → Open session.
    if (looksLikeSession(path))
        return openSession(path);
    ++m_generation; // a session open waiting between its jobs is replaced
    setPending(false);
    m_path = path;
    m_session = false;
    m_editedMeanwhile = false;
    // A file above the input limit (1 GiB: a 20 M-point CSV is 1.2 GB) is the user's own choice in
    // an interactive open: say what it costs and let them open it (issue #54). A scripted run has
    // --max-input-mb.
    std::uint64_t limit = inputLimitBytes();
    const auto size = static_cast<std::uint64_t>(QFileInfo(path).size());
    if (QFileInfo(path).isFile() && size > limit && m_context.shell->isInteractive()) {
        const double gb = double(size) / double(1ull << 30);
        const auto answer = QMessageBox::question(
            m_context.window, tr("Open a large file?"),
            tr("%1 is %2 GB, above the input limit of %3 GB. Reading it takes about %4 GB of memory while "
               "it is parsed. Open it anyway?")
                .arg(QFileInfo(path).fileName())
                .arg(gb, 0, 'f', 2)
                .arg(double(limit) / double(1ull << 30), 0, 'f', 2)
                .arg(2.0 * gb, 0, 'f', 1));
        if (answer != QMessageBox::Yes) {
            emit finished(false);
            return false;
        }
        limit = size + 1;
        // The answer holds for the session: reopening it (or its autosave) reads the same file.
        setInputLimitBytes(std::max(inputLimitBytes(), limit));
    }
    // The column roles chosen in File → Import are read here: QSettings belongs to this thread.
    auto roles = ImportDialog::remembered(path);
    LoadOptions options = roles ? *roles : LoadOptions{};
    options.maxBytes = limit;
    const std::string file = QFile::encodeName(path).toStdString();
    m_context.window->statusBar()->showMessage(tr("Loading %1… (Esc cancels)").arg(QFileInfo(path).fileName()));
    m_worker->run<Dataset>(
        [file, options](const ProgressCallback&) { return loadDataset(file, options); },
        [this, path](Dataset d) {
            if (!mayReplace(tr("replace the data edited while %1 was loading").arg(QFileInfo(path).fileName())))
                return;
            m_context.shell->adoptDataset(std::move(d), path);
            m_path.clear();
            emit finished(true);
        });
    return true;
}

bool BackgroundOpen::openSession(const QString& path)
{
    if (!QFileInfo::exists(path)) { // reported without touching an open in progress
        reportSessionFailure(path, tr("no such file"));
        emit finished(false);
        return false;
    }
    const unsigned generation = ++m_generation;
    setPending(false);
    m_path = path;
    m_session = true;
    m_editedMeanwhile = false;
    m_context.window->statusBar()->showMessage(tr("Opening session %1… (Esc cancels)").arg(QFileInfo(path).fileName()));
    m_worker->run<std::shared_ptr<Session>>(
        [path](const ProgressCallback&) { return std::make_shared<Session>(SessionManager::readSessionFile(path)); },
        [this, path, generation](std::shared_ptr<Session> s) {
            // Queued: the worker is still winding this job up, and locating a moved data file may
            // open a dialog. Until the second job starts the open is pending (busy, cancellable).
            setPending(true);
            QMetaObject::invokeMethod(this, [this, path, s, generation] { restoreSession(path, s, generation); },
                                      Qt::QueuedConnection);
        });
    return true;
}

void BackgroundOpen::restoreSession(const QString& path, std::shared_ptr<Session> session, unsigned generation)
{
    if (generation != m_generation)
        return; // cancelled or replaced meanwhile (reported there)
    QString why;
    const bool found = m_sessions->resolveData(*session, path, &why); // may ask the user
    if (generation != m_generation)
        return; // cancelled or replaced while the dialog was open
    if (!found) {
        setPending(false);
        fail(why);
        return;
    }
    m_worker->run<std::shared_ptr<SessionManager::Prepared>>(
        [session](const ProgressCallback& progress) { return SessionManager::prepare(std::move(*session), progress); },
        [this, path, generation](std::shared_ptr<SessionManager::Prepared> p) {
            if (generation != m_generation
                || !mayReplace(tr("replace the data edited while the session %1 was opening").arg(QFileInfo(path).fileName())))
                return;
            m_sessions->install(*p);
            m_sessions->markOpened(path);
            m_path.clear();
            emit finished(true);
        });
    setPending(false); // the worker is busy with the second job now
}

} // namespace olens
