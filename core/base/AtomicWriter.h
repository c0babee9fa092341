#pragma once
// The one way OutlierLens writes output files (CLI and GUI): each file is produced in full into a
// unique temporary file in the target's directory (mkstemp: O_CREAT|O_EXCL, never follows a
// planted symlink), fsync'ed, and renamed over the target only when every file of the batch was
// written. Existing outputs that are not regular files (symlinks, devices, FIFOs, directories) are
// refused, and so is an output that is one of the inputs (same device and inode).
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace olens {

/// Throws DataError when `path` must not be replaced: an existing non-regular file (symlink,
/// device, FIFO, directory), a missing parent directory, or the same file as one of `inputs`.
/// `what` names the option in the message (e.g. "--output").
void checkOutputPath(const std::string& path, const std::vector<std::string>& inputs = {},
                     const std::string& what = "output");

/// A batch of output files that are replaced all together or not at all (as far as POSIX
/// allows: every file is fully written and synced before the first rename).
class AtomicWriter {
public:
    AtomicWriter() = default;
    AtomicWriter(const AtomicWriter&) = delete;
    AtomicWriter& operator=(const AtomicWriter&) = delete;
    /// Removes the temporary files of a batch that was not committed.
    ~AtomicWriter();

    /// Checks `path` (checkOutputPath) and writes its complete content to a temporary file next
    /// to it. Throws DataError (disk full, permission, …) after removing that temporary file.
    void add(const std::string& path, const std::function<void(std::ostream&)>& write,
             const std::vector<std::string>& inputs = {});
    /// Renames every temporary file over its target, then syncs the directories.
    void commit();

private:
    struct Pending {
        std::string path;
        std::string temp;
    };
    std::vector<Pending> m_pending;
};

/// One file through an AtomicWriter.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write,
                         const std::vector<std::string>& inputs = {});

/// Installs SIGINT / SIGTERM / SIGHUP handlers that remove the temporary files of writes in
/// progress, then let the signal end the process as it would have (a Ctrl+C during a 46 MB write
/// left a hidden ".name.tmp-XXXXXX" beside the output). For programs (CLI, GUI), not libraries.
void removeTemporaryFilesOnSignals();

/// The bounded, regular-file-only reader that goes with it (models, row lists, sessions): a FIFO,
/// a device or a directory is refused without blocking, a file above maxBytes is refused before it
/// is read. `what` names the input in messages. Throws DataError.
std::string readRegularFile(const std::string& path, std::uint64_t maxBytes, const std::string& what = "input");

} // namespace olens
