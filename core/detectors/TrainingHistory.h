#pragma once
// A fit's recorded path: the model state at a bounded number of its steps (epochs, iterations),
// so that the GUI's timeline and `--replay-frames` can show the geometry, the score field and the
// ranking as they were at step k (Detector::modelAtStep rebuilds the model there). States are in
// the detector's own saveState() format, so a step is exactly what loadState() reads.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace olens {

struct HistoryStep {
    int step = 0;                                          ///< completed steps (0 = the start)
    double loss = std::numeric_limits<double>::quiet_NaN(); ///< the objective there (NaN: none)
    nlohmann::json state;                                  ///< saveState() format at that step
};

struct TrainingHistory {
    std::string unit;              ///< what one step is: "epoch", "iteration"
    std::vector<HistoryStep> steps; ///< increasing step; the last is the fitted model's state
    std::size_t bytes = 0;         ///< approximate memory the states take (shown to the user)

    bool empty() const { return steps.empty(); }
    int size() const { return static_cast<int>(steps.size()); }
    /// The index of the recorded step nearest to `step` from below (0 when before the first).
    int indexAtOrBefore(int step) const;

    nlohmann::json toJson() const;
    /// Throws DataError on a malformed history.
    static TrainingHistory fromJson(const nlohmann::json& j);
};

/// Keeps a bounded record while a fit runs: every one of the first kDense steps, then every
/// stride-th step, the stride doubling whenever more than maxSteps() are held (so a fit of any
/// length ends with between maxSteps()/2 and maxSteps() states, dense where the fit changes
/// most, at its start). The state size of the first record sets maxSteps() so that the states
/// stay under kBudgetBytes (at least 4 are kept: the start, the end and two between). Ask
/// wants(step) before building a state: most steps are skipped.
class HistoryRecorder {
public:
    static constexpr int kMaxSteps = 200;
    static constexpr int kDense = 20;
    static constexpr std::size_t kBudgetBytes = std::size_t(16) << 20;

    explicit HistoryRecorder(std::string unit) { m_history.unit = std::move(unit); }

    bool wants(int step) const { return step <= kDense || step % m_stride == 0; }
    /// Records the state of `step` when wanted; `final` (the state the fit ends with) always is.
    void record(int step, double loss, nlohmann::json state, bool final = false);
    int maxSteps() const { return m_max; }
    bool empty() const { return m_history.steps.empty(); }
    TrainingHistory take() { return std::move(m_history); }

private:
    void thin();

    TrainingHistory m_history;
    int m_stride = 1;
    int m_max = kMaxSteps;
    std::size_t m_stepBytes = 0;
};

} // namespace olens
