#pragma once
// The folders whose files a session may read without asking (#51): the folders of data files the
// user opened here (File → Open, the command line, a located file). A session handed over may
// name any file; one in the session's own folder is read as it asks (session/SessionDataFile), one
// in a folder listed here too, anything else only after the user said yes. Remembered in the
// settings ("data/trusted_folders", the latest 200) unless the run is scripted.
#include <QString>
#include <QStringList>

namespace olens {

class TrustedFolders {
public:
    TrustedFolders();
    /// Scripted runs leave the user's settings alone and do not read them either (a script behaves
    /// the same on every machine): their folders count for this run only.
    void setRemembering(bool on);
    /// Trusts the folder holding `file` (symlinks resolved).
    void addFolderOf(const QString& file);
    /// True when `file` lies directly in a trusted folder (symlinks resolved; not below it: a
    /// file opened from $HOME must not open every file under it).
    bool holds(const QString& file) const;

    static constexpr int kMaxFolders = 200;

private:
    QStringList m_folders; // canonical, newest first
    bool m_remembering = true;
};

} // namespace olens
