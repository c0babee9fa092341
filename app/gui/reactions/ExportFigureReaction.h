#pragma once
// File → Export figure… (issue #19 item 7): the view or one of the plots, for a slide — PNG at a
// chosen size (the view) or scale (plots), optionally with a transparent background, or SVG of a
// plot (QSvgGenerator: text stays text). The dialog is FigureExportDialog; writes are atomic.
#include "shell/Reaction.h"
#include "dialogs/FigureExportDialog.h"

#include <QObject>
#include <QString>
#include <vector>

class QAction;

namespace olens {

class CompareReaction;
class PlotWidget;

class ExportFigureReaction : public Reaction {
    Q_OBJECT
public:
    /// `compare`: in compare mode the view's figure is the compare page.
    ExportFigureReaction(QAction* action, const ReactionContext& context, CompareReaction* compare);

    struct Target {
        QString name;
        PlotWidget* plot = nullptr; ///< null: the view (the compare page in compare mode)
    };
    /// The view, then every plot that has data (Detector, Evaluation, Similarity docks).
    static std::vector<Target> targets(const ReactionContext& context, const CompareReaction* compare);
    /// Writes the figure; returns an error message or an empty string.
    static QString save(const ReactionContext& context, const CompareReaction* compare, const Target& target,
                        const FigureOptions& options, const QString& path);
    /// Every plot with data as NAME.svg and NAME.png (2×) into `dir` (the GUI's --export-plots);
    /// returns an error or an empty string; *written gets the file names.
    static QString saveAllPlots(const ReactionContext& context, const CompareReaction* compare, const QString& dir,
                                QStringList* written = nullptr);

private:
    void onTriggered() override;
    CompareReaction* m_compare;
};

} // namespace olens
