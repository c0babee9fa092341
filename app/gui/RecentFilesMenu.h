#pragma once
// File → Open Recent: the last data files and sessions opened (QSettings "recentFiles", newest
// first, at most kMax); a missing file is dropped from the list when chosen.
#include <QObject>
#include <QStringList>

class QMenu;

namespace olens {

class MainWindow;

class RecentFilesMenu : public QObject {
    Q_OBJECT
public:
    RecentFilesMenu(QMenu* menu, MainWindow* window);
    static constexpr int kMax = 8;

    QStringList files() const;
    /// Puts a path at the top (absolute, no duplicates, at most kMax).
    void add(const QString& path);
    void remove(const QString& path);
    /// Opens an entry: a session (*.json) or data, after asking about unsaved changes.
    bool open(const QString& path);

private:
    void store(const QStringList& files);
    void rebuild();
    QMenu* m_menu;
    MainWindow* m_window;
};

} // namespace olens
