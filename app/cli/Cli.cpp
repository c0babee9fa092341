// The CLI's entry point: the list of commands (each described in its own commands/*Command.cpp),
// --help from their texts, parsing a command's options and dispatching to it, and turning any
// error into one line and an exit code.
#include "Cli.h"

#include "Args.h"
#include "commands/Commands.h"

#include "base/Errors.h"
#include "base/Messages.h"

#include <exception>
#include <new>
#include <ostream>
#include <set>
#include <nlohmann/json.hpp>

namespace olens {

namespace {

const char* kUsageHead = "outlierlens-cli — geometric outlier detectors from the command line\n\nusage:\n";

/// After the commands' own texts: what holds for all of them.
const char* kUsageTail = R"(--calibrate V.csv (gods, bods): after fitting, recalibrate eta on the labelled validation file with
GODS eq. 24 (2-means on the responses); scores and, with --param decision=eq23, the outlier
column then use eta' = eta + delta.
Labels: numeric labels 0 = inlier, other values = outlier. Text labels need to say which value is
the outlier class: --outlier-label VALUE (e.g. --outlier-label anomaly); without it a single
value reading 'outlier', 'anomaly', 'anomalous', 'abnormal', 'novelty', '1', 'true' or 'yes' is
used (or, with two values, the one that is not 'inlier', 'normal', '0', 'false', 'no'); otherwise
evaluate refuses the file and score ignores the labels (never numbered by order of appearance).
Inputs: CSV/TSV/whitespace text or PLY (ascii, binary); at most 1024 MB unless --max-input-mb N.
Outputs are written atomically (temporary file, fsync, rename); an output that is a symlink,
device, FIFO or one of the input files is refused.
Progress (score, evaluate): drawn on stderr when it is a terminal; --progress also prints it to a
log or pipe (a line a second), --quiet never. --timeout S stops a fit after S seconds (exit 1).
Without --fit-input the detector is fitted on --input itself and the training scores are used
(e.g. knn excludes each point from its own neighbours). Label values other than 0 count as
outliers. Any error exits non-zero with a one-line reason.
)";

std::string usage()
{
    std::string text = kUsageHead;
    for (const cli::Command* c : cli::commands())
        text += c->usage;
    return text + "\n" + kUsageTail;
}

} // namespace

namespace cli {

std::set<std::string> withFitOptions(std::set<std::string> more)
{
    more.insert({"input", "detector", "fit-input", "normalize", "label-column", "calibrate", "outlier-label",
                 "max-input-mb", "timeout", "fit-on", "threshold-rule"});
    return more;
}

const std::vector<const Command*>& commands()
{
    static const std::vector<const Command*> all = {&kListCommand,  &kGenerateCommand, &kScoreCommand,
                                                    &kEvaluateCommand, &kAgreeCommand, &kVerifyCommand,
                                                    &kPerturbCommand};
    return all;
}

} // namespace cli

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    return runCli(args, out, err, false);
}

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool errIsTerminal)
{
    try {
        if (args.empty()) {
            err << usage();
            return 2;
        }
        const std::string& cmd = args[0];
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            out << usage();
            return 0;
        }
        for (const auto& s : args)
            if (s == "--help" || s == "-h") {
                out << usage();
                return 0;
            }
        std::string names;
        for (const cli::Command* c : cli::commands()) {
            if (c->name == cmd) {
                cli::Args a = cli::parseArgs(args, c->options, c->flags);
                a.errIsTerminal = errIsTerminal;
                return c->run(a, out, err);
            }
            names += (names.empty() ? "" : ", ") + c->name;
        }
        throw ParamError("unknown command '" + cmd + "' (commands: " + names + "; see --help)");
    } catch (const std::bad_alloc&) {
        err << "outlierlens-cli: error: out of memory; use fewer rows or features, or smaller parameters "
               "(e.g. k, m, degree)\n";
        return 1;
    } catch (const std::exception& e) {
        std::string msg = e.what();
        for (auto& ch : msg)
            if (ch == '\n')
                ch = ' ';
        err << "outlierlens-cli: error: " << displayValue(msg, 600) << "\n";
        return 1;
    }
}

} // namespace olens
