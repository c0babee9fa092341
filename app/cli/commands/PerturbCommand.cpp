// outlierlens-cli perturb --input F.csv --t T --seed S --output G.csv: the uncertainty paper's
// noise protocol (sec. 5.1).
#include "commands/Commands.h"

#include "Args.h"
#include "CommandSupport.h"

#include "base/AtomicWriter.h"
#include "base/Errors.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "data/NoiseProtocol.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace olens::cli {

namespace {

int cmdPerturb(const Args& a, std::ostream& out, std::ostream& /*err*/)
{
    const std::string tText = require(a, "t");
    double t = -1;
    if (!parseReal(tText, t) || !std::isfinite(t) || t < 0)
        throw ParamError("--t: expected a finite number >= 0, got '" + tText + "'");
    const long long seed = parseInteger(require(a, "seed"), "--seed");
    LoadOptions lo = loadOptions(a);
    lo.labelMeaning = LoadOptions::LabelMeaning::ClassIds; // labels are carried through unchanged
    lo.labelRequired = a.options.count("label-column") > 0;
    const std::string path = require(a, "output");
    if (path != "-")
        checkOutputPath(path, inputPaths(a), "--output");
    const Dataset d = perturbDataset(loadDataset(require(a, "input"), lo), t, static_cast<std::uint64_t>(seed));
    if (path == "-")
        writeCsv(out, d);
    else
        writeCsv(path, d, inputPaths(a));
    return 0;
}

} // namespace

const Command kPerturbCommand{"perturb", {"input", "t", "seed", "label-column", "output", "max-input-mb"}, {},
                        R"(  outlierlens-cli perturb --input F.csv --t T --seed S [--label-column C] --output G.csv
      noise protocol of the uncertainty paper (sec. 5.1): per sample and feature sigma ~ U[0, T],
      noise N(0, sigma^2) added; writes the features, sigma_<feature> columns and the label column
)",
                        cmdPerturb};

} // namespace olens::cli
