#pragma once
// Helpers for one-line error messages that quote untrusted text (file cells, header lines,
// parameter values): shortened and with control bytes escaped, so a 1 MB cell or raw binary
// never reaches a terminal or the Log dock verbatim.
#include <cstdint>
#include <string>
#include <string_view>

namespace olens {

/// `text` for a message: control bytes (< 0x20, 0x7F) and bytes that are not valid UTF-8 escaped as
/// \n, \r, \t, \0 or \xNN (valid UTF-8 is kept whole), and cut to
/// at most `maxChars` characters with "…(N bytes)" appended when longer. No quotes are added.
std::string displayValue(std::string_view text, std::size_t maxChars = 80);

/// A whole message for a terminal, the Log or a Python exception: as displayValue, but line breaks
/// kept. Messages quote values from files (a detector id with ESC sequences in a session), so every
/// front end shows them through this.
std::string displayMessage(std::string_view text, std::size_t maxChars = 2000);

/// "1.5 GB", "12 MB", "800 KB", "17 bytes" (decimal units) for memory figures in messages.
std::string formatBytes(std::uint64_t bytes);

} // namespace olens
