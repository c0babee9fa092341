#include "base/Messages.h"

#include <cstdio>

namespace olens {

std::string displayValue(std::string_view text, std::size_t maxChars)
{
    std::string out;
    std::size_t shown = 0, i = 0;
    for (; i < text.size() && shown < maxChars; ++i, ++shown) {
        const auto c = static_cast<unsigned char>(text[i]);
        switch (c) {
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\0': out += "\\0"; break;
        default:
            if (c < 0x20 || c == 0x7F) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02X", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    if (i < text.size()) {
        // Do not cut a UTF-8 sequence in half.
        while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
        if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
        out += "…(" + std::to_string(text.size()) + " bytes)";
    }
    return out;
}

std::string formatBytes(std::uint64_t bytes)
{
    char buf[32];
    const double b = static_cast<double>(bytes);
    if (bytes >= 1000ULL * 1000 * 1000 * 1000) std::snprintf(buf, sizeof buf, "%.1f TB", b / 1e12);
    else if (bytes >= 1000ULL * 1000 * 1000) std::snprintf(buf, sizeof buf, "%.1f GB", b / 1e9);
    else if (bytes >= 1000ULL * 1000) std::snprintf(buf, sizeof buf, "%.0f MB", b / 1e6);
    else if (bytes >= 1000ULL) std::snprintf(buf, sizeof buf, "%.0f KB", b / 1e3);
    else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
    return buf;
}

} // namespace olens
