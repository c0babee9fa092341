#include "files/SessionManager.h"

#include "session/SessionDataFile.h"

#include "files/Autosave.h"

#include "base/ParallelFor.h"
#include "detectors/TrainingHistory.h"
#include "docks/TimelineBar.h"
#include "jobs/Executor.h"
#include "render/CameraRig.h"

#include "view/CloudView.h"
#include "modes/ClassroomReaction.h"
#include "modes/CompareReaction.h"
#include "docks/LessonCaption.h"
#include "modes/TextSizeReaction.h"
#include "render/VtkSupport.h"
#include "compare/CompareView.h"
#include "document/DataDocument.h"
#include "data/DataLoader.h"
#include "docks/DetectorPanel.h"
#include "base/AtomicWriter.h"
#include "base/Errors.h"
#include "docks/LogPanel.h"
#include "shell/WindowShell.h"
#include "dialogs/ParamForm.h"
#include "registry/Registry.h"
#include "jobs/TrainingController.h"
#include "docks/ViewControls.h"

#include <nlohmann/json.hpp>
#include <QAction>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <QThread>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace olens {

static_assert(CompareView::kMaxPanels == kMaxComparePanels, "a session holds what compare mode shows");

namespace {

nlohmann::json toJson(const QVariantMap& m)
{
    // QJsonDocument gives the exact JSON text of the variant map (numbers, strings, booleans).
    const QByteArray text = QJsonDocument(QJsonObject::fromVariantMap(m)).toJson(QJsonDocument::Compact);
    return nlohmann::json::parse(text.toStdString());
}

QVariantMap toVariantMap(const nlohmann::json& j)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(j.dump())).object().toVariantMap();
}

ParamAssignments assignmentsFor(const SessionDetector& d)
{
    ParamSet p = Registry::instance().defaultParams(d.id);
    p.setFromJson(d.params);
    return p.assignments();
}

/// The result shown for a restored model: the stored training scores when the data are exactly the
/// ones it was trained on, otherwise the model's scores of the data (fit pipeline); a model fitted
/// on a part of the data gives its training rows their training scores and marks them again.
std::shared_ptr<FitResult> resultFor(RestoredModel m, const Dataset& data, const std::vector<int>& trainingRows)
{
    return resultForRows(std::shared_ptr<const Detector>(std::move(m.detector)), std::move(m.normalizer), data.X,
                         true, trainingRows);
}

} // namespace

SessionManager::SessionManager(const ReactionContext& context, const SessionParts& parts)
    : QObject(context.window), m_context(context), m_parts(parts)
{
    // Other data (a file, generated data) no longer belong to the session file last used; open()
    // sets it again right after applying a session.
    connect(context.document, &DataDocument::datasetChanged, this, [this] {
        if (!m_context.document->changeIsEdit())
            m_current.clear();
    });
}

void SessionManager::setModes(ClassroomReaction* classroom, CompareReaction* compare)
{
    m_parts.classroom = classroom;
    m_parts.compare = compare;
}

CompareView* SessionManager::compareView() const
{
    return m_parts.compare ? m_parts.compare->view() : nullptr;
}

QString SessionManager::fileFilter()
{
    return tr("OutlierLens session (*.olens.json *.json);;All files (*)");
}

QString SessionManager::askSessionPath(const QString& title, const QString& start)
{
    QSettings settings;
    const QString from = start.isEmpty() ? QDir(settings.value("lastSessionDir").toString()).filePath("session.olens.json")
                                         : start;
    QString path = QFileDialog::getSaveFileName(m_context.window, title, from, fileFilter());
    if (path.isEmpty())
        return path;
    if (!path.endsWith(".json", Qt::CaseInsensitive))
        path += ".olens.json";
    settings.setValue("lastSessionDir", QFileInfo(path).absolutePath());
    return path;
}

qint64 SessionManager::embedLimitBytes()
{
    return qint64(QSettings().value("sessions/embed_limit_mb", 20).toDouble() * 1024 * 1024);
}

Session SessionManager::capture(bool withModel, DataPolicy data, const QString& sessionPath) const
{
    Q_ASSERT(m_parts.classroom && m_parts.compare); // setModes() was called
    Session s;
    const DataDocument* doc = m_context.document;
    const Dataset& d = doc->dataset();
    const QFileInfo file(doc->filePath());
    const bool fromFile = !doc->isEdited() && !doc->filePath().isEmpty();
    if (fromFile) {
        s.dataPath = file.absoluteFilePath().toStdString();
        if (!sessionPath.isEmpty())
            s.dataRelativePath = QFileInfo(sessionPath).absoluteDir().relativeFilePath(file.absoluteFilePath()).toStdString();
    }
    // A file that is gone (a session opened elsewhere with its rows) can only be saved with its rows.
    const bool embed = !fromFile || !file.isFile() || data == DataPolicy::Embed
                       || (data == DataPolicy::Auto && file.size() <= embedLimitBytes());
    if (embed) {
        s.embedded = true;
        s.data = d;
        s.data.warnings.clear();
    }
    if (!d.labelName.empty())
        s.labelColumn = d.labelName;

    const TrainingSetup& setup = doc->trainingSetup();
    if (!setup.detectorId.empty()) {
        SessionDetector det;
        det.id = setup.detectorId;
        det.normalization = toString(setup.normalization);
        try {
            ParamSet p = Registry::instance().defaultParams(det.id);
            p.set(setup.params);
            det.params = p.toJson();
        } catch (const std::exception&) {
            det.params = Registry::instance().defaultParams(det.id).toJson(); // a half-typed value: keep defaults
        }
        s.detector = det;
    }
    s.fitOn = setup.fitOn;
    if (const auto r = doc->trainedResult()) {
        if (withModel) {
            // The recorded path (the timeline) travels with the session while it is small.
            const auto h = r->detector->history();
            // knn and lof refer to their training rows in the rows embedded here instead of copying
            // them; a session that names a file keeps the whole model (the file may be read with
            // other column roles elsewhere, or change). The autosave refers to files too (below).
            s.model = sessionModelJson(*r->detector, r->normalizer, s.embedded ? &d.X : nullptr, r->trainingRows,
                                       h && h->bytes <= kSessionHistoryBytes);
        }
        s.threshold = doc->trainedThreshold();
        s.trainingRows = r->trainingRows;
    }
    s.selection = doc->pointSelection();
    s.topK = doc->topK();
    const auto cam = m_context.view->cameraState();
    s.camera.valid = !doc->isEmpty();
    s.camera.position = cam.position;
    s.camera.focalPoint = cam.focalPoint;
    s.camera.viewUp = cam.viewUp;
    s.camera.parallelScale = cam.parallelScale;
    s.camera.viewAngle = cam.viewAngle;
    s.camera.parallel = CameraRig::of(m_context.view)->parallelProjection();
    s.view = toJson(m_parts.viewControls->settings());
    s.view["text_scale"] = textScale(); // View → Text size: a lecture's session opens readable
    if (CompareView* cv = compareView()) {
        for (const auto& e : cv->entries()) {
            SessionDetector d;
            d.id = e.id;
            d.normalization = toString(e.normalization);
            ParamSet p = Registry::instance().defaultParams(e.id);
            p.set(e.params);
            d.params = p.toJson();
            s.compare.push_back(std::move(d));
        }
        s.compareQuantile = cv->quantile();
        s.compareActive = m_parts.compare->isActive();
    }
    if (m_parts.caption->hasLesson())
        s.lesson = m_parts.caption->lesson();
    if (doc->shown().kind == DataDocument::Shown::Kind::Recorded)
        s.shownStep = doc->shown().step; // the timeline's step, shown again on opening
    s.classroom = m_parts.classroom->isActive();
    for (const QString& name : m_parts.classroom->panels())
        s.classroomPanels.push_back(name.toStdString());
    return s;
}

struct SessionManager::Prepared {
    Session session; // without its embedded rows (moved to `data`)
    Dataset data;
    QString path; // the file the rows came from, if any
    std::vector<CompareView::Entry> compare;
    std::shared_ptr<FitResult> result;
    ParamAssignments params;
    QString modelLost;
};

std::shared_ptr<SessionManager::Prepared> SessionManager::prepare(Session s, const ProgressCallback& progress)
{
    const ProgressReporter step(progress); // throws Cancelled when asked to stop
    auto p = std::make_shared<Prepared>();
    p->path = QString::fromStdString(s.dataPath); // embedded: the file the rows came from, if any
    if (s.embedded) {
        p->data = std::move(s.data);
        s.data = Dataset();
    } else {
        p->data = loadCloudFile(p->path);
    }
    step(0.4, "data read; restoring the model");
    if (s.detector)
        p->params = assignmentsFor(*s.detector);
    for (const auto& d : s.compare)
        p->compare.push_back({d.id, assignmentsFor(d), parseNormalization(d.normalization)});
    if (!s.model.is_null()) {
        nlohmann::json model = std::move(s.model); // knn's and lof's hold every point: no copy
        try {
            model = modelWithTrainingRows(std::move(model), p->data.X, s.trainingRows);
        } catch (const DataError& e) {
            // The data file changed since the save (a knn or lof model refers to its rows):
            // everything else is restored; the model is not, and the user is told why.
            model = nullptr;
            p->modelLost = QString::fromUtf8(e.what());
        }
        if (!model.is_null()) {
            RestoredModel restored = restoreSessionModel(model, static_cast<int>(p->data.cols()));
            step(0.6, "model restored; scoring");
            p->result = resultFor(std::move(restored), p->data, s.trainingRows);
        }
    }
    p->session = std::move(s);
    return p;
}

void SessionManager::install(Prepared& p)
{
    Q_ASSERT(m_parts.classroom && m_parts.compare); // setModes() was called
    const Session& s = p.session;
    const std::shared_ptr<FitResult>& result = p.result;
    const QString& modelLost = p.modelLost;
    Dataset data = std::move(p.data);
    const QString& path = p.path;
    const std::vector<CompareView::Entry>& compare = p.compare;
    const ParamAssignments& params = p.params;
    m_context.trainer->cancel();
    DataDocument* doc = m_context.document;
    doc->setDataset(std::move(data), path);
    doc->setEdited(s.embedded && path.isEmpty()); // a file's rows saved with the session are not an edit
    {
        // The dock follows the document's setup (it shows what will be trained).
        TrainingSetup setup = doc->trainingSetup();
        if (s.detector) {
            setup.detectorId = s.detector->id;
            setup.normalization = parseNormalization(s.detector->normalization);
            setup.params = params;
        }
        setup.fitOn = s.fitOn;
        doc->setTrainingSetup(setup);
    }
    m_parts.viewControls->applySettings(toVariantMap(s.view));
    if (m_textSizeFromSession && s.view.contains("text_scale") && s.view["text_scale"].is_number())
        TextSizeReaction::apply(m_context.window, s.view["text_scale"].get<double>(), false); // the user's own setting stays
    if (result) {
        doc->setResult(result);
        m_parts.viewControls->applySettings(toVariantMap(s.view)); // result-dependent settings (clusters)
        if (s.threshold)
            doc->setThreshold(*s.threshold);
    }
    doc->setTopK(s.topK);
    doc->setPointSelection(s.selection); // rows outside the data are dropped
    if (s.camera.valid) {
        VtkView::CameraState c;
        c.position = s.camera.position;
        c.focalPoint = s.camera.focalPoint;
        c.viewUp = s.camera.viewUp;
        c.parallelScale = s.camera.parallelScale;
        c.viewAngle = s.camera.viewAngle;
        // Projection first: setCameraState then restores the saved parallel scale exactly.
        CameraRig::of(m_context.view)->setParallelProjection(s.camera.parallel);
        m_context.view->setCameraState(c);
    }
    if (!compare.empty() || s.compareActive) {
        if (s.compareActive)
            m_parts.compare->setActive(true); // creates the page
        if (CompareView* cv = compareView()) {
            QString why;
            if (!compare.empty() && !cv->setDetectors(compare, &why))
                m_context.log->warning(tr("session compare layout not restored: %1").arg(why));
            cv->setQuantile(s.compareQuantile);
        }
    } else if (m_parts.compare->isActive()) {
        m_parts.compare->setActive(false);
    }
    // The lesson belongs to the data just loaded; its current step is shown again (a training step
    // as soon as the restored model's recorded path is there: it is).
    m_parts.caption->setLesson(s.lesson ? *s.lesson : Lesson{});
    // The step the timeline showed, unless the lesson's step names one (it has just shown it).
    const bool lessonShowsAStep = s.lesson && !s.lesson->steps.empty()
                                  && s.lesson->steps[std::size_t(s.lesson->current)].atStep != -1;
    if (s.shownStep >= 0 && !lessonShowsAStep && m_parts.timeline && m_parts.timeline->history())
        m_parts.timeline->showIndex(m_parts.timeline->history()->indexAtOrBefore(s.shownStep));
    m_installedOrigin = QString::fromStdString(s.origin);
    QStringList panels;
    for (const auto& name : s.classroomPanels)
        panels << QString::fromStdString(name);
    if (!panels.isEmpty() || s.classroom)
        m_parts.classroom->setPanels(panels);
    m_parts.classroom->setActive(s.classroom);
    m_restoreProblem.clear();
    if (!modelLost.isEmpty()) {
        const QString text = tr("the session's fitted model was not restored: %1").arg(modelLost);
        m_restoreProblem = text;
        m_context.log->warning(text);
        m_context.window->statusBar()->showMessage(text, 15000);
    }
}

bool SessionManager::save(const QString& path, QString* error, DataPolicy data)
{
    if (m_autosave && QFileInfo(path).absoluteFilePath() == QFileInfo(m_autosave->path()).absoluteFilePath())
        m_autosave->supersede(); // an autosave in flight must not land after this save
    try {
        Session session = capture(true, data, path);
        std::vector<std::string> data; // a session never replaces the data file it refers to
        if (!m_context.document->filePath().isEmpty())
            data.push_back(QFile::encodeName(m_context.document->filePath()).toStdString());
        // Streamed: a failed write leaves the file as it was (a temporary file is renamed at the end).
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            [&](std::ostream& out) { writeSession(std::move(session), out); }, data);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool SessionManager::saveAs(const QString& path, DataPolicy data)
{
    QString error;
    if (!save(path, &error, data)) {
        m_context.log->error(error);
        if (m_context.shell->isInteractive())
            QMessageBox::warning(m_context.window, tr("Cannot save session"), error);
        return false;
    }
    m_context.log->info(tr("session saved to %1").arg(path));
    m_current = path;
    emit sessionSaved(path);
    return true;
}

QString SessionManager::locateData(const Session& s, const QString& sessionPath, QString* error) const
{
    const QString original = QString::fromStdString(s.dataPath);
    const QDir here = QFileInfo(sessionPath).absoluteDir();
    QStringList tried{original};
    if (!s.dataRelativePath.empty())
        tried << QDir::cleanPath(here.filePath(QString::fromStdString(s.dataRelativePath)));
    tried << here.filePath(QFileInfo(original).fileName());
    tried.removeDuplicates();
    for (const QString& candidate : tried)
        if (QFileInfo(candidate).isFile())
            return candidate;
    if (m_context.shell->isInteractive()
        && QMessageBox::question(m_context.window, tr("Data file not found"),
                                 tr("The session's data file %1 is not there (nor %2).\n\nLocate it?")
                                     .arg(original, tried.mid(1).join(tr(" nor "))),
                                 QMessageBox::Open | QMessageBox::Cancel)
               == QMessageBox::Open) {
        const QString chosen = QFileDialog::getOpenFileName(m_context.window, tr("Locate %1").arg(QFileInfo(original).fileName()),
                                                            here.absolutePath(),
                                                            tr("Data (*.csv *.tsv *.txt *.xyz *.ply);;All files (*)"));
        if (!chosen.isEmpty())
            return chosen;
    }
    if (error)
        *error = tr("the session's data file was not found: looked for %1. Put the data file next to the session, "
                    "or save the session with its data (File → Save session with data)")
                     .arg(tried.join(QStringLiteral(", ")));
    return {};
}

bool SessionManager::saveInteractively()
{
    if (!m_current.isEmpty())
        return saveAs(m_current);
    const QString path = askSessionPath(tr("Save session"));
    return !path.isEmpty() && saveAs(path);
}

Session SessionManager::readSessionFile(const QString& path)
{
    // A regular file of bounded size only, as the CLI and Python read one: a FIFO used to block
    // the open for ever and a 1 GiB file was read until memory ran out.
    return parseSession(readRegularFile(QFile::encodeName(path).toStdString(), kMaxSessionFileBytes, "session"));
}

bool SessionManager::resolveData(Session& s, const QString& sessionPath, QString* error)
{
    if (s.embedded)
        return true;
    // The rule the CLI and Python follow (session/SessionDataFile): the stored path, the path
    // relative to the session, the name next to it; regular files only.
    const SessionDataFile where = locateSessionData(s, QFile::encodeName(sessionPath).toStdString());
    QString found = QFile::decodeName(QByteArray::fromStdString(where.path));
    if (found.isEmpty()) {
        found = locateData(s, sessionPath, error); // the user may locate it: their pick
        if (found.isEmpty())
            return false;
        m_trusted.addFolderOf(found);
    } else if (where.outside && !m_outsideAllowed && !m_trusted.holds(found)
               && !(m_autosave && m_autosave->ownsFile(sessionPath))) {
        // A session is a file from anyone: it may name /etc/passwd or another user's data.
        const QString folder = QFile::decodeName(QByteArray::fromStdString(where.sessionFolder));
        if (!m_context.shell->isInteractive()) {
            if (error)
                *error = QString::fromStdString(outsideDataMessage(where, "run with --allow-data-outside"));
            return false;
        }
        const auto answer = QMessageBox::question(
            m_context.window, tr("Read data outside the session's folder?"),
            tr("This session reads its data from\n\n%1\n\nwhich is outside the session's folder %2 and not "
               "a folder you opened data from. Open it?")
                .arg(found, folder.isEmpty() ? tr("(none)") : folder),
            QMessageBox::Open | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Open) {
            if (error)
                *error = tr("not opened: the session's data file %1 is outside the session's folder").arg(found);
            return false;
        }
        m_trusted.addFolderOf(found); // the user's word: asked once for this folder
    }
    if (found != QString::fromStdString(s.dataPath))
        m_context.log->warning(
            tr("the session's data file %1 is not there; using %2").arg(QString::fromStdString(s.dataPath), found));
    s.dataPath = QFile::encodeName(found).toStdString();
    return true;
}

void SessionManager::markOpened(const QString& path)
{
    m_context.log->info(tr("session loaded from %1").arg(path));
    // The app's own autosave (File → Restore autosave, a crashed run's): the work it stands for
    // keeps its own name (the session file it came from, or none: unsaved work), never the
    // autosave's — which Save would overwrite and Recent files would list (issue #52).
    const bool autosaved = m_autosave && m_autosave->ownsFile(path);
    const QString name = autosaved ? (QFileInfo::exists(m_installedOrigin) ? m_installedOrigin : QString()) : path;
    m_current = name;
    emit sessionOpened(name, autosaved);
}

bool SessionManager::open(const QString& path, QString* error)
{
    QString why;
    try {
        Session s = readSessionFile(path);
        if (!resolveData(s, path, &why))
            throw DataError(why.toStdString());
        // The session read here is moved in (a knn model holds every point).
        install(*prepare(std::move(s)));
        markOpened(path);
        return true;
    } catch (const std::exception& e) {
        why = QString::fromUtf8(e.what());
    }
    why = tr("%1: %2").arg(path, why);
    m_context.log->error(why);
    if (error)
        *error = why;
    return false;
}

} // namespace olens
