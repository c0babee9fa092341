#include "base/Params.h"

#include "base/Errors.h"
#include "base/Messages.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cmath>
#include <nlohmann/json.hpp>

namespace olens {

ParamSpec makeParamSpec(std::string name, ParamType type, std::string def, double lo, double hi, std::string help,
                        std::string ref, std::vector<std::string> choices)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = type;
    s.defaultValue = std::move(def);
    s.minValue = lo;
    s.maxValue = hi;
    s.help = std::move(help);
    s.reference = std::move(ref);
    s.choices = std::move(choices);
    return s;
}

namespace {

std::string formatNumber(double v)
{
    // Shortest text that round-trips (e.g. 100, 0.001, 1e-12).
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string rangeText(const ParamSpec& s)
{
    std::string lo = std::isinf(s.minValue) ? "-inf" : formatNumber(s.minValue);
    std::string hi = std::isinf(s.maxValue) ? "inf" : formatNumber(s.maxValue);
    return "[" + lo + ", " + hi + "]";
}

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

} // namespace

std::string toString(ParamType type)
{
    switch (type) {
    case ParamType::Int: return "int";
    case ParamType::Real: return "real";
    case ParamType::Bool: return "bool";
    case ParamType::Choice: return "choice";
    }
    return "?";
}

std::pair<std::string, std::string> splitAssignment(const std::string& text)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ParamError("parameter '" + text + "' is not of the form name=value");
    return {trim(text.substr(0, eq)), trim(text.substr(eq + 1))};
}

ParamSet::ParamSet(std::vector<ParamSpec> schema, std::string owner)
    : m_schema(std::move(schema)), m_owner(std::move(owner))
{
    for (const auto& s : m_schema)
        set(s.name, s.defaultValue);
}

const ParamSpec& ParamSet::spec(const std::string& name) const
{
    for (const auto& s : m_schema)
        if (s.name == name)
            return s;
    std::string known;
    for (const auto& s : m_schema)
        known += (known.empty() ? "" : ", ") + s.name;
    throw ParamError("unknown parameter '" + name + "'" + (m_owner.empty() ? "" : " for " + m_owner)
                     + " (known: " + (known.empty() ? "none" : known) + ")");
}

bool ParamSet::has(const std::string& name) const
{
    return std::any_of(m_schema.begin(), m_schema.end(), [&](const ParamSpec& s) { return s.name == name; });
}

std::string ParamSet::canonical(const ParamSpec& s, const std::string& rawValue) const
{
    const std::string& name = s.name;
    const std::string value = trim(rawValue);
    const std::string where = "parameter '" + name + "'" + (m_owner.empty() ? "" : " of " + m_owner);
    switch (s.type) {
    case ParamType::Int: {
        long long v = 0;
        const char* b = value.data();
        const char* e = b + value.size();
        auto [ptr, ec] = std::from_chars(b, e, v);
        if (value.empty() || ec != std::errc() || ptr != e)
            throw ParamError(where + ": expected an integer" + std::string(s.autoRule.empty() ? "" : " or auto")
                             + ", got '" + displayValue(value) + "'");
        if (v < s.minValue || v > s.maxValue)
            throw ParamError(where + ": " + displayValue(value) + " is outside " + rangeText(s));
        return std::to_string(v);
    }
    case ParamType::Real: {
        double v = 0;
        const char* b = value.data();
        const char* e = b + value.size();
        auto [ptr, ec] = std::from_chars(b, e, v);
        if (value.empty() || ec != std::errc() || ptr != e || !std::isfinite(v))
            throw ParamError(where + ": expected a finite number" + std::string(s.autoRule.empty() ? "" : " or auto")
                             + ", got '" + displayValue(value) + "'");
        if (v < s.minValue || v > s.maxValue)
            throw ParamError(where + ": " + displayValue(value) + " is outside " + rangeText(s));
        return formatNumber(v);
    }
    case ParamType::Bool: {
        std::string v = value;
        std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
        if (v == "1" || v == "true" || v == "yes" || v == "on")
            return "true";
        if (v == "0" || v == "false" || v == "no" || v == "off")
            return "false";
        throw ParamError(where + ": expected true/false, got '" + displayValue(value) + "'");
    }
    case ParamType::Choice: {
        if (std::find(s.choices.begin(), s.choices.end(), value) == s.choices.end()) {
            std::string list;
            for (const auto& c : s.choices)
                list += (list.empty() ? "" : "|") + c;
            throw ParamError(where + ": '" + displayValue(value) + "' is not one of " + list);
        }
        return value;
    }
    }
    return value;
}

static bool isAutoText(const std::string& value)
{
    std::string v = value;
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    return v == "auto";
}

void ParamSet::set(const std::string& name, const std::string& rawValue)
{
    const ParamSpec& s = spec(name);
    m_resolved.erase(name);
    if (!s.autoRule.empty() && isAutoText(trim(rawValue))) {
        m_values[name] = "auto";
        return;
    }
    m_values[name] = canonical(s, rawValue);
}


void ParamSet::set(const ParamAssignments& assignments)
{
    for (const auto& [k, v] : assignments)
        set(k, v);
}

std::string ParamSet::text(const std::string& name) const
{
    spec(name); // throws for unknown names
    return m_values.at(name);
}

bool ParamSet::isAuto(const std::string& name) const
{
    // A choice may list "auto" as an ordinary value (kic's solver): only specs with an autoRule count.
    return !spec(name).autoRule.empty() && m_values.at(name) == "auto";
}

void ParamSet::resolve(const std::string& name, const std::string& value)
{
    const ParamSpec& s = spec(name);
    if (!isAuto(name))
        throw ParamError("parameter '" + name + "' is not auto; only auto parameters are resolved");
    m_resolved[name] = canonical(s, value);
}

void ParamSet::adjust(const std::string& name, const std::string& value)
{
    m_resolved[name] = canonical(spec(name), value);
}

void ParamSet::clearResolved() { m_resolved.clear(); }

std::string ParamSet::resolvedText(const std::string& name) const
{
    spec(name);
    const auto it = m_resolved.find(name);
    return it == m_resolved.end() ? std::string() : it->second;
}

const std::string& ParamSet::effective(const std::string& name) const
{
    const std::string& v = m_values.at(name);
    const auto it = m_resolved.find(name);
    if (!isAuto(name))
        return it == m_resolved.end() ? v : it->second; // an adjusted setting: what the fit used
    if (it == m_resolved.end())
        throw ParamError("parameter '" + name + "'" + (m_owner.empty() ? "" : " of " + m_owner)
                         + " is auto: its value is chosen from the data when the detector is fitted");
    return it->second;
}

namespace {

/// A stored (already validated) number. from_chars, not stod: stod throws out_of_range for
/// subnormal values such as 1e-310 that passed validation.
double parseStoredReal(const std::string& text)
{
    double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec == std::errc::result_out_of_range) return std::strtod(text.c_str(), nullptr);
    return v;
}

} // namespace

int ParamSet::getInt(const std::string& name) const
{
    if (spec(name).type != ParamType::Int)
        throw ParamError("parameter '" + name + "' is not an integer");
    return static_cast<int>(std::stoll(effective(name)));
}

double ParamSet::getReal(const std::string& name) const
{
    const auto t = spec(name).type;
    if (t != ParamType::Real && t != ParamType::Int)
        throw ParamError("parameter '" + name + "' is not numeric");
    return parseStoredReal(effective(name));
}

bool ParamSet::getBool(const std::string& name) const
{
    if (spec(name).type != ParamType::Bool)
        throw ParamError("parameter '" + name + "' is not a bool");
    return effective(name) == "true";
}

std::string ParamSet::getChoice(const std::string& name) const
{
    if (spec(name).type != ParamType::Choice)
        throw ParamError("parameter '" + name + "' is not a choice");
    return effective(name);
}

namespace {

nlohmann::json typedValue(const ParamSpec& s, const std::string& text)
{
    switch (s.type) {
    case ParamType::Int: return std::stoll(text);
    case ParamType::Real: return parseStoredReal(text);
    case ParamType::Bool: return text == "true";
    case ParamType::Choice: return text;
    }
    return text;
}

} // namespace

nlohmann::json ParamSet::toJson() const
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& s : m_schema) {
        const std::string& v = m_values.at(s.name);
        j[s.name] = v == "auto" && !s.autoRule.empty() ? nlohmann::json("auto") : typedValue(s, v);
    }
    return j;
}

nlohmann::json ParamSet::resolvedJson() const
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [name, text] : m_resolved)
        j[name] = typedValue(spec(name), text);
    return j;
}

void ParamSet::setResolvedFromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        throw ParamError("resolved parameters must be a JSON object");
    // A resolution of an auto parameter, or the value used for an adjusted one (adjust()).
    for (auto it = j.begin(); it != j.end(); ++it) {
        const auto& v = it.value();
        auto set = [this](const std::string& name, const std::string& text) {
            if (isAuto(name))
                resolve(name, text);
            else
                adjust(name, text);
        };
        if (v.is_string())
            set(it.key(), v.get<std::string>());
        else if (v.is_boolean())
            set(it.key(), v.get<bool>() ? "true" : "false");
        else if (v.is_number_integer())
            set(it.key(), std::to_string(v.get<long long>()));
        else if (v.is_number())
            set(it.key(), formatNumber(v.get<double>()));
        else
            throw ParamError("resolved parameter '" + it.key() + "' has an unsupported JSON value " + v.dump());
    }
}

void ParamSet::setFromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        throw ParamError("parameters must be a JSON object");
    for (auto it = j.begin(); it != j.end(); ++it) {
        const auto& v = it.value();
        std::string text;
        if (v.is_string())
            text = v.get<std::string>();
        else if (v.is_boolean())
            text = v.get<bool>() ? "true" : "false";
        else if (v.is_number_integer())
            text = std::to_string(v.get<long long>());
        else if (v.is_number())
            text = formatNumber(v.get<double>());
        else
            throw ParamError("parameter '" + it.key() + "' has an unsupported JSON value " + v.dump());
        set(it.key(), text);
    }
}

ParamAssignments ParamSet::assignments() const
{
    ParamAssignments out;
    out.reserve(m_schema.size());
    for (const auto& spec : m_schema)
        out.emplace_back(spec.name, text(spec.name));
    return out;
}

} // namespace olens
