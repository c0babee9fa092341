#pragma once
// The CLI's commands, one file each (runCli in Cli.cpp parses the options and dispatches). Each
// writes its result to out, warnings to err, and throws on errors; returns the exit code.
#include <iosfwd>

namespace olens::cli {

struct Args;

int cmdList(const Args& a, std::ostream& out, std::ostream& err);
int cmdGenerate(const Args& a, std::ostream& out, std::ostream& err);
int cmdScore(const Args& a, std::ostream& out, std::ostream& err);
int cmdEvaluate(const Args& a, std::ostream& out, std::ostream& err);
int cmdVerify(const Args& a, std::ostream& out, std::ostream& err);
int cmdPerturb(const Args& a, std::ostream& out, std::ostream& err);
int cmdAgree(const Args& a, std::ostream& out, std::ostream& err);

} // namespace olens::cli
