#include "shell/LastFolder.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace olens {

namespace {
const char* const kKey = "dialogs/lastSaveDir";
}

QString LastFolder::suggest(const QString& fileName, const QString& dataPath)
{
    QString dir = QSettings().value(kKey).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = dataPath.isEmpty() ? QString() : QFileInfo(dataPath).absolutePath();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QDir::homePath();
    return QDir(dir).filePath(fileName);
}

void LastFolder::remember(const QString& writtenPath)
{
    if (!writtenPath.isEmpty())
        QSettings().setValue(kKey, QFileInfo(writtenPath).absolutePath());
}

} // namespace olens
