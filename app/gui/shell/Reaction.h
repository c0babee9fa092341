#pragma once
// The base of the window's reactions (ParaView's pqReaction): one small object per action, owned
// by the action, holding what it works on (ReactionContext) and its enable state. The wiring every
// reaction repeated — name, shortcut and tooltip, the triggered slot, re-checking the enabled
// state when the data or the training change — is written here once.
#include "shell/ReactionContext.h"

#include <QObject>

class QAction;
class QKeySequence;

namespace olens {

class Reaction : public QObject {
    Q_OBJECT
public:
    /// The reaction lives as long as `action` (its parent); `triggered` calls onTriggered().
    Reaction(QAction* action, const ReactionContext& context);
    QAction* action() const { return m_action; }

protected:
    /// The action's object name (scripts and tests find it by name), shortcut and tooltip.
    void describe(const char* objectName, const QKeySequence& shortcut, const QString& toolTip);
    void describe(const char* objectName, const QString& toolTip);
    /// What the action does; the default does nothing (a reaction that connects `triggered` itself).
    virtual void onTriggered() {}
    /// Whether the action may be used now; the default: always.
    virtual bool isEnabledNow() const { return true; }
    /// Re-checks isEnabledNow() whenever the document's data or the training's running state change,
    /// and now (call it at the end of the derived constructor: a base constructor cannot ask the
    /// derived class).
    void trackEnabled();
    /// Sets the action's enabled state from isEnabledNow(); also a slot for other signals.
    void updateEnabled();
    /// After a file was written for the user: the folder remembered and `done` in the Log, or the
    /// error in the Log and a warning box titled `title`.
    void reportWritten(const QString& path, const QString& error, const QString& done, const QString& title);

    QAction* const m_action;
    const ReactionContext m_context;
};

} // namespace olens
