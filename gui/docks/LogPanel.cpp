#include "docks/LogPanel.h"

#include "base/Messages.h"

#include <QTime>

namespace olens {

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setMaximumBlockCount(5000);
    setPlaceholderText(tr("Messages about loading, training and errors appear here."));
}

void LogPanel::append(Level level, const QString& text)
{
    const char* tag = level == Level::Error ? "error" : level == Level::Warning ? "warning" : "info";
    const QString colour = level == Level::Error ? "#b00020" : level == Level::Warning ? "#a15c00" : "#333333";
    appendHtml(QStringLiteral("<span style='color:#888'>%1</span> <span style='color:%2'><b>%3</b>: %4</span>")
                   .arg(QTime::currentTime().toString("HH:mm:ss"), colour, tag,
                        // Messages quote values from files: control characters escaped, length bounded (#51).
                        QString::fromStdString(displayMessage(text.toStdString(), 4000)).toHtmlEscaped()));
}

} // namespace olens
