#include "reactions/ImportReaction.h"

#include "dialogs/ImportDialog.h"
#include "files/BackgroundOpen.h"
#include "reactions/Reactions.h"
#include "shell/UnsavedChanges.h"

#include <QMainWindow>
#include <QAction>

namespace olens {

ImportReaction::ImportReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener, UnsavedChanges* unsaved)
    : Reaction(action, context), m_opener(opener), m_unsaved(unsaved)
{
    action->setObjectName("actionImport");
    action->setShortcut(QKeySequence(tr("Ctrl+I")));
    action->setToolTip(tr("Preview a CSV/TSV/TXT/XYZ/PLY file and choose which columns are features, the label, "
                          "sigma or ignored (remembered per file)"));
}

void ImportReaction::onTriggered()
{
    if (!m_unsaved->confirm(tr("import other data")))
        return;
    const QString path = OpenDataReaction::askDataFile(m_context.window, tr("Import data"),
                                                       tr("Data (*.csv *.tsv *.txt *.xyz *.ply);;All files (*)"));
    if (path.isEmpty())
        return;
    ImportDialog dialog(path, m_context.window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    dialog.remember();
    m_opener->open(path);
}

} // namespace olens
