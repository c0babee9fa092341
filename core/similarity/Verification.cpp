#include "similarity/Verification.h"

#include "base/Errors.h"
#include "metrics/Metrics.h"
#include "base/Rng.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_set>

namespace olens {

IndexPairs verificationPairs(Eigen::Index n, long long maxPairs, std::uint64_t seed)
{
    if (maxPairs < 1)
        throw ParamError("the number of pairs must be >= 1");
    IndexPairs out;
    if (n < 2)
        return out;
    const long long N = static_cast<long long>(n);
    const long long total = N * (N - 1) / 2;
    if (total <= maxPairs) {
        out.reserve(static_cast<std::size_t>(total));
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = i + 1; j < n; ++j)
                out.emplace_back(i, j);
        return out;
    }
    // Floyd's sampling of maxPairs distinct linear indices in [0, total).
    Rng rng(seed);
    std::unordered_set<long long> chosen;
    chosen.reserve(static_cast<std::size_t>(maxPairs) * 2);
    for (long long j = total - maxPairs; j < total; ++j) {
        const auto t = static_cast<long long>(rng.index(static_cast<std::uint64_t>(j + 1)));
        if (!chosen.insert(t).second)
            chosen.insert(j);
    }
    std::vector<long long> lin(chosen.begin(), chosen.end());
    std::sort(lin.begin(), lin.end());
    // Row i holds the pairs (i, i+1..n−1), starting at offset(i) = i(2N − i − 1)/2.
    out.reserve(lin.size());
    long long i = 0;
    auto offset = [N](long long r) { return r * (2 * N - r - 1) / 2; };
    for (long long k : lin) {
        while (offset(i + 1) <= k)
            ++i;
        out.emplace_back(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i + 1 + (k - offset(i))));
    }
    return out;
}

VerificationResult runVerification(const Dataset& train, const Dataset& test, const VerificationOptions& options,
                                   const ProgressCallback& progress)
{
    if (!train.hasLabels())
        throw DataError("verification: the training set has no class column");
    if (!test.hasLabels())
        throw DataError("verification: the test set has no class column");
    if (train.featureNames != test.featureNames)
        throw DataError("verification: the training set has features (" + std::to_string(train.cols())
                        + ") that differ from the test set's (" + std::to_string(test.cols()) + ")");
    VerificationResult r;
    r.model = JointBayesian(options.model);
    const ProgressReporter reporter(progress);
    r.model.fit(train.X, train.labels, train.sigma, reporter.sub(0.0, 0.8));
    r.fitSeconds = r.model.fitSeconds();
    r.dim = r.model.latentDim();

    const auto t0 = std::chrono::steady_clock::now();
    const long long n = static_cast<long long>(test.rows());
    r.totalPairs = n * (n - 1) / 2;
    r.pairs = verificationPairs(test.rows(), options.maxPairs, options.seed);
    r.sampled = static_cast<long long>(r.pairs.size()) < r.totalPairs;
    if (r.pairs.empty())
        throw DataError("verification: the test set needs at least 2 samples");
    r.similarity = r.model.pairSimilarities(test.X, test.sigma, r.pairs, reporter.sub(0.8, 1.0));
    r.genuine.resize(static_cast<Eigen::Index>(r.pairs.size()));
    for (std::size_t k = 0; k < r.pairs.size(); ++k)
        r.genuine(static_cast<Eigen::Index>(k)) = test.labels(r.pairs[k].first) == test.labels(r.pairs[k].second) ? 1 : 0;
    r.genuinePairs = r.genuine.sum();
    r.eer = equalErrorRate(r.similarity, r.genuine);
    r.fnrAtFpr001 = fnrAtFpr(r.similarity, r.genuine, 0.001);
    r.auc = auroc(r.similarity, r.genuine);
    r.scoreSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace olens
