#pragma once
// consensus: the mean of several detectors' unified scores (Kriegel, Kröger, Schubert, Zimek,
// "Interpreting and Unifying Outlier Scores", SDM 2011). Each member is fitted with its default
// parameters on the same (normalised) rows; its scores are mapped onto [0, 1] by
//   rank:     u(s) = (#{t < s} + ½ #{t = s}) / n over the member's n training scores t
//             (the percentile on which compare mode colours every detector alike);
//   gaussian: u(s) = max(0, erf((s − μ) / (σ √2))), μ, σ of the training scores (sec. 4.2, eq. 7);
// the consensus score is their mean (higher = more outlying). Members are parameters (use_<id>),
// so forms, the CLI, sessions and Python choose them like any other setting. A member that cannot fit
// the data (mcd with fewer rows than p + 2) is left out and counted (figures: members_skipped); at
// least two must fit.
#include "detectors/Detector.h"

#include <functional>

namespace olens {

struct DetectorInfo;

class ConsensusDetector : public Detector {
public:
    /// How members are built and restored: the registry's create(id) and load(json), passed in so
    /// that this library does not depend on the registry that lists it.
    struct MemberFactory {
        std::function<std::unique_ptr<Detector>(const std::string& id)> create;
        std::function<std::unique_ptr<Detector>(const nlohmann::json& model)> load;
        /// The label-free agreement of a member's ranking with a reference (the number behind the
        /// "inverted" warning, pipeline/FitDiagnostics rankingAgreement), and the level below which
        /// a member is left out (#53). Empty: every member that fits is used.
        std::function<double(const Detector& member, const Eigen::MatrixXd& X)> agreement;
        double invertedBelow = 0.0;
    };
    /// `candidates`: the detectors a consensus may combine (ids and titles); those in
    /// defaultMembers() are on by default.
    static DetectorInfo info(const std::vector<std::pair<std::string, std::string>>& candidates, MemberFactory factory);
    /// The default members, chosen on the real-data corpus (docs/benchmarks.md, "Consensus").
    static const std::vector<std::string>& defaultMembers();
    /// The parameter that switches member `id` on ("use_" + id, '-' → '_').
    static std::string memberParam(const std::string& id);
    /// The registry id of this detector.
    static constexpr const char* kId = "consensus";
    /// The settings of a consensus of exactly `members` among `candidates` (other ids ignored): the
    /// use_ switches that differ from the defaults (compare mode's "Combine panels").
    static ParamAssignments combining(const std::vector<std::string>& members, const std::vector<std::string>& candidates);

    ConsensusDetector(ParamSet params, std::vector<std::string> candidates, MemberFactory factory);

    /// The fitted members, in the registry's order.
    const std::vector<std::shared_ptr<const Detector>>& members() const;
    /// Each member's unified score of each row of X (rows × members), the values averaged.
    Eigen::MatrixXd unifiedScores(const Eigen::MatrixXd& X) const;
    std::vector<std::string> explain(const Eigen::MatrixXd& X) const override;
    std::map<std::string, double> figures() const override;
    /// "used knn, iforest, mcd" and each member left out with its reason (#53).
    std::vector<std::string> fitNotes() const override;

protected:
    Eigen::VectorXd doFit(const Eigen::MatrixXd& X, const Progress& progress) override;
    Eigen::VectorXd doScore(const Eigen::MatrixXd& X) const override;
    int minSamples() const override { return 3; }
    nlohmann::json saveState() const override;
    void loadState(const nlohmann::json& state) override;

private:
    struct Unifier {
        Eigen::VectorXd sorted; // the member's training scores, ascending (rank)
        double mean = 0.0, sd = 0.0; // (gaussian)
    };
    static Unifier unifier(const Eigen::VectorXd& trainingScores);
    Eigen::VectorXd unify(const Unifier& u, const Eigen::VectorXd& s) const;
    void install(std::vector<std::shared_ptr<const Detector>> members);

    std::vector<std::string> m_candidates;
    MemberFactory m_factory;
    std::vector<std::shared_ptr<const Detector>> m_members;
    std::vector<Unifier> m_unifiers;
    int m_skipped = 0; // chosen members that could not fit the training data
    int m_inverted = 0; // chosen members left out because their ranking may be inverted
    std::vector<std::string> m_leftOut; // "gods: its ranking may be inverted (…)", "mcd: …"
};

} // namespace olens
