// outlierlens-cli generate NAME --n N --seed S [--param k=v]... --output F.csv: toy data.
#include "commands/Commands.h"

#include "Args.h"

#include "base/AtomicWriter.h"
#include "base/Errors.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "data/Generators.h"

#include <cstdint>
#include <string>

namespace olens::cli {

namespace {

int cmdGenerate(const Args& a, std::ostream& out, std::ostream& /*err*/)
{
    if (a.positional.size() != 1)
        throw ParamError("'generate' needs exactly one generator NAME (see 'outlierlens-cli list')");
    const long long n = parseInteger(require(a, "n"), "--n");
    const long long seed = parseInteger(option(a, "seed", "0"), "--seed");
    if (n < 1 || n > 10'000'000)
        throw ParamError("--n: " + std::to_string(n) + " is outside [1, 10000000]");
    const std::string path = require(a, "output");
    if (path != "-")
        checkOutputPath(path, {}, "--output"); // before the work, and the old file stays until the rename
    const Dataset d = generate(a.positional[0], static_cast<int>(n), static_cast<std::uint64_t>(seed), a.params);
    if (path == "-")
        writeCsv(out, d);
    else
        writeCsv(path, d);
    return 0;
}

} // namespace

const Command kGenerateCommand{"generate", {"n", "seed", "output"}, {},
                        R"(  outlierlens-cli generate NAME --n N --seed S [--param k=v]... --output F.csv
      toy data (NAME: see 'outlierlens-cli list'); label column 1 = outlier ('classes': class id,
      with sigma_ columns)
)",
                        cmdGenerate};

} // namespace olens::cli
