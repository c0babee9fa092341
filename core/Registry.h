#pragma once
// The list of detectors. Adding a detector = one line in Registry.cpp (builtinDetectors()).
#include "Detector.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace olens {

struct DetectorInfo {
    std::string id;        ///< CLI id, e.g. "knn"
    std::string title;     ///< human name for menus
    std::string summary;   ///< one sentence
    std::string reference; ///< paper and equations
    std::vector<ParamSpec> params;
    /// The input normalisation the paper uses ("none", "zscore", "l2", "minmax"); the GUI preselects it.
    std::string normalization = "none";
    std::function<std::unique_ptr<Detector>(ParamSet)> make;
};

class Registry {
public:
    static const Registry& instance();

    const std::vector<DetectorInfo>& detectors() const { return m_detectors; }
    /// Throws ParamError "unknown detector 'x' (available: ...)".
    const DetectorInfo& info(const std::string& id) const;
    /// Default parameters of a detector, ready to be edited.
    ParamSet defaultParams(const std::string& id) const;
    std::unique_ptr<Detector> create(const std::string& id, const ParamAssignments& params = {}) const;
    std::unique_ptr<Detector> createWith(const std::string& id, const ParamSet& params) const;
    /// Rebuilds a fitted detector from Detector::toJson(); throws ParamError/DataError if garbled.
    std::unique_ptr<Detector> load(const nlohmann::json& j) const;

    /// The registry's schema as JSON (for `list --json`).
    nlohmann::json toJson() const;

private:
    Registry();
    std::vector<DetectorInfo> m_detectors;
};

} // namespace olens
