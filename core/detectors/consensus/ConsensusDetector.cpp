#include "detectors/consensus/ConsensusDetector.h"

#include "base/Errors.h"
#include "base/Format.h"
#include "detectors/DetectorInfo.h"
#include "base/Json.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>

namespace olens {

namespace {
const char* kPaper = "Kriegel, Kröger, Schubert, Zimek, Interpreting and Unifying Outlier Scores, SDM 2011";
} // namespace

const std::vector<std::string>& ConsensusDetector::defaultMembers()
{
    // Chosen on the real-data corpus (docs/benchmarks.md, "Consensus"): robust covariance and
    // isolation are the pair that leave-one-set-out picks most often; the distance to the k-th
    // neighbour keeps two members where mcd cannot fit (fewer rows than p + 2).
    static const std::vector<std::string> members = {"knn", "iforest", "mcd"};
    return members;
}

std::string ConsensusDetector::memberParam(const std::string& id)
{
    std::string name = "use_" + id;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

ParamAssignments ConsensusDetector::combining(const std::vector<std::string>& members,
                                              const std::vector<std::string>& candidates)
{
    ParamAssignments out;
    const auto& def = defaultMembers();
    for (const auto& id : candidates) {
        if (id == kId)
            continue;
        const bool on = std::find(members.begin(), members.end(), id) != members.end();
        const bool onByDefault = std::find(def.begin(), def.end(), id) != def.end();
        if (on != onByDefault)
            out.emplace_back(memberParam(id), on ? "true" : "false");
    }
    return out;
}

DetectorInfo ConsensusDetector::info(const std::vector<std::pair<std::string, std::string>>& candidates,
                                     MemberFactory factory)
{
    DetectorInfo d;
    d.id = kId;
    d.leaveOneOutTraining = true; // through its knn (and lof, ksp, acdt) members
    d.title = "Consensus of detectors";
    d.summary = "Score = mean of the member detectors' unified scores (each member's training-score "
                "percentile, or Kriegel et al.'s Gaussian scaling); members are chosen with the use_ switches.";
    d.reference = std::string(kPaper) + " (sec. 4.2, eq. 7); ELKI / PyOD score combination";
    d.normalization = "zscore";
    std::vector<std::string> ids;
    std::vector<std::string> candidateIds;
    for (const auto& c : candidates)
        candidateIds.push_back(c.first);
    auto ensemble = std::make_shared<DetectorInfo::Ensemble>();
    ensemble->defaultMembers = defaultMembers();
    ensemble->combining = [candidateIds](const std::vector<std::string>& members) {
        return combining(members, candidateIds);
    };
    d.ensemble = std::move(ensemble);
    for (const auto& [id, title] : candidates) {
        ParamSpec s;
        s.name = memberParam(id);
        s.type = ParamType::Bool;
        const auto& def = defaultMembers();
        s.defaultValue = std::find(def.begin(), def.end(), id) != def.end() ? "true" : "false";
        s.help = "Include " + title + " (" + id + ", its default parameters) in the consensus.";
        s.reference = kPaper;
        d.params.push_back(s);
        ids.push_back(id);
    }
    ParamSpec combine;
    combine.name = "unify";
    combine.type = ParamType::Choice;
    combine.choices = {"rank", "gaussian"};
    combine.defaultValue = "rank";
    combine.help = "How each member's scores are put on one scale before averaging: rank = its percentile among "
                   "its training scores (robust, every member weighs the same); gaussian = max(0, erf((s − μ)/(σ√2))) "
                   "(Kriegel et al. eq. 7: members that are sure weigh more).";
    combine.reference = std::string(kPaper) + " sec. 4.2";
    d.params.push_back(combine);
    d.params.push_back(contaminationParam());
    d.make = [ids, factory](ParamSet p) { return std::make_unique<ConsensusDetector>(std::move(p), ids, factory); };
    return d;
}

ConsensusDetector::ConsensusDetector(ParamSet params, std::vector<std::string> candidates, MemberFactory factory)
    : Detector(std::move(params)), m_candidates(std::move(candidates)), m_factory(std::move(factory))
{
}

const std::vector<std::shared_ptr<const Detector>>& ConsensusDetector::members() const
{
    requireFitted("members");
    return m_members;
}

ConsensusDetector::Unifier ConsensusDetector::unifier(const Eigen::VectorXd& trainingScores)
{
    Unifier u;
    u.sorted = trainingScores;
    std::sort(u.sorted.data(), u.sorted.data() + u.sorted.size());
    const double n = static_cast<double>(trainingScores.size());
    u.mean = trainingScores.mean();
    u.sd = n > 1 ? std::sqrt((trainingScores.array() - u.mean).square().sum() / (n - 1)) : 0.0;
    return u;
}

Eigen::VectorXd ConsensusDetector::unify(const Unifier& u, const Eigen::VectorXd& s) const
{
    Eigen::VectorXd out(s.size());
    if (params().getChoice("unify") == "gaussian") {
        for (Eigen::Index i = 0; i < s.size(); ++i)
            out(i) = u.sd > 0 ? std::max(0.0, std::erf((s(i) - u.mean) / (u.sd * std::sqrt(2.0)))) : 0.0;
        return out;
    }
    const double* b = u.sorted.data();
    const double* e = b + u.sorted.size();
    const double n = static_cast<double>(u.sorted.size());
    // Ties within rounding: a training row scored again as a new row (in a batch of another size)
    // may differ from its training score in the last bits; counted exactly, that moves its
    // percentile by 1/(2n) and makes a row's score depend on the rows scored with it.
    const double scale = u.sorted.size() ? std::max(std::abs(u.sorted(0)), std::abs(u.sorted(u.sorted.size() - 1))) : 0.0;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
        const double tol = 1e-12 * std::max(scale, std::abs(s(i)));
        const auto lo = std::lower_bound(b, e, s(i) - tol), hi = std::upper_bound(lo, e, s(i) + tol);
        out(i) = (static_cast<double>(lo - b) + 0.5 * static_cast<double>(hi - lo)) / n;
    }
    return out;
}

void ConsensusDetector::install(std::vector<std::shared_ptr<const Detector>> members)
{
    m_unifiers.clear();
    for (const auto& m : members)
        m_unifiers.push_back(unifier(m->trainingScores()));
    m_members = std::move(members);
}

Eigen::VectorXd ConsensusDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    std::vector<std::string> chosen;
    for (const auto& id : m_candidates)
        if (params().getBool(memberParam(id)))
            chosen.push_back(id);
    if (chosen.size() < 2)
        throw ParamError("consensus needs at least two members (switch some use_ parameters on; default: "
                         + [] {
                               std::string s;
                               for (const auto& id : defaultMembers())
                                   s += (s.empty() ? "" : ", ") + id;
                               return s;
                           }()
                         + ")");
    std::vector<std::shared_ptr<const Detector>> fitted;
    std::string skipped; // members that cannot fit these data are left out (figures: members_skipped)
    int skippedCount = 0;
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        auto m = m_factory.create(chosen[k]);
        const double from = static_cast<double>(k) / chosen.size(), to = static_cast<double>(k + 1) / chosen.size();
        progress.report(from, "member " + std::to_string(k + 1) + " of " + std::to_string(chosen.size()) + ": "
                                  + chosen[k]);
        try {
            m->fit(X, progress.sub(from, to));
        } catch (const Cancelled&) {
            throw;
        } catch (const DataError& e) { // this member does not suit the data (mcd: n < p + 2)
            skipped += (skipped.empty() ? "" : "; ") + chosen[k] + ": " + e.what();
            ++skippedCount;
            continue;
        } catch (const ParamError& e) { // its defaults do not fit these data
            skipped += (skipped.empty() ? "" : "; ") + chosen[k] + ": " + e.what();
            ++skippedCount;
            continue;
        }
        fitted.push_back(std::move(m));
    }
    if (fitted.size() < 2)
        throw DataError("consensus: fewer than two members could fit these data (" + skipped
                        + "); switch other members on with the use_ parameters");
    // A member whose ranking disagrees with the label-free reference as an inverted one does is
    // left out (#53: gods at AUROC 0.21, warned inverted, pulled the consensus below two of its
    // members), as long as two members remain; the note says which and why.
    std::vector<std::string> leftOut;
    for (std::size_t k = 0; k < chosen.size(); ++k)
        if (std::find_if(fitted.begin(), fitted.end(), [&](const auto& m) { return m->id() == chosen[k]; }) == fitted.end())
            leftOut.push_back(chosen[k] + ": it cannot fit these data");
    int inverted = 0;
    if (m_factory.agreement) {
        std::vector<std::pair<double, std::size_t>> low;
        for (std::size_t k = 0; k < fitted.size(); ++k) {
            const double rho = m_factory.agreement(*fitted[k], X); // NaN: too few rows to tell
            if (rho < m_factory.invertedBelow)
                low.emplace_back(rho, k);
        }
        std::sort(low.begin(), low.end()); // the least agreeing first
        std::vector<bool> drop(fitted.size(), false);
        for (const auto& [rho, k] : low) {
            if (fitted.size() - static_cast<std::size_t>(inverted) <= 2)
                break; // two members are the least a consensus is made of
            drop[k] = true;
            ++inverted;
            leftOut.push_back(fitted[k]->id() + ": its ranking may be inverted (the rows most isolated from their 40th nearest "
                                                "neighbour sit at its "
                              + formatNumber("%.0f", 100.0 * rho) + "th percentile on average)");
        }
        std::vector<std::shared_ptr<const Detector>> kept;
        for (std::size_t k = 0; k < fitted.size(); ++k)
            if (!drop[k])
                kept.push_back(std::move(fitted[k]));
        fitted = std::move(kept);
    }
    std::vector<Unifier> unifiers;
    Eigen::VectorXd train = Eigen::VectorXd::Zero(X.rows());
    for (const auto& m : fitted) {
        unifiers.push_back(unifier(m->trainingScores()));
        train += unify(unifiers.back(), m->trainingScores());
    }
    train /= static_cast<double>(fitted.size());
    m_members = std::move(fitted);
    m_unifiers = std::move(unifiers);
    m_skipped = skippedCount;
    m_inverted = inverted;
    m_leftOut = std::move(leftOut);
    return train;
}

Eigen::MatrixXd ConsensusDetector::unifiedScores(const Eigen::MatrixXd& X) const
{
    requireFitted("unifiedScores");
    Eigen::MatrixXd U(X.rows(), static_cast<Eigen::Index>(m_members.size()));
    for (std::size_t k = 0; k < m_members.size(); ++k)
        U.col(static_cast<Eigen::Index>(k)) = unify(m_unifiers[k], m_members[k]->score(X));
    return U;
}

Eigen::VectorXd ConsensusDetector::doScore(const Eigen::MatrixXd& X) const
{
    return unifiedScores(X).rowwise().mean();
}

std::vector<std::string> ConsensusDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    std::vector<Eigen::VectorXi> flags;
    for (const auto& m : m_members)
        flags.push_back(m->isOutlier(X));
    std::vector<std::string> out(static_cast<std::size_t>(X.rows()));
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        std::string who;
        int count = 0;
        for (std::size_t k = 0; k < m_members.size(); ++k)
            if (flags[k](i)) {
                ++count;
                who += (who.empty() ? "" : ", ") + m_members[k]->id();
            }
        out[static_cast<std::size_t>(i)] = "flagged by " + std::to_string(count) + " of "
                                           + std::to_string(m_members.size()) + (who.empty() ? "" : " (" + who + ")");
    }
    return out;
}

std::map<std::string, double> ConsensusDetector::figures() const
{
    requireFitted("figures");
    return {{"members", static_cast<double>(m_members.size())},
            {"members_skipped", static_cast<double>(m_skipped)},
            {"members_inverted", static_cast<double>(m_inverted)}};
}

std::vector<std::string> ConsensusDetector::fitNotes() const
{
    if (!isFitted() || (m_leftOut.empty() && m_skipped == 0 && m_inverted == 0))
        return {};
    std::string used;
    for (const auto& m : m_members)
        used += (used.empty() ? "" : ", ") + m->id();
    std::string note = "the consensus used " + used;
    if (!m_leftOut.empty()) {
        note += "; left out ";
        for (std::size_t i = 0; i < m_leftOut.size(); ++i)
            note += (i ? "; " : "") + m_leftOut[i];
    }
    return {note};
}

nlohmann::json ConsensusDetector::saveState() const
{
    nlohmann::json members = nlohmann::json::array();
    for (const auto& m : m_members)
        members.push_back(m->toJson());
    return {{"members", members}, {"members_skipped", m_skipped}, {"members_inverted", m_inverted}, {"left_out", m_leftOut}};
}

void ConsensusDetector::loadState(const nlohmann::json& state)
{
    const auto& arr = state.at("members");
    if (!arr.is_array() || arr.size() < 2)
        throw DataError("consensus model: \"members\" must list at least two fitted models");
    std::vector<std::shared_ptr<const Detector>> members;
    for (const auto& j : arr) {
        auto m = m_factory.load(j);
        if (m->inputDimension() != inputDimension())
            throw DataError("consensus model: member " + m->id() + " has dimension " + std::to_string(m->inputDimension())
                            + ", the consensus " + std::to_string(inputDimension()));
        members.push_back(std::move(m));
    }
    const int skipped = static_cast<int>(jsonIntOr(state, "members_skipped", 0, "consensus model"));
    const int inverted = static_cast<int>(jsonIntOr(state, "members_inverted", 0, "consensus model"));
    std::vector<std::string> leftOut;
    if (state.contains("left_out")) {
        if (!state["left_out"].is_array() || state["left_out"].size() > 64)
            throw DataError("consensus model: \"left_out\" must be a short list of texts");
        for (const auto& t : state["left_out"]) {
            if (!t.is_string() || t.get<std::string>().size() > 1000)
                throw DataError("consensus model: \"left_out\" must be a short list of texts");
            leftOut.push_back(t.get<std::string>());
        }
    }
    install(std::move(members));
    m_skipped = skipped;
    m_inverted = inverted;
    m_leftOut = std::move(leftOut);
}

} // namespace olens
