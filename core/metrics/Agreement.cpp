#include "metrics/Agreement.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace olens {

Eigen::VectorXd midRanks(const Eigen::VectorXd& v)
{
    const Eigen::Index n = v.size();
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::stable_sort(order.begin(), order.end(), [&v](Eigen::Index a, Eigen::Index b) { return v(a) < v(b); });
    Eigen::VectorXd r(n);
    for (Eigen::Index i = 0; i < n;) {
        Eigen::Index j = i;
        while (j + 1 < n && v(order[static_cast<std::size_t>(j + 1)]) == v(order[static_cast<std::size_t>(i)]))
            ++j;
        for (Eigen::Index t = i; t <= j; ++t)
            r(order[static_cast<std::size_t>(t)]) = 0.5 * static_cast<double>(i + j) + 1.0;
        i = j + 1;
    }
    return r;
}

double spearman(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    if (a.size() != b.size())
        throw std::invalid_argument("spearman: " + std::to_string(a.size()) + " and " + std::to_string(b.size())
                                    + " values");
    if (a.size() < 2)
        return 0.0;
    const Eigen::VectorXd ra = midRanks(a), rb = midRanks(b);
    const Eigen::VectorXd ca = ra.array() - ra.mean(), cb = rb.array() - rb.mean();
    const double den = std::sqrt(ca.squaredNorm() * cb.squaredNorm());
    return den > 0 ? ca.dot(cb) / den : 0.0;
}

namespace {
std::vector<char> topMask(const Eigen::VectorXd& s, Eigen::Index k)
{
    std::vector<Eigen::Index> order(static_cast<std::size_t>(s.size()));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::stable_sort(order.begin(), order.end(), [&s](Eigen::Index a, Eigen::Index b) { return s(a) > s(b); });
    std::vector<char> mask(static_cast<std::size_t>(s.size()), 0);
    for (Eigen::Index i = 0; i < k; ++i)
        mask[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = 1;
    return mask;
}
} // namespace

double topOverlap(const Eigen::VectorXd& a, const Eigen::VectorXd& b, Eigen::Index k)
{
    if (a.size() != b.size())
        throw std::invalid_argument("topOverlap: " + std::to_string(a.size()) + " and " + std::to_string(b.size())
                                    + " values");
    k = std::clamp<Eigen::Index>(k, 0, a.size());
    if (k == 0)
        return 0.0;
    const auto ma = topMask(a, k), mb = topMask(b, k);
    Eigen::Index both = 0;
    for (std::size_t i = 0; i < ma.size(); ++i)
        both += ma[i] && mb[i];
    return static_cast<double>(both) / static_cast<double>(k);
}

AgreementTable agreement(const std::vector<Eigen::VectorXd>& scores, const std::vector<Eigen::VectorXi>& flags,
                         Eigen::Index k)
{
    const auto m = static_cast<Eigen::Index>(scores.size());
    AgreementTable t;
    t.k = k;
    t.spearman = Eigen::MatrixXd::Identity(m, m);
    t.topOverlap = Eigen::MatrixXd::Identity(m, m);
    for (Eigen::Index i = 0; i < m; ++i)
        for (Eigen::Index j = i + 1; j < m; ++j) {
            t.spearman(i, j) = t.spearman(j, i) = spearman(scores[static_cast<std::size_t>(i)], scores[static_cast<std::size_t>(j)]);
            t.topOverlap(i, j) = t.topOverlap(j, i)
                = topOverlap(scores[static_cast<std::size_t>(i)], scores[static_cast<std::size_t>(j)], k);
        }
    const Eigen::Index n = scores.empty() ? 0 : scores.front().size();
    t.flaggedBy = Eigen::VectorXi::Zero(n);
    for (const auto& f : flags) {
        if (f.size() != n)
            throw std::invalid_argument("agreement: decisions of " + std::to_string(f.size()) + " rows, scores of "
                                        + std::to_string(n));
        t.flaggedBy += f;
    }
    return t;
}

} // namespace olens
