#include "base/Messages.h"

#include <cstdio>

namespace olens {

namespace {
std::string escaped(std::string_view text, std::size_t maxChars, bool keepNewlines)
{
    std::string out;
    std::size_t shown = 0, i = 0;
    for (; i < text.size() && shown < maxChars; ++i, ++shown) {
        const auto c = static_cast<unsigned char>(text[i]);
        switch (c) {
        case '\n': out += keepNewlines ? "\n" : "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\0': out += "\\0"; break;
        default:
            if (c < 0x20 || c == 0x7F) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02X", c);
                out += buf;
            } else if (c < 0x80) {
                out += static_cast<char>(c);
            } else {
                // A whole valid UTF-8 sequence is one character; any other byte is escaped.
                const std::size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
                bool valid = len > 0 && i + len <= text.size();
                for (std::size_t k = 1; valid && k < len; ++k)
                    valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
                if (valid) {
                    out.append(text.data() + i, len);
                    i += len - 1;
                } else {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\x%02X", c);
                    out += buf;
                }
            }
        }
    }
    if (i < text.size()) out += "…(" + std::to_string(text.size()) + " bytes)";
    return out;
}
} // namespace

std::string displayValue(std::string_view text, std::size_t maxChars)
{
    return escaped(text, maxChars, false);
}

std::string displayMessage(std::string_view text, std::size_t maxChars)
{
    return escaped(text, maxChars, true);
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
