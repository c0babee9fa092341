#pragma once
// Text cells that a spreadsheet would run as a formula (OWASP's CSV-injection rule): a cell that
// begins with =, +, -, @, a tab or a carriage return is written with a leading apostrophe, unless it
// is a number ("-1.5" stays a number). The readers take one apostrophe off again when it precedes
// such a character, and the writers also protect a text that itself begins with an apostrophe and
// one of them, so every text reads back exactly as it was written.
#include <string>
#include <string_view>

namespace olens {

/// The text to write for a text cell (before any CSV quoting).
std::string neutraliseCell(std::string_view text);
/// The text a read cell stands for: the apostrophe neutraliseCell would have added is removed, so
/// restoreCell(neutraliseCell(t)) == t for every t.
std::string_view restoreCell(std::string_view cell);

} // namespace olens
