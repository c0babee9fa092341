#pragma once
// outlierlens-cli: list | generate | score | evaluate (docs/architecture.md "Command line").
#include <iosfwd>
#include <string>
#include <vector>

namespace olens {

/// Runs one CLI invocation (args without the program name). Returns the process exit code;
/// errors print one line "outlierlens-cli: error: <reason>" to err and return non-zero.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// errIsTerminal: err is a terminal, so score/evaluate draw their progress in place unless --quiet.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool errIsTerminal);

} // namespace olens
