#include "base/AtomicWriter.h"

#include "base/Errors.h"
#include "base/Messages.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <random>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace olens {

namespace {

std::string quoted(const std::string& path) { return "'" + displayValue(path, 200) + "'"; }

std::string parentDir(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

const char* kindOf(mode_t m)
{
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

mode_t currentUmask()
{
    const mode_t m = ::umask(022);
    ::umask(m);
    return m;
}

void syncDirectory(const std::string& dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

void checkOutputPath(const std::string& path, const std::vector<std::string>& inputs, const std::string& what)
{
    if (path.empty()) throw DataError(what + ": empty file name");
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            throw DataError(what + " " + quoted(path) + " is " + kindOf(st.st_mode)
                            + "; refusing to replace it (choose a regular file path, or '-' for standard output)");
        // A file its owner made read-only is meant to stay (the rename would replace it even so,
        // and for root even writing would succeed): refuse instead of replacing it silently.
        if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
            throw DataError(what + " " + quoted(path) + " is read-only; refusing to replace it (make it writable, "
                            "e.g. chmod u+w, or choose another path)");
        for (const std::string& in : inputs) {
            struct stat si {};
            if (!in.empty() && in != "-" && ::stat(in.c_str(), &si) == 0 && si.st_dev == st.st_dev
                && si.st_ino == st.st_ino)
                throw DataError(what + " " + quoted(path) + " is the input file " + quoted(in)
                                + "; choose another output path (the input would be destroyed)");
        }
    } else if (errno != ENOENT) {
        throw DataError("cannot use " + what + " " + quoted(path) + ": " + std::strerror(errno));
    }
    struct stat sd {};
    const std::string dir = parentDir(path);
    if (::stat(dir.c_str(), &sd) != 0 || !S_ISDIR(sd.st_mode))
        throw DataError("cannot write " + what + " " + quoted(path) + ": directory " + quoted(dir) + " does not exist");
}

namespace {

// Temporary files being written, for the signal handler: fixed slots of malloc'ed C strings that
// the handler only reads and unlinks (both async-signal-safe); more writes at once than slots are
// simply not cleaned on a signal.
constexpr int kTempSlots = 64;
std::atomic<char*> g_temps[kTempSlots];

void trackTemp(const std::string& temp)
{
    char* copy = ::strdup(temp.c_str());
    if (!copy) return;
    for (auto& slot : g_temps) {
        char* expected = nullptr;
        if (slot.compare_exchange_strong(expected, copy)) return;
    }
    std::free(copy);
}

void untrackTemp(const std::string& temp)
{
    for (auto& slot : g_temps) {
        char* p = slot.load();
        if (p && temp == p && slot.compare_exchange_strong(p, nullptr)) {
            std::free(p);
            return;
        }
    }
}

void removeTempsAndReraise(int sig)
{
    for (auto& slot : g_temps)
        if (char* p = slot.load()) ::unlink(p);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

} // namespace

void removeTemporaryFilesOnSignals()
{
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; // e.g. nohup: an ignored signal stays ignored
        struct sigaction sa {};
        sa.sa_handler = removeTempsAndReraise;
        ::sigemptyset(&sa.sa_mask);
        ::sigaction(sig, &sa, nullptr);
    }
}

AtomicWriter::~AtomicWriter()
{
    for (const Pending& p : m_pending) {
        ::unlink(p.temp.c_str());
        untrackTemp(p.temp);
    }
}

void AtomicWriter::add(const std::string& path, const std::function<void(std::ostream&)>& write,
                       const std::vector<std::string>& inputs)
{
    checkOutputPath(path, inputs);
    for (const Pending& p : m_pending)
        if (p.path == path) throw DataError("the same output " + quoted(path) + " was given twice");
    // The whole content first: a failing writer leaves no file at all.
    std::ostringstream buffer;
    write(buffer);
    if (!buffer) throw DataError("cannot format the content of " + quoted(path));
    const std::string content = std::move(buffer).str();

    const std::string dir = parentDir(path);
    const auto slash = path.find_last_of('/');
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::string prefix = (dir == "/" ? "" : dir) + "/." + base + ".tmp-";
    // The name is tracked *before* the file is created (O_CREAT | O_EXCL, mode 0600, as mkstemp):
    // a SIGTERM between creating and tracking left the file on disk. Holding the signals back with
    // pthread_sigmask around the two did not close that window: a mask is per thread, and a
    // process-directed signal goes to any thread that does not block it — OpenBLAS's and the
    // workers' threads exist from the start, and the handler ran there (TestCli, 2026-11-28).
    // Tracked first, the handler unlinks the name whichever thread it runs on; before the file
    // exists that unlink does nothing. 12 random characters: a name of another process's is not
    // taken (EEXIST: the next name).
    static const char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    thread_local std::mt19937_64 random{std::random_device{}() ^ (std::uint64_t(::getpid()) << 32)};
    std::string temp;
    int fd = -1, createError = EEXIST;
    for (int attempt = 0; attempt < 100 && fd < 0 && createError == EEXIST; ++attempt) {
        std::string candidate = prefix;
        for (int i = 0; i < 12; ++i)
            candidate += kChars[random() % (sizeof kChars - 1)];
        trackTemp(candidate);
        fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            temp = std::move(candidate);
        } else {
            createError = errno;
            untrackTemp(candidate);
        }
    }
    if (fd < 0)
        throw DataError("cannot write " + quoted(path) + ": cannot create a temporary file in " + quoted(dir) + ": "
                        + std::strerror(createError));
    auto failWith = [&](int err, const std::string& doing) {
        ::close(fd);
        ::unlink(temp.c_str());
        untrackTemp(temp);
        throw DataError("cannot write " + quoted(path) + ": " + doing + ": " + std::strerror(err)
                        + (err == ENOSPC || err == EDQUOT ? " (free some space; the old file is unchanged)" : ""));
    };
    // Permissions: those of the file being replaced, else 0666 minus the umask.
    struct stat st {};
    const mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : (0666 & ~currentUmask());
    if (::fchmod(fd, mode) != 0) failWith(errno, "setting permissions");
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            failWith(errno, "writing");
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) failWith(errno, "syncing");
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        untrackTemp(temp);
        throw DataError("cannot write " + quoted(path) + ": closing: " + std::strerror(err));
    }
    m_pending.push_back({path, temp});
}

void AtomicWriter::commit()
{
    // Re-check just before replacing: a symlink or FIFO planted meanwhile is still refused.
    for (const Pending& p : m_pending) checkOutputPath(p.path);
    std::vector<std::string> done;
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        const Pending& p = m_pending[i];
        if (::rename(p.temp.c_str(), p.path.c_str()) != 0) {
            const int err = errno;
            std::string msg = "cannot replace " + quoted(p.path) + ": " + std::strerror(err);
            if (!done.empty()) {
                msg += " (already replaced:";
                for (const auto& d : done) msg += " " + quoted(d);
                msg += ")";
            }
            for (std::size_t j = i; j < m_pending.size(); ++j) {
                ::unlink(m_pending[j].temp.c_str());
                untrackTemp(m_pending[j].temp);
            }
            m_pending.clear();
            throw DataError(msg);
        }
        untrackTemp(p.temp);
        done.push_back(p.path);
    }
    for (const Pending& p : m_pending) syncDirectory(parentDir(p.path));
    m_pending.clear();
}

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write,
                         const std::vector<std::string>& inputs)
{
    AtomicWriter w;
    w.add(path, write, inputs);
    w.commit();
}

std::string readRegularFile(const std::string& path, std::uint64_t maxBytes, const std::string& what)
{
    // Opened without blocking and checked on the descriptor: a FIFO would block in open(), a
    // device (/dev/zero) never ends, and a check by name could be raced by a rename.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        throw DataError("cannot open " + what + " " + quoted(path) + ": " + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw DataError("cannot read " + what + " " + quoted(path) + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw DataError(what + " " + quoted(path) + " is " + kindOf(st.st_mode) + ", not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes)
        throw DataError(what + " " + quoted(path) + " has " + std::to_string(st.st_size) + " bytes, more than the "
                        + std::to_string(maxBytes) + " allowed");
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t r = ::read(fd, text.data() + got, text.size() - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            throw DataError("cannot read " + what + " " + quoted(path) + ": " + std::strerror(errno));
        if (r == 0)
            break; // shrank while read: what is there
        got += static_cast<std::size_t>(r);
    }
    text.resize(got);
    return text;
}

} // namespace olens
