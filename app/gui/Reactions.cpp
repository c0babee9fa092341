#include "Reactions.h"

#include "CloudView.h"
#include "LogPanel.h"
#include "MainWindow.h"

#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QSettings>

namespace olens {

OpenDataReaction::OpenDataReaction(QAction* action, MainWindow* window) : QObject(action), m_window(window)
{
    connect(action, &QAction::triggered, this, &OpenDataReaction::onTriggered);
}

QString OpenDataReaction::fileFilter()
{
    return QObject::tr("Point data (*.csv *.tsv *.txt *.xyz *.ply);;CSV (*.csv);;TSV (*.tsv);;Text (*.txt *.xyz);;"
                       "PLY (*.ply);;All files (*)");
}

void OpenDataReaction::onTriggered()
{
    QSettings settings;
    const QString dir = settings.value("lastDataDir").toString();
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open data"), dir, fileFilter());
    if (path.isEmpty())
        return;
    settings.setValue("lastDataDir", QFileInfo(path).absolutePath());
    m_window->openFile(path);
}

ScreenshotReaction::ScreenshotReaction(QAction* action, MainWindow* window) : QObject(action), m_window(window)
{
    connect(action, &QAction::triggered, this, &ScreenshotReaction::onTriggered);
}

void ScreenshotReaction::onTriggered()
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save screenshot"), "outlierlens.png",
                                                tr("PNG image (*.png)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(".png", Qt::CaseInsensitive))
        path += ".png";
    QString error;
    if (m_window->view()->saveScreenshot(path, &error)) {
        m_window->log()->info(tr("screenshot saved to %1").arg(path));
    } else {
        m_window->log()->error(error);
        QMessageBox::warning(m_window, tr("Save screenshot"), error);
    }
}

} // namespace olens
