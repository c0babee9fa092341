#pragma once
// Self-describing parameters: the schema drives the GUI forms, the CLI's --param parsing and
// the JSON stored in sessions and saved models.
#include <limits>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

namespace olens {

enum class ParamType { Int, Real, Bool, Choice };

struct ParamSpec {
    std::string name;
    ParamType type = ParamType::Real;
    std::string defaultValue;
    double minValue = -std::numeric_limits<double>::infinity();
    double maxValue = std::numeric_limits<double>::infinity();
    std::vector<std::string> choices; ///< for Choice
    std::string help;                 ///< one sentence for tooltips and `list`
    std::string reference;            ///< paper + equation/section, e.g. "KIC paper sec. 4.1"
    /// Non-empty: the value `auto` is accepted and the detector resolves it from the data at fit
    /// time by this rule (shown in tooltips and `list`), e.g. "ceil(p/2), at most p".
    std::string autoRule;
    /// The setting the paper uses, when the default differs from it (the form's "Paper defaults"
    /// and the presets use it); empty = the default is the paper's.
    std::string paperValue;
};

/// The paper's setting of a parameter (paperValue, or the default when the paper's is the default).
inline const std::string& paperSetting(const ParamSpec& s) { return s.paperValue.empty() ? s.defaultValue : s.paperValue; }

std::string toString(ParamType type);

/// A ParamSpec in one call (the schema entries of every detector's info()).
ParamSpec makeParamSpec(std::string name, ParamType type, std::string def, double lo, double hi, std::string help,
                        std::string ref, std::vector<std::string> choices = {});

/// "name=value" pairs as given on a command line.
using ParamAssignments = std::vector<std::pair<std::string, std::string>>;
/// Splits "name=value"; throws ParamError when there is no '='.
std::pair<std::string, std::string> splitAssignment(const std::string& text);

/// Values for one schema, always valid: every set() is parsed and range-checked.
class ParamSet {
public:
    ParamSet() = default;
    explicit ParamSet(std::vector<ParamSpec> schema, std::string owner = {});

    /// Parses and validates; throws ParamError naming the parameter, the value and the range.
    void set(const std::string& name, const std::string& value);
    void set(const ParamAssignments& assignments);

    int getInt(const std::string& name) const;
    double getReal(const std::string& name) const;
    bool getBool(const std::string& name) const;
    std::string getChoice(const std::string& name) const;
    /// The canonical text of a value as set (as shown in forms and stored in JSON): "auto" for a
    /// parameter left to the data.
    std::string text(const std::string& name) const;
    /// True when the parameter is set to `auto` (see ParamSpec::autoRule).
    bool isAuto(const std::string& name) const;
    /// Fixes the value an `auto` parameter takes for the current fit (validated like set()); the
    /// getters then return it while text() still says "auto". Only the detector's fit calls this.
    void resolve(const std::string& name, const std::string& value);
    /// Records that the fit used `value` for an explicitly set parameter whose setting exceeds what
    /// the data allow (lof k above n − 1): the getters then return it and resolvedJson() reports it,
    /// so that a model says what it used (#51: nine parameters were clamped without a word).
    void adjust(const std::string& name, const std::string& value);
    /// Forgets every resolution (a new fit resolves again from its data).
    void clearResolved();
    /// The resolved value of an `auto` parameter, or empty before the fit resolved it.
    std::string resolvedText(const std::string& name) const;
    /// {"name": value} of the resolved `auto` parameters (typed), for fitted models and `evaluate`.
    nlohmann::json resolvedJson() const;
    /// Sets resolutions from resolvedJson() (loading a fitted model).
    void setResolvedFromJson(const nlohmann::json& j);
    bool has(const std::string& name) const;

    const std::vector<ParamSpec>& schema() const { return m_schema; }
    /// The detector or generator id the schema belongs to.
    const std::string& owner() const { return m_owner; }
    const ParamSpec& spec(const std::string& name) const;

    /// Every parameter as name=text (text()), in schema order: a complete, valid assignment list.
    ParamAssignments assignments() const;
    nlohmann::json toJson() const;              ///< {"name": value, ...} with typed values
    void setFromJson(const nlohmann::json& j);  ///< same validation as set()

private:
    /// Validated canonical text of `value` for spec `s` (throws ParamError naming the parameter).
    std::string canonical(const ParamSpec& s, const std::string& value) const;
    /// The value the getters use: the resolution of an `auto` parameter (throws before the fit).
    const std::string& effective(const std::string& name) const;

    std::vector<ParamSpec> m_schema;
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::string> m_resolved; // auto parameters → value of the current fit
    std::string m_owner; // detector/generator id for messages
};

} // namespace olens
