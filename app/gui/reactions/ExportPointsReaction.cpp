#include "reactions/ExportPointsReaction.h"
#include "pipeline/DecisionsAt.h"

#include "document/DataDocument.h"
#include "dialogs/ImportDialog.h"
#include "docks/LogPanel.h"
#include "data/PointExport.h"

#include <QMainWindow>
#include <QAction>
#include <QFile>
#include "shell/LastFolder.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace olens {

ExportPointsReaction::ExportPointsReaction(QAction* action, const ReactionContext& context, Which which)
    : Reaction(action, context), m_which(which)
{
    switch (which) {
    case Which::Inliers:
        action->setObjectName("actionExportInliers");
        action->setToolTip(tr("Save the points not flagged at the current threshold (the cleaned cloud) "
                              "with all their columns, score and outlier, as CSV or binary PLY"));
        break;
    case Which::Flagged:
        action->setObjectName("actionExportFlagged");
        action->setToolTip(tr("Save the points flagged at the current threshold with all their columns, "
                              "score and outlier, as CSV or binary PLY"));
        break;
    case Which::Selected:
        action->setObjectName("actionExportSelected");
        action->setToolTip(tr("Save the selected points (picked, box, lasso or Ranking rows) with all their "
                              "columns, score and outlier, as CSV or binary PLY"));
        break;
    }
    connect(context.document, &DataDocument::resultChanged, this, &ExportPointsReaction::updateEnabled);
    connect(context.document, &DataDocument::pointSelectionChanged, this, &ExportPointsReaction::updateEnabled);
    trackEnabled();
}

bool ExportPointsReaction::isEnabledNow() const
{
    const DataDocument* doc = m_context.document;
    return doc->result() != nullptr && (m_which != Which::Selected || !doc->pointSelection().empty());
}

QString ExportPointsReaction::save(const DataDocument* doc, Which which, const QString& path, int* count)
{
    const auto r = doc->result();
    const Dataset& d = doc->dataset();
    if (!r || r->scores.size() != d.rows())
        return tr("nothing to export: train a detector first");
    // The decisions at the document's threshold: what the Ranking dock shows as flagged.
    const DecisionsAt flagged(*r, doc->threshold());
    Eigen::VectorXi flags(r->scores.size());
    for (Eigen::Index i = 0; i < flags.size(); ++i)
        flags(i) = flagged(i) ? 1 : 0;
    std::vector<Eigen::Index> rows;
    if (which == Which::Selected) {
        if (doc->pointSelection().empty())
            return tr("nothing to export: no points are selected");
        rows.assign(doc->pointSelection().begin(), doc->pointSelection().end()); // sorted: row order
    } else {
        rows = rowsWithFlag(flags, which == Which::Flagged);
    }
    const PointExport e{d, r->scores, flags, std::move(rows)};
    try {
        std::vector<std::string> inputs;
        if (!doc->filePath().isEmpty())
            inputs.push_back(QFile::encodeName(doc->filePath()).toStdString());
        writePoints(QFile::encodeName(path).toStdString(), e, inputs);
    } catch (const std::exception& ex) {
        return QString::fromUtf8(ex.what());
    }
    if (count)
        *count = static_cast<int>(e.rows.size());
    // Opened here again, the file shows the same cloud: score and outlier start as ignored columns
    // (File → Import shows and changes these roles).
    LoadOptions roles;
    if (d.hasLabels() && !d.labelName.empty())
        roles.labelColumn = d.labelName;
    const auto added = addedColumnNames(d);
    roles.excludeColumns = {added.score, added.outlier, added.index};
    for (const CarriedColumn& c : d.carried) // ignored on import: ignored again
        roles.excludeColumns.push_back(c.name);
    ImportDialog::remember(path, roles);
    return {};
}

void ExportPointsReaction::onTriggered()
{
    const QString base = QFileInfo(m_context.document->filePath()).completeBaseName();
    const char* suffixes[] = {"-inliers", "-flagged", "-selected"};
    const QString titles[] = {tr("Export inliers"), tr("Export flagged points"), tr("Export selected points")};
    const QString what[] = {tr("inliers"), tr("flagged points"), tr("selected points")};
    const int k = static_cast<int>(m_which);
    const QString name = (base.isEmpty() ? QStringLiteral("points") : base) + suffixes[k];
    QString filter;
    QString path = QFileDialog::getSaveFileName(m_context.window, titles[k],
                                                LastFolder::suggest(name + ".csv", m_context.document->filePath()),
                                                tr("CSV (*.csv);;PLY, binary (*.ply)"), &filter);
    if (path.isEmpty())
        return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "csv" && suffix != "ply")
        path += filter.contains("ply") ? ".ply" : ".csv";
    int count = 0;
    const QString error = save(m_context.document, m_which, path, &count); // count is set before the message is made
    reportWritten(path, error, tr("exported %1 %2 to %3").arg(count).arg(what[k], path), tr("Export"));
}

} // namespace olens
