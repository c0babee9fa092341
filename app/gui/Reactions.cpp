#include "Reactions.h"

#include "view/CloudView.h"
#include "CompareReaction.h"
#include "compare/CompareView.h"
#include "document/DataDocument.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "docks/LogPanel.h"
#include "BackgroundOpen.h"
#include "SessionManager.h"
#include "UnsavedChanges.h"
#include "WindowShell.h"

#include <nlohmann/json.hpp>
#include <QAction>
#include "LastFolder.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMainWindow>
#include <QMessageBox>
#include <QBuffer>
#include <QFile>
#include <QSettings>

namespace olens {

OpenDataReaction::OpenDataReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener, UnsavedChanges* unsaved)
    : QObject(action), m_context(context), m_opener(opener), m_unsaved(unsaved)
{
    connect(action, &QAction::triggered, this, &OpenDataReaction::onTriggered);
}

QString OpenDataReaction::fileFilter()
{
    return QObject::tr("Point data (*.csv *.tsv *.txt *.xyz *.ply);;CSV (*.csv);;TSV (*.tsv);;Text (*.txt *.xyz);;"
                       "PLY (*.ply);;All files (*)");
}

QString OpenDataReaction::askDataFile(QWidget* parent, const QString& title, const QString& filter)
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(parent, title, settings.value("lastDataDir").toString(), filter);
    if (!path.isEmpty())
        settings.setValue("lastDataDir", QFileInfo(path).absolutePath());
    return path;
}

void OpenDataReaction::onTriggered()
{
    if (!m_unsaved->confirm(tr("open other data")))
        return;
    const QString path = askDataFile(m_context.window, tr("Open data"));
    if (!path.isEmpty())
        m_opener->open(path);
}

OpenSessionReaction::OpenSessionReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener,
                                         UnsavedChanges* unsaved)
    : QObject(action), m_context(context), m_opener(opener), m_unsaved(unsaved)
{
    action->setObjectName("actionOpenSession");
    action->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    action->setToolTip(tr("Restore data, detector, fitted model, camera and view from a session file"));
    connect(action, &QAction::triggered, this, &OpenSessionReaction::onTriggered);
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
    : QObject(action), m_context(context), m_sessions(sessions), m_opener(opener), m_unsaved(unsaved)
{
    action->setObjectName("actionRestoreAutosave");
    action->setToolTip(tr("Load the session saved automatically (every %1 minutes and after each training)")
                           .arg(SessionManager::kAutosaveIntervalMs / 60000));
    connect(action, &QAction::triggered, this, &RestoreAutosaveReaction::onTriggered);
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

ScreenshotReaction::ScreenshotReaction(QAction* action, const ReactionContext& context, CompareReaction* compare,
                                       Target target)
    : QObject(action), m_context(context), m_compare(compare), m_target(target)
{
    connect(action, &QAction::triggered, this, &ScreenshotReaction::onTriggered);
}

QString ScreenshotReaction::save(const ReactionContext& context, const CompareReaction* compare, Target target,
                                 const QString& path)
{
    // The window grab composes the QOpenGLWidget's framebuffer with the other widgets.
    // In compare mode the "view" is the compare figure: every panel with its title, and the key.
    const bool comparing = compare && compare->isActive();
    const QImage img = target == Target::Window ? context.window->grab().toImage()
                       : comparing             ? compare->view()->figureImage()
                                               : context.view->grabImage();
    return saveImage(img, path, inputsOf(context.document));
}

QStringList ScreenshotReaction::inputsOf(const DataDocument* document)
{
    const QString data = document->filePath();
    return data.isEmpty() ? QStringList() : QStringList{data};
}

QString ScreenshotReaction::saveImage(const QImage& img, const QString& path, const QStringList& inputs)
{
    if (img.isNull())
        return tr("the view could not be rendered");
    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !img.save(&buffer, "PNG"))
        return tr("cannot encode the PNG image for '%1'").arg(path);
    try { // the one atomic writer (core/base/AtomicWriter): unique temp file, fsync, rename
        std::vector<std::string> guarded;
        for (const QString& f : inputs)
            guarded.push_back(QFile::encodeName(f).toStdString());
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            [&](std::ostream& out) { out.write(png.constData(), png.size()); }, guarded);
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

void ScreenshotReaction::onTriggered()
{
    QString path = QFileDialog::getSaveFileName(m_context.window, tr("Save screenshot"),
                                                LastFolder::suggest("outlierlens.png", m_context.document->filePath()),
                                                tr("PNG image (*.png)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(".png", Qt::CaseInsensitive))
        path += ".png";
    const QString error = save(m_context, m_compare, m_target, path);
    if (error.isEmpty()) {
        LastFolder::remember(path);
        m_context.log->info(tr("screenshot saved to %1").arg(path));
    } else {
        m_context.log->error(error);
        QMessageBox::warning(m_context.window, tr("Save screenshot"), error);
    }
}

ExportReaction::ExportReaction(QAction* action, const ReactionContext& context, What what)
    : QObject(action), m_context(context), m_what(what)
{
    connect(action, &QAction::triggered, this, &ExportReaction::onTriggered);
    const DataDocument* doc = context.document;
    auto update = [action, doc] { action->setEnabled(doc->result() != nullptr); };
    connect(doc, &DataDocument::resultChanged, action, update);
    update();
}

QString ExportReaction::save(const DataDocument* doc, What what, const QString& path)
{
    const auto r = doc->result();
    if (!r)
        return tr("nothing to export: train a detector first");
    try {
        if (what == What::Scores) {
            const Dataset& d = doc->dataset();
            writeFileAtomically(QFile::encodeName(path).toStdString(), [&](std::ostream& out) {
                writeScores(out, r->scores, r->outlier, d.hasLabels() ? &d.labels : nullptr,
                            r->trainingRows.empty() ? nullptr : &r->trainingRows); // fitted on a part
            });
        } else {
            nlohmann::json model = r->detector->toJson();
            model["normalizer"] = r->normalizer.toJson();
            writeFileAtomically(QFile::encodeName(path).toStdString(), [&](std::ostream& out) { out << model.dump(1) << "\n"; });
        }
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

void ExportReaction::onTriggered()
{
    const bool scores = m_what == What::Scores;
    const QString path = QFileDialog::getSaveFileName(
        m_context.window, scores ? tr("Export scores") : tr("Export model"),
        LastFolder::suggest(scores ? "scores.csv" : "model.json", m_context.document->filePath()),
        scores ? tr("CSV (*.csv)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    const QString error = save(m_context.document, m_what, path);
    if (error.isEmpty()) {
        LastFolder::remember(path);
        m_context.log->info(tr("exported %1").arg(path));
    } else {
        m_context.log->error(error);
        QMessageBox::warning(m_context.window, tr("Export"), error);
    }
}

} // namespace olens
