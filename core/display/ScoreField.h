#pragma once
// A trained detector's score (and the implicit functions of its geometry: quadrics, hyperplanes)
// sampled on a display grid, in chunks so that a superseded request is cheap to abandon.
#include "base/Progress.h"
#include "detectors/Detector.h"
#include "detectors/Geometry.h"
#include "data/Normalizer.h"
#include "display/Grid.h"
#include "linalg/Projection.h"

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace olens {

struct FieldRequest {
    std::shared_ptr<const Detector> detector; ///< null: geometry only (live training snapshots)
    Normalizer normalizer;                    ///< maps feature space to the detector's space
    Geometry geometry;                        ///< quadrics / hyperplanes to sample (normalised space)
    Projection projection;
    GridSpec grid;
    int component = -1;                       ///< ≥ 0: draw Detector::scoreComponent(k), not score
};

struct FieldData {
    GridSpec grid;
    Eigen::VectorXd score;                        ///< per grid point; empty without a detector
    std::vector<Eigen::VectorXd> quadricValues;   ///< f_k at each grid point
    std::vector<Eigen::VectorXd> planeValues;     ///< wᵀx + b at each grid point
    std::vector<int> planeFrame;                  ///< frame index of each entry of planeValues
    double seconds = 0.0;
};

/// Grid points per chunk: the first chunk, the bounds, and the time a chunk aims at.
constexpr Eigen::Index kFirstFieldChunk = 1024, kMinFieldChunk = 256, kMaxFieldChunk = 65536;
constexpr double kFieldChunkSeconds = 0.05;
/// The next chunk's size after `rows` grid points took `seconds`: kFieldChunkSeconds at that rate,
/// at most 4× the last, within [kMinFieldChunk, kMaxFieldChunk].
Eigen::Index nextFieldChunk(Eigen::Index rows, double seconds);

/// Computes a field synchronously (used by the worker and by tests). Returns nullopt when
/// `stop` becomes true or `progress` asks to cancel between chunks.
std::optional<FieldData> computeField(const FieldRequest& request, const std::atomic<bool>* stop = nullptr,
                                      const ProgressCallback& progress = {});

} // namespace olens
