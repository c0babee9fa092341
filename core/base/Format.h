#pragma once
// Short human-readable numbers for headers and logs (no Qt: the CLI and the GUI share them).
#include <string>

namespace olens {

/// A duration in the unit that keeps 2–3 significant digits: "45 µs", "0.8 ms", "48 ms", "2.3 s",
/// "48 s", "2 min 05 s", "1 h 02 min". Rounded to the shown precision; a value that rounds up to the
/// next unit is shown in it (0.9996 s is "1.0 s", not "1000 ms"). "–" for a negative or non-finite value.
std::string formatDuration(double seconds);

/// One number through a printf format ("%.3g", "%.2e", ...).
std::string formatNumber(const char* format, double value);

} // namespace olens
