#include "scripted/CommandLine.h"

namespace olens {

std::vector<std::string> protectSessionArgument(const std::vector<std::string>& args)
{
    std::vector<std::string> out;
    out.reserve(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (i > 0 && (a == "--session" || a == "-session") && i + 1 < args.size()) {
            out.push_back("--session=" + args[i + 1]);
            ++i;
        } else {
            out.push_back(a);
        }
    }
    return out;
}

} // namespace olens
