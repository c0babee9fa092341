#include "base/Json.h"

#include "base/Errors.h"

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

} // namespace olens
