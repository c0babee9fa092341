// Times fit + score of `kic` (RBF kernel, the paper's defaults) on a seeded 4601×57 Gaussian
// matrix (Spambase-sized, KIC paper Table 1) and prints the median of the runs as JSON.
// Compare with bench/kic_numpy.py (the same formula in NumPy) on the same machine.
//
// usage: olens_bench_kic [--runs 5] [--n 4601] [--p 57] [--kernel rbf|poly] [--grid]
//   --grid  instead: score a 512×512 grid of 2-D queries with a model fitted on n = 1000 points
//           (the GUI's contour grid), for both kernels.
#include "registry/Registry.h"
#include "base/Rng.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

Eigen::MatrixXd gaussian(Eigen::Index n, Eigen::Index p, std::uint64_t seed)
{
    olens::Rng rng(seed);
    Eigen::MatrixXd X(n, p);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < p; ++j)
            X(i, j) = rng.normal();
    return X;
}

std::string list(const std::vector<double>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    Eigen::Index n = 4601, p = 57;
    std::string kernel = "rbf";
    bool grid = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--n" && i + 1 < argc)
            n = std::atol(argv[++i]);
        else if (a == "--p" && i + 1 < argc)
            p = std::atol(argv[++i]);
        else if (a == "--kernel" && i + 1 < argc)
            kernel = argv[++i];
        else if (a == "--grid")
            grid = true;
        else {
            std::fprintf(stderr, "usage: %s [--runs R] [--n N] [--p P] [--kernel rbf|poly] [--grid]\n", argv[0]);
            return 2;
        }
    }
    const auto& registry = olens::Registry::instance();

    if (grid) {
        const Eigen::MatrixXd X = gaussian(1000, 2, 1);
        Eigen::MatrixXd Q(512 * 512, 2);
        for (int i = 0; i < 512; ++i)
            for (int j = 0; j < 512; ++j)
                Q.row(i * 512 + j) << -4.0 + 8.0 * i / 511.0, -4.0 + 8.0 * j / 511.0;
        std::printf("{\"benchmark\": \"kic 512x512 grid, n=1000, p=2\", \"runs\": %d", runs);
        for (const char* k : {"poly", "rbf"}) {
            auto d = registry.create("kic", {{"kernel", k}});
            d->fit(X);
            std::vector<double> t;
            for (int r = 0; r < runs; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const Eigen::VectorXd s = d->score(Q);
                t.push_back(seconds(t0, std::chrono::steady_clock::now()));
                if (!s.allFinite())
                    return 1;
            }
            std::printf(", \"%s_median_seconds\": %.4f, \"%s_seconds\": %s", k, median(t), k, list(t).c_str());
        }
        std::printf("}\n");
        return 0;
    }

    const Eigen::MatrixXd X = gaussian(n, p, 1);
    std::vector<double> fit, score, total, cpu;
    for (int r = 0; r < runs; ++r) {
        auto d = registry.create("kic", {{"kernel", kernel}});
        const std::clock_t c0 = std::clock();
        const auto t0 = std::chrono::steady_clock::now();
        d->fit(X);
        const auto t1 = std::chrono::steady_clock::now();
        const Eigen::VectorXd s = d->score(X);
        const auto t2 = std::chrono::steady_clock::now();
        cpu.push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
        if (!s.allFinite() || !d->trainingScores().allFinite())
            return 1;
        fit.push_back(seconds(t0, t1));
        score.push_back(seconds(t1, t2));
        total.push_back(seconds(t0, t2));
    }
    std::printf("{\"benchmark\": \"kic fit+score\", \"kernel\": \"%s\", \"n\": %ld, \"p\": %ld, \"runs\": %d, "
                "\"median_seconds\": %.4f, \"fit_median_seconds\": %.4f, \"score_median_seconds\": %.4f, "
                "\"cpu_median_seconds\": %.4f, \"seconds\": %s}\n",
                kernel.c_str(), static_cast<long>(n), static_cast<long>(p), runs, median(total), median(fit),
                median(score), median(cpu), list(total).c_str());
    return 0;
}
