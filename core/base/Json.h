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

} // namespace olens
