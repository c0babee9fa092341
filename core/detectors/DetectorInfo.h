#pragma once
// What the registry knows about a detector, written by the detector itself (its static info()).
// The GUI builds forms from `params`, the CLI parses --param with it, sessions store it as JSON.
// Kept apart from the registry so that no detector includes Registry.h.
#include "base/Params.h"

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace olens {

class Detector;

struct DetectorInfo {
    std::string id;        ///< CLI id, e.g. "knn" (the only place a detector's id is written)
    std::string title;     ///< human name for menus
    std::string summary;   ///< one sentence
    std::string reference; ///< paper and equations
    std::vector<ParamSpec> params;
    /// The input normalisation the paper uses ("none", "zscore", "l2", "minmax"); the GUI preselects it.
    std::string normalization = "none";
    /// Position in compare mode's default set of panels (1 = first); 0 = not in the default set.
    int compareSlot = 0;
    /// True when the training scores leave each training point out of its own neighbourhood
    /// (knn, lof, ksp, acdt's tangent rule): scored again as new data, the training rows get other
    /// numbers. Python then offers scikit-learn's `novelty` switch (LocalOutlierFactor's).
    bool leaveOneOutTraining = false;
    /// Optional advice for choosing parameters on the given (normalised) data, shown beside the
    /// form (e.g. quadrics App. B.4: m from the PCA eigenvalue decay). Empty function = none.
    std::function<std::string(const Eigen::MatrixXd& X)> guidance;
    /// Set for a detector that combines others (consensus): the settings that make it combine
    /// exactly `members` (compare mode's Combine panels) and the members it combines by default
    /// (`agree` without --detectors). Callers ask for this, never for an id.
    struct Ensemble {
        std::function<ParamAssignments(const std::vector<std::string>& members)> combining;
        std::vector<std::string> defaultMembers;
    };
    std::shared_ptr<const Ensemble> ensemble;
    std::function<std::unique_ptr<Detector>(ParamSet)> make;
};

} // namespace olens
