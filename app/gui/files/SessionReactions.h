#pragma once
// The File menu's session entries that open in the background: Open session and Restore autosave
// (Save session and Save session with data are SessionManager::addMenuActions).
#include "shell/Reaction.h"

namespace olens {

class BackgroundOpen;
class SessionManager;
class UnsavedChanges;

/// File → Open session (Ctrl+Shift+O): asks before unsaved changes are dropped, then opens the
/// chosen session file in the background (BackgroundOpen::openSession; failures are reported there).
class OpenSessionReaction : public Reaction {
    Q_OBJECT
public:
    OpenSessionReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener, UnsavedChanges* unsaved);

private:
    void onTriggered() override;
    BackgroundOpen* m_opener;
    UnsavedChanges* m_unsaved;
};

/// File → Restore autosave: the session saved automatically, opened in the background as Open
/// session does (before, on the GUI thread: the window froze while a large autosave was restored).
class RestoreAutosaveReaction : public Reaction {
    Q_OBJECT
public:
    RestoreAutosaveReaction(QAction* action, const ReactionContext& context, const SessionManager* sessions,
                            BackgroundOpen* opener, UnsavedChanges* unsaved);

private:
    void onTriggered() override;
    const SessionManager* m_sessions;
    BackgroundOpen* m_opener;
    UnsavedChanges* m_unsaved;
};

} // namespace olens
