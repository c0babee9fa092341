#pragma once
// The File menu's session entries: Save session (Ctrl+S), Save session with data, Open session
// (Ctrl+Shift+O) and Restore autosave (the last two open in the background).
#include "shell/Reaction.h"

namespace olens {

class Autosave;
class BackgroundOpen;
class SessionManager;

/// File → Save session (Ctrl+S) and Save session with data: asks where (starting at the session
/// last opened or saved) and saves; with data, the rows go inside whatever their size.
class SaveSessionReaction : public Reaction {
    Q_OBJECT
public:
    SaveSessionReaction(QAction* action, const ReactionContext& context, SessionManager* sessions, bool withData);

private:
    void onTriggered() override;
    SessionManager* m_sessions;
    bool m_withData;
};
class UnsavedChanges;

/// File → Open session (Ctrl+Shift+O): asks before unsaved changes are dropped, then opens the
/// chosen session file in the background (BackgroundOpen::openSession; failures are reported there).
class OpenSessionReaction : public Reaction {
    Q_OBJECT
public:
    /// `asPresented`: File → Open session as presented (the session's own text size, no key).
    OpenSessionReaction(QAction* action, const ReactionContext& context, BackgroundOpen* opener, UnsavedChanges* unsaved,
                        SessionManager* sessions, bool asPresented = false);

private:
    void onTriggered() override;
    BackgroundOpen* m_opener;
    UnsavedChanges* m_unsaved;
    SessionManager* m_sessions;
    bool m_asPresented;
};

/// File → Restore autosave: the session saved automatically, opened in the background as Open
/// session does (before, on the GUI thread: the window froze while a large autosave was restored).
class RestoreAutosaveReaction : public Reaction {
    Q_OBJECT
public:
    RestoreAutosaveReaction(QAction* action, const ReactionContext& context, const Autosave* autosave,
                            BackgroundOpen* opener, UnsavedChanges* unsaved);

private:
    void onTriggered() override;
    const Autosave* m_autosave;
    BackgroundOpen* m_opener;
    UnsavedChanges* m_unsaved;
};

} // namespace olens
