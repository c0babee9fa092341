#pragma once
// First-order optimisers kept apart from the models that use them (as in ensmallen): an optimiser
// only sees a parameter vector and gradients; a model supplies a minibatch gradient callback.
//
//   Sgd  : θ ← θ − lr·g, or with momentum μ:  v ← μv + g,  θ ← θ − lr·v   (PyTorch's form)
//   Adam : Kingma & Ba (2015), Algorithm 1, with bias correction:
//          m ← β1 m + (1−β1) g,  v ← β2 v + (1−β2) g²,
//          θ ← θ − lr · m̂ / (√v̂ + ε),  m̂ = m/(1−β1ᵗ),  v̂ = v/(1−β2ᵗ)
//
// Randomness (minibatch order) comes only from a seeded olens::Rng.
#include "base/Rng.h"

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace olens {

/// One update rule with its internal state (moments). The state is sized on the first step
/// and cleared by reset(); a step with a gradient of another size throws std::invalid_argument.
class Optimizer {
public:
    virtual ~Optimizer() = default;
    virtual std::string name() const = 0;
    /// params ← update(params, gradient); gradient has the size of params.
    virtual void step(Eigen::VectorXd& params, const Eigen::VectorXd& gradient) = 0;
    /// Forgets the accumulated state (momentum, moments, step count).
    virtual void reset() = 0;

protected:
    explicit Optimizer(double lr) : m_lr(lr) {}
    double m_lr;
};

/// Plain (stochastic) gradient descent, optional heavy-ball momentum (0 = none).
class Sgd : public Optimizer {
public:
    explicit Sgd(double lr, double momentum = 0.0);
    std::string name() const override { return "sgd"; }
    void step(Eigen::VectorXd& params, const Eigen::VectorXd& gradient) override;
    void reset() override { m_velocity.resize(0); }

private:
    double m_momentum;
    Eigen::VectorXd m_velocity;
};

/// Adam with bias correction (defaults β1 = 0.9, β2 = 0.999, ε = 1e-8 as in the paper by Kingma & Ba).
class Adam : public Optimizer {
public:
    explicit Adam(double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double epsilon = 1e-8);
    std::string name() const override { return "adam"; }
    void step(Eigen::VectorXd& params, const Eigen::VectorXd& gradient) override;
    void reset() override;
    long steps() const { return m_t; }

private:
    double m_beta1, m_beta2, m_eps;
    Eigen::VectorXd m_m, m_v;
    long m_t = 0;
    double m_beta1Pow = 1.0, m_beta2Pow = 1.0;
};

/// "adam" or "sgd" (momentum 0) with the given learning rate; throws std::invalid_argument otherwise.
std::unique_ptr<Optimizer> makeOptimizer(const std::string& name, double lr);

/// A uniformly random permutation of 0..n-1 (Fisher–Yates driven by rng; same seed → same order).
std::vector<Eigen::Index> shuffledIndices(Eigen::Index n, Rng& rng);

/// Visits 0..n-1 in minibatches of at most `batchSize` rows, reshuffled every epoch from one seed
/// (the last batch of an epoch may be smaller). Same (n, batchSize, seed) → same batches.
class MinibatchSchedule {
public:
    MinibatchSchedule(Eigen::Index n, Eigen::Index batchSize, std::uint64_t seed, bool shuffle = true);
    /// Starts a new epoch (reshuffles when shuffling is on).
    void startEpoch();
    /// Indices of the next minibatch of the current epoch; false when the epoch is exhausted.
    bool next(std::vector<Eigen::Index>& batch);
    Eigen::Index batchesPerEpoch() const;

private:
    Eigen::Index m_n, m_batch, m_pos = 0;
    bool m_shuffle;
    Rng m_rng;
    std::vector<Eigen::Index> m_order;
};

/// Loss of a minibatch at `params`, its gradient written into `gradient` (resized by the callee
/// or pre-sized to params.size()). The indices select rows of the model's data.
using MinibatchGradient = std::function<double(const Eigen::VectorXd& params,
                                               const std::vector<Eigen::Index>& batch,
                                               Eigen::VectorXd& gradient)>;

struct MinibatchOptions {
    Eigen::Index batchSize = 32;
    int epochs = 1;
    std::uint64_t seed = 0;
    bool shuffle = true;
    /// Convergence stop (scikit-learn's tol / n_iter_no_change rule): after `patience` epochs in a
    /// row whose mean loss is not below best·(1 − tolerance), stop. 0 = always run `epochs`.
    double tolerance = 0.0;
    int patience = 10;
};

struct BatchInfo {
    int epoch = 0;               ///< 0-based
    Eigen::Index batch = 0;      ///< 0-based index within the epoch
    Eigen::Index batchesPerEpoch = 0;
    double loss = 0.0;           ///< loss returned by the callback for this batch
};

struct EpochInfo {
    int epoch = 0;               ///< 0-based
    double meanLoss = 0.0;       ///< batch losses averaged with weights = batch sizes
};

/// Minibatch stochastic optimisation of `params` in place: at most `epochs` passes over n samples,
/// fewer when the convergence stop of MinibatchOptions::tolerance fires.
/// afterBatch/afterEpoch may throw (e.g. Cancelled) to stop; params then hold the last update.
/// Returns the mean loss of the last epoch.
double minimizeMinibatch(Optimizer& optimizer, Eigen::VectorXd& params, Eigen::Index n,
                         const MinibatchOptions& options, const MinibatchGradient& gradient,
                         const std::function<void(const BatchInfo&)>& afterBatch = {},
                         const std::function<void(const EpochInfo&)>& afterEpoch = {});

/// Deterministic objective: value at params, gradient written into `gradient`.
using FullGradient = std::function<double(const Eigen::VectorXd& params, Eigen::VectorXd& gradient)>;

/// `iterations` full-gradient steps; stops early when ‖gradient‖ ≤ gradTolerance. Returns the
/// objective at the final params (evaluated once more).
double minimizeFull(Optimizer& optimizer, Eigen::VectorXd& params, int iterations, const FullGradient& gradient,
                    double gradTolerance = 0.0);

} // namespace olens
