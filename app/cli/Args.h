#pragma once
// The CLI's command line: one command word, then --name value / --name=value options, flags,
// repeated --param k=v and positional words; and the helpers that read and check option values.
#include "base/Params.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace olens::cli {

struct Args {
    std::string command;
    std::vector<std::string> positional;
    std::map<std::string, std::string> options;
    ParamAssignments params;
    std::set<std::string> flags;
    bool errIsTerminal = false; // stderr is a terminal: progress is drawn in place by default
};

/// args[0] is the command; valueOptions take a value, flagOptions none; anything else starting
/// with "--" is refused (ParamError).
Args parseArgs(const std::vector<std::string>& args, const std::set<std::string>& valueOptions,
               const std::set<std::string>& flagOptions);

/// The value of --name; ParamError when it was not given.
const std::string& require(const Args& a, const std::string& name);
/// The value of --name, or fallback when it was not given.
std::string option(const Args& a, const std::string& name, const std::string& fallback);

/// A whole-string integer; ParamError naming `what` otherwise.
long long parseInteger(const std::string& text, const std::string& what);
/// A whole-string number; from_chars, not stod, which throws for subnormal values such as 1e-310.
bool parseReal(const std::string& text, double& value);

} // namespace olens::cli
