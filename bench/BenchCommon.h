#pragma once
// Helpers shared by the benchmark programs in bench/: timing, medians, seeded data, the machine
// description, and the Q-FULL per-epoch timing (read from the detector's progress reports).
#include "registry/Registry.h"
#include "base/Rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace olens::bench {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

inline double secondsSince(Clock::time_point a) { return seconds(a, Clock::now()); }

inline double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

inline double median(std::vector<double> v)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// n×p matrix of seeded standard normal values.
inline Eigen::MatrixXd gaussian(Eigen::Index n, Eigen::Index p, std::uint64_t seed)
{
    Rng rng(seed);
    Eigen::MatrixXd X(n, p);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < p; ++j)
            X(i, j) = rng.normal();
    return X;
}

/// A seeded Gaussian blob N(0, I) with a fraction of uniform outliers in [-6, 6]^p (last rows).
inline Eigen::MatrixXd blobWithOutliers(Eigen::Index n, Eigen::Index p, double outlierFraction, std::uint64_t seed)
{
    Eigen::MatrixXd X = gaussian(n, p, seed);
    Rng rng(seed + 1000003);
    const auto nOut = static_cast<Eigen::Index>(std::llround(outlierFraction * static_cast<double>(n)));
    for (Eigen::Index i = n - nOut; i < n; ++i)
        for (Eigen::Index j = 0; j < p; ++j)
            X(i, j) = rng.uniform(-6.0, 6.0);
    return X;
}

inline std::string readFirstMatch(const char* path, const std::string& key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) {
            const auto colon = line.find(':');
            std::string v = colon == std::string::npos ? line : line.substr(colon + 1);
            v.erase(0, v.find_first_not_of(" \t"));
            return v;
        }
    return {};
}

inline std::string compilerName()
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}

/// nproc, CPU model, RAM, compiler, build type (pass the CMake build type as OLENS_BENCH_BUILD_TYPE).
inline nlohmann::json machine()
{
    nlohmann::json m;
    m["nproc"] = std::thread::hardware_concurrency();
    m["cpu"] = readFirstMatch("/proc/cpuinfo", "model name");
    const std::string mem = readFirstMatch("/proc/meminfo", "MemTotal"); // "24576000 kB"
    m["ram_gib"] = std::round(std::atof(mem.c_str()) / 1024.0 / 1024.0 * 10.0) / 10.0;
    m["compiler"] = compilerName();
#ifdef OLENS_BENCH_BUILD_TYPE
    m["build_type"] = OLENS_BENCH_BUILD_TYPE;
#else
    m["build_type"] = "unknown";
#endif
#ifdef NDEBUG
    m["ndebug"] = true;
#else
    m["ndebug"] = false;
#endif
    std::istringstream load(readFirstMatch("/proc/loadavg", ""));
    double l1 = 0;
    load >> l1;
    m["load_average_1min_at_start"] = l1;
    return m;
}

/// Fits a fresh Q-FULL detector for `epochs` epochs and returns the wall and process-CPU seconds
/// of each epoch, taken from the per-epoch progress reports ("epoch k/E" with a loss and fraction
/// exactly k/E); epoch 1 includes the (small) initialisation.
struct EpochTimes {
    std::vector<double> wall, cpu;
    double fitSeconds = 0.0;
    double finalLoss = std::nan("");
};

inline EpochTimes quadricsEpochs(const Eigen::MatrixXd& X, int m, int epochs, int batch, int seed)
{
    auto d = Registry::instance().create("quadrics", {{"m", std::to_string(m)}, {"epochs", std::to_string(epochs)},
                                                      {"batch", std::to_string(batch)}, {"seed", std::to_string(seed)}});
    std::vector<double> ends, cpuEnds;
    int lastEpochReported = 0;
    const auto t0 = Clock::now();
    const double c0 = cpuSeconds();
    d->fit(X, [&](const ProgressInfo& info) {
        const double k = info.fraction * epochs;
        const int ki = static_cast<int>(k + 0.5);
        if (info.loss && info.message.rfind("epoch", 0) == 0 && ki > lastEpochReported && std::abs(k - ki) < 1e-9) {
            ends.push_back(secondsSince(t0));
            cpuEnds.push_back(cpuSeconds() - c0);
            lastEpochReported = ki;
        }
        return false;
    });
    EpochTimes r;
    r.fitSeconds = secondsSince(t0);
    for (std::size_t e = 0; e < ends.size(); ++e) {
        r.wall.push_back(e == 0 ? ends[0] : ends[e] - ends[e - 1]);
        r.cpu.push_back(e == 0 ? cpuEnds[0] : cpuEnds[e] - cpuEnds[e - 1]);
    }
    const auto f = d->figures();
    if (f.count("final_loss"))
        r.finalLoss = f.at("final_loss");
    return r;
}

} // namespace olens::bench
