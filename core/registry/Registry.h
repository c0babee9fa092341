#pragma once
// The list of detectors. Adding a detector = its folder under detectors/ and one registration in
// Registry.cpp (its header and its info() in builtinDetectors()).
#include "detectors/Detector.h"
#include "detectors/DetectorInfo.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace olens {

class Registry {
public:
    static const Registry& instance();

    const std::vector<DetectorInfo>& detectors() const { return m_detectors; }
    /// Throws ParamError "unknown detector 'x' (available: ...)".
    const DetectorInfo& info(const std::string& id) const;
    /// The detector that combines others (DetectorInfo::ensemble set: consensus), or null.
    const DetectorInfo* ensemble() const;
    /// Default parameters of a detector, ready to be edited.
    ParamSet defaultParams(const std::string& id) const;
    std::unique_ptr<Detector> create(const std::string& id, const ParamAssignments& params = {}) const;
    /// Rebuilds a fitted detector from Detector::toJson(); throws ParamError/DataError if garbled.
    std::unique_ptr<Detector> load(const nlohmann::json& j) const;

    /// The registry's schema as JSON (for `list --json`).
    nlohmann::json toJson() const;

private:
    Registry();
    std::vector<DetectorInfo> m_detectors;
};

} // namespace olens
