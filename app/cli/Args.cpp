#include "Args.h"

#include "base/Errors.h"

#include <charconv>
#include <cstdlib>
#include <exception>
#include <system_error>

namespace olens::cli {

Args parseArgs(const std::vector<std::string>& args, const std::set<std::string>& valueOptions,
               const std::set<std::string>& flagOptions)
{
    Args a;
    a.command = args.empty() ? "" : args[0];
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& s = args[i];
        if (s.rfind("--", 0) == 0) {
            std::string name = s.substr(2), value;
            bool hasValue = false;
            if (const auto eq = name.find('='); eq != std::string::npos && name != "param") {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                hasValue = true;
            }
            if (flagOptions.count(name)) {
                a.flags.insert(name);
                continue;
            }
            if (!valueOptions.count(name) && name != "param")
                throw ParamError("unknown option '--" + name + "' for '" + a.command + "' (see --help)");
            if (!hasValue) {
                if (i + 1 >= args.size())
                    throw ParamError("option '--" + name + "' needs a value");
                value = args[++i];
            }
            if (name == "param")
                a.params.push_back(splitAssignment(value));
            else
                a.options[name] = value;
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

const std::string& require(const Args& a, const std::string& name)
{
    const auto it = a.options.find(name);
    if (it == a.options.end())
        throw ParamError("'" + a.command + "' needs --" + name);
    return it->second;
}

std::string option(const Args& a, const std::string& name, const std::string& fallback)
{
    const auto it = a.options.find(name);
    return it == a.options.end() ? fallback : it->second;
}

long long parseInteger(const std::string& text, const std::string& what)
{
    std::size_t pos = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &pos);
    } catch (const std::exception&) {
        pos = 0;
    }
    if (pos == 0 || pos != text.size())
        throw ParamError(what + ": expected an integer, got '" + text + "'");
    return v;
}

bool parseReal(const std::string& text, double& value)
{
    const char* b = text.data();
    const char* e = b + text.size();
    if (b != e && *b == '+') ++b;
    const auto r = std::from_chars(b, e, value);
    if (b == e || r.ptr != e) return false;
    if (r.ec == std::errc::result_out_of_range) value = std::strtod(text.c_str(), nullptr);
    else if (r.ec != std::errc()) return false;
    return true;
}

} // namespace olens::cli
