#pragma once
// A detector with the paper's fixed settings (ParamSpec::paperValue) instead of the data-adapted
// defaults of issue #17, plus the test's own assignments (applied after, so they win): for tests
// that reproduce a paper's figure or check a property of the paper's configuration.
#include "registry/Registry.h"

#include <memory>
#include <string>

inline std::unique_ptr<olens::Detector> createPaper(const std::string& id, const olens::ParamAssignments& extra = {})
{
    olens::ParamAssignments a;
    for (const auto& s : olens::Registry::instance().info(id).params)
        a.emplace_back(s.name, olens::paperSetting(s));
    a.insert(a.end(), extra.begin(), extra.end());
    return olens::Registry::instance().create(id, a);
}
