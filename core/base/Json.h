#pragma once
// Integer fields of saved models and sessions. nlohmann's get<int>() is undefined behaviour for an
// out-of-range float (e.g. "rows": 1e300), so counts are read through these: the value must be a
// JSON integer (or a float with an integral value) within [lo, hi], otherwise DataError naming `what`.
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace olens {

long long jsonInt(const nlohmann::json& v, const std::string& what, long long lo = std::numeric_limits<int>::min(),
                  long long hi = std::numeric_limits<int>::max());
/// obj[key] read as jsonInt when present, else `fallback`.
long long jsonIntOr(const nlohmann::json& obj, const char* key, long long fallback, const std::string& what);
/// An array of such integers.
std::vector<int> jsonInts(const nlohmann::json& v, const std::string& what, int lo = std::numeric_limits<int>::min(),
                          int hi = std::numeric_limits<int>::max());

/// Long arrays of doubles written compactly (sessions and the autosave): every array of at least
/// kPackedMinimum floating-point numbers anywhere in `v` becomes {"f64le": base64 of its IEEE-754
/// little-endian bytes, "n": count} — exact to the bit (NaN and infinities included, which JSON
/// text cannot hold), about 11 characters per value instead of 20-25, and no number formatting
/// (a 1 M-point knn autosave: 74 MB of text). unpackArrays() restores the arrays; anything else
/// passes through unchanged, so files written before read as they did.
inline constexpr std::size_t kPackedMinimum = 64;
nlohmann::json packArrays(const nlohmann::json& v);
/// packArrays consuming `v`: each long array is replaced where it stands, so an array and its packed
/// text coexist one array at a time, never as two whole trees (a 20 M-row model's scores are 320 MB
/// as JSON numbers, 213 MB packed; issue #54).
nlohmann::json packArrays(nlohmann::json&& v);
/// `n` doubles as packArrays writes them — packed from kPackedMinimum on, an array below — encoded
/// straight from `v`, without an array of JSON numbers (16 B a value) first.
nlohmann::json packedDoubles(const double* v, std::size_t n);
/// The inverse of packArrays; a malformed packed array is a DataError naming `where`.
nlohmann::json unpackArrays(const nlohmann::json& v, const std::string& where = "");

/// The deepest nesting any file's JSON may have (sessions, models; a real one is below 12).
inline constexpr int kMaxJsonDepth = 64;
/// Parses JSON from a file someone else may have written (`what` names it in errors): nested
/// deeper than kMaxJsonDepth is a DataError before the value is built — copying, dumping or
/// formatting a value nested a million levels deep overflows the stack — and any parse error a
/// DataError ("<what> is not valid JSON (...)").
nlohmann::json parseUntrustedJson(const std::string& text, const std::string& what);

} // namespace olens
