#pragma once
// Feature names shortened for small multiples (the scatter-plot matrix): "mean radius", "mean
// texture" and "worst radius" in a 40-pixel cell used to become "mea…" three times. Words are cut
// instead of the end ("mean rad", "mean tex", "wors rad"), and names that still collide keep their
// two ends ("mea…dius"), so every label stays distinct when the names are.
#include <functional>
#include <string>
#include <vector>

namespace olens {

/// `fits(text)` says whether a (UTF-8) text fits the room (a font's width test). Each name is
/// kept whole when it fits; else its longest word is cut one letter at a time, down to 3 letters
/// per word, then the words before the last down to their initial ("m_rad"); then the end is cut
/// with "…". Names that became equal while the originals differ
/// are cut in the middle instead ("head…tail", the longest that fits).
std::vector<std::string> shortLabels(const std::vector<std::string>& names,
                                     const std::function<bool(const std::string&)>& fits);

} // namespace olens
