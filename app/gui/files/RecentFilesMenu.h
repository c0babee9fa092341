#pragma once
// File → Open Recent: the last data files and sessions opened (QSettings "recentFiles", newest
// first, at most kMax); a missing file is dropped from the list when chosen.
#include <QObject>
#include <QStringList>

class QMenu;

namespace olens {

class BackgroundOpen;
class UnsavedChanges;

class RecentFilesMenu : public QObject {
    Q_OBJECT
public:
    /// Opens a data file or a session through `opener`, after the `unsaved` question.
    RecentFilesMenu(QMenu* menu, UnsavedChanges* unsaved, BackgroundOpen* opener);
    static constexpr int kMax = 8;

    QStringList files() const;
    /// Puts a path at the top (absolute, no duplicates, at most kMax); nothing when not recording.
    void add(const QString& path);
    /// Scripted runs (--exit, --screenshot, --window-screenshot) open files the user did not
    /// choose: they must not push the user's own entries out of the list (main.cpp turns this off).
    void setRecording(bool on) { m_recording = on; }
    bool isRecording() const { return m_recording; }
    void remove(const QString& path);
    /// Opens an entry, a session (*.json) or data, in the background (true once started), after
    /// asking about unsaved changes.
    bool open(const QString& path);

private:
    void store(const QStringList& files);
    void rebuild();
    QMenu* m_menu;
    UnsavedChanges* m_unsaved;
    BackgroundOpen* m_opener;
    bool m_recording = true;
};

} // namespace olens
