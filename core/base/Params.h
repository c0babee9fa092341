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
};

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
    /// The canonical text of a value (as shown in forms and stored in JSON).
    std::string text(const std::string& name) const;
    bool has(const std::string& name) const;

    const std::vector<ParamSpec>& schema() const { return m_schema; }
    /// The detector or generator id the schema belongs to.
    const std::string& owner() const { return m_owner; }
    const ParamSpec& spec(const std::string& name) const;

    nlohmann::json toJson() const;              ///< {"name": value, ...} with typed values
    void setFromJson(const nlohmann::json& j);  ///< same validation as set()

private:
    std::vector<ParamSpec> m_schema;
    std::map<std::string, std::string> m_values;
    std::string m_owner; // detector/generator id for messages
};

} // namespace olens
