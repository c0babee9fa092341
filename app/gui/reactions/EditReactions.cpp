#include "reactions/EditReactions.h"

#include "document/DataDocument.h"
#include "view/DataEditor.h"
#include "docks/DetectorPanel.h"
#include "docks/LogPanel.h"
#include "shell/WindowShell.h"
#include "dialogs/NewDataDialog.h"
#include "shell/UnsavedChanges.h"
#include "jobs/TrainingController.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QUndoStack>

namespace olens {

EditReaction::EditReaction(QMenu* menu, const ReactionContext& context, DataEditor* editor, DetectorPanel* detector)
    : QObject(menu), m_context(context), m_editor(editor), m_detector(detector)
{
    QAction* undo = editor->undoStack()->createUndoAction(menu, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    menu->addAction(undo);
    QAction* redo = editor->undoStack()->createRedoAction(menu, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    menu->addAction(redo);
    menu->addSeparator();

    m_editMode = menu->addAction(tr("&Edit points"));
    m_editMode->setObjectName("actionEditMode");
    m_editMode->setCheckable(true);
    m_editMode->setShortcut(QKeySequence(tr("E")));
    m_editMode->setToolTip(tr("Click adds an inlier, shift-click a labelled outlier, drag moves a point "
                              "(2D, or on the plane facing you in 3D); the middle button and wheel still pan/zoom"));
    connect(m_editMode, &QAction::toggled, this, [this](bool on) {
        QString why;
        if (!m_editor->setEnabled(on, &why)) {
            m_editMode->setChecked(false);
            m_context.log->warning(why);
            if (m_context.shell->isInteractive())
                QMessageBox::information(m_context.window, tr("Edit points"), why);
        }
    });
    QAction* del = menu->addAction(tr("&Delete selected points"));
    del->setObjectName("actionDeleteSelected");
    del->setShortcut(QKeySequence::Delete);
    del->setToolTip(tr("Delete the selected points (picked, box or lasso) from the data; Ctrl+Z brings them back"));
    connect(del, &QAction::triggered, editor, &DataEditor::removeSelected);
    auto* doc = context.document;
    auto updateDelete = [del, doc] { del->setEnabled(!doc->pointSelection().empty()); };
    connect(doc, &DataDocument::pointSelectionChanged, del, updateDelete);
    connect(doc, &DataDocument::datasetChanged, del, updateDelete);
    updateDelete();

    m_autoRetrain = menu->addAction(tr("&Auto-retrain after edits"));
    m_autoRetrain->setCheckable(true);
    m_autoRetrain->setChecked(true);
    m_autoRetrain->setToolTip(tr("Retrain the current detector %1 ms after the last edit, so contours follow the edits")
                                  .arg(kRetrainDelayMs));

    m_retrain.setSingleShot(true);
    m_retrain.setInterval(kRetrainDelayMs);
    connect(&m_retrain, &QTimer::timeout, this, [this] {
        if (m_context.trainer->isRunning()) { // an edit cancels a running training; retry once it stopped
            m_retrain.start();
            return;
        }
        if (!m_context.document->isEmpty())
            m_detector->retrain(); // keeps a threshold the user set
    });
    connect(editor, &DataEditor::edited, this, &EditReaction::onEdited);
    // An empty canvas (New data, or every point deleted from 2-3 columns) exists to be clicked
    // on: edit mode comes on by itself, so the first click already adds a point.
    connect(doc, &DataDocument::datasetChanged, this, [this] {
        const Dataset& d = m_context.document->dataset();
        if (d.rows() == 0 && d.cols() > 0 && d.cols() <= 3 && !m_editMode->isChecked())
            m_editMode->setChecked(true);
    });
}

void EditReaction::onEdited()
{
    // Retrain only when there is something trained to follow (or the user asked for it).
    if (m_autoRetrain->isChecked() && (m_context.document->result() || m_context.trainer->isRunning()))
        m_retrain.start();
}

NewDataReaction::NewDataReaction(QAction* action, const ReactionContext& context, UnsavedChanges* unsaved)
    : Reaction(action, context), m_unsaved(unsaved)
{
}

void NewDataReaction::onTriggered()
{
    if (!m_unsaved->confirm(tr("generate new data")))
        return;
    NewDataDialog dialog(m_context.window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    try {
        Dataset d = dialog.makeDataset();
        const QString what = QString::fromStdString(d.source);
        m_context.document->setDataset(std::move(d), QString());
        m_context.document->setEdited(true);
        m_unsaved->markGenerated(); // exists only in the app until saved
        m_context.log->info(tr("new data: %1").arg(what));
    } catch (const std::exception& e) {
        m_context.log->error(QString::fromUtf8(e.what()));
    }
}

} // namespace olens
