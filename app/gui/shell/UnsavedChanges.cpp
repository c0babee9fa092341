#include "shell/UnsavedChanges.h"

#include "document/DataDocument.h"
#include "view/DataEditor.h"
#include "shell/WindowShell.h"

#include <QMainWindow>
#include <QUndoStack>

namespace olens {

UnsavedChanges::UnsavedChanges(const ReactionContext& context, DataEditor* editor)
    : QObject(context.window), m_context(context), m_editor(editor)
{
    connect(editor->undoStack(), &QUndoStack::cleanChanged, this, &UnsavedChanges::update);
    connect(context.document, &DataDocument::datasetChanged, this, [this] {
        if (!m_context.document->changeIsEdit()) // other data: what was generated is gone
            m_generated = false;
        update();
    });
}

bool UnsavedChanges::isModified() const
{
    return m_modified;
}

void UnsavedChanges::markGenerated()
{
    m_generated = true;
    update();
}

void UnsavedChanges::markSaved()
{
    m_generated = false;
    m_editor->undoStack()->setClean();
    update();
}

void UnsavedChanges::update()
{
    const bool modified = m_generated || !m_editor->undoStack()->isClean();
    m_context.window->setWindowModified(modified);
    if (modified != m_modified) {
        m_modified = modified;
        emit modifiedChanged(modified);
    }
}

bool UnsavedChanges::confirm(const QString& action)
{
    if (!m_modified)
        return true;
    const QString question = tr("The data have unsaved changes. Save them as a session before you %1?").arg(action);
    QMessageBox::StandardButton answer = QMessageBox::Discard;
    if (m_prompt) {
        answer = m_prompt(question);
    } else if (m_context.shell->isInteractive()) {
        answer = QMessageBox::warning(m_context.window, tr("Unsaved changes"), question,
                                      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    }
    switch (answer) {
    case QMessageBox::Save: Q_ASSERT(m_save); return m_save && m_save(); // setSave() was called
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

} // namespace olens
