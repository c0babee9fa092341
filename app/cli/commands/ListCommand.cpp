// outlierlens-cli list [--json]: the detectors and their parameters, and the toy-data generators.
#include "commands/Commands.h"

#include "Args.h"

#include "base/Params.h"
#include "data/Generators.h"
#include "registry/Registry.h"

#include <cstddef>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace olens::cli {

namespace {

int cmdList(const Args& a, std::ostream& out, std::ostream& /*err*/)
{
    const Registry& reg = Registry::instance();
    if (a.flags.count("json")) {
        nlohmann::json gens = nlohmann::json::array();
        for (const auto& g : generators()) {
            nlohmann::json ps = nlohmann::json::array();
            for (const auto& s : g.params)
                ps.push_back({{"name", s.name}, {"type", toString(s.type)}, {"default", s.defaultValue}, {"help", s.help}});
            gens.push_back({{"id", g.id}, {"summary", g.summary}, {"params", ps}});
        }
        out << nlohmann::json{{"detectors", reg.toJson()}, {"generators", gens}}.dump(2) << "\n";
        return 0;
    }
    out << "Detectors (use --detector ID, --param name=value):\n";
    for (const auto& d : reg.detectors()) {
        out << "\n  " << d.id << " — " << d.title << "\n      " << d.summary << "\n      [" << d.reference << "]\n";
        for (const auto& s : d.params) {
            out << "      " << std::left << std::setw(16) << s.name << std::setw(7) << toString(s.type)
                << " default " << s.defaultValue;
            if (s.type == ParamType::Choice) {
                out << " {";
                for (std::size_t i = 0; i < s.choices.size(); ++i)
                    out << (i ? "|" : "") << s.choices[i];
                out << "}";
            }
            if (!s.autoRule.empty())
                out << " (auto: " << s.autoRule << ")";
            if (!s.paperValue.empty())
                out << " [paper: " << s.paperValue << "]";
            out << " — " << s.help << "\n";
        }
    }
    out << "\nGenerators (outlierlens-cli generate NAME --n N --seed S [--param k=v]):\n";
    for (const auto& g : generators()) {
        out << "  " << std::left << std::setw(10) << g.id << " " << g.summary << "\n";
        for (const auto& s : g.params)
            out << "      " << std::setw(12) << s.name << " default " << s.defaultValue << " — " << s.help << "\n";
    }
    return 0;
}

} // namespace

const Command kListCommand{"list", {}, {"json"},
                        R"(  outlierlens-cli list [--json]
      detectors and their parameters (name, type, default, range, help, paper reference)
)",
                        cmdList};

} // namespace olens::cli
