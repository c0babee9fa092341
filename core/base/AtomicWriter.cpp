#include "base/AtomicWriter.h"

#include "base/Errors.h"
#include "base/Messages.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <pthread.h>
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
// The handler runs on any thread that does not block the signal (OpenBLAS's and the workers'
// threads exist from the start), so a per-thread mask alone does not keep it out of the step
// between creating a temporary file and tracking it (TestCli saw the file left, 2026-11-28). A
// thread in that step (or freeing a slot's string) counts itself in g_busy with the signals
// blocked on itself; the handler sets g_dying, waits for g_busy to drain, then unlinks. A step
// started after g_dying creates nothing. Both are lock-free atomics: async-signal-safe.
std::atomic<int> g_busy{0};
std::atomic<bool> g_dying{false};

/// Blocks the cleaning signals on this thread and counts it busy for its lifetime.
class BusyWithTemps {
public:
    BusyWithTemps()
    {
        sigset_t hold;
        ::sigemptyset(&hold);
        for (const int sig : {SIGINT, SIGTERM, SIGHUP})
            ::sigaddset(&hold, sig);
        ::pthread_sigmask(SIG_BLOCK, &hold, &m_previous);
        ++g_busy;
    }
    ~BusyWithTemps()
    {
        --g_busy;
        ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
    }
    BusyWithTemps(const BusyWithTemps&) = delete;
    BusyWithTemps& operator=(const BusyWithTemps&) = delete;
    bool dying() const { return g_dying.load(); }

private:
    sigset_t m_previous;
};

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
    const BusyWithTemps busy; // the handler may be reading the slot's string
    if (busy.dying())
        return; // the process is ending: the handler unlinks the (renamed or removed) name
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
    g_dying = true;
    while (g_busy.load() > 0) {
        // A thread is creating and tracking a file (microseconds): let it finish.
    }
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
    // The hidden name adds 12 bytes to the output's: a legal 251-byte name made it exceed the
    // folder's NAME_MAX and the write was refused (#51). The base is shortened to fit (on a UTF-8
    // character boundary); mkstemp's suffix keeps it unique.
    const long nameMax = ::pathconf(dir.c_str(), _PC_NAME_MAX);
    const std::size_t fits = static_cast<std::size_t>(nameMax > 0 ? nameMax : 255) - 12;
    std::string shortBase = base;
    if (shortBase.size() > fits) {
        std::size_t cut = fits;
        while (cut > 0 && (static_cast<unsigned char>(shortBase[cut]) & 0xC0) == 0x80)
            --cut;
        shortBase.resize(cut);
    }
    std::string temp = (dir == "/" ? "" : dir) + "/." + shortBase + ".tmp-XXXXXX";
    std::vector<char> name(temp.begin(), temp.end());
    name.push_back('\0');
    // Created and tracked as one step the signal handler waits for (BusyWithTemps): a SIGTERM
    // between the two left the new temporary file untracked, and so on disk.
    int fd = -1, createError = EINTR;
    {
        const BusyWithTemps busy;
        if (!busy.dying()) {
            fd = ::mkstemp(name.data()); // O_CREAT | O_EXCL, mode 0600
            createError = errno;
            if (fd >= 0) {
                temp.assign(name.data());
                trackTemp(temp);
            }
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
