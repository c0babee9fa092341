#pragma once
// Point sprite size that suits the cloud: a fixed 9 px sprite hides a threshold contour at 3 000
// points and buries a 1M-point torus under its 1 % outliers. The automatic size makes the sprites
// together cover about a quarter of the pixels the data occupy on screen (n·πs²/4 ≈ area/4), so it
// shrinks with n and grows when the user zooms in.
#include <Eigen/Core>

#include <cstdint>

namespace olens {

constexpr double kMinAutoPointSize = 2.0; ///< below this a sprite is no longer round
constexpr double kMaxAutoPointSize = 9.0; ///< the classic size for small teaching clouds

/// Sprite diameter in pixels for n points whose bounding box covers `screenArea` pixels on screen
/// (device pixels; scale the limits by the device pixel ratio through `pixelRatio`).
double autoPointSize(std::int64_t n, double screenArea, double pixelRatio = 1.0);

/// Sprite opacity for a dense cloud: 1 M opaque sprites of 2 px pile up dozens deep on a torus and
/// paint it as one solid blob. With D = ρ·π s²/4 the mean number of sprites over a pixel where the
/// points lie (ρ points per pixel² there, sprite diameter s px), the opacity is α = min(1, 1/D):
/// the sprites over such a pixel add up to one opaque sprite, so it is covered to
/// 1 − (1 − 1/D)^D ≈ 1 − 1/e ≈ 63 %, a pixel with three times that density to 95 %, one with a
/// third of it to 28 % — the density reads as shade. Clouds whose sprites overlap little (D ≤ 1)
/// stay opaque; zooming in (lower ρ on screen) and drawing fewer points (level of detail) raise
/// α. Never below kMinPointOpacity: an 8-bit framebuffer blends fainter sprites into nothing.
constexpr double kMinPointOpacity = 0.01;
double autoPointOpacity(double density, double spriteSize);
/// The same for n points spread evenly over `screenArea` pixels (ρ = n / area).
double autoPointOpacity(std::int64_t n, double screenArea, double spriteSize);

/// The opacity CloudView draws a cloud with (automatic point size): the automatic size is the
/// first lever — while it can still shrink (above kMinAutoPointSize) the sprites stay opaque, the
/// classic look of every teaching cloud; once they are as small as they get (n points over
/// `boxArea` device pixels², n > boxArea / 4π at 2 px), autoPointOpacity(density, that size)
/// lets a dense cloud show its density — never below (wanted size / drawn size)², the share of
/// the drawn coverage the size rule wanted, so the opacity leaves 1 continuously.
double cloudOpacity(std::int64_t n, double boxArea, double density, double pixelRatio = 1.0);

/// The density ρ (points per pixel²) around a typical point of a cloud of n points, from the
/// screen positions of a sample of them (rows of `screen`, device pixels; the sample stands for
/// all n): the point-weighted mean of the counts in square cells of `cell` pixels,
/// Σ c(c − 1) / Σ c per cell area (unbiased for a sample's Poisson counts), scaled by n / sample
/// size. A torus seen from above is as dense as its ring, not as its bounding box with the hole
/// and the uniform outliers around it. 0 for fewer than two sample points in any cell.
double screenDensity(const Eigen::Ref<const Eigen::MatrixX2d>& screen, std::int64_t n, double cell);

/// Points drawn while the camera moves (level of detail): a software-rendered 1M-point frame takes
/// about a second, so a drag draws every k-th point and the full cloud returns when it ends.
constexpr std::int64_t kLodPointBudget = 200000;

/// k for n points: 1 (all) up to the budget, else the smallest k with ⌈n/k⌉ ≤ budget.
int lodStride(std::int64_t n, std::int64_t budget = kLodPointBudget);

/// A still frame of a big cloud draws at most this many of its quiet points (those below the
/// threshold, small and faded; issue #54): every k-th, k = lodStride(n, budget). The flagged, top-k
/// and selected points are all drawn. At 5 M rows under a software rasteriser: peak memory
/// 2.98 → 2.17 GB, a frame 1.9 → 0.56 s, and the faded torus reads alike (docs/benchmarks.md).
constexpr std::int64_t kStillQuietBudget = 1000000;
/// Any other cloud's still frame draws at most this many of its points not flagged (labelled
/// outliers, the selection and the top-k are all drawn): a 20 M-point cloud's first frame took
/// 13 s and about 4 GB of the software rasteriser's memory before any result.
constexpr std::int64_t kStillPointBudget = 4000000;
/// The still frame's stride: every k-th point not flagged; `quiet`: a big cloud coloured by score,
/// whose points below the threshold are faded (budget `quietBudget`), else kStillPointBudget.
/// `pointBudget` replaces kStillPointBudget (compare mode's panels share the budgets).
int stillStride(std::int64_t n, bool quiet, std::int64_t quietBudget = kStillQuietBudget,
                std::int64_t pointBudget = kStillPointBudget);

} // namespace olens
