#include "UnsavedChanges.h"

#include "document/DataDocument.h"
#include "view/DataEditor.h"
#include "MainWindow.h"
#include "SessionManager.h"

#include <QUndoStack>

namespace olens {

UnsavedChanges::UnsavedChanges(MainWindow* window, DataEditor* editor)
    : QObject(window), m_window(window), m_editor(editor)
{
    connect(editor->undoStack(), &QUndoStack::cleanChanged, this, &UnsavedChanges::update);
    connect(window->document(), &DataDocument::datasetChanged, this, [this] {
        if (!m_window->document()->changeIsEdit()) // other data: what was generated is gone
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
    m_window->setWindowModified(modified);
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
    } else if (m_window->isInteractive()) {
        answer = QMessageBox::warning(m_window, tr("Unsaved changes"), question,
                                      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    }
    switch (answer) {
    case QMessageBox::Save: return m_window->sessions()->saveInteractively();
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

} // namespace olens
