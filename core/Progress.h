#pragma once
// Progress and cancellation across the core boundary: a plain callback, no Qt.
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace olens {

struct Geometry;

struct ProgressInfo {
    double fraction = 0.0;                     ///< 0..1
    std::string message;
    std::optional<double> loss;                ///< objective value, when the method has one
    std::shared_ptr<const Geometry> snapshot;  ///< current geometry, when cheap to produce
};

/// Returns true when cancellation is requested.
using ProgressCallback = std::function<bool(const ProgressInfo&)>;

} // namespace olens
