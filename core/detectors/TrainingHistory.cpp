#include "detectors/TrainingHistory.h"

#include "base/Errors.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace olens {

namespace {

// What a state costs in memory: nlohmann::json keeps each number in a 16-byte node plus the
// vector's slot; strings and keys by their length. An estimate for the user and the budget.
std::size_t jsonBytes(const nlohmann::json& j)
{
    switch (j.type()) {
    case nlohmann::json::value_t::object: {
        std::size_t b = 48;
        for (auto it = j.begin(); it != j.end(); ++it)
            b += 48 + it.key().size() + jsonBytes(it.value());
        return b;
    }
    case nlohmann::json::value_t::array: {
        std::size_t b = 24;
        for (const auto& v : j)
            b += jsonBytes(v);
        return b;
    }
    case nlohmann::json::value_t::string: return 16 + j.get_ref<const std::string&>().size();
    default: return 16;
    }
}

} // namespace

int TrainingHistory::indexAtOrBefore(int step) const
{
    const auto it = std::upper_bound(steps.begin(), steps.end(), step,
                                     [](int s, const HistoryStep& h) { return s < h.step; });
    return it == steps.begin() ? 0 : static_cast<int>(it - steps.begin()) - 1;
}

nlohmann::json TrainingHistory::toJson() const
{
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& s : steps) {
        nlohmann::json e = {{"step", s.step}, {"state", s.state}};
        if (std::isfinite(s.loss))
            e["loss"] = s.loss;
        arr.push_back(std::move(e));
    }
    return {{"unit", unit}, {"steps", std::move(arr)}};
}

TrainingHistory TrainingHistory::fromJson(const nlohmann::json& j)
{
    TrainingHistory h;
    try {
        h.unit = j.at("unit").get<std::string>();
        int last = -1;
        for (const auto& e : j.at("steps")) {
            HistoryStep s;
            s.step = e.at("step").get<int>();
            if (s.step <= last)
                throw DataError("recorded training history: steps are not increasing (" + std::to_string(last)
                                + " then " + std::to_string(s.step) + ")");
            last = s.step;
            if (e.contains("loss"))
                s.loss = e.at("loss").get<double>();
            s.state = e.at("state");
            h.bytes += jsonBytes(s.state);
            h.steps.push_back(std::move(s));
        }
    } catch (const nlohmann::json::exception& e) {
        throw DataError(std::string("recorded training history is malformed: ") + e.what());
    }
    return h;
}

void HistoryRecorder::record(int step, double loss, nlohmann::json state, bool final)
{
    if (!final && !wants(step))
        return;
    auto& steps = m_history.steps;
    if (!steps.empty() && steps.back().step >= step) {
        if (steps.back().step > step || !final)
            return; // already recorded (a final report repeating the last step replaces it below)
        m_history.bytes -= jsonBytes(steps.back().state);
        steps.pop_back();
    }
    const std::size_t b = jsonBytes(state);
    if (m_stepBytes == 0) {
        // The first state sets how many fit in the budget (states of one fit have one size).
        m_stepBytes = std::max<std::size_t>(b, 1);
        m_max = static_cast<int>(std::clamp<std::size_t>(kBudgetBytes / m_stepBytes, 4, kMaxSteps));
    }
    steps.push_back({step, loss, std::move(state)});
    m_history.bytes += b;
    if (static_cast<int>(steps.size()) > m_max)
        thin();
}

void HistoryRecorder::thin()
{
    // Keep the dense start, the multiples of the doubled stride and the newest state.
    m_stride *= 2;
    auto& steps = m_history.steps;
    std::vector<HistoryStep> kept;
    kept.reserve(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const bool newest = i + 1 == steps.size();
        if (newest || steps[i].step <= kDense || steps[i].step % m_stride == 0)
            kept.push_back(std::move(steps[i]));
        else
            m_history.bytes -= jsonBytes(steps[i].state);
    }
    steps = std::move(kept);
    // A budget below kDense + a few: thin the dense start too (evenly), never the newest.
    while (static_cast<int>(steps.size()) > m_max) {
        std::vector<HistoryStep> half;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (i % 2 == 0 || i + 1 == steps.size())
                half.push_back(std::move(steps[i]));
            else
                m_history.bytes -= jsonBytes(steps[i].state);
        }
        steps = std::move(half);
    }
}

} // namespace olens
