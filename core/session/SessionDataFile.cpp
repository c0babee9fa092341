#include "session/SessionDataFile.h"

#include "base/Messages.h"
#include "session/Session.h"

#include <climits>
#include <cstdlib>
#include <memory>
#include <sys/stat.h>

namespace olens {

namespace {

std::string folderOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string fileNameOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string resolved(const std::string& path)
{
    std::unique_ptr<char, decltype(&std::free)> r(::realpath(path.c_str(), nullptr), &std::free);
    return r ? std::string(r.get()) : std::string();
}

std::string joined(const std::string& folder, const std::string& name)
{
    if (!name.empty() && name.front() == '/')
        return name;
    return folder == "/" ? "/" + name : folder + "/" + name;
}

} // namespace

bool isRegularFile(const std::string& path)
{
    struct stat st {};
    return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool isInsideFolder(const std::string& file, const std::string& folder)
{
    const std::string f = resolved(file), d = resolved(folder);
    if (f.empty() || d.empty())
        return false;
    if (d == "/")
        return true;
    return f.size() > d.size() && f.compare(0, d.size(), d) == 0 && f[d.size()] == '/';
}

SessionDataFile locateSessionData(const Session& s, const std::string& sessionPath)
{
    SessionDataFile where;
    auto add = [&where](const std::string& p) {
        for (const std::string& t : where.tried)
            if (t == p)
                return;
        where.tried.push_back(p);
    };
    if (!s.dataPath.empty())
        add(s.dataPath);
    if (!sessionPath.empty()) {
        const std::string folder = folderOf(sessionPath);
        where.sessionFolder = resolved(folder);
        if (!s.dataRelativePath.empty())
            add(joined(folder, s.dataRelativePath));
        if (!s.dataPath.empty())
            add(joined(folder, fileNameOf(s.dataPath)));
    }
    // A copy in the session's folder wins over the stored path elsewhere: a project folder copied
    // as a whole reads its own data, without a question (the stored path won, and was refused).
    for (const std::string& t : where.tried)
        if (isRegularFile(t)) {
            const bool inside = !where.sessionFolder.empty() && isInsideFolder(t, where.sessionFolder);
            if (where.path.empty() || inside) {
                where.path = t;
                where.outside = !inside;
            }
            if (inside)
                break;
        }
    return where;
}

std::string outsideDataMessage(const SessionDataFile& where, const std::string& howToAllow)
{
    const std::string file = "'" + displayValue(where.path, 300) + "'";
    if (where.sessionFolder.empty())
        return "the session reads its data from " + file + ", a file it names itself; " + howToAllow +
               " if you trust it, or save the session with its data";
    return "the session reads its data from " + file + ", outside the session's folder '" +
           displayValue(where.sessionFolder, 300) + "'; put the data next to the session, or " + howToAllow +
           " if you trust it";
}

} // namespace olens
