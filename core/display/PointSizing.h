#pragma once
// Point sprite size that suits the cloud: a fixed 9 px sprite hides a threshold contour at 3 000
// points and buries a 1M-point torus under its 1 % outliers. The automatic size makes the sprites
// together cover about a quarter of the pixels the data occupy on screen (n·πs²/4 ≈ area/4), so it
// shrinks with n and grows when the user zooms in.
#include <cstdint>

namespace olens {

constexpr double kMinAutoPointSize = 2.0; ///< below this a sprite is no longer round
constexpr double kMaxAutoPointSize = 9.0; ///< the classic size for small teaching clouds

/// Sprite diameter in pixels for n points whose bounding box covers `screenArea` pixels on screen
/// (device pixels; scale the limits by the device pixel ratio through `pixelRatio`).
double autoPointSize(std::int64_t n, double screenArea, double pixelRatio = 1.0);

/// Points drawn while the camera moves (level of detail): a software-rendered 1M-point frame takes
/// about a second, so a drag draws every k-th point and the full cloud returns when it ends.
constexpr std::int64_t kLodPointBudget = 200000;

/// k for n points: 1 (all) up to the budget, else the smallest k with ⌈n/k⌉ ≤ budget.
int lodStride(std::int64_t n, std::int64_t budget = kLodPointBudget);

} // namespace olens
