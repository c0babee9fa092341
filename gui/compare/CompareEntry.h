#pragma once
// One compare panel's detector: registry id, parameters (name=value, validated by the schema when
// training starts) and the input normalisation. Its own header so that a panel (ComparePanel) need
// not include the view that arranges the panels.
#include "base/Params.h"
#include "data/Normalizer.h"

#include <string>

namespace olens {

struct CompareEntry {
    std::string id;
    ParamAssignments params;
    Normalization normalization = Normalization::None;
    bool operator==(const CompareEntry& o) const
    {
        return id == o.id && params == o.params && normalization == o.normalization;
    }
};

} // namespace olens
