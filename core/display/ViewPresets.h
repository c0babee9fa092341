#pragma once
// Camera presets of a 3-D tool (ParaView's convention): "view along +X" looks in the +X
// direction (the camera sits on the -X side of the focus); ±X and ±Y keep +Z up, ±Z keeps +Y up;
// isometric looks along (-1, -1, -1) with +Z up. Pure numbers, so they are tested without a window.
#include <array>
#include <string>

namespace olens {

enum class ViewPreset { PlusX, MinusX, PlusY, MinusY, PlusZ, MinusZ, Isometric };

struct ViewOrientation {
    std::array<double, 3> direction; ///< unit vector from the camera towards the focal point
    std::array<double, 3> viewUp;    ///< unit, orthogonal to direction
};

ViewOrientation viewOrientation(ViewPreset preset);
/// "+X", "-X", …, "isometric" (menu texts and logs).
std::string viewPresetName(ViewPreset preset);

/// Camera position for a preset: `distance` from `focalPoint` against the view direction.
std::array<double, 3> presetPosition(ViewPreset preset, const std::array<double, 3>& focalPoint, double distance);

} // namespace olens
