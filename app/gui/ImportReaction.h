#pragma once
// File → Import data with column roles…: pick a text data file, preview it and choose each
// column's role (ImportDialog), then load it; the roles are remembered for that file.
#include "ReactionContext.h"

#include <QObject>

class QAction;

namespace olens {

class BackgroundOpen;
class UnsavedChanges;

class ImportReaction : public QObject {
    Q_OBJECT
public:
    ImportReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener, UnsavedChanges* unsaved);

private:
    void onTriggered();
    ReactionContext m_context;
    BackgroundOpen* m_opener;
    UnsavedChanges* m_unsaved;
};

} // namespace olens
