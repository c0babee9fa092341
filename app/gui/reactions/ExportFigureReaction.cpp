#include "reactions/ExportFigureReaction.h"
#include "reactions/Reactions.h"

#include "view/CloudView.h"
#include "modes/CompareReaction.h"
#include "compare/CompareView.h"
#include "docks/LogPanel.h"
#include "plots/PlotExporter.h"
#include "plots/PlotWidget.h"
#include "base/AtomicWriter.h"
#include "modes/TextSizeReaction.h"
#include "render/VtkSupport.h"

#include <QAction>
#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QMainWindow>
#include "shell/LastFolder.h"
#include "document/DataDocument.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace olens {

namespace {

QString writeBytes(const QString& path, const QByteArray& bytes, const QStringList& inputs = {})
{
    try { // the one atomic writer (core/base/AtomicWriter); never over the loaded data
        std::vector<std::string> guarded;
        for (const QString& f : inputs)
            guarded.push_back(QFile::encodeName(f).toStdString());
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            [&](std::ostream& out) { out.write(bytes.constData(), bytes.size()); }, guarded);
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

QString plotName(const PlotWidget* plot)
{
    const QString title = plot->title().section(QStringLiteral("  "), 0, 0).trimmed();
    return title.isEmpty() ? plot->objectName() : title;
}

} // namespace

ExportFigureReaction::ExportFigureReaction(QAction* action, const ReactionContext& context, CompareReaction* compare)
    : Reaction(action, context), m_compare(compare)
{
    action->setObjectName("actionExportFigure");
    action->setToolTip(tr("Export the view or a plot for a slide: PNG at a chosen size or scale, transparent "
                          "background, or SVG of a plot"));
}

std::vector<ExportFigureReaction::Target> ExportFigureReaction::targets(const ReactionContext& context,
                                                                       const CompareReaction* comparing)
{
    const bool compare = comparing && comparing->isActive();
    std::vector<Target> out{{compare ? tr("compare page") : tr("view"), nullptr}};
    for (PlotWidget* plot : context.window->findChildren<PlotWidget*>())
        if (plot->hasData() && !(compare && comparing->view()->isAncestorOf(plot)))
            out.push_back({tr("plot: %1").arg(plotName(plot)), plot});
    return out;
}

QString ExportFigureReaction::save(const ReactionContext& context, const CompareReaction* comparing, const Target& target,
                                  const FigureOptions& o, const QString& path)
{
    const QStringList inputs = ScreenshotReaction::inputsOf(context.document);
    if (!target.plot) {
        const bool compare = comparing && comparing->isActive();
        if (o.format == "svg")
            return tr("the view is exported as PNG or PDF (SVG: the plots only; Debian's GL2PS cannot embed "
                      "the rendered scene in SVG)");
        if (o.format == "pdf") {
            // vtkGL2PSExporter writes its own file: into a temporary directory, then atomically.
            if (compare)
                return tr("the compare page is exported as PNG only");
            QTemporaryDir tmp;
            const QString file = tmp.filePath(QStringLiteral("view.pdf"));
            const double shown = textScale();
            const bool rescale = o.textScale > 0.0 && std::abs(o.textScale - shown) > 1e-9;
            if (rescale)
                TextSizeReaction::apply(context.window, o.textScale, false);
            const QString error = context.view->exportVector(file, o.size);
            if (rescale)
                TextSizeReaction::apply(context.window, shown, false);
            if (!error.isEmpty())
                return error;
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly))
                return tr("the vector export wrote nothing");
            return writeBytes(path, f.readAll(), inputs);
        }
        // A text size of its own: every view lays its text out again for the export, then as before.
        const double shown = textScale();
        const bool rescale = o.textScale > 0.0 && std::abs(o.textScale - shown) > 1e-9;
        if (rescale)
            TextSizeReaction::apply(context.window, o.textScale, false);
        QImage img = compare ? comparing->view()->figureImage(o.transparent) : context.view->renderImage(o.size, o.transparent);
        if (rescale)
            TextSizeReaction::apply(context.window, shown, false);
        // The compare figure is grabbed at its size on screen; another size asked for is a smooth
        // rescale of it (aspect kept).
        if (compare && !img.isNull() && o.size.isValid() && o.size != comparing->view()->figureSize())
            img = img.scaled(o.size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
        if (img.isNull())
            return tr("the view could not be rendered");
        QByteArray png;
        QBuffer buffer(&png);
        if (!buffer.open(QIODevice::WriteOnly) || !img.save(&buffer, "PNG"))
            return tr("cannot encode the PNG image for '%1'").arg(path);
        return writeBytes(path, png, inputs);
    }
    PlotWidget* shownPlot = target.plot;
    if (!shownPlot->isVisible() && (shownPlot->width() < 320 || shownPlot->height() < 220))
        shownPlot->resize(std::max(shownPlot->width(), 480), std::max(shownPlot->height(), 320)); // never laid out yet
    // At the size and text size asked, not the dock's: a copy laid out for the figure.
    std::unique_ptr<PlotWidget> copy;
    const PlotWidget* plot = shownPlot;
    if ((o.size.isValid() && !o.size.isEmpty()) || o.textScale > 0.0) {
        copy = shownPlot->figureCopy(o.size.boundedTo(QSize(8192, 8192)), o.textScale);
        plot = copy.get();
    }
    if (o.format == "svg")
        return writeBytes(path, PlotExporter::svg(*plot, o.transparent), inputs);
    if (o.format == "pdf")
        return writeBytes(path, PlotExporter::pdf(*plot), inputs);
    const QImage img = PlotExporter::image(*plot, o.scale, o.transparent);
    QByteArray png;
    QBuffer buffer(&png);
    if (img.isNull() || !buffer.open(QIODevice::WriteOnly) || !img.save(&buffer, "PNG"))
        return tr("cannot encode the PNG image for '%1'").arg(path);
    return writeBytes(path, png, inputs);
}

QString ExportFigureReaction::saveAllPlots(const ReactionContext& context, const CompareReaction* compare, const QString& dir,
                                          QStringList* written)
{
    if (!QDir().mkpath(dir))
        return tr("cannot create the directory '%1'").arg(dir);
    QStringList used;
    for (const Target& t : targets(context, compare)) {
        if (!t.plot)
            continue;
        QString base = plotName(t.plot).toLower().replace(QRegularExpression("[^a-z0-9]+"), "-");
        base = base.section('-', 0, 3, QString::SectionSkipEmpty);
        if (base.isEmpty() || used.contains(base))
            base += QString::number(used.size() + 1);
        used << base;
        for (const char* format : {"svg", "png"}) {
            FigureOptions o;
            o.format = format;
            o.scale = 2.0;
            const QString path = QDir(dir).filePath(base + "." + format);
            const QString error = save(context, compare, t, o, path);
            if (!error.isEmpty())
                return error;
            if (written)
                *written << path;
        }
    }
    return {};
}

void ExportFigureReaction::onTriggered()
{
    const std::vector<Target> all = targets(m_context, m_compare);
    QStringList names;
    for (const Target& t : all)
        names << t.name;
    const bool compare = m_compare && m_compare->isActive();
    FigureExportDialog dialog(names, compare ? m_compare->view()->figureSize() : m_context.view->size(), m_context.window);
    dialog.setTextScale(textScale());
    if (dialog.exec() != QDialog::Accepted)
        return;
    const FigureOptions o = dialog.options();
    const QString suffix = dialog.suffix();
    QString path = QFileDialog::getSaveFileName(m_context.window, tr("Export figure"),
                                                LastFolder::suggest("outlierlens-figure." + suffix, m_context.document->filePath()),
                                                suffix == "svg"   ? tr("SVG drawing (*.svg)")
                                                : suffix == "pdf" ? tr("PDF (*.pdf)")
                                                                  : tr("PNG image (*.png)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith("." + suffix, Qt::CaseInsensitive))
        path += "." + suffix;
    const QString error = save(m_context, m_compare, all[std::size_t(std::clamp(o.target, 0, int(all.size()) - 1))], o, path);
    reportWritten(path, error, tr("figure exported to %1").arg(path), tr("Export figure"));
}

} // namespace olens
