#include "data/CsvCells.h"

#include <charconv>

namespace olens {

namespace {

bool startsFormula(char c)
{
    return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
}

bool isNumber(std::string_view s)
{
    double v = 0.0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

/// Whether a text must be written with a protecting apostrophe: it begins with a formula
/// character and is not a number, or it is apostrophes before such a text (so that the reader,
/// which removes one apostrophe before such a text, gives every text back unchanged).
bool needsProtection(std::string_view t)
{
    std::size_t i = 0;
    while (i < t.size() && t[i] == '\'')
        ++i;
    return i < t.size() && startsFormula(t[i]) && !isNumber(t.substr(i));
}

} // namespace

std::string neutraliseCell(std::string_view text)
{
    return needsProtection(text) ? "'" + std::string(text) : std::string(text);
}

std::string_view restoreCell(std::string_view cell)
{
    // Exactly the inverse of neutraliseCell: the apostrophe goes when the writer would have put it
    // there ("'=x" → "=x", "''=x" → "'=x"); any other apostrophe is the text's own ("'-2.5").
    if (!cell.empty() && cell.front() == '\'' && needsProtection(cell.substr(1)))
        cell.remove_prefix(1);
    return cell;
}

} // namespace olens
