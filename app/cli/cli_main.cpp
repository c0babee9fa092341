#include "Cli.h"
#include "base/AtomicWriter.h"

#include <iostream>
#include <unistd.h>

int main(int argc, char** argv)
{
    olens::removeTemporaryFilesOnSignals(); // Ctrl+C during a write leaves no hidden .tmp file
    std::vector<std::string> args(argv + 1, argv + argc);
    return olens::runCli(args, std::cout, std::cerr, isatty(STDERR_FILENO) == 1);
}
