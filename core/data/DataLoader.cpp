// Text data loading (see DataLoader.h). The whole file is read at once, lines are split into
// string_views without allocating, numbers are parsed with std::from_chars into a row-major
// buffer that is copied into the column-major Eigen matrix at the end.
#include "data/DataLoader.h"

#include "data/CsvCells.h"

#include "base/Errors.h"
#include "base/Messages.h"
#include "data/LabelMapping.h"
#include "data/PlyReader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <ostream>
#include <system_error>
#include <unordered_map>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace olens {

namespace {

enum class Delim { Comma, Tab, Semicolon, Whitespace };

char delimChar(Delim d)
{
    switch (d) {
    case Delim::Comma: return ',';
    case Delim::Tab: return '\t';
    case Delim::Semicolon: return ';';
    case Delim::Whitespace: break;
    }
    return ' ';
}

inline bool isBlankChar(char c) { return c == ' ' || c == '\t'; }

std::string joinNames(const std::vector<std::string>& names)
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) out += ", ";
        out += names[i];
    }
    return out;
}

bool allDigits(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// ---- number parsing ---------------------------------------------------------------------

enum class NumStatus { Ok, Empty, NotNumber, NotFinite };

// For a decimal literal that from_chars reported out of range: true if it overflows (|x| huge),
// false if it underflows (|x| tiny). Uses the decimal exponent of the first significant digit.
bool decimalOverflows(std::string_view s)
{
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    long long intDigits = 0, fracZeros = 0;
    bool seenNonZero = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        if (s[i] != '0' || seenNonZero) { seenNonZero = true; ++intDigits; }
        ++i;
    }
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            if (!seenNonZero) {
                if (s[i] == '0') ++fracZeros;
                else seenNonZero = true;
            }
            ++i;
        }
    }
    long long exp = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool neg = false;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) { neg = s[i] == '-'; ++i; }
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            if (exp < 1000000000LL) exp = exp * 10 + (s[i] - '0');
            ++i;
        }
        if (neg) exp = -exp;
    }
    const long long mag = (intDigits > 0 ? intDigits - 1 : -(fracZeros + 1)) + exp;
    return mag > 0;
}

// Parses a whole (already trimmed) cell. On NotFinite, value holds the NaN/inf.
inline NumStatus parseNumber(std::string_view cell, double& value)
{
    if (cell.empty()) return NumStatus::Empty;
    const char* first = cell.data();
    const char* last = first + cell.size();
    if (*first == '+' && last - first > 1 && first[1] != '-' && first[1] != '+') ++first;
    const auto res = std::from_chars(first, last, value, std::chars_format::general);
    if (res.ptr != last) return NumStatus::NotNumber;
    if (res.ec == std::errc()) {
        return std::isfinite(value) ? NumStatus::Ok : NumStatus::NotFinite;
    }
    if (res.ec == std::errc::result_out_of_range) {
        const bool negative = *first == '-';
        if (decimalOverflows(std::string_view(first, static_cast<std::size_t>(last - first)))) {
            value = negative ? -std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::infinity();
            return NumStatus::NotFinite;
        }
        value = negative ? -0.0 : 0.0; // underflow to zero
        return NumStatus::Ok;
    }
    return NumStatus::NotNumber;
}

// ---- line splitting ---------------------------------------------------------------------

struct LineError {
    int column; // 1-based field index
    std::string reason;
};

// Splits one physical line (without its line terminator) into fields. The line is known not
// to be blank or a whole-line comment. Unescaped text of quoted fields with "" escapes is kept
// in `owned` (a deque, so earlier views stay valid). Returns false and fills err on malformed
// quoting.
class Splitter {
public:
    explicit Splitter(Delim d) : m_delim(d), m_char(delimChar(d)) {}
    /// Stops splitting a line once it has more than `n` fields (the caller reports the line): a
    /// 100 MB line of 50 million cells took 5.7 GB and 81 s before being refused further on.
    void setMaxFields(std::size_t n) { m_maxFields = n; }

    bool split(std::string_view line, std::vector<std::string_view>& fields, LineError& err)
    {
        fields.clear();
        m_ownedUsed = 0;
        const char* p = line.data();
        const char* e = p + line.size();
        if (m_delim == Delim::Whitespace) {
            for (;;) {
                while (p < e && isBlankChar(*p)) ++p;
                if (p == e || *p == '#') break;
                const char* s = p;
                while (p < e && !isBlankChar(*p) && *p != '#') ++p;
                fields.push_back(restoreCell(std::string_view(s, static_cast<std::size_t>(p - s))));
                if (fields.size() > m_maxFields) return true;
            }
            return true;
        }
        const char d = m_char;
        for (;;) {
            while (p < e && isBlankChar(*p) && *p != d) ++p;
            if (p < e && *p == '"') {
                const int column = static_cast<int>(fields.size()) + 1;
                const char* s = ++p;
                bool escaped = false;
                for (;;) {
                    while (p < e && *p != '"') ++p;
                    if (p == e) {
                        err = {column, "unterminated quoted field (a quoted field must end on the same line)"};
                        return false;
                    }
                    if (p + 1 < e && p[1] == '"') { escaped = true; p += 2; continue; }
                    break;
                }
                std::string_view content(s, static_cast<std::size_t>(p - s));
                ++p; // closing quote
                while (p < e && isBlankChar(*p) && *p != d) ++p;
                if (p < e && *p != d && *p != '#') {
                    err = {column, "unexpected text after closing quote"};
                    return false;
                }
                if (escaped) content = unescape(content);
                fields.push_back(restoreCell(content)); // a protected formula-like text (CsvCells.h)
            } else {
                const char* s = p;
                while (p < e && *p != d && *p != '#') ++p;
                const char* t = p;
                while (t > s && isBlankChar(t[-1])) --t;
                fields.push_back(restoreCell(std::string_view(s, static_cast<std::size_t>(t - s))));
            }
            if (fields.size() > m_maxFields) return true;
            if (p == e || *p == '#') break;
            ++p; // delimiter
        }
        return true;
    }

private:
    std::size_t m_maxFields = std::size_t(-1);
    std::string_view unescape(std::string_view content)
    {
        if (m_ownedUsed == m_owned.size()) m_owned.emplace_back();
        std::string& out = m_owned[m_ownedUsed++];
        out.clear();
        for (std::size_t i = 0; i < content.size(); ++i) {
            out += content[i];
            if (content[i] == '"') ++i; // skip the second quote of ""
        }
        return out;
    }

    Delim m_delim;
    char m_char;
    std::deque<std::string> m_owned;
    std::size_t m_ownedUsed = 0;
};

// Chooses the delimiter from the first data line: ',' if present (outside quotes and
// comments), else tab, else ';', else whitespace.
Delim detectDelimiter(std::string_view line)
{
    bool inQuote = false, comma = false, tab = false, semi = false;
    for (char c : line) {
        if (c == '"') inQuote = !inQuote;
        else if (inQuote) continue;
        else if (c == '#') break;
        else if (c == ',') comma = true;
        else if (c == '\t') tab = true;
        else if (c == ';') semi = true;
    }
    if (comma) return Delim::Comma;
    if (tab) return Delim::Tab;
    if (semi) return Delim::Semicolon;
    return Delim::Whitespace;
}

// Iterates physical lines: strips the BOM (first line), the '\r' of CRLF, and reports whether
// a line is blank or a whole-line comment.
class LineReader {
public:
    explicit LineReader(std::string_view text) : m_text(text)
    {
        if (m_text.size() >= 3 && static_cast<unsigned char>(m_text[0]) == 0xEF
            && static_cast<unsigned char>(m_text[1]) == 0xBB
            && static_cast<unsigned char>(m_text[2]) == 0xBF)
            m_pos = 3;
    }

    /// Next line that has data; false at end of text. lineNo is 1-based physical.
    bool nextDataLine(std::string_view& line, long long& lineNo)
    {
        while (m_pos < m_text.size()) {
            const char* base = m_text.data() + m_pos;
            const std::size_t rest = m_text.size() - m_pos;
            const void* nl = std::memchr(base, '\n', rest);
            std::size_t len = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - base) : rest;
            // CRLF ends a line, and so does a lone CR (old Mac line endings).
            if (const void* cr = std::memchr(base, '\r', len)) {
                const auto k = static_cast<std::size_t>(static_cast<const char*>(cr) - base);
                if (k + 1 < len || !nl) {
                    m_pos += k + 1;
                } else {
                    m_pos += len + 1;
                }
                len = k;
            } else {
                m_pos += len + (nl ? 1 : 0);
            }
            ++m_line;
            // Blank or whole-line comment?
            std::size_t i = 0;
            while (i < len && (isBlankChar(base[i]) || base[i] == '\r')) ++i;
            if (i == len || base[i] == '#') continue;
            line = std::string_view(base, len);
            lineNo = m_line;
            return true;
        }
        return false;
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    long long m_line = 0;
};

enum class Role { Feature, Label, Sigma, Excluded };

[[noreturn]] void fail(const std::string& source, long long line, int column, const std::string& reason)
{
    std::string msg = source;
    msg += ':';
    msg += std::to_string(line);
    if (column > 0) {
        msg += ':';
        msg += std::to_string(column);
    }
    msg += ": ";
    msg += reason;
    throw DataError(msg);
}

[[noreturn]] void failFile(const std::string& source, const std::string& reason)
{
    throw DataError(source + ": " + reason);
}

// Resolves a column given by header name or (when digits) 1-based number; -1 if not found.
int findColumn(const std::string& spec, const std::vector<std::string>& names, bool hasHeader)
{
    if (hasHeader) {
        for (std::size_t j = 0; j < names.size(); ++j)
            if (names[j] == spec) return static_cast<int>(j);
    }
    if (allDigits(spec) && spec.size() < 10) {
        const long n = std::stol(spec);
        if (n >= 1 && n <= static_cast<long>(names.size())) return static_cast<int>(n - 1);
    }
    return -1;
}

std::string columnListText(const std::vector<std::string>& names, bool hasHeader)
{
    if (hasHeader) return "(columns: " + joinNames(names) + ")";
    return "(no header line; columns are numbered 1.." + std::to_string(names.size()) + ")";
}

// Text tables hold no NUL and no control bytes but tab, CR and LF: anything else is binary data
// (or UTF-16), reported as such instead of as a ragged row or a non-numeric value.
void rejectBinary(std::string_view text, const std::string& source)
{
    if (text.size() >= 2
        && ((static_cast<unsigned char>(text[0]) == 0xFF && static_cast<unsigned char>(text[1]) == 0xFE)
            || (static_cast<unsigned char>(text[0]) == 0xFE && static_cast<unsigned char>(text[1]) == 0xFF)))
        failFile(source, "UTF-16 text (byte-order mark FF FE / FE FF); save the file as UTF-8");
    long long line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 || c == '\t') continue;
        if (c == '\n' || c == '\r') {
            if (c == '\n' || i + 1 >= text.size() || text[i + 1] != '\n') {
                ++line;
                lineStart = i + 1;
            }
            continue;
        }
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", c);
        fail(source, line, static_cast<int>(std::min<std::size_t>(i - lineStart + 1, 1u << 30)),
             std::string("binary data: byte ") + byte + " is not text"
                 + (c == 0 ? " (a NUL byte; UTF-16 or a binary file?); expected a text table (CSV, TSV, whitespace) or PLY"
                           : "; expected a text table (CSV, TSV, whitespace) or PLY"));
    }
}

// A table's first character is never "{": that is JSON — most likely a session or a saved model
// handed to the data loader (Ctrl+O instead of Ctrl+Shift+O), which read as a ragged row.
void rejectJson(std::string_view text, const std::string& source)
{
    std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; // a UTF-8 byte-order mark
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        ++i;
    if (i < text.size() && text[i] == '{')
        failFile(source, "JSON, not a table: an OutlierLens session or model opens with File → Open session "
                         "(Ctrl+Shift+O), outlierlens --session or outlierlens-cli score --model");
}

} // namespace

Dataset parseDataset(std::string_view text, const std::string& sourceName, const LoadOptions& options)
{
    if (!text.empty() && text.back() == '\x1A')
        text.remove_suffix(1); // the Ctrl-Z end-of-file mark of old DOS text files
    rejectBinary(text, sourceName);
    rejectJson(text, sourceName);
    LineReader reader(text);
    std::string_view line;
    long long lineNo = 0;
    if (!reader.nextDataLine(line, lineNo))
        failFile(sourceName, "no data rows (file is empty or only comments)");

    const Delim delim = detectDelimiter(line);
    Splitter splitter(delim);
    std::vector<std::string_view> fields;
    fields.reserve(64);
    LineError lerr;
    splitter.setMaxFields(kMaxColumns);
    if (!splitter.split(line, fields, lerr)) fail(sourceName, lineNo, lerr.column, lerr.reason);
    if (fields.size() > kMaxColumns)
        fail(sourceName, lineNo, 0,
             "more than " + std::to_string(kMaxColumns) + " columns on one line: OutlierLens reads at most "
                 + std::to_string(kMaxColumns) + " (is the file one long line, or the delimiter wrong?)");

    // ---- header ---------------------------------------------------------------------
    bool hasHeader = false;
    for (std::string_view f : fields) {
        double v;
        if (parseNumber(f, v) == NumStatus::NotNumber) { hasHeader = true; break; }
    }
    const int nCols = static_cast<int>(fields.size());
    const long long headerLine = lineNo;
    std::vector<std::string> colNames(static_cast<std::size_t>(nCols));
    Dataset data;
    data.source = sourceName;
    if (hasHeader) {
        for (int j = 0; j < nCols; ++j) {
            colNames[j] = std::string(fields[j]);
            if (colNames[j].empty()) {
                colNames[j] = "column" + std::to_string(j + 1);
                data.warnings.push_back(sourceName + ":" + std::to_string(lineNo) + ":"
                                        + std::to_string(j + 1) + ": empty column name; using '"
                                        + colNames[j] + "'");
            }
        }
        std::unordered_map<std::string, int> seen;
        for (int j = 0; j < nCols; ++j) {
            auto [it, inserted] = seen.emplace(colNames[j], j);
            if (!inserted)
                fail(sourceName, lineNo, 0,
                     "duplicate column name '" + displayValue(colNames[j]) + "' (columns "
                         + std::to_string(it->second + 1) + " and " + std::to_string(j + 1) + ")");
        }
    } else {
        for (int j = 0; j < nCols; ++j) colNames[j] = std::to_string(j + 1);
    }

    // ---- column roles -----------------------------------------------------------------
    std::vector<Role> role(static_cast<std::size_t>(nCols), Role::Feature);
    // Excluded columns are not features, but exports write them back (Dataset::carried).
    std::vector<int> carriedOf(static_cast<std::size_t>(nCols), -1);
    for (const std::string& ex : options.excludeColumns) {
        const int j = findColumn(ex, colNames, hasHeader);
        if (j < 0)
            failFile(sourceName, "excluded column '" + ex + "' not found " + columnListText(colNames, hasHeader));
        if (role[j] != Role::Excluded) {
            carriedOf[j] = static_cast<int>(data.carried.size());
            data.carried.push_back({hasHeader ? colNames[j] : "column_" + std::to_string(j + 1), {}});
        }
        role[j] = Role::Excluded;
    }
    int labelCol = -1;
    if (!options.labelColumn.empty()) {
        int j = findColumn(options.labelColumn, colNames, hasHeader);
        if (j < 0 && options.labelColumn == "label" && hasHeader) // the default: "class" too, as for PLY
            for (int k = 0; k < nCols && j < 0; ++k)
                if (isDefaultLabelName(colNames[static_cast<std::size_t>(k)])) j = k;
        if (j >= 0 && role[j] != Role::Excluded) {
            labelCol = j;
            role[j] = Role::Label;
        } else if (options.labelRequired) {
            failFile(sourceName, "label column '" + options.labelColumn + "' not found "
                                     + columnListText(colNames, hasHeader));
        }
    }
    // Sigma columns: prefix + the name of a feature column.
    std::vector<int> sigmaOf(static_cast<std::size_t>(nCols), -1); // column -> feature column
    const std::string& prefix = options.sigmaPrefix;
    if (hasHeader && !prefix.empty()) {
        for (int j = 0; j < nCols; ++j) {
            if (role[j] != Role::Feature) continue;
            const std::string& name = colNames[j];
            if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0)
                role[j] = Role::Sigma;
        }
        for (int j = 0; j < nCols; ++j) {
            if (role[j] != Role::Sigma) continue;
            const std::string target = colNames[j].substr(prefix.size());
            int k = -1;
            for (int i = 0; i < nCols; ++i)
                if (role[i] == Role::Feature && colNames[i] == target) { k = i; break; }
            if (k < 0)
                fail(sourceName, headerLine, j + 1,
                     "sigma column '" + colNames[j] + "' has no feature column '" + target + "'");
            sigmaOf[j] = k;
        }
    }

    // Feature index of each column, names, sigma slots.
    std::vector<int> featureIndex(static_cast<std::size_t>(nCols), -1);
    int p = 0;
    for (int j = 0; j < nCols; ++j)
        if (role[j] == Role::Feature) featureIndex[j] = p++;
    if (p == 0) failFile(sourceName, "no numeric feature column (all columns are label/sigma/excluded)");
    data.featureNames.reserve(static_cast<std::size_t>(p));
    for (int j = 0; j < nCols; ++j)
        if (role[j] == Role::Feature)
            data.featureNames.push_back(hasHeader ? colNames[j] : "x" + std::to_string(featureIndex[j] + 1));
    if (labelCol >= 0) data.labelName = hasHeader ? colNames[labelCol] : std::string("label");
    std::vector<int> sigmaSlot(static_cast<std::size_t>(nCols), -1); // column -> index into sigma row
    std::vector<int> sigmaFeature;                                     // slot -> feature index
    for (int j = 0; j < nCols; ++j)
        if (role[j] == Role::Sigma) {
            sigmaSlot[j] = static_cast<int>(sigmaFeature.size());
            sigmaFeature.push_back(featureIndex[sigmaOf[j]]);
        }
    const int nSigma = static_cast<int>(sigmaFeature.size());

    // Display name of a column in messages.
    auto displayName = [&](int j) -> const std::string& {
        if (role[j] == Role::Feature) return data.featureNames[featureIndex[j]];
        if (role[j] == Role::Label) return data.labelName;
        return colNames[j];
    };

    // ---- rows -------------------------------------------------------------------------
    // Reserve for the lines that are really there (counted: memchr runs at memory speed, ~0.1 s
    // per GB) and that the bytes can hold (a row of c cells takes at least 2c bytes). Growing by
    // doubling instead held 1.7× the matrix at its last step (201 MB for a 5 M-row torus, whose
    // matrix is 120 MB). Blank and comment lines are not counted: a file of empty lines reserves
    // nothing. Old Mac files (CR alone) are counted by their CRs.
    const std::size_t consumed = static_cast<std::size_t>(line.data() - text.data());
    auto countLines = [&](char eol) {
        std::size_t lines = 1;
        const char* end = text.data() + text.size();
        for (const char* c = text.data() + consumed;
             (c = static_cast<const char*>(std::memchr(c, eol, static_cast<std::size_t>(end - c)))) != nullptr;) {
            ++c;
            if (c < end && *c != '\n' && *c != '\r' && *c != '#')
                ++lines;
        }
        return lines;
    };
    std::size_t linesLeft = countLines('\n');
    if (linesLeft == 1)
        linesLeft = countLines('\r');
    const std::size_t lineEstimate =
        std::min<std::size_t>((text.size() - consumed) / (2 * static_cast<std::size_t>(nCols)) + 1, linesLeft);
    std::vector<double> xbuf;
    xbuf.reserve(lineEstimate * static_cast<std::size_t>(p));
    std::vector<double> sbuf;
    if (nSigma) sbuf.reserve(lineEstimate * static_cast<std::size_t>(nSigma));
    std::vector<double> labelValues;
    std::vector<std::string_view> labelTexts;
    std::deque<std::string> ownedLabelTexts; // labels that were unescaped from quotes
    long long firstNonFiniteLabelLine = 0;
    bool labelsNumeric = true;
    if (labelCol >= 0) {
        labelValues.reserve(lineEstimate);
        labelTexts.reserve(lineEstimate);
    }
    long long missing = 0;
    const bool allowMissing = options.allowMissing;
    const double qnan = std::numeric_limits<double>::quiet_NaN();
    std::string labelNonFiniteText;

    bool first = true;
    long long nRows = 0;
    for (;;) {
        if (first) {
            first = false;
            if (hasHeader) {
                if (!reader.nextDataLine(line, lineNo)) break;
                if (!splitter.split(line, fields, lerr)) fail(sourceName, lineNo, lerr.column, lerr.reason);
            }
        } else {
            if (!reader.nextDataLine(line, lineNo)) break;
            if (!splitter.split(line, fields, lerr)) fail(sourceName, lineNo, lerr.column, lerr.reason);
        }
        if (static_cast<int>(fields.size()) != nCols) {
            fail(sourceName, lineNo, 0,
                 "ragged row: " + std::to_string(fields.size()) + " values, expected " + std::to_string(nCols)
                     + (hasHeader ? " (from the header at line " : " (from the first row at line ")
                     + std::to_string(headerLine) + ")");
        }
        for (int j = 0; j < nCols; ++j) {
            const std::string_view cell = fields[j];
            const Role r = role[j];
            if (r == Role::Excluded) {
                data.carried[static_cast<std::size_t>(carriedOf[j])].cells.emplace_back(cell);
                continue;
            }
            double v;
            const NumStatus st = parseNumber(cell, v);
            if (r == Role::Feature) {
                if (st == NumStatus::Ok) {
                    xbuf.push_back(v);
                    continue;
                }
                if (allowMissing && (st == NumStatus::Empty || (st == NumStatus::NotFinite && std::isnan(v)))) {
                    xbuf.push_back(qnan);
                    ++missing;
                    continue;
                }
            } else if (r == Role::Sigma) {
                if (st == NumStatus::Ok) {
                    if (v < 0)
                        fail(sourceName, lineNo, j + 1,
                             "negative sigma '" + displayValue(cell) + "' in column '" + displayValue(colNames[j]) + "'");
                    sbuf.push_back(v);
                    continue;
                }
            } else { // label
                if (st == NumStatus::Empty)
                    fail(sourceName, lineNo, j + 1, "empty value in column '" + data.labelName + "'");
                if (st == NumStatus::NotNumber) labelsNumeric = false;
                if (st == NumStatus::NotFinite && firstNonFiniteLabelLine == 0) {
                    firstNonFiniteLabelLine = lineNo;
                    labelNonFiniteText = displayValue(cell);
                }
                labelValues.push_back(st == NumStatus::Ok ? v : 0.0);
                const std::less<const char*> before;
                const bool inText = !before(cell.data(), text.data())
                                    && !before(text.data() + text.size(), cell.data());
                if (inText) {
                    labelTexts.push_back(cell);
                } else {
                    ownedLabelTexts.emplace_back(cell);
                    labelTexts.emplace_back(ownedLabelTexts.back());
                }
                continue;
            }
            // Errors for feature and sigma cells.
            const std::string& name = displayName(j);
            switch (st) {
            case NumStatus::Empty:
                fail(sourceName, lineNo, j + 1, "empty value in column '" + displayValue(name) + "'");
            case NumStatus::NotFinite:
                fail(sourceName, lineNo, j + 1,
                     "value '" + displayValue(cell) + "' is not finite in column '" + displayValue(name) + "'");
            case NumStatus::NotNumber:
            case NumStatus::Ok:
                fail(sourceName, lineNo, j + 1,
                     "non-numeric value '" + displayValue(cell) + "' in column '" + displayValue(name) + "'");
            }
        }
        ++nRows;
    }

    if (nRows == 0) {
        if (hasHeader)
            failFile(sourceName, "no data rows (only the header at line " + std::to_string(headerLine) + ")");
        failFile(sourceName, "no data rows (file is empty or only comments)");
    }

    // ---- assemble -----------------------------------------------------------------------
    const Eigen::Index n = static_cast<Eigen::Index>(nRows);
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    data.X = Eigen::Map<const RowMajor>(xbuf.data(), n, p);
    std::vector<double>().swap(xbuf);
    if (nSigma > 0) {
        data.sigma = Eigen::MatrixXd::Zero(n, p);
        Eigen::Map<const RowMajor> s(sbuf.data(), n, nSigma);
        for (int k = 0; k < nSigma; ++k) data.sigma.col(sigmaFeature[k]) = s.col(k);
    }
    if (labelCol >= 0) {
        if (labelsNumeric && firstNonFiniteLabelLine != 0)
            fail(sourceName, firstNonFiniteLabelLine, labelCol + 1,
                 "value '" + labelNonFiniteText + "' is not finite in column '" + data.labelName + "'");
        mapLabels(data, labelsNumeric, labelValues, labelTexts, options, sourceName);
    }
    if (missing > 0)
        data.warnings.push_back(sourceName + ": " + std::to_string(missing)
                                + " missing value(s) read as NaN");
    return data;
}

namespace {

// Reads at most `maxBytes` bytes of `path`. Regular files larger than the budget are refused from
// their size before anything is read; devices and pipes are read in chunks up to the budget. The
// first chunk is sniffed: a text table starting with binary bytes (/dev/zero, a sparse file,
// UTF-16) is refused at once instead of being read to the end.
std::string readBounded(const std::string& path, std::uint64_t maxBytes)
{
    const std::string name = "'" + displayValue(path, 200) + "'";
    // O_NONBLOCK: opening a FIFO without a writer must not hang (it then reads as empty).
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        const int err = errno;
        throw DataError("cannot open " + name + ": " + std::strerror(err));
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw DataError("cannot open " + name + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw DataError("cannot open " + name + ": " + std::strerror(EISDIR));
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    const std::string limitText = formatBytes(maxBytes) + " (raise it with --max-input-mb)";
    const bool regular = S_ISREG(st.st_mode);
    if (regular && static_cast<std::uint64_t>(st.st_size) > maxBytes)
        throw DataError(path + ": the file is " + formatBytes(static_cast<std::uint64_t>(st.st_size))
                        + ", above the input limit of " + limitText);
    std::string bytes;
    constexpr std::size_t kChunk = 1 << 20;
    bool sniffed = false;
    // A regular file is read into a buffer of its size: growing a string by chunks past its
    // reservation doubled it at the last chunk (615 MB held for a 307 MB file). Only a file that
    // grows while it is read, or a pipe, reads on in chunks.
    std::size_t expected = regular && st.st_size > 0 ? static_cast<std::size_t>(st.st_size) : 0;
    auto sniff = [&] {
        sniffed = true;
        std::string_view head = std::string_view(bytes).substr(0, 4096);
        if (!head.empty() && head.back() == '\x1A') head.remove_suffix(1); // DOS end-of-file mark
        if (!looksLikePly(bytes)) rejectBinary(head, path);
    };
    for (;;) {
        const std::size_t old = bytes.size();
        if (old >= maxBytes + 1) break;
        std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, maxBytes + 1 - old));
        if (old < expected) {
            want = std::min(want, expected - old);
        } else if (expected > 0) {
            // At the size fstat gave: look for more (a growing file) without touching the buffer.
            char probe[4096];
            const ssize_t more = ::read(fd, probe, sizeof probe);
            if (more < 0 && errno == EINTR) continue;
            if (more < 0) {
                const int err = errno;
                throw DataError("cannot read " + name + ": " + std::strerror(err));
            }
            if (more == 0) break;
            bytes.append(probe, static_cast<std::size_t>(more));
            expected = 0; // it grew: read on in chunks, up to the limit
            continue;
        }
        bytes.resize(old + want);
        const ssize_t got = ::read(fd, bytes.data() + old, want);
        if (got < 0) {
            if (errno == EINTR) { bytes.resize(old); continue; }
            const int err = errno;
            throw DataError("cannot read " + name + ": " + std::strerror(err));
        }
        bytes.resize(old + static_cast<std::size_t>(got));
        if (!sniffed && (got == 0 || bytes.size() >= 4096)) {
            sniff();
            if (expected > 0) bytes.reserve(expected);
        }
        if (got == 0) break;
    }
    if (!sniffed) sniff(); // a small file read whole: the probe found its end
    if (bytes.size() > maxBytes)
        throw DataError(path + ": input exceeds the limit of " + limitText);
    return bytes;
}

bool hasPlySuffix(const std::string& path)
{
    if (path.size() < 4) return false;
    std::string ext = path.substr(path.size() - 4);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".ply";
}

} // namespace

Dataset loadDataset(const std::string& path, const LoadOptions& options)
{
    const std::string bytes = readBounded(path, options.maxBytes);
    if (looksLikePly(bytes)) return parsePly(bytes, path, options);
    if (hasPlySuffix(path))
        throw DataError(path + ":1: not a PLY file (the first line must be 'ply')");
    return parseDataset(bytes, path, options);
}

} // namespace olens
