#include "reactions/Reactions.h"

#include "view/CloudView.h"
#include "modes/CompareReaction.h"
#include "compare/CompareView.h"
#include "document/DataDocument.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "docks/LogPanel.h"
#include "files/BackgroundOpen.h"
#include "shell/UnsavedChanges.h"
#include "shell/WindowShell.h"

#include <nlohmann/json.hpp>
#include <QAction>
#include "shell/LastFolder.h"

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
    : Reaction(action, context), m_opener(opener), m_unsaved(unsaved)
{
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

ScreenshotReaction::ScreenshotReaction(QAction* action, const ReactionContext& context, CompareReaction* compare,
                                       Target target)
    : Reaction(action, context), m_compare(compare), m_target(target)
{
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
    reportWritten(path, save(m_context, m_compare, m_target, path), tr("screenshot saved to %1").arg(path),
                  tr("Save screenshot"));
}

ExportReaction::ExportReaction(QAction* action, const ReactionContext& context, What what)
    : Reaction(action, context), m_what(what)
{
    connect(context.document, &DataDocument::resultChanged, this, &ExportReaction::updateEnabled);
    updateEnabled();
}

bool ExportReaction::isEnabledNow() const
{
    return m_context.document->result() != nullptr;
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
    reportWritten(path, save(m_context.document, m_what, path), tr("exported %1").arg(path), tr("Export"));
}

} // namespace olens
