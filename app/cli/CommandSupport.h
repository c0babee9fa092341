#pragma once
// What several commands share: reading the input options (--label-column, --outlier-label,
// --max-input-mb), the input files an output must not replace, loading and fitting for score and
// evaluate, and JSON numbers.
#include "data/DataLoader.h"
#include "data/FitSubset.h"

#include <functional>
#include <iosfwd>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace olens {
struct FitResult;
}

namespace olens::cli {

struct Args;

/// --label-column, --outlier-label and --max-input-mb as LoadOptions.
LoadOptions loadOptions(const Args& a);

/// The input files named on the command line (an output must be none of them).
std::vector<std::string> inputPaths(const Args& a);

struct Prepared {
    Dataset input;
    std::shared_ptr<FitResult> result; // for the rows of --input
    std::optional<FitSubset> fitOn;    // --fit-on, when given
};

// Shared by score and evaluate: load, then the fit pipeline (normaliser fitted on the training
// data, fit, optional calibration, scores of --input: the training scores themselves when
// --input is the training set, so nothing the fit produced is computed again).
/// `checkInput`: the command's own checks of the input, run as soon as it is read — before any fit
/// (evaluate refused one-class labels only after fitting: 85 s of mcd on a million rows).
Prepared fitAndScore(const Args& a, std::ostream& err, bool labelRequired,
                     const std::function<void(const Dataset&)>& checkInput = {});

/// A finite number, or JSON null.
nlohmann::json numberOrNull(double v);

} // namespace olens::cli
