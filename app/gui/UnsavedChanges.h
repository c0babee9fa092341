#pragma once
// Unsaved-changes protection: the window title's modified marker ("[*]") follows data edits (the
// edit undo stack's clean state) and generated data; quitting, opening another file or session,
// generating data or applying a preset first asks Save / Discard / Cancel.
#include <QMessageBox>
#include <QObject>
#include <functional>

namespace olens {

class DataEditor;
class MainWindow;

class UnsavedChanges : public QObject {
    Q_OBJECT
public:
    /// Answers the question instead of a message box (tests, scripted runs).
    using Prompt = std::function<QMessageBox::StandardButton(const QString& question)>;

    UnsavedChanges(MainWindow* window, DataEditor* editor);

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
    MainWindow* m_window;
    DataEditor* m_editor;
    Prompt m_prompt;
    bool m_generated = false;
    bool m_modified = false;
};

} // namespace olens
