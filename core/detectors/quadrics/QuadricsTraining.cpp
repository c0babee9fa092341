// Q-FULL training (QuadricsDetector::doFit): normalised coordinates, the random HS-orthonormal
// initialisation, minibatch SGD/Adam on the objective of QuadricsObjective.cpp (eq. 14–15) with the
// convergence stop (tol, patience), progress with the loss and live geometry snapshots, and the
// final scores (eq. 16).
#include "detectors/quadrics/QuadricsInternal.h"

#include "base/Errors.h"
#include "base/Messages.h"
#include "base/Rng.h"
#include "detectors/TrainingHistory.h"
#include "optim/Optimizers.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <Eigen/Dense>

namespace olens {

using quadrics_detail::blockSize64;
using quadrics_detail::hsSize64;
using quadrics_detail::kMemoryBudget;
using quadrics_detail::toOriginal;

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

} // namespace

Eigen::VectorXd QuadricsDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const auto p = static_cast<int>(X.cols());
    const Eigen::Index n = X.rows();
    const int m = params().getInt("m") == 0 ? autoQuadrics(p) : params().getInt("m");
    const std::int64_t T64 = hsSize64(p);
    if (m > T64)
        throw ParamError("quadrics: m=" + std::to_string(m) + " HS-orthonormal quadrics do not exist in dimension "
                         + std::to_string(p) + " (at most p(p+1)/2 = " + std::to_string(T64) + ")");
    {
        // The coefficients (D×m), the initial T×m QR, the optimizer's state and gradients: ~8 copies.
        const std::uint64_t need = 8ULL * static_cast<std::uint64_t>(blockSize64(p)) * static_cast<std::uint64_t>(m)
                                   * sizeof(double);
        if (T64 > (std::int64_t(1) << 30) || need > kMemoryBudget)
            throw ParamError("quadrics: dimension p=" + std::to_string(p) + " with m=" + std::to_string(m)
                             + " needs D=(p+1)(p+2)/2=" + std::to_string(blockSize64(p)) + " coefficients per quadric, about "
                             + formatBytes(need) + " (limit " + formatBytes(kMemoryBudget)
                             + "); reduce the features first (e.g. PCA) or lower parameter 'm'");
    }
    const int T = static_cast<int>(T64);
    const QuadricDistance kind = parseQuadricDistance(params().getChoice("distance"));
    const double lambda = params().getReal("lambda");
    const int epochs = params().getInt("epochs");
    const auto seed = static_cast<std::uint64_t>(params().getInt("seed"));

    // Normalised coordinates (see the class comment): centre at the mean, unit RMS radius.
    const Eigen::VectorXd mu = X.colwise().mean().transpose();
    Eigen::MatrixXd Y = X.rowwise() - mu.transpose();
    double s = std::sqrt(Y.squaredNorm() / static_cast<double>(n));
    if (!(s > 0.0))
        s = 1.0; // all points equal
    Y /= s;

    const QuadricsObjective obj(p, m, kind, lambda);
    const int Db = QuadricsObjective::blockSize(p);

    // Initialisation as in the authors' implementation: HS-weighted quadratic coefficients Ṽ with
    // random orthonormal columns (QR of a Gaussian matrix, signs fixed by diag R), b and c uniform in [-1, 1].
    Rng rng(seed);
    Eigen::MatrixXd Gauss(T, m);
    for (Eigen::Index i = 0; i < Gauss.size(); ++i)
        Gauss.data()[i] = rng.normal();
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(Gauss);
    Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(T, m);
    for (int k = 0; k < m; ++k)
        if (qr.matrixQR()(k, k) < 0)
            Q.col(k) = -Q.col(k);
    Eigen::VectorXd theta(obj.parameterCount());
    {
        Eigen::Map<Eigen::MatrixXd> Th(theta.data(), Db, m);
        Th.topRows(T) = Q;
        for (int k = 0; k < m; ++k)
            for (int r = T; r < Db; ++r)
                Th(r, k) = rng.uniform(-1.0, 1.0);
    }

    std::unique_ptr<Optimizer> optimizer;
    try {
        optimizer = makeOptimizer(params().getChoice("optimizer"), params().getReal("lr"));
    } catch (const std::invalid_argument& e) {
        throw ParamError(std::string("quadrics: ") + e.what());
    }
    MinibatchOptions opts;
    if (params().isAuto("batch"))
        autoInt("batch", static_cast<int>(std::clamp<Eigen::Index>(n / 16, 64, 256)));
    opts.batchSize = limitInt("batch", params().getInt("batch"), static_cast<int>(std::min<Eigen::Index>(n, 1 << 30)),
                              "a batch is at most the " + std::to_string(n) + " rows");
    opts.epochs = epochs;
    opts.seed = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL; // a stream apart from the init's
    opts.shuffle = true;
    opts.tolerance = params().getReal("tol");
    opts.patience = params().getInt("patience");

    // Progress: the loss after every epoch, mid-epoch reports for long epochs (every 50 ms), and
    // geometry snapshots at most every 50 ms (≤ 20 per second).
    std::vector<double> history;
    history.reserve(static_cast<std::size_t>(std::min(epochs, 1'000'000)));
    const auto start = Clock::now();
    auto lastReport = start, lastSnapshot = start;
    double runningSum = 0.0;
    Eigen::Index runningCount = 0;
    auto snapshot = [&]() {
        auto g = std::make_shared<Geometry>();
        g->quadrics = toOriginal(obj, theta, mu, s);
        lastSnapshot = Clock::now();
        return std::shared_ptr<const Geometry>(std::move(g));
    };
    // The recorded path (the timeline): the state after each recorded epoch, in saveState()'s
    // format without the figures of the finished fit (loadState defaults them).
    auto record = [&](int step, double loss, bool final) {
        if (HistoryRecorder* rec = recorder(); rec && (final || rec->wants(step)))
            rec->record(step, loss,
                        {{"m", m}, {"mean", quadrics_detail::flat(mu)}, {"scale", s},
                         {"theta", quadrics_detail::flat(theta)}},
                        final);
    };
    if (recorder())
        record(0, obj.loss(theta, Y), false);
    auto message = [&](int e) { return "epoch " + std::to_string(e + 1) + "/" + std::to_string(epochs); };

    Eigen::MatrixXd P;
    Eigen::MatrixXf Ysingle, Psingle;
    const bool single = params().getChoice("precision") == "single";
    if (single)
        Ysingle = Y.cast<float>();
    auto gradient = [&](const Eigen::VectorXd& th, const std::vector<Eigen::Index>& rows, Eigen::VectorXd& g) {
        if (single) {
            Psingle = Ysingle(rows, Eigen::all);
            return obj.loss(th, Psingle, &g);
        }
        P = Y(rows, Eigen::all);
        return obj.loss(th, P, &g);
    };
    auto afterBatch = [&](const BatchInfo& b) {
        runningSum += b.loss;
        ++runningCount;
        if (msSince(lastReport) < 50.0 || b.batch + 1 == b.batchesPerEpoch)
            return;
        const double frac = (static_cast<double>(b.epoch)
                             + static_cast<double>(b.batch + 1) / static_cast<double>(b.batchesPerEpoch))
                            / static_cast<double>(epochs);
        lastReport = Clock::now();
        const StepMark inside{"epoch", static_cast<double>(b.epoch) + static_cast<double>(b.batch + 1)
                                                                   / static_cast<double>(b.batchesPerEpoch),
                              epochs};
        progress.report(frac, inside, message(b.epoch), runningSum / static_cast<double>(runningCount),
                        msSince(lastSnapshot) >= 50.0 ? snapshot() : nullptr);
    };
    auto afterEpoch = [&](const EpochInfo& e) {
        history.push_back(e.meanLoss);
        record(e.epoch + 1, e.meanLoss, false);
        runningSum = 0.0;
        runningCount = 0;
        lastReport = Clock::now();
        // Every epoch's end carries its geometry: a step-by-step training pauses here, and the view
        // must draw this epoch (throttled, an epoch shorter than 50 ms after the last snapshot left a
        // paused training with no geometry at all: TestReplay under load, 1 run in 6). The GUI
        // keeps only the newest snapshot, so fast epochs cost a few small matrices each.
        progress.report(static_cast<double>(e.epoch + 1) / static_cast<double>(epochs),
                        StepMark{"epoch", static_cast<double>(e.epoch + 1), epochs}, message(e.epoch),
                        e.meanLoss, snapshot());
    };
    minimizeMinibatch(*optimizer, theta, n, opts, gradient, afterBatch, afterEpoch);
    if (static_cast<int>(history.size()) < epochs) // converged early (tol): the final state for the live view
        progress.report(1.0, "converged after " + std::to_string(history.size()) + " epochs",
                        history.empty() ? 0.0 : history.back(), snapshot());

    if (recorder())
        record(static_cast<int>(history.size()), history.empty() ? obj.loss(theta, Y) : history.back(), true);
    if (!theta.allFinite())
        throw ParamError("quadrics: the optimisation diverged (non-finite coefficients); lower lr");
    const Eigen::MatrixXd dist = obj.distances(theta, Y);
    const double dataTerm = dist.rowwise().sum().mean();
    const double ortho = obj.orthonormalityError(theta);

    // Commit.
    m_mean = mu;
    m_scale = s;
    m_m = m;
    m_theta = std::move(theta);
    m_history = std::move(history);
    m_dataTerm = dataTerm;
    m_orthoError = ortho;
    const double unit = kind == QuadricDistance::Algebraic ? s * s : s;
    return unit * dist.rowwise().mean(); // eq. 16 (in the data's units)
}

} // namespace olens
