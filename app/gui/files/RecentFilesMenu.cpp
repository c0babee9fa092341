#include "files/RecentFilesMenu.h"

#include "files/BackgroundOpen.h"
#include "shell/UnsavedChanges.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <nlohmann/json.hpp>

namespace olens {

namespace {
const char* kKey = "recentFiles";
}

RecentFilesMenu::RecentFilesMenu(QMenu* menu, UnsavedChanges* unsaved, BackgroundOpen* opener)
    : QObject(menu), m_menu(menu), m_unsaved(unsaved), m_opener(opener)
{
    menu->setObjectName("menuOpenRecent");
    menu->setToolTipsVisible(true);
    rebuild();
}

QStringList RecentFilesMenu::files() const
{
    return QSettings().value(kKey).toStringList();
}

void RecentFilesMenu::store(const QStringList& list)
{
    QSettings().setValue(kKey, list);
    rebuild();
}

void RecentFilesMenu::add(const QString& path)
{
    if (!m_recording)
        return;
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMax)
        list.removeLast();
    store(list);
}

void RecentFilesMenu::remove(const QString& path)
{
    QStringList list = files();
    list.removeAll(path);
    store(list);
}

bool RecentFilesMenu::open(const QString& path)
{
    if (!m_unsaved->confirm(tr("open %1").arg(QFileInfo(path).fileName())))
        return false;
    // Read on the executor (true = started; BackgroundOpen::finished tells the end).
    const bool ok = path.endsWith(".json", Qt::CaseInsensitive) ? m_opener->openSession(path) : m_opener->open(path);
    if (!ok && !QFileInfo::exists(path))
        remove(path);
    return ok;
}

void RecentFilesMenu::rebuild()
{
    m_menu->clear();
    const QStringList list = files();
    int k = 0;
    for (const QString& path : list) {
        ++k;
        QAction* a = m_menu->addAction(QStringLiteral("&%1 %2").arg(k).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] { open(path); });
    }
    if (list.isEmpty())
        m_menu->addAction(tr("(no recent files)"))->setEnabled(false);
    m_menu->addSeparator();
    QAction* clear = m_menu->addAction(tr("&Clear list"));
    clear->setEnabled(!list.isEmpty());
    connect(clear, &QAction::triggered, this, [this] { store({}); });
}

} // namespace olens
