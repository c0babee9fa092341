#pragma once
// Adjustments of a trained result that need no retraining.
#include "DataDocument.h"

#include <memory>

namespace olens {

/// For a clustering result (acdt): the smallest and largest number of clusters its merge history
/// can be cut at, or {0, 0} when the result is not a clustering.
std::pair<int, int> clusterCountRange(const FitResult& result);
/// The current number of clusters of a clustering result (0 otherwise).
int clusterCount(const FitResult& result);

/// The same trained acdt model cut at L clusters: flats, cluster colours, scores, threshold,
/// explanations recomputed from the recorded merge history (no merging is re-run).
/// Throws ParamError for non-clustering results.
std::shared_ptr<FitResult> recutClusters(const FitResult& result, const Dataset& data, int L);

/// The training points as the model reconstructs them (acdt: each point projected on its own
/// cluster's flat), in feature coordinates; empty when the result has no reconstruction.
Eigen::MatrixXd reconstructionOf(const FitResult& result, const Dataset& data);

} // namespace olens
