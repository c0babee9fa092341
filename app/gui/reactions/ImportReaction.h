#pragma once
// File → Import data with column roles…: pick a text data file, preview it and choose each
// column's role (ImportDialog), then load it; the roles are remembered for that file.
#include "shell/Reaction.h"

#include <QObject>

class QAction;

namespace olens {

class BackgroundOpen;
class UnsavedChanges;

class ImportReaction : public Reaction {
    Q_OBJECT
public:
    ImportReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener, UnsavedChanges* unsaved);

private:
    void onTriggered() override;
    BackgroundOpen* m_opener;
    UnsavedChanges* m_unsaved;
};

} // namespace olens
