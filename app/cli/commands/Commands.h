#pragma once
// The CLI's commands, each described once in its own file (commands/*Command.cpp): its name, the
// options it takes, its part of --help and the function that runs it. runCli (Cli.cpp) parses the
// command line with that description and dispatches; --help is the commands' texts in order.
// A command writes its result to out, warnings to err, and throws on errors; returns the exit code.
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

namespace olens::cli {

struct Args;

struct Command {
    std::string name;
    std::set<std::string> options; ///< --name value
    std::set<std::string> flags;   ///< --name
    std::string usage;             ///< its lines of --help
    int (*run)(const Args& a, std::ostream& out, std::ostream& err);
};

/// The options of the commands that fit a detector (score, evaluate) plus `more`.
std::set<std::string> withFitOptions(std::set<std::string> more);

/// Each defined in its own file.
extern const Command kListCommand, kGenerateCommand, kScoreCommand, kEvaluateCommand, kAgreeCommand,
    kVerifyCommand, kPerturbCommand;

/// Every command, in the order --help lists them.
const std::vector<const Command*>& commands();

} // namespace olens::cli
