#include "data/FitSubset.h"

#include "base/Errors.h"
#include "base/Rng.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <numeric>

namespace olens {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why)
{
    throw DataError("session " + path + ": " + why);
}

bool parseNumber(const std::string& text, double& v)
{
    const char* b = text.data();
    const char* e = b + text.size();
    const auto r = std::from_chars(b, e, v);
    return b != e && r.ptr == e && r.ec == std::errc() && std::isfinite(v);
}

/// The label id the text names: a text label's name, else a number.
double labelValue(const std::string& text, const Dataset& data)
{
    for (std::size_t i = 0; i < data.labelNames.size(); ++i)
        if (data.labelNames[i] == text)
            return static_cast<double>(i);
    double v = 0.0;
    if (!parseNumber(text, v))
        throw DataError("fit on label '" + text + "': not a label value of the data");
    return v;
}

} // namespace

std::vector<int> resolveFitSubset(const FitSubset& s, const Dataset& data)
{
    const int n = static_cast<int>(data.rows());
    std::vector<int> rows;
    switch (s.kind) {
    case FitSubset::Kind::All:
        rows.resize(static_cast<std::size_t>(n));
        std::iota(rows.begin(), rows.end(), 0);
        break;
    case FitSubset::Kind::Rows:
        rows = s.rows;
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        if (!rows.empty() && (rows.front() < 0 || rows.back() >= n))
            throw DataError("fit on rows: row " + std::to_string(rows.front() < 0 ? rows.front() : rows.back())
                            + " is outside the data (0.." + std::to_string(n - 1) + ")");
        break;
    case FitSubset::Kind::Label: {
        if (!data.hasLabels())
            throw DataError("fit on label " + s.label + ": the data have no label column");
        const double v = labelValue(s.label, data);
        for (int i = 0; i < n; ++i)
            if (data.labels(i) == v)
                rows.push_back(i);
        break;
    }
    case FitSubset::Kind::Fraction: {
        if (!(s.fraction > 0.0 && s.fraction <= 1.0))
            throw DataError("fit on a fraction: " + std::to_string(s.fraction) + " is outside (0, 1]");
        std::vector<int> perm(static_cast<std::size_t>(n));
        std::iota(perm.begin(), perm.end(), 0);
        // Fisher–Yates with our Rng (std::shuffle's algorithm is implementation-defined).
        Rng rng(s.seed);
        for (int i = n - 1; i > 0; --i)
            std::swap(perm[static_cast<std::size_t>(i)],
                      perm[static_cast<std::size_t>(rng.index(static_cast<std::uint64_t>(i) + 1))]);
        const int m = std::clamp(static_cast<int>(std::lround(s.fraction * n)), 1, n);
        rows.assign(perm.begin(), perm.begin() + m);
        std::sort(rows.begin(), rows.end());
        break;
    }
    }
    if (rows.empty())
        throw DataError("fit on " + describe(s) + ": no rows to fit on");
    return rows;
}

FitSubset parseFitSubset(const std::string& text)
{
    FitSubset s;
    if (text == "all")
        return s;
    const auto colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    const std::string rest = colon == std::string::npos ? std::string() : text.substr(colon + 1);
    if (kind == "label" && !rest.empty()) {
        s.kind = FitSubset::Kind::Label;
        s.label = rest;
        return s;
    }
    if (kind == "fraction" && !rest.empty()) {
        s.kind = FitSubset::Kind::Fraction;
        const auto c2 = rest.find(':');
        const std::string f = rest.substr(0, c2);
        if (!parseNumber(f, s.fraction) || !(s.fraction > 0.0 && s.fraction <= 1.0))
            throw ParamError("--fit-on fraction: '" + f + "' is not a number in (0, 1]");
        if (c2 != std::string::npos) {
            const std::string seed = rest.substr(c2 + 1);
            unsigned long long v = 0;
            const auto r = std::from_chars(seed.data(), seed.data() + seed.size(), v);
            if (seed.empty() || r.ptr != seed.data() + seed.size() || r.ec != std::errc())
                throw ParamError("--fit-on fraction: seed '" + seed + "' is not a non-negative integer");
            s.seed = v;
        }
        return s;
    }
    throw ParamError("--fit-on: expected all, label:VALUE, fraction:F[:SEED] or rows:FILE, got '" + text + "'");
}

std::string describe(const FitSubset& s)
{
    switch (s.kind) {
    case FitSubset::Kind::All:
        return "all rows";
    case FitSubset::Kind::Rows:
        return s.rows.empty() ? std::string("the selection") : std::to_string(s.rows.size()) + " given rows";
    case FitSubset::Kind::Label:
        return "label " + s.label;
    case FitSubset::Kind::Fraction: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "fraction %g (seed %llu)", s.fraction, static_cast<unsigned long long>(s.seed));
        return buf;
    }
    }
    return {};
}

nlohmann::json toJson(const FitSubset& s)
{
    static const char* kinds[] = {"all", "rows", "label", "fraction"};
    nlohmann::json j = {{"kind", kinds[static_cast<int>(s.kind)]}};
    if (s.kind == FitSubset::Kind::Rows && !s.rows.empty())
        j["rows"] = s.rows;
    if (s.kind == FitSubset::Kind::Label)
        j["label"] = s.label;
    if (s.kind == FitSubset::Kind::Fraction) {
        j["fraction"] = s.fraction;
        j["seed"] = s.seed;
    }
    return j;
}

FitSubset fitSubsetFromJson(const nlohmann::json& j, const std::string& path)
{
    if (!j.is_object())
        fail(path, "expected an object");
    const auto k = j.find("kind");
    if (k == j.end() || !k->is_string())
        fail(path + "/kind", "expected \"all\", \"rows\", \"label\" or \"fraction\"");
    FitSubset s;
    const std::string kind = k->get<std::string>();
    if (kind == "all") {
        s.kind = FitSubset::Kind::All;
    } else if (kind == "rows") {
        s.kind = FitSubset::Kind::Rows;
        if (j.contains("rows")) {
            const auto& r = j["rows"];
            if (!r.is_array())
                fail(path + "/rows", "expected an array of row indices");
            for (std::size_t i = 0; i < r.size(); ++i) {
                if (!r[i].is_number_integer() || r[i].get<long long>() < 0 || r[i].get<long long>() > (1LL << 31) - 1)
                    fail(path + "/rows/" + std::to_string(i), "expected a row index >= 0");
                s.rows.push_back(r[i].get<int>());
            }
        }
    } else if (kind == "label") {
        s.kind = FitSubset::Kind::Label;
        const auto l = j.find("label");
        if (l == j.end() || !l->is_string() || l->get<std::string>().empty())
            fail(path + "/label", "expected a non-empty label value");
        s.label = l->get<std::string>();
    } else if (kind == "fraction") {
        s.kind = FitSubset::Kind::Fraction;
        const auto f = j.find("fraction");
        if (f == j.end() || !f->is_number() || !(f->get<double>() > 0.0 && f->get<double>() <= 1.0))
            fail(path + "/fraction", "expected a number in (0, 1]");
        s.fraction = f->get<double>();
        if (j.contains("seed")) {
            if (!j["seed"].is_number_unsigned())
                fail(path + "/seed", "expected a non-negative integer");
            s.seed = j["seed"].get<std::uint64_t>();
        }
    } else {
        fail(path + "/kind", "expected \"all\", \"rows\", \"label\" or \"fraction\", found \"" + kind + "\"");
    }
    return s;
}

} // namespace olens
