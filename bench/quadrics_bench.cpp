// Q-FULL training throughput (quadrics paper eq. 14-15, minibatch Adam): points per second per epoch
// for n = 100 000 seeded Gaussian points in p = 64 dimensions with m = 50 quadrics.
//
//   olens_bench_quadrics [--n N] [--p P] [--m M] [--epochs E] [--repeats R] [--batch B]...
//
// Each repeat fits a fresh detector for E epochs; the time of every epoch is taken from the per-epoch
// progress reports (initialisation and the final scoring pass are excluded). Prints one JSON object
// with, per batch size, the median over repeats of the per-repeat median epoch time (wall clock, and
// process CPU time, which is less disturbed by other load on a shared machine).
#include "detectors/quadrics/QuadricsDetector.h"
#include "registry/Registry.h"
#include "base/Rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

using namespace olens;
using Clock = std::chrono::steady_clock;

namespace {
double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
} // namespace

int main(int argc, char** argv)
{
    long n = 100000;
    int p = 64, m = 50, epochs = 2, repeats = 3;
    std::vector<int> batches;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        const long v = std::strtol(argv[i + 1], nullptr, 10);
        if (a == "--n")
            n = v;
        else if (a == "--p")
            p = static_cast<int>(v);
        else if (a == "--m")
            m = static_cast<int>(v);
        else if (a == "--epochs")
            epochs = static_cast<int>(v);
        else if (a == "--repeats")
            repeats = static_cast<int>(v);
        else if (a == "--batch")
            batches.push_back(static_cast<int>(v));
        else {
            std::cerr << "unknown option " << a << "\n";
            return 2;
        }
    }
    if (batches.empty())
        batches = {64, 256}; // the detector's default and the authors' implementation's

    Rng rng(2024);
    Eigen::MatrixXd X(n, p);
    for (Eigen::Index i = 0; i < X.size(); ++i)
        X.data()[i] = rng.normal();

    nlohmann::json out;
    out["benchmark"] = "quadrics (Q-FULL) training throughput";
    out["n"] = n;
    out["p"] = p;
    out["m"] = m;
    out["epochs_per_repeat"] = epochs;
    out["repeats"] = repeats;
    out["optimizer"] = "adam";
    out["distance"] = "d2";
    nlohmann::json results = nlohmann::json::array();
    for (int batch : batches) {
        std::vector<double> epochSeconds, epochCpuSeconds, fitSeconds;
        for (int r = 0; r < repeats; ++r) {
            auto d = Registry::instance().create(
                "quadrics", {{"m", std::to_string(m)}, {"epochs", std::to_string(epochs)},
                             {"batch", std::to_string(batch)}, {"seed", std::to_string(r)}});
            std::vector<double> ends, cpuEnds; // each epoch's end: wall / process CPU seconds since fit()
            int lastEpochReported = 0;
            const auto t0 = Clock::now();
            const std::clock_t c0 = std::clock();
            d->fit(X, [&](const ProgressInfo& info) {
                // Epoch ends are the reports "epoch k/E" with a loss and fraction exactly k/E.
                const double k = info.fraction * epochs;
                const int ki = static_cast<int>(k + 0.5);
                if (info.loss && info.message.rfind("epoch", 0) == 0 && ki > lastEpochReported
                    && std::abs(k - ki) < 1e-9) {
                    ends.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
                    cpuEnds.push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
                    lastEpochReported = ki;
                }
                return false;
            });
            fitSeconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
            // Epoch 1 includes the (small) initialisation; later epochs are pure training.
            std::vector<double> per, cpu;
            for (std::size_t e = 0; e < ends.size(); ++e) {
                per.push_back(e == 0 ? ends[0] : ends[e] - ends[e - 1]);
                cpu.push_back(e == 0 ? cpuEnds[0] : cpuEnds[e] - cpuEnds[e - 1]);
            }
            epochSeconds.push_back(median(per));
            epochCpuSeconds.push_back(median(cpu));
            std::cerr << "batch " << batch << " repeat " << r + 1 << ": median epoch " << median(per) << " s, fit "
                      << fitSeconds.back() << " s, final loss " << d->figures().at("final_loss") << "\n";
        }
        const double sec = median(epochSeconds);
        results.push_back({{"batch", batch},
                           {"epoch_seconds_median", sec},
                           {"points_per_second_per_epoch", static_cast<double>(n) / sec},
                           {"epoch_cpu_seconds_median", median(epochCpuSeconds)},
                           {"points_per_cpu_second_per_epoch", static_cast<double>(n) / median(epochCpuSeconds)},
                           {"fit_seconds_median", median(fitSeconds)}});
    }
    out["results"] = results;
    std::cout << out.dump(2) << "\n";
    return 0;
}
