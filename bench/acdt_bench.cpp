// ACDT benchmark (docs/architecture.md "Figures that matter"): Swiss roll, 5000 points, k=15, d=2; the
// slides report 389 s and 123 s, the aim is ≤ 1 s. Fits `runs` times and prints one JSON object
// with the median fit time, the MSRE at the scoring L and at a few other L (read from the same
// dendrogram), and the time to re-cut the dendrogram (labels + flats) for another L.
//   olens_bench_acdt [--n 5000] [--runs 5] [--L 12] [--seed 1] [--noise 0]
#include "detectors/acdt/AcdtDetector.h"
#include "data/Generators.h"
#include "metrics/Metrics.h"
#include "registry/Registry.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    int n = 5000, runs = 5, L = 12;
    unsigned long seed = 1;
    std::string noise = "0";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--n") n = std::atoi(v.c_str());
        else if (a == "--runs") runs = std::atoi(v.c_str());
        else if (a == "--L") L = std::atoi(v.c_str());
        else if (a == "--seed") seed = std::strtoul(v.c_str(), nullptr, 10);
        else if (a == "--noise") noise = v;
        else {
            std::cerr << "unknown option " << a << "\n";
            return 2;
        }
    }
    using Clock = std::chrono::steady_clock;
    const olens::Dataset data = olens::generate("swissroll", n, seed, {{"noise", noise}});
    std::vector<double> seconds;
    std::unique_ptr<olens::Detector> det;
    for (int r = 0; r < runs; ++r) {
        det = olens::Registry::instance().create("acdt", {{"k", "15"}, {"d", "2"}, {"L", std::to_string(L)}});
        const auto t0 = Clock::now();
        det->fit(data.X);
        seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    const auto& acdt = dynamic_cast<const olens::AcdtDetector&>(*det);
    const auto figures = det->figures();

    nlohmann::json byL = nlohmann::json::object();
    for (int l : {5, 10, 12, 20, 50, 100}) {
        if (l > n)
            continue;
        byL[std::to_string(l)] = acdt.msreForClusterCount(l);
    }
    // Re-cutting the dendrogram for another L (the GUI slider): labels + flats.
    const auto t0 = Clock::now();
    const auto labels = acdt.labelsForClusterCount(20);
    const auto flats = acdt.flatsForClusterCount(20);
    const double recutMs = 1e3 * std::chrono::duration<double>(Clock::now() - t0).count();

    nlohmann::json out = {{"data", "swissroll"},
                          {"n", n},
                          {"seed", seed},
                          {"noise", std::stod(noise)},
                          {"k", 15},
                          {"d", 2},
                          {"L_param", L},
                          {"runs", runs},
                          {"fit_seconds", seconds},
                          {"fit_seconds_median", sorted[sorted.size() / 2]},
                          {"clusters", figures.at("clusters")},
                          {"msre", figures.at("msre")},
                          {"graph_components", figures.at("graph_components")},
                          {"merges", acdt.mergeHistory().size()},
                          {"msre_by_L", byL},
                          {"recut_L20_ms", recutMs},
                          {"recut_flats", flats.size() + 0 * labels.size()}};
    std::cout << out.dump(2) << "\n";
    return 0;
}
