#include "optim/Optimizers.h"

#include <limits>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace olens {

namespace {
void checkSizes(const Eigen::VectorXd& params, const Eigen::VectorXd& gradient)
{
    if (params.size() != gradient.size())
        throw std::invalid_argument("optimizer step: gradient has " + std::to_string(gradient.size())
                                    + " entries, parameters " + std::to_string(params.size()));
}
} // namespace

Sgd::Sgd(double lr, double momentum) : Optimizer(lr), m_momentum(momentum)
{
    if (!(lr > 0.0) || !(momentum >= 0.0 && momentum < 1.0))
        throw std::invalid_argument("sgd: learning rate must be > 0 and momentum in [0, 1)");
}

void Sgd::step(Eigen::VectorXd& params, const Eigen::VectorXd& gradient)
{
    checkSizes(params, gradient);
    if (m_momentum == 0.0) {
        params.noalias() -= m_lr * gradient;
        return;
    }
    if (m_velocity.size() != params.size())
        m_velocity = Eigen::VectorXd::Zero(params.size());
    m_velocity = m_momentum * m_velocity + gradient;
    params.noalias() -= m_lr * m_velocity;
}

Adam::Adam(double lr, double beta1, double beta2, double epsilon)
    : Optimizer(lr), m_beta1(beta1), m_beta2(beta2), m_eps(epsilon)
{
    if (!(lr > 0.0) || !(beta1 >= 0.0 && beta1 < 1.0) || !(beta2 >= 0.0 && beta2 < 1.0) || !(epsilon > 0.0))
        throw std::invalid_argument("adam: need lr > 0, beta1 and beta2 in [0, 1), epsilon > 0");
}

void Adam::reset()
{
    m_m.resize(0);
    m_v.resize(0);
    m_t = 0;
    m_beta1Pow = m_beta2Pow = 1.0;
}

void Adam::step(Eigen::VectorXd& params, const Eigen::VectorXd& gradient)
{
    checkSizes(params, gradient);
    if (m_m.size() != params.size()) {
        m_m = Eigen::VectorXd::Zero(params.size());
        m_v = Eigen::VectorXd::Zero(params.size());
        m_t = 0;
        m_beta1Pow = m_beta2Pow = 1.0;
    }
    ++m_t;
    m_beta1Pow *= m_beta1;
    m_beta2Pow *= m_beta2;
    m_m = m_beta1 * m_m + (1.0 - m_beta1) * gradient;
    m_v = m_beta2 * m_v + (1.0 - m_beta2) * gradient.cwiseAbs2();
    // θ ← θ − lr·m̂/(√v̂ + ε) with m̂ = m/(1−β1ᵗ), v̂ = v/(1−β2ᵗ).
    const double c1 = 1.0 / (1.0 - m_beta1Pow);
    const double c2 = 1.0 / (1.0 - m_beta2Pow);
    params.array() -= m_lr * (m_m.array() * c1) / ((m_v.array() * c2).sqrt() + m_eps);
}

std::unique_ptr<Optimizer> makeOptimizer(const std::string& name, double lr)
{
    if (name == "adam")
        return std::make_unique<Adam>(lr);
    if (name == "sgd")
        return std::make_unique<Sgd>(lr);
    throw std::invalid_argument("unknown optimizer '" + name + "' (available: adam, sgd)");
}

std::vector<Eigen::Index> shuffledIndices(Eigen::Index n, Rng& rng)
{
    std::vector<Eigen::Index> idx(static_cast<std::size_t>(std::max<Eigen::Index>(n, 0)));
    std::iota(idx.begin(), idx.end(), Eigen::Index(0));
    // Fisher–Yates: for i = n−1..1 swap i with a uniform j in [0, i].
    for (std::size_t i = idx.size(); i > 1; --i) {
        const auto j = static_cast<std::size_t>(rng.index(i));
        std::swap(idx[i - 1], idx[std::min(j, i - 1)]);
    }
    return idx;
}

MinibatchSchedule::MinibatchSchedule(Eigen::Index n, Eigen::Index batchSize, std::uint64_t seed, bool shuffle)
    : m_n(n), m_batch(std::max<Eigen::Index>(1, batchSize)), m_shuffle(shuffle), m_rng(seed)
{
    if (n < 0)
        throw std::invalid_argument("minibatch schedule: negative sample count");
    m_order.resize(static_cast<std::size_t>(n));
    std::iota(m_order.begin(), m_order.end(), Eigen::Index(0));
    m_pos = m_n; // exhausted until startEpoch()
}

void MinibatchSchedule::startEpoch()
{
    if (m_shuffle)
        m_order = shuffledIndices(m_n, m_rng);
    m_pos = 0;
}

bool MinibatchSchedule::next(std::vector<Eigen::Index>& batch)
{
    if (m_pos >= m_n)
        return false;
    const Eigen::Index end = std::min(m_n, m_pos + m_batch);
    batch.assign(m_order.begin() + m_pos, m_order.begin() + end);
    m_pos = end;
    return true;
}

Eigen::Index MinibatchSchedule::batchesPerEpoch() const
{
    return (m_n + m_batch - 1) / m_batch;
}

double minimizeMinibatch(Optimizer& optimizer, Eigen::VectorXd& params, Eigen::Index n,
                         const MinibatchOptions& options, const MinibatchGradient& gradient,
                         const std::function<void(const BatchInfo&)>& afterBatch,
                         const std::function<void(const EpochInfo&)>& afterEpoch)
{
    MinibatchSchedule schedule(n, options.batchSize, options.seed, options.shuffle);
    std::vector<Eigen::Index> batch;
    Eigen::VectorXd g = Eigen::VectorXd::Zero(params.size());
    double lastMean = 0.0;
    double best = std::numeric_limits<double>::infinity();
    int stale = 0;
    for (int e = 0; e < options.epochs; ++e) {
        schedule.startEpoch();
        double sum = 0.0;
        Eigen::Index seen = 0, b = 0;
        while (schedule.next(batch)) {
            const double loss = gradient(params, batch, g);
            optimizer.step(params, g);
            sum += loss * static_cast<double>(batch.size());
            seen += static_cast<Eigen::Index>(batch.size());
            if (afterBatch)
                afterBatch(BatchInfo{e, b, schedule.batchesPerEpoch(), loss});
            ++b;
        }
        lastMean = seen > 0 ? sum / static_cast<double>(seen) : 0.0;
        if (afterEpoch)
            afterEpoch(EpochInfo{e, lastMean});
        if (options.tolerance > 0.0) {
            // Relative to |best| so that the rule does not depend on the loss's units.
            if (e == 0 || lastMean < best - options.tolerance * std::abs(best)) {
                best = lastMean;
                stale = 0;
            } else if (++stale >= options.patience) {
                break;
            }
        }
    }
    return lastMean;
}

double minimizeFull(Optimizer& optimizer, Eigen::VectorXd& params, int iterations, const FullGradient& gradient,
                    double gradTolerance)
{
    Eigen::VectorXd g = Eigen::VectorXd::Zero(params.size());
    for (int it = 0; it < iterations; ++it) {
        gradient(params, g);
        if (gradTolerance > 0.0 && g.norm() <= gradTolerance)
            break;
        optimizer.step(params, g);
    }
    return gradient(params, g);
}

} // namespace olens
