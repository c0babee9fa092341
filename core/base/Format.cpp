#include "base/Format.h"

#include <cmath>
#include <cstdio>

namespace olens {

std::string formatNumber(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string formatDuration(double s)
{
    if (!std::isfinite(s) || s < 0.0)
        return "\u2013";
    // Each branch takes the value only when its rounded text stays below the next unit's start.
    const double us = s * 1e6, ms = s * 1e3;
    if (std::round(us) < 100.0)
        return formatNumber("%.0f \u00b5s", us);               // 45 µs
    if (std::round(ms * 10.0) < 100.0)
        return formatNumber("%.1f ms", std::round(ms * 10.0) / 10.0); // 0.8 ms, 9.6 ms
    if (std::round(ms) < 1000.0)
        return formatNumber("%.0f ms", ms);                    // 48 ms, 480 ms
    if (std::round(s * 10.0) < 100.0)
        return formatNumber("%.1f s", std::round(s * 10.0) / 10.0);   // 2.3 s
    const long total = std::lround(s);
    if (total < 60)
        return formatNumber("%.0f s", double(total));          // 48 s
    char buf[48];
    if (total < 3600) {
        std::snprintf(buf, sizeof buf, "%ld min %02ld s", total / 60, total % 60);
        return buf;
    }
    const long minutes = (total + 30) / 60; // hours: to the minute
    std::snprintf(buf, sizeof buf, "%ld h %02ld min", minutes / 60, minutes % 60);
    return buf;
}

} // namespace olens
