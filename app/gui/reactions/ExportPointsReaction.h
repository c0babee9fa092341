#pragma once
// File → Export inliers (cleaned cloud) / Export flagged points / Export selected points: the rows
// themselves with every column they were loaded with, plus score and outlier (core/data/PointExport),
// as CSV or binary PLY by the extension. Flags follow the document's current threshold (as the
// Ranking dock's). Inliers / flagged: enabled while a trained result exists; selected: while points
// are selected (box, lasso, picked or Ranking rows) and a result exists. The written file's score and outlier columns are
// remembered as ignored (ImportDialog roles), so opening it here shows the same cloud.
#include "shell/Reaction.h"

#include <QObject>

class QAction;

namespace olens {

class ExportPointsReaction : public Reaction {
    Q_OBJECT
public:
    enum class Which { Inliers, Flagged, Selected };
    ExportPointsReaction(QAction* action, const ReactionContext& context, Which which);
    /// Writes the points (format by the extension of `path`); returns an error message or "".
    /// `count` receives the number of rows written.
    static QString save(const DataDocument* doc, Which which, const QString& path, int* count = nullptr);

private:
    void onTriggered() override;
    bool isEnabledNow() const override;
    Which m_which;
};

} // namespace olens
