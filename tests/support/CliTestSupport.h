#pragma once
// Runs outlierlens-cli in-process (runCli) and keeps its exit code and both streams: shared by
// the CLI tests (TestCli, TestCliVerify, TestHostileInput).
#include "Cli.h"

#include <sstream>
#include <string>
#include <vector>

namespace olens::test {

struct Run {
    int code;
    std::string out, err;
};

inline Run cli(std::vector<std::string> args)
{
    std::ostringstream out, err;
    const int code = runCli(args, out, err);
    return {code, out.str(), err.str()};
}

} // namespace olens::test
