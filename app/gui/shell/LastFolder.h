#pragma once
// Where save dialogs start (issue #35: they opened in the working directory). The folder of the
// last file the user wrote (screenshots, figures, exports and scores share it), else the loaded
// data's folder, else the home folder.
#include <QString>

namespace olens {

struct LastFolder {
    /// `fileName` in the folder a save dialog should open in; `dataPath` is the loaded data file.
    static QString suggest(const QString& fileName, const QString& dataPath = {});
    /// Remembers the folder of a file just written (QSettings "dialogs/lastSaveDir").
    static void remember(const QString& writtenPath);
};

} // namespace olens
