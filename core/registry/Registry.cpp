#include "registry/Registry.h"

#include "detectors/acdt/AcdtDetector.h"
#include "detectors/consensus/ConsensusDetector.h"
#include "base/Errors.h"
#include "base/Messages.h"
#include "pipeline/FitDiagnostics.h"
#include "detectors/gods/GodsDetector.h"
#include "detectors/kic/IcDetector.h"
#include "detectors/kic/InfDetector.h"
#include "detectors/kic/KicDetector.h"
#include "detectors/knn/KnnDetector.h"
#include "detectors/gods/KodsDetector.h"
#include "detectors/kic/KspDetector.h"
#include "detectors/pca/PcaDetector.h"
#include "detectors/quadrics/QuadricsDetector.h"
#include "detectors/lof/LofDetector.h"
#include "detectors/svm/OcSvmDetector.h"
#include "detectors/iforest/IforestDetector.h"
#include "detectors/mcd/McdDetector.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <cmath>

namespace olens {

namespace {
// Adding a detector = one line here.
std::vector<DetectorInfo> builtinDetectors()
{
    std::vector<DetectorInfo> all = {
        KnnDetector::info(),
        KicDetector::info(),
        IcDetector::info(),
        KspDetector::info(),
        InfDetector::info(),
        PcaDetector::info(),
        AcdtDetector::info(),
        QuadricsDetector::info(),
        QuadricsBaseDetector::info(),
        GodsDetector::info(),
        BodsDetector::info(),
        KodsDetector::info(),
        LofDetector::info(),
        IforestDetector::info(),
        McdDetector::info(),
        OcSvmDetector::info(),
    };
    // The consensus combines any of the others, built and restored through this registry.
    std::vector<std::pair<std::string, std::string>> candidates;
    for (const auto& d : all)
        candidates.emplace_back(d.id, d.title);
    ConsensusDetector::MemberFactory factory{
        [](const std::string& id) { return Registry::instance().create(id); },
        [](const nlohmann::json& j) { return Registry::instance().load(j); },
        [](const Detector& member, const Eigen::MatrixXd& X) { return rankingAgreement(member, X, member.trainingScores()); },
        kInvertedAgreement};
    all.push_back(ConsensusDetector::info(candidates, std::move(factory)));
    return all;
}
} // namespace

const Registry& Registry::instance()
{
    static const Registry registry;
    return registry;
}

Registry::Registry() : m_detectors(builtinDetectors()) {}

const DetectorInfo* Registry::ensemble() const
{
    for (const DetectorInfo& d : m_detectors)
        if (d.ensemble)
            return &d;
    return nullptr;
}

const DetectorInfo& Registry::info(const std::string& id) const
{
    for (const auto& d : m_detectors)
        if (d.id == id)
            return d;
    std::string known;
    for (const auto& d : m_detectors)
        known += (known.empty() ? "" : ", ") + d.id;
    throw ParamError("unknown detector '" + displayValue(id) + "' (available: " + known + ")");
}

ParamSet Registry::defaultParams(const std::string& id) const
{
    return ParamSet(info(id).params, id);
}

std::unique_ptr<Detector> Registry::create(const std::string& id, const ParamAssignments& params) const
{
    ParamSet p = defaultParams(id);
    p.set(params);
    const DetectorInfo& i = info(id);
    auto d = i.make(std::move(p));
    d->m_remake = i.make;
    return d;
}

std::unique_ptr<Detector> Registry::load(const nlohmann::json& j) const
{
    if (!j.is_object() || j.value("format", "") != "outlierlens-model")
        throw DataError("not an OutlierLens model (missing \"format\": \"outlierlens-model\")");
    if (jsonIntOr(j, "version", 0, "model JSON") != 1)
        throw DataError("unsupported model version " + j.value("version", nlohmann::json()).dump());
    const auto idIt = j.find("detector");
    if (idIt == j.end() || !idIt->is_string())
        throw DataError("model JSON has no \"detector\" id");
    if (j.contains("rows_by_reference"))
        throw DataError("this " + idIt->get<std::string>() + " model refers to the data it was fitted on for its "
                        "training rows (a session stores it so): open it with its session's data (outlierlens "
                        "--session, outlierlens-cli --model SESSION), not on its own");
    ParamSet p = defaultParams(idIt->get<std::string>());
    if (j.contains("params"))
        p.setFromJson(j.at("params"));
    const DetectorInfo& i = info(idIt->get<std::string>());
    auto d = i.make(std::move(p));
    d->m_remake = i.make;
    d->restore(j);
    return d;
}

nlohmann::json Registry::toJson() const
{
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& d : m_detectors) {
        nlohmann::json params = nlohmann::json::array();
        for (const auto& s : d.params) {
            nlohmann::json ps = {{"name", s.name}, {"type", toString(s.type)}, {"default", s.defaultValue},
                                 {"help", s.help}, {"reference", s.reference}};
            if (s.type == ParamType::Int || s.type == ParamType::Real) {
                ps["min"] = std::isinf(s.minValue) ? nlohmann::json() : nlohmann::json(s.minValue);
                ps["max"] = std::isinf(s.maxValue) ? nlohmann::json() : nlohmann::json(s.maxValue);
            }
            if (s.type == ParamType::Choice)
                ps["choices"] = s.choices;
            if (!s.autoRule.empty())
                ps["auto"] = s.autoRule; // the value "auto" is accepted; this rule resolves it at fit time
            ps["paper"] = paperSetting(s);
            params.push_back(ps);
        }
        arr.push_back({{"id", d.id}, {"title", d.title}, {"summary", d.summary}, {"reference", d.reference},
                       {"params", params}});
    }
    return arr;
}

} // namespace olens
