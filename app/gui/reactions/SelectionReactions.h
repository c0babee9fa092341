#pragma once
// Edit → Select box (B) / Select lasso (L): checkable tools of the central view (a left-drag draws
// the region instead of rotating; Shift adds, Ctrl subtracts; at most one tool at a time; turning
// Edit points on puts the tool away), and
// Select all (Ctrl+A) / Invert selection (Ctrl+Shift+I) / Clear selection (Ctrl+Shift+A) on the
// document's selection, which the view, the Ranking dock and the exports share. Each action is
// enabled while there are data (the commands: while they would change something).
#include "shell/Reaction.h"
#include "render/VtkView.h"

#include <QObject>

class QAction;

namespace olens {

/// One selection tool (object name actionSelectBox / actionSelectLasso).
class SelectToolReaction : public Reaction {
    Q_OBJECT
public:
    /// `editMode`: Edit → Edit points, which puts the tool away when turned on (may be null).
    SelectToolReaction(QAction* action, const ReactionContext& context, VtkView::SelectionTool tool, QAction* editMode);

private:
    void onToggled(bool on);
    VtkView::SelectionTool m_tool;
};

/// Select all / invert / clear (object names actionSelectAll, actionInvertSelection,
/// actionClearSelection).
class SelectionCommandReaction : public Reaction {
    Q_OBJECT
public:
    enum class Command { All, Invert, Clear };
    SelectionCommandReaction(QAction* action, const ReactionContext& context, Command command);

private:
    void onTriggered() override;
    bool isEnabledNow() const override;
    Command m_command;
};

} // namespace olens
