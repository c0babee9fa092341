#pragma once
// What to train, as a value: the detector, its parameters as typed, the normalisation and the rows
// to fit on. The GUI's document owns one: the Detector dock edits it, and training, sessions,
// presets, the command line, auto-retrain and compare panels all read it (none reaches into the
// dock's form). fitPipeline is what turns it into a fit: it resolves the rows and fits the
// normaliser on them.
#include "base/Params.h"
#include "data/FitSubset.h"
#include "data/Normalizer.h"

#include <string>

namespace olens {

struct TrainingSetup {
    std::string detectorId;
    ParamAssignments params;  ///< name → text, as typed in the form or given with --param
    Normalization normalization = Normalization::None;
    FitSubset fitOn;          ///< all rows by default; Rows without rows = the selection at training time

    bool operator==(const TrainingSetup& o) const
    {
        return detectorId == o.detectorId && params == o.params && normalization == o.normalization
               && fitOn == o.fitOn;
    }
    bool operator!=(const TrainingSetup& o) const { return !(*this == o); }
};

} // namespace olens
