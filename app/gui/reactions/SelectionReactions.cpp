#include "reactions/SelectionReactions.h"

#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "display/SelectionGeometry.h"

#include <QMainWindow>
#include <QAction>
#include <QActionGroup>

#include <numeric>

namespace olens {

SelectToolReaction::SelectToolReaction(QAction* action, const ReactionContext& context, VtkView::SelectionTool tool, QAction* editMode)
    : Reaction(action, context), m_tool(tool)
{
    const bool box = tool == VtkView::SelectionTool::Box;
    action->setObjectName(box ? "actionSelectBox" : "actionSelectLasso");
    action->setCheckable(true);
    action->setShortcut(QKeySequence(box ? tr("B") : tr("L")));
    action->setToolTip(box ? tr("Select box (B): drag a rectangle over the view to select the points in it; "
                                "Shift adds, Ctrl subtracts. The middle button and wheel still pan/zoom.")
                           : tr("Select lasso (L): draw a closed free-hand outline over the view to select the "
                                "points in it; Shift adds, Ctrl subtracts. The middle button and wheel still pan/zoom."));
    // One tool at a time; unchecking the active one leaves none.
    auto* group = context.window->findChild<QActionGroup*>("selectionTools");
    if (!group) {
        group = new QActionGroup(context.window);
        group->setObjectName("selectionTools");
        group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    }
    group->addAction(action);
    connect(action, &QAction::toggled, this, &SelectToolReaction::onToggled);
    // The tool put away elsewhere (Esc): the action follows the view. (Switching between the
    // tools is the action group's business.)
    connect(context.view, &VtkView::selectionToolChanged, this, [this](VtkView::SelectionTool t) {
        if (t == VtkView::SelectionTool::None && m_action->isChecked())
            m_action->setChecked(false);
    });
    // The left mouse does what was chosen last: turning Edit points on puts the tool away (a tool
    // chosen while editing takes the left mouse until it is put away; Del still deletes).
    if (editMode)
        connect(editMode, &QAction::toggled, this, [this](bool on) {
            if (on)
                m_action->setChecked(false);
        });
    auto update = [this] {
        const bool any = !m_context.document->isEmpty();
        if (!any && m_action->isChecked())
            m_action->setChecked(false);
        m_action->setEnabled(any);
    };
    connect(context.document, &DataDocument::datasetChanged, this, update);
    update();
}

void SelectToolReaction::onToggled(bool on)
{
    CloudView* view = m_context.view;
    if (on) {
        view->setSelectionTool(m_tool);
        return;
    }
    // Unchecked because another tool was chosen (the group unchecks this one first): that tool sets
    // itself; putting this one away to None in between would tell every reaction "no tool".
    if (QActionGroup* group = m_action->actionGroup())
        for (const QAction* other : group->actions())
            if (other != m_action && other->isChecked())
                return;
    if (view->selectionTool() == m_tool)
        view->setSelectionTool(VtkView::SelectionTool::None);
}

SelectionCommandReaction::SelectionCommandReaction(QAction* action, const ReactionContext& context, Command command)
    : Reaction(action, context), m_command(command)
{
    switch (command) {
    case Command::All:
        action->setObjectName("actionSelectAll");
        action->setShortcut(QKeySequence::SelectAll);
        action->setToolTip(tr("Select every point"));
        break;
    case Command::Invert:
        action->setObjectName("actionInvertSelection");
        action->setShortcut(QKeySequence(tr("Ctrl+Shift+I")));
        action->setToolTip(tr("Select the points that are not selected, and only those"));
        break;
    case Command::Clear:
        action->setObjectName("actionClearSelection");
        action->setShortcut(QKeySequence(tr("Ctrl+Shift+A")));
        action->setToolTip(tr("Select nothing"));
        break;
    }
    connect(context.document, &DataDocument::pointSelectionChanged, this, &SelectionCommandReaction::updateEnabled);
    trackEnabled();
}

bool SelectionCommandReaction::isEnabledNow() const
{
    const DataDocument* doc = m_context.document;
    const auto n = static_cast<std::size_t>(doc->dataset().rows());
    const std::size_t k = doc->pointSelection().size();
    switch (m_command) {
    case Command::All: return k < n;
    case Command::Invert: return n > 0;
    case Command::Clear: return k > 0;
    }
    return false;
}

void SelectionCommandReaction::onTriggered()
{
    DataDocument* doc = m_context.document;
    const int n = static_cast<int>(doc->dataset().rows());
    switch (m_command) {
    case Command::All: {
        std::vector<int> all(static_cast<std::size_t>(n));
        std::iota(all.begin(), all.end(), 0);
        doc->setPointSelection(std::move(all));
        break;
    }
    case Command::Invert: doc->setPointSelection(invertSelection(doc->pointSelection(), n)); break;
    case Command::Clear: doc->setPointSelection({}); break;
    }
}

} // namespace olens
