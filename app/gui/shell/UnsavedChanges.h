#pragma once
// Unsaved-changes protection: the window title's modified marker ("[*]") follows data edits (the
// edit undo stack's clean state) and generated data; quitting, opening another file or session,
// generating data or applying a preset first asks Save / Discard / Cancel.
#include "shell/ReactionContext.h"

#include <QMessageBox>
#include <QObject>
#include <functional>

namespace olens {

class DataEditor;

class UnsavedChanges : public QObject {
    Q_OBJECT
public:
    /// Answers the question instead of a message box (tests, scripted runs).
    using Prompt = std::function<QMessageBox::StandardButton(const QString& question)>;

    /// How the answer Save saves (File → Save session: a file dialog); false when cancelled or failed.
    using Save = std::function<bool()>;

    /// `editor`: its undo stack's clean state is the data's saved state. Marks context.window.
    UnsavedChanges(const ReactionContext& context, DataEditor* editor);
    void setSave(Save save) { m_save = std::move(save); }

    bool isModified() const;
    /// Generated data (File → New data) exist only in the app until saved as a session.
    void markGenerated();
    /// The current state was saved (or freshly loaded): nothing to lose any more.
    void markSaved();

    /// Asks before `action` (e.g. "quit") would drop unsaved changes. Returns true to go on (nothing
    /// to lose, saved, or discarded), false to cancel. Without a prompt hook in a non-interactive
    /// window (headless runs) the changes are discarded without asking.
    bool confirm(const QString& action);
    void setPrompt(Prompt prompt) { m_prompt = std::move(prompt); }

signals:
    void modifiedChanged(bool modified);

private:
    void update();
    ReactionContext m_context;
    DataEditor* m_editor;
    Prompt m_prompt;
    Save m_save;
    bool m_generated = false;
    bool m_modified = false;
};

} // namespace olens
