#pragma once
// Where a session's data file is, and whether reading it needs the user's word (#51). A session is
// a file from anyone: its data path may name /etc/passwd, another user's data or a FIFO. A data file
// in the session's own folder (or below) is read as the session asks; anything else is read only
// when the user says so (the GUI asks, the CLI has --allow-data-outside, Python allow_data_outside).
// Only regular files count: a FIFO or a device is passed over without being opened.
#include <string>
#include <vector>

namespace olens {

struct Session;

struct SessionDataFile {
    std::string path;               ///< the regular file found; empty when none of `tried` is one
    std::vector<std::string> tried; ///< the places looked at, in order
    std::string sessionFolder;      ///< the session's folder, symlinks resolved (empty: no session file)
    bool outside = false;           ///< `path` is not in `sessionFolder` or below (symlinks resolved)
};

/// The stored path, else the same file relative to the session's folder (moved together), else the
/// file of that name next to the session; a candidate inside the session's folder wins over one
/// outside it. `sessionPath` empty (a session given as text): the stored
/// path only, and any file is outside.
SessionDataFile locateSessionData(const Session& s, const std::string& sessionPath);

/// True when `path` names a regular file (stat, never open: a FIFO would block the open).
bool isRegularFile(const std::string& path);

/// True when `file` lies in `folder` or below once both are resolved (symlinks, "..").
bool isInsideFolder(const std::string& file, const std::string& folder);

/// The refusal for a data file outside the session's folder, naming both and the ways on.
std::string outsideDataMessage(const SessionDataFile& where, const std::string& howToAllow);

} // namespace olens
