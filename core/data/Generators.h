#pragma once
// Seeded toy data generators (CLI `generate`, GUI "New data", tests).
#include "data/Dataset.h"
#include "base/Params.h"

#include <cstdint>
#include <string>
#include <vector>

namespace olens {

struct GeneratorInfo {
    std::string id;        ///< e.g. "moons"
    std::string summary;   ///< one sentence, with the paper/figure it comes from
    std::vector<ParamSpec> params; ///< every generator also has "outliers" (fraction, default 0)
};

const std::vector<GeneratorInfo>& generators();
const GeneratorInfo& generatorInfo(const std::string& id); ///< throws ParamError

/// n samples in total; a fraction `outliers` of them (rounded) are uniform background points
/// in the inliers' bounding box enlarged by 10 % per side, labelled 1; inliers are labelled 0.
/// Same (id, n, seed, params) → identical data.
Dataset generate(const std::string& id, int n, std::uint64_t seed, const ParamAssignments& params = {});

} // namespace olens
