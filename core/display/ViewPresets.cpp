#include "display/ViewPresets.h"

#include <cmath>

namespace olens {

ViewOrientation viewOrientation(ViewPreset preset)
{
    switch (preset) {
    case ViewPreset::PlusX: return {{1, 0, 0}, {0, 0, 1}};
    case ViewPreset::MinusX: return {{-1, 0, 0}, {0, 0, 1}};
    case ViewPreset::PlusY: return {{0, 1, 0}, {0, 0, 1}};
    case ViewPreset::MinusY: return {{0, -1, 0}, {0, 0, 1}};
    case ViewPreset::PlusZ: return {{0, 0, 1}, {0, 1, 0}};
    case ViewPreset::MinusZ: return {{0, 0, -1}, {0, 1, 0}};
    case ViewPreset::Isometric: {
        const double a = 1.0 / std::sqrt(3.0);
        // up = +Z made orthogonal to the direction: (z - (z·d) d) normalised = (-1, -1, 2) / sqrt(6)
        const double b = 1.0 / std::sqrt(6.0);
        return {{-a, -a, -a}, {-b, -b, 2 * b}};
    }
    }
    return {{0, 0, -1}, {0, 1, 0}};
}

std::string viewPresetName(ViewPreset preset)
{
    switch (preset) {
    case ViewPreset::PlusX: return "+X";
    case ViewPreset::MinusX: return "-X";
    case ViewPreset::PlusY: return "+Y";
    case ViewPreset::MinusY: return "-Y";
    case ViewPreset::PlusZ: return "+Z";
    case ViewPreset::MinusZ: return "-Z";
    case ViewPreset::Isometric: return "isometric";
    }
    return "?";
}

std::array<double, 3> presetPosition(ViewPreset preset, const std::array<double, 3>& focalPoint, double distance)
{
    const ViewOrientation o = viewOrientation(preset);
    return {focalPoint[0] - distance * o.direction[0], focalPoint[1] - distance * o.direction[1],
            focalPoint[2] - distance * o.direction[2]};
}

} // namespace olens
