#pragma once
// Which parts of a detector's geometry the view draws and how its legend names them (issue #19
// item 4): 29 quadric surfaces hid all of WBC and the legend stopped silently at 6; a GODS frame
// whose planes miss the grid box ("W2") was listed with nothing drawn. Qt- and VTK-free.
#include "display/ScoreField.h"

#include <cstddef>
#include <vector>

namespace olens {

/// Per quadric and per hyperplane frame: drawn (when its layer is on) or hidden by the user.
struct GeometryChoice {
    std::vector<bool> quadrics;
    std::vector<bool> frames;

    /// The default for a result with these counts: every quadric up to kDefaultQuadrics2D (2-D) /
    /// kDefaultQuadrics3D (3-D: translucent surfaces pile up), beyond that the first ones; every frame.
    static GeometryChoice defaults(std::size_t quadrics, std::size_t frames, bool twoD);
    static constexpr std::size_t kDefaultQuadrics2D = 6;
    static constexpr std::size_t kDefaultQuadrics3D = 3;

    bool quadricShown(std::size_t k) const { return k >= quadrics.size() || quadrics[k]; }
    bool frameShown(std::size_t f) const { return f >= frames.size() || frames[f]; }
};

/// True for each sampled implicit function whose zero set crosses the grid (it takes values of
/// both signs there): only those draw a curve or surface.
std::vector<bool> zeroSetsOnGrid(const std::vector<Eigen::VectorXd>& values);

/// Per frame (0 … frames−1): at least one of its planes crosses the grid of `field`.
std::vector<bool> framesOnGrid(const FieldData& field, std::size_t frames);

/// The legend of N = chosen.size() items (quadrics, frames): the items both chosen and drawn;
/// listed one by one when N ≤ maxListed, else summarised as "shown of total shown" in one line.
struct LegendGroup {
    std::vector<std::size_t> listed; ///< items to list one by one (empty when compact)
    bool compact = false;            ///< one line "shown of total shown"
    std::size_t shown = 0;           ///< chosen and drawn
    std::size_t total = 0;
};
LegendGroup legendGroup(const std::vector<bool>& chosen, const std::vector<bool>& drawn, std::size_t maxListed);

/// The k quadrics with the largest |f(x)| at a point x of the detector's (normalised) space — the
/// ones a selected point violates most (algebraic value xᵀAx + bᵀx + c), largest first.
std::vector<std::size_t> mostViolatedQuadrics(const std::vector<Quadric>& quadrics, const Eigen::VectorXd& x,
                                              std::size_t k);

} // namespace olens
