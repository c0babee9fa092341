#include "files/TrustedFolders.h"

#include <QFileInfo>
#include <QSettings>

namespace olens {

namespace {
const char* const kKey = "data/trusted_folders";

QString canonicalFolderOf(const QString& file)
{
    const QFileInfo info(file);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QString() : QFileInfo(canonical).absolutePath();
}
} // namespace

TrustedFolders::TrustedFolders()
{
    m_folders = QSettings().value(QLatin1String(kKey)).toStringList().mid(0, kMaxFolders);
}

void TrustedFolders::setRemembering(bool on)
{
    if (!on && m_remembering)
        m_folders.clear(); // the saved ones were read at construction
    m_remembering = on;
}

void TrustedFolders::addFolderOf(const QString& file)
{
    const QString folder = canonicalFolderOf(file);
    if (folder.isEmpty())
        return;
    m_folders.removeAll(folder);
    m_folders.prepend(folder);
    while (m_folders.size() > kMaxFolders)
        m_folders.removeLast();
    if (m_remembering)
        QSettings().setValue(QLatin1String(kKey), m_folders);
}

bool TrustedFolders::holds(const QString& file) const
{
    const QString folder = canonicalFolderOf(file);
    return !folder.isEmpty() && m_folders.contains(folder);
}

} // namespace olens
