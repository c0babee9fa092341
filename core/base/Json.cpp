#include "base/Json.h"

#include "base/Errors.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>

namespace olens {

long long jsonInt(const nlohmann::json& v, const std::string& what, long long lo, long long hi)
{
    long long x = 0;
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi))
            throw DataError(what + ": " + v.dump() + " is out of range [" + std::to_string(lo) + ", "
                            + std::to_string(hi) + "]");
        x = v.get<long long>();
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        // Range check before the conversion (converting an out-of-range double is undefined).
        if (!(d >= static_cast<double>(lo) && d < static_cast<double>(hi) + 1.0) || d != std::floor(d))
            throw DataError(what + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi)
                            + "], found " + v.dump());
        x = static_cast<long long>(d);
    } else {
        throw DataError(what + ": expected an integer, found " + std::string(v.type_name()));
    }
    if (x < lo || x > hi)
        throw DataError(what + ": " + std::to_string(x) + " is out of range [" + std::to_string(lo) + ", "
                        + std::to_string(hi) + "]");
    return x;
}

long long jsonIntOr(const nlohmann::json& obj, const char* key, long long fallback, const std::string& what)
{
    if (!obj.is_object())
        return fallback;
    const auto it = obj.find(key);
    return it == obj.end() ? fallback : jsonInt(*it, what + " \"" + key + "\"");
}

std::vector<int> jsonInts(const nlohmann::json& v, const std::string& what, int lo, int hi)
{
    if (!v.is_array())
        throw DataError(what + ": expected an array of integers, found " + std::string(v.type_name()));
    std::vector<int> out;
    out.reserve(v.size());
    for (const auto& e : v)
        out.push_back(static_cast<int>(jsonInt(e, what, lo, hi)));
    return out;
}

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

bool littleEndianHost()
{
    const std::uint16_t one = 1;
    unsigned char first = 0;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

/// Appends the base64 text of `size` bytes at the end of `out`; `size` must be a multiple of 3
/// except for the last bytes of a text, which alone may end in padding.
void appendBase64(std::string& out, const unsigned char* bytes, std::size_t size)
{
    std::size_t at = out.size();
    out.resize(at + (size + 2) / 3 * 4);
    char* o = out.data() + at;
    for (std::size_t i = 0; i < size; i += 3) {
        const std::uint32_t b = (std::uint32_t(bytes[i]) << 16) | (i + 1 < size ? std::uint32_t(bytes[i + 1]) << 8 : 0u)
                                | (i + 2 < size ? std::uint32_t(bytes[i + 2]) : 0u);
        *o++ = kAlphabet[(b >> 18) & 63];
        *o++ = kAlphabet[(b >> 12) & 63];
        *o++ = i + 1 < size ? kAlphabet[(b >> 6) & 63] : '=';
        *o++ = i + 2 < size ? kAlphabet[b & 63] : '=';
    }
}

/// The packed object of `n` doubles, value(i) giving the i-th: encoded by chunks of a multiple of
/// three doubles (24 bytes, whole base64 groups), so no byte copy of the array is ever made.
template <class Value>
nlohmann::json packed(std::size_t n, Value value)
{
    constexpr std::size_t kChunk = 3 * 256;
    unsigned char buffer[kChunk * sizeof(double)];
    const bool little = littleEndianHost();
    std::string text;
    text.reserve((n * sizeof(double) + 2) / 3 * 4);
    for (std::size_t i = 0; i < n; i += kChunk) {
        const std::size_t m = std::min(kChunk, n - i);
        for (std::size_t k = 0; k < m; ++k) {
            const double d = value(i + k);
            unsigned char* b = buffer + k * sizeof(double);
            std::memcpy(b, &d, sizeof(double));
            if (!little)
                std::reverse(b, b + sizeof(double));
        }
        appendBase64(text, buffer, m * sizeof(double));
    }
    return {{"f64le", std::move(text)}, {"n", n}};
}

bool fromBase64(const std::string& text, std::vector<unsigned char>& out)
{
    int value[256];
    std::fill(std::begin(value), std::end(value), -1);
    for (int k = 0; k < 64; ++k)
        value[static_cast<unsigned char>(kAlphabet[k])] = k;
    if (text.size() % 4 != 0)
        return false;
    out.clear();
    out.reserve(text.size() / 4 * 3);
    for (std::size_t i = 0; i < text.size(); i += 4) {
        int v[4];
        int pad = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = text[i + std::size_t(k)];
            if (c == '=' && i + 4 == text.size() && k >= 2) {
                v[k] = 0;
                ++pad;
            } else if (pad > 0 || (v[k] = value[static_cast<unsigned char>(c)]) < 0) {
                return false;
            }
        }
        const std::uint32_t b = (std::uint32_t(v[0]) << 18) | (std::uint32_t(v[1]) << 12) | (std::uint32_t(v[2]) << 6) | std::uint32_t(v[3]);
        out.push_back(static_cast<unsigned char>(b >> 16));
        if (pad < 2)
            out.push_back(static_cast<unsigned char>((b >> 8) & 255));
        if (pad < 1)
            out.push_back(static_cast<unsigned char>(b & 255));
    }
    return true;
}

bool packable(const nlohmann::json& v)
{
    if (!v.is_array() || v.size() < kPackedMinimum)
        return false;
    for (const auto& e : v)
        if (!e.is_number_float())
            return false;
    return true;
}

} // namespace

nlohmann::json packArrays(const nlohmann::json& v)
{
    if (packable(v))
        return packed(v.size(), [&v](std::size_t i) { return v[i].get<double>(); });
    if (v.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& e : v)
            out.push_back(packArrays(e));
        return out;
    }
    if (v.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (auto it = v.begin(); it != v.end(); ++it)
            out[it.key()] = packArrays(it.value());
        return out;
    }
    return v;
}

nlohmann::json packArrays(nlohmann::json&& v)
{
    if (packable(v)) {
        nlohmann::json p = packed(v.size(), [&v](std::size_t i) { return v[i].get<double>(); });
        v = nullptr; // the array goes before the next one is packed
        return p;
    }
    if (v.is_array() || v.is_object())
        for (auto& e : v)
            e = packArrays(std::move(e));
    return std::move(v);
}

nlohmann::json packedDoubles(const double* v, std::size_t n)
{
    if (n < kPackedMinimum)
        return std::vector<double>(v, v + n);
    return packed(n, [v](std::size_t i) { return v[i]; });
}

nlohmann::json unpackArrays(const nlohmann::json& v, const std::string& where)
{
    if (v.is_object() && v.size() == 2 && v.contains("f64le") && v.contains("n")) {
        const auto& text = v["f64le"];
        const long long n = jsonInt(v["n"], where + "/n", 0, std::numeric_limits<int>::max());
        std::vector<unsigned char> bytes;
        if (!text.is_string() || !fromBase64(text.get_ref<const std::string&>(), bytes)
            || bytes.size() != static_cast<std::size_t>(n) * sizeof(double))
            throw DataError(where + ": packed array is not " + std::to_string(n)
                            + " base64-encoded little-endian doubles");
        nlohmann::json out = nlohmann::json::array();
        const bool little = littleEndianHost();
        for (long long i = 0; i < n; ++i) {
            unsigned char* b = bytes.data() + i * static_cast<long long>(sizeof(double));
            if (!little)
                std::reverse(b, b + sizeof(double));
            double d = 0;
            std::memcpy(&d, b, sizeof(double));
            out.push_back(d);
        }
        return out;
    }
    if (v.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        std::size_t k = 0;
        for (const auto& e : v)
            out.push_back(unpackArrays(e, where + "/" + std::to_string(k++)));
        return out;
    }
    if (v.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (auto it = v.begin(); it != v.end(); ++it)
            out[it.key()] = unpackArrays(it.value(), where + "/" + it.key());
        return out;
    }
    return v;
}

nlohmann::json parseUntrustedJson(const std::string& text, const std::string& what)
{
    try {
        return nlohmann::json::parse(
            text,
            [&what](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
                if (depth > kMaxJsonDepth)
                    throw DataError(what + " is not valid: JSON nested deeper than " + std::to_string(kMaxJsonDepth)
                                    + " levels");
                return true;
            },
            true, false);
    } catch (const nlohmann::json::exception& e) { // parse_error, and out_of_range for numbers like 1e400
        throw DataError(what + " is not valid JSON (" + e.what() + ")");
    }
}

} // namespace olens
