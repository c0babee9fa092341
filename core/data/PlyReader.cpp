#include "data/PlyReader.h"

#include "base/Errors.h"
#include "base/Messages.h"
#include "data/LabelMapping.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <limits>

namespace olens {

namespace {

enum class Format { Ascii, BinaryLE, BinaryBE };

enum class Type { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

int sizeOf(Type t)
{
    switch (t) {
    case Type::Int8: case Type::UInt8: return 1;
    case Type::Int16: case Type::UInt16: return 2;
    case Type::Int32: case Type::UInt32: case Type::Float32: return 4;
    case Type::Float64: return 8;
    }
    return 1;
}

bool parseType(std::string_view s, Type& t)
{
    static const struct { const char* name; Type type; } names[] = {
        {"char", Type::Int8},     {"int8", Type::Int8},     {"uchar", Type::UInt8},   {"uint8", Type::UInt8},
        {"short", Type::Int16},   {"int16", Type::Int16},   {"ushort", Type::UInt16}, {"uint16", Type::UInt16},
        {"int", Type::Int32},     {"int32", Type::Int32},   {"uint", Type::UInt32},   {"uint32", Type::UInt32},
        {"float", Type::Float32}, {"float32", Type::Float32}, {"double", Type::Float64}, {"float64", Type::Float64}};
    for (const auto& n : names)
        if (s == n.name) { t = n.type; return true; }
    return false;
}

struct Property {
    std::string name;
    Type type = Type::Float32;
    bool list = false;
    Type countType = Type::UInt8;
};

struct Element {
    std::string name;
    std::uint64_t count = 0;
    long long line = 0;
    std::vector<Property> props;
    /// Smallest binary size of one item (list properties count their length field only).
    std::uint64_t minBytes() const
    {
        std::uint64_t b = 0;
        for (const auto& p : props) b += static_cast<std::uint64_t>(sizeOf(p.list ? p.countType : p.type));
        return b;
    }
};

std::vector<std::string_view> tokens(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        const std::size_t s = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
        if (i > s) out.push_back(line.substr(s, i - s));
    }
    return out;
}

class Reader {
public:
    Reader(std::string_view bytes, const std::string& source, const LoadOptions& options,
           std::uint64_t maxRows = std::numeric_limits<std::uint64_t>::max())
        : m_bytes(bytes), m_source(source), m_options(options), m_maxRows(maxRows) {}

    Dataset read();
    std::uint64_t declaredVertices() const { return m_vertices; }

private:
    [[noreturn]] void fail(const std::string& reason) const { throw DataError(m_source + ": " + reason); }
    [[noreturn]] void failLine(long long line, const std::string& reason) const
    {
        throw DataError(m_source + ":" + std::to_string(line) + ": " + reason);
    }

    void parseHeader();
    void skipBinaryItems(const Element& e, std::size_t& pos);
    void skipAsciiItems(const Element& e);
    bool nextAsciiLine(std::string_view& line);
    double readBinary(Type t, std::size_t& pos) const;

    std::string_view m_bytes;
    const std::string& m_source;
    const LoadOptions& m_options;
    std::uint64_t m_maxRows;     // a preview reads only the first rows (of a possibly cut file)
    std::uint64_t m_vertices = 0;
    Format m_format = Format::Ascii;
    std::vector<Element> m_elements;
    std::size_t m_pos = 0; // read position
    long long m_line = 0;  // lines consumed (header and ASCII body)
};

bool Reader::nextAsciiLine(std::string_view& line)
{
    while (m_pos < m_bytes.size()) {
        const char* base = m_bytes.data() + m_pos;
        const std::size_t rest = m_bytes.size() - m_pos;
        const void* nl = std::memchr(base, '\n', rest);
        std::size_t len = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - base) : rest;
        // A lone CR ends a line too (old Mac line endings).
        if (const void* cr = std::memchr(base, '\r', len)) {
            const auto k = static_cast<std::size_t>(static_cast<const char*>(cr) - base);
            if (k + 1 < len || !nl) { len = k; m_pos += k + 1; }
            else { m_pos += len + 1; len = k; }
        } else {
            m_pos += len + (nl ? 1 : 0);
        }
        ++m_line;
        line = std::string_view(base, len);
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        return true;
    }
    return false;
}

void Reader::parseHeader()
{
    // Header lines end with LF (CRLF accepted). The header is small: refuse a runaway one.
    constexpr std::size_t kMaxHeader = 1 << 20;
    bool sawFormat = false, ended = false;
    std::size_t pos = 0;
    long long line = 0;
    while (pos < m_bytes.size() && pos < kMaxHeader) {
        const char* base = m_bytes.data() + pos;
        const void* nl = std::memchr(base, '\n', m_bytes.size() - pos);
        if (!nl) break;
        std::size_t len = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
        pos += len + 1;
        ++line;
        if (len > 0 && base[len - 1] == '\r') --len;
        const std::string_view text(base, len);
        const auto t = tokens(text);
        if (line == 1) {
            if (t.size() != 1 || t[0] != "ply") failLine(1, "not a PLY file (the first line must be 'ply')");
            continue;
        }
        if (t.empty()) continue;
        const std::string_view key = t[0];
        if (key == "comment" || key == "obj_info") continue;
        if (key == "end_header") { ended = true; break; }
        if (key == "format") {
            if (t.size() < 2) failLine(line, "'format' needs ascii, binary_little_endian or binary_big_endian");
            if (t[1] == "ascii") m_format = Format::Ascii;
            else if (t[1] == "binary_little_endian") m_format = Format::BinaryLE;
            else if (t[1] == "binary_big_endian") m_format = Format::BinaryBE;
            else failLine(line, "unknown PLY format '" + displayValue(t[1]) + "' (expected ascii, binary_little_endian or binary_big_endian)");
            sawFormat = true;
        } else if (key == "element") {
            if (t.size() != 3) failLine(line, "'element' needs a name and a count, got '" + displayValue(text) + "'");
            Element e;
            e.name = std::string(t[1]);
            e.line = line;
            const std::string_view c = t[2];
            unsigned long long count = 0;
            const auto r = std::from_chars(c.data(), c.data() + c.size(), count);
            if (c.empty() || c[0] == '-' || r.ec != std::errc() || r.ptr != c.data() + c.size())
                failLine(line, "element '" + displayValue(e.name) + "' count '" + displayValue(c)
                                   + "' is not a non-negative integer below 2^64");
            e.count = count;
            m_elements.push_back(std::move(e));
        } else if (key == "property") {
            if (m_elements.empty()) failLine(line, "'property' before any 'element'");
            Property p;
            bool ok = false;
            if (t.size() == 3) {
                ok = parseType(t[1], p.type);
                p.name = std::string(t[2]);
            } else if (t.size() == 5 && t[1] == "list") {
                p.list = true;
                ok = parseType(t[2], p.countType) && parseType(t[3], p.type);
                p.name = std::string(t[4]);
                if (ok && (p.countType == Type::Float32 || p.countType == Type::Float64)) ok = false;
            }
            if (!ok)
                failLine(line, "cannot read property '" + displayValue(text)
                                   + "' (expected 'property TYPE NAME' or 'property list COUNTTYPE TYPE NAME' "
                                     "with TYPE one of char uchar short ushort int uint float double)");
            m_elements.back().props.push_back(std::move(p));
        } else if (std::string_view("0123456789+-.").find(key[0]) != std::string_view::npos) {
            failLine(line, "no 'end_header' line before the data (the header must end with 'end_header')");
        } else {
            failLine(line, "unknown PLY header keyword '" + displayValue(key) + "'");
        }
    }
    if (!ended)
        fail(pos >= kMaxHeader ? "no 'end_header' line in the first 1 MB (not a PLY header?)"
                               : "no 'end_header' line: the PLY header is incomplete (truncated file?)");
    if (!sawFormat) fail("the PLY header has no 'format' line");
    m_pos = pos;
    m_line = line;
}

double Reader::readBinary(Type t, std::size_t& pos) const
{
    unsigned char b[8];
    const int n = sizeOf(t);
    std::memcpy(b, m_bytes.data() + pos, static_cast<std::size_t>(n));
    pos += static_cast<std::size_t>(n);
    if (m_format == Format::BinaryBE) std::reverse(b, b + n);
    switch (t) {
    case Type::Int8: { std::int8_t v; std::memcpy(&v, b, 1); return v; }
    case Type::UInt8: return b[0];
    case Type::Int16: { std::int16_t v; std::memcpy(&v, b, 2); return v; }
    case Type::UInt16: { std::uint16_t v; std::memcpy(&v, b, 2); return v; }
    case Type::Int32: { std::int32_t v; std::memcpy(&v, b, 4); return v; }
    case Type::UInt32: { std::uint32_t v; std::memcpy(&v, b, 4); return v; }
    case Type::Float32: { float v; std::memcpy(&v, b, 4); return v; }
    case Type::Float64: { double v; std::memcpy(&v, b, 8); return v; }
    }
    return 0;
}

void Reader::skipBinaryItems(const Element& e, std::size_t& pos)
{
    for (std::uint64_t i = 0; i < e.count; ++i)
        for (const Property& p : e.props) {
            const auto need = static_cast<std::size_t>(sizeOf(p.list ? p.countType : p.type));
            if (m_bytes.size() - pos < need)
                fail("element '" + displayValue(e.name) + "': the header declares " + std::to_string(e.count)
                     + " items but the file ends in item " + std::to_string(i) + " (truncated file?)");
            if (!p.list) { pos += need; continue; }
            const double len = readBinary(p.countType, pos);
            if (len < 0) fail("element '" + displayValue(e.name) + "' item " + std::to_string(i) + ": negative list length");
            const std::uint64_t bytes = static_cast<std::uint64_t>(len) * static_cast<std::uint64_t>(sizeOf(p.type));
            if (m_bytes.size() - pos < bytes)
                fail("element '" + displayValue(e.name) + "': the header declares " + std::to_string(e.count)
                     + " items but the file ends in item " + std::to_string(i) + " (truncated file?)");
            pos += static_cast<std::size_t>(bytes);
        }
}

void Reader::skipAsciiItems(const Element& e)
{
    std::string_view line;
    for (std::uint64_t i = 0; i < e.count; ++i)
        if (!nextAsciiLine(line))
            fail("element '" + displayValue(e.name) + "': the header declares " + std::to_string(e.count)
                 + " items but the file holds only " + std::to_string(i) + " (truncated file?)");
}

Dataset Reader::read()
{
    parseHeader();
    const auto vit = std::find_if(m_elements.begin(), m_elements.end(), [](const Element& e) { return e.name == "vertex"; });
    if (vit == m_elements.end()) fail("the PLY header declares no 'vertex' element");
    const Element& vertex = *vit;
    if (vertex.count == 0) failLine(vertex.line, "the PLY header declares 0 vertices");
    m_vertices = vertex.count;
    const bool preview = m_maxRows < vertex.count;

    // Columns: x, y, z (scalar, required), then the other scalar properties; label/class → labels.
    const std::string& labelSpec = m_options.labelColumn;
    auto isLabel = [&](const std::string& name) {
        if (!labelSpec.empty() && name == labelSpec) return true;
        return labelSpec == "label" && isDefaultLabelName(name);
    };
    auto excluded = [&](const std::string& name) {
        return std::find(m_options.excludeColumns.begin(), m_options.excludeColumns.end(), name)
               != m_options.excludeColumns.end();
    };
    const int nProps = static_cast<int>(vertex.props.size());
    std::vector<int> column(static_cast<std::size_t>(nProps), -1); // property → feature column, -2 = label
    int xyz[3] = {-1, -1, -1};
    const char* axes[3] = {"x", "y", "z"};
    for (int k = 0; k < nProps; ++k)
        for (int a = 0; a < 3; ++a)
            if (vertex.props[k].name == axes[a]) {
                if (vertex.props[k].list)
                    failLine(vertex.line, std::string("vertex property '") + axes[a]
                                              + "' is a list; x, y and z must be scalar properties (e.g. 'property float x')");
                if (xyz[a] < 0) xyz[a] = k;
            }
    for (int a = 0; a < 3; ++a)
        if (xyz[a] < 0)
            failLine(vertex.line, std::string("the vertex element has no scalar property '") + axes[a]
                                      + "' (x, y and z are required)");
    Dataset data;
    data.source = m_source;
    int labelProp = -1;
    for (int a = 0; a < 3; ++a) {
        column[xyz[a]] = a;
        data.featureNames.push_back(axes[a]);
    }
    // Excluded scalar properties are carried (Dataset::carried, written back by exports): codes
    // kCarried - c, above kSigma's range.
    constexpr int kCarried = -3;
    for (int k = 0; k < nProps; ++k) {
        const Property& p = vertex.props[k];
        if (column[k] < 0 && !p.list && excluded(p.name) && data.carried.size() < 90) {
            column[k] = kCarried - static_cast<int>(data.carried.size());
            data.carried.push_back({p.name, {}});
        }
    }
    for (int k = 0; k < nProps; ++k) {
        const Property& p = vertex.props[k];
        if (column[k] != -1 || p.list || excluded(p.name)) continue;
        if (labelProp < 0 && isLabel(p.name)) {
            labelProp = k;
            column[k] = -2;
            continue;
        }
        column[k] = static_cast<int>(data.featureNames.size());
        data.featureNames.push_back(p.name);
    }
    // sigma_<feature> properties (LoadOptions::sigmaPrefix) hold that feature's standard deviation,
    // as in text tables: they leave the features (column kSigma - feature index).
    constexpr int kSigma = -100;
    bool anySigma = false;
    if (const std::string& prefix = m_options.sigmaPrefix; !prefix.empty()) {
        std::vector<std::string> kept;
        std::vector<int> newIndex(data.featureNames.size(), -1);
        auto isSigma = [&](const std::string& name) {
            return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0
                   && std::find(data.featureNames.begin(), data.featureNames.end(), name.substr(prefix.size()))
                          != data.featureNames.end();
        };
        for (std::size_t f = 0; f < data.featureNames.size(); ++f)
            if (f < 3 || !isSigma(data.featureNames[f])) {
                newIndex[f] = static_cast<int>(kept.size());
                kept.push_back(data.featureNames[f]);
            }
        for (int k = 0; k < nProps; ++k) {
            const int c = column[static_cast<std::size_t>(k)];
            if (c < 0) continue;
            if (newIndex[static_cast<std::size_t>(c)] >= 0) {
                column[static_cast<std::size_t>(k)] = newIndex[static_cast<std::size_t>(c)];
                continue;
            }
            const std::string base = data.featureNames[static_cast<std::size_t>(c)].substr(prefix.size());
            const auto target = std::find(kept.begin(), kept.end(), base);
            if (target == kept.end()) { // the sigma of a sigma column: keep it as a feature
                newIndex[static_cast<std::size_t>(c)] = static_cast<int>(kept.size());
                column[static_cast<std::size_t>(k)] = static_cast<int>(kept.size());
                kept.push_back(data.featureNames[static_cast<std::size_t>(c)]);
                continue;
            }
            column[static_cast<std::size_t>(k)] = kSigma - static_cast<int>(target - kept.begin());
            anySigma = true;
        }
        data.featureNames = kept;
    }
    if (labelProp < 0 && m_options.labelRequired)
        failLine(vertex.line, "label property '" + displayValue(labelSpec) + "' not found in the vertex element");
    const auto p = static_cast<Eigen::Index>(data.featureNames.size());

    // The count must fit into the bytes after the header before anything is allocated.
    const std::uint64_t body = m_bytes.size() - m_pos;
    std::uint64_t before = 0; // least bytes taken by the elements before the vertices
    for (auto it = m_elements.begin(); it != vit; ++it) {
        const std::uint64_t per = m_format == Format::Ascii ? 2 : std::max<std::uint64_t>(it->minBytes(), 1);
        if (it->count > (body + 1) / per)
            fail("element '" + displayValue(it->name) + "' declares " + std::to_string(it->count)
                 + " items, more than the " + formatBytes(body) + " after the header can hold (truncated or corrupt header?)");
        before += it->count * per;
    }
    const std::uint64_t perVertex = m_format == Format::Ascii ? 2 * static_cast<std::uint64_t>(nProps)
                                                              : std::max<std::uint64_t>(vertex.minBytes(), 1);
    // (An ASCII item of k values takes at least 2k - 1 bytes, the last one may lack its newline.)
    const std::uint64_t room = (body > before ? body - before : 0) + (m_format == Format::Ascii ? 1 : 0);
    if (!preview && vertex.count > room / perVertex) {
        if (m_format == Format::Ascii)
            fail("the header declares " + std::to_string(vertex.count) + " vertices but the " + formatBytes(body)
                 + " after the header hold at most " + std::to_string(room / perVertex) + " (truncated file or wrong count?)");
        fail("the header declares " + std::to_string(vertex.count) + " vertices of " + std::to_string(perVertex)
             + " bytes but only " + std::to_string(room) + " bytes follow the header, room for "
             + std::to_string(room / perVertex) + " (truncated file or wrong count?)");
    }
    const auto n = static_cast<Eigen::Index>(std::min(vertex.count, m_maxRows));
    data.X.resize(n, p);
    if (anySigma) data.sigma = Eigen::MatrixXd::Zero(n, p);
    std::vector<double> labels;
    if (labelProp >= 0) {
        labels.resize(static_cast<std::size_t>(n));
        data.labelName = vertex.props[labelProp].name;
    }
    for (CarriedColumn& c : data.carried)
        c.cells.resize(static_cast<std::size_t>(n));
    auto store = [&](int k, Eigen::Index i, double v, long long line) {
        const int c = column[k];
        if (c == -1) return;
        if (c <= kCarried && c > kSigma) { // as text, the shortest form that reads back the same
            char buf[32];
            const auto r = std::to_chars(buf, buf + sizeof buf, v);
            data.carried[static_cast<std::size_t>(kCarried - c)].cells[static_cast<std::size_t>(i)].assign(buf, r.ptr);
            return;
        }
        if (!std::isfinite(v)) {
            const std::string where = "vertex " + std::to_string(i) + ": property '" + displayValue(vertex.props[k].name)
                                      + "' is not finite";
            if (line > 0) failLine(line, where);
            fail(where);
        }
        if (c == -2) labels[static_cast<std::size_t>(i)] = v;
        else if (c <= kSigma) {
            if (v < 0) {
                const std::string where = "vertex " + std::to_string(i) + ": negative sigma in property '"
                                          + displayValue(vertex.props[k].name) + "'";
                if (line > 0) failLine(line, where);
                fail(where);
            }
            data.sigma(i, kSigma - c) = v;
        } else data.X(i, c) = v;
    };

    if (m_format == Format::Ascii) {
        for (auto it = m_elements.begin(); it != vit; ++it) skipAsciiItems(*it);
        std::string_view line;
        for (Eigen::Index i = 0; i < n; ++i) {
            if (!nextAsciiLine(line))
                fail("the header declares " + std::to_string(vertex.count) + " vertices but the file holds only "
                     + std::to_string(i) + " (truncated file?)");
            const auto t = tokens(line);
            std::size_t ti = 0;
            for (int k = 0; k < nProps; ++k) {
                const Property& prop = vertex.props[k];
                auto number = [&](const char* what) {
                    if (ti >= t.size())
                        failLine(m_line, "vertex " + std::to_string(i) + " has " + std::to_string(t.size())
                                             + " values, too few for its properties (missing " + what + " '"
                                             + displayValue(prop.name) + "')");
                    double v = 0;
                    const std::string_view s = t[ti++];
                    const char* b = s.data() + (s[0] == '+' && s.size() > 1 ? 1 : 0);
                    const auto r = std::from_chars(b, s.data() + s.size(), v);
                    if (r.ptr != s.data() + s.size() || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
                        failLine(m_line, "vertex " + std::to_string(i) + ": non-numeric value '" + displayValue(s)
                                             + "' for property '" + displayValue(prop.name) + "'");
                    if (r.ec == std::errc::result_out_of_range) // strtod: ±HUGE_VAL on overflow, tiny on underflow
                        v = std::strtod(std::string(s).c_str(), nullptr);
                    return v;
                };
                if (!prop.list) {
                    store(k, i, number("value"), m_line);
                    continue;
                }
                const double len = number("list length");
                if (len < 0 || len != std::floor(len) || len > static_cast<double>(t.size()))
                    failLine(m_line, "vertex " + std::to_string(i) + ": bad list length for property '"
                                         + displayValue(prop.name) + "'");
                for (long long j = 0; j < static_cast<long long>(len); ++j) number("list item");
            }
            if (ti != t.size())
                failLine(m_line, "vertex " + std::to_string(i) + " has " + std::to_string(t.size()) + " values, expected "
                                     + std::to_string(ti));
        }
    } else {
        std::size_t pos = m_pos;
        for (auto it = m_elements.begin(); it != vit; ++it) skipBinaryItems(*it, pos);
        for (Eigen::Index i = 0; i < n; ++i)
            for (int k = 0; k < nProps; ++k) {
                const Property& prop = vertex.props[k];
                const auto need = static_cast<std::size_t>(sizeOf(prop.list ? prop.countType : prop.type));
                if (m_bytes.size() - pos < need)
                    fail("the header declares " + std::to_string(vertex.count) + " vertices but the file ends in vertex "
                         + std::to_string(i) + " (truncated file?)");
                if (!prop.list) {
                    store(k, i, readBinary(prop.type, pos), 0);
                    continue;
                }
                const double len = readBinary(prop.countType, pos);
                const std::uint64_t bytes =
                    static_cast<std::uint64_t>(std::max(0.0, len)) * static_cast<std::uint64_t>(sizeOf(prop.type));
                if (len < 0 || m_bytes.size() - pos < bytes)
                    fail("the header declares " + std::to_string(vertex.count) + " vertices but the file ends in vertex "
                         + std::to_string(i) + " (truncated file?)");
                pos += static_cast<std::size_t>(bytes);
            }
    }
    if (labelProp >= 0) mapLabels(data, true, labels, {}, m_options, m_source);
    return data;
}

} // namespace

bool looksLikePly(std::string_view bytes)
{
    return bytes.size() >= 4 && bytes.compare(0, 3, "ply") == 0
           && (bytes[3] == '\n' || (bytes[3] == '\r' && bytes.size() >= 5 && bytes[4] == '\n'));
}

Dataset parsePly(std::string_view bytes, const std::string& source, const LoadOptions& options)
{
    return Reader(bytes, source, options).read();
}

PlyPreview previewPly(std::string_view bytes, const std::string& source, std::size_t maxRows)
{
    LoadOptions all;          // every scalar property a column: no label, no sigma split
    all.labelColumn.clear();
    all.sigmaPrefix.clear();
    Reader reader(bytes, source, all, std::max<std::uint64_t>(maxRows, 1));
    PlyPreview out;
    out.data = reader.read();
    out.vertices = reader.declaredVertices();
    return out;
}

} // namespace olens
