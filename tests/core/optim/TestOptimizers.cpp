// The optimisers of core/Optimizers on problems with known answers: a convex quadratic (closed-form
// minimiser), the Rosenbrock function (minimum at (1, 1)), a minibatch least-squares fit with an exact
// solution, the first Adam step (|Δθ| = lr per coordinate by bias correction), and the seeded shuffling.
#include "optim/Optimizers.h"
#include "base/Rng.h"

#include <cmath>
#include <QtTest>

#include <algorithm>
#include <set>
#include <Eigen/Dense>

using namespace olens;

namespace {

// f(x) = ½ xᵀHx − gᵀx with H symmetric positive definite: minimiser x* = H⁻¹g.
struct Quadratic {
    Eigen::MatrixXd H;
    Eigen::VectorXd g;
    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const
    {
        grad = H * x - g;
        return 0.5 * x.dot(H * x) - g.dot(x);
    }
};

Quadratic makeQuadratic()
{
    Eigen::MatrixXd H(3, 3);
    H << 4, 1, 0, 1, 3, 0.5, 0, 0.5, 2; // eigenvalues in [1.5, 4.6]
    Eigen::VectorXd g(3);
    g << 1, -2, 3;
    return {H, g};
}

// Rosenbrock f(x, y) = (1 − x)² + 100 (y − x²)², minimum 0 at (1, 1).
double rosenbrock(const Eigen::VectorXd& v, Eigen::VectorXd& grad)
{
    const double x = v(0), y = v(1);
    grad.resize(2);
    grad(0) = -2.0 * (1.0 - x) - 400.0 * x * (y - x * x);
    grad(1) = 200.0 * (y - x * x);
    return (1.0 - x) * (1.0 - x) + 100.0 * (y - x * x) * (y - x * x);
}

} // namespace

class TestOptimizers : public QObject {
    Q_OBJECT

private slots:
    void sgdSolvesConvexQuadratic()
    {
        const Quadratic q = makeQuadratic();
        const Eigen::VectorXd xStar = q.H.ldlt().solve(q.g);
        // Step 0.2 < 2/λ_max: gradient descent contracts with factor max|1 − 0.2λ| ≤ 0.7 per step.
        Sgd sgd(0.2);
        Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
        minimizeFull(sgd, x, 200, q);
        QVERIFY((x - xStar).norm() < 1e-12);
        // Heavy-ball momentum reaches the same point.
        Sgd heavy(0.1, 0.5);
        Eigen::VectorXd y = Eigen::VectorXd::Zero(3);
        minimizeFull(heavy, y, 400, q);
        QVERIFY((y - xStar).norm() < 1e-10);
    }

    void sgdStepIsExact()
    {
        // One step by hand: θ = (1, 2), g = (0.5, −1), lr 0.1 → (0.95, 2.1); with momentum 0.9 the
        // second step uses v = 0.9·g + g = 1.9 g.
        Sgd sgd(0.1, 0.9);
        Eigen::VectorXd th(2), g(2);
        th << 1, 2;
        g << 0.5, -1;
        sgd.step(th, g);
        QVERIFY(std::abs(th(0) - 0.95) < 1e-15 && std::abs(th(1) - 2.1) < 1e-15);
        sgd.step(th, g);
        QVERIFY(std::abs(th(0) - (0.95 - 0.1 * 1.9 * 0.5)) < 1e-15);
        QVERIFY(std::abs(th(1) - (2.1 + 0.1 * 1.9)) < 1e-15);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sgd.step(th, Eigen::VectorXd::Zero(3)));
    }

    void adamFirstStepHasLearningRateSize()
    {
        // Bias correction makes m̂ = g and v̂ = g² on step 1, so Δθ = −lr·g/(|g| + ε) ≈ −lr·sign(g).
        Adam adam(0.01);
        Eigen::VectorXd th = Eigen::VectorXd::Zero(3), g(3);
        g << 1e-3, -5.0, 200.0;
        adam.step(th, g);
        QVERIFY(std::abs(th(0) + 0.01 * 1e-3 / (1e-3 + 1e-8)) < 1e-15);
        QVERIFY(std::abs(th(1) - 0.01 * 5.0 / (5.0 + 1e-8)) < 1e-15);
        QVERIFY(std::abs(th(2) + 0.01 * 200.0 / (200.0 + 1e-8)) < 1e-15);
        QCOMPARE(adam.steps(), 1L);
        adam.reset();
        QCOMPARE(adam.steps(), 0L);
    }

    void adamSolvesConvexQuadratic()
    {
        const Quadratic q = makeQuadratic();
        const Eigen::VectorXd xStar = q.H.ldlt().solve(q.g);
        Adam adam(0.05);
        Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
        minimizeFull(adam, x, 5000, q);
        QVERIFY2((x - xStar).norm() < 1e-6, qPrintable(QString::number((x - xStar).norm())));
    }

    void adamReachesRosenbrockMinimum()
    {
        // Classic start (−1.2, 1); the curved valley defeats plain steps of fixed size, Adam follows it.
        Adam adam(0.01);
        Eigen::VectorXd v(2);
        v << -1.2, 1.0;
        const double f = minimizeFull(adam, v, 20000, rosenbrock);
        QVERIFY2(std::abs(v(0) - 1.0) < 1e-3 && std::abs(v(1) - 1.0) < 2e-3,
                 qPrintable(QString("%1 %2").arg(v(0)).arg(v(1))));
        QVERIFY(f < 1e-6);
    }

    void minibatchLeastSquaresFindsExactCoefficients()
    {
        // y = Xw* exactly; each minibatch gradient vanishes at w*, so SGD and Adam converge to it.
        Rng rng(5);
        const Eigen::Index n = 200, p = 4;
        Eigen::MatrixXd X(n, p);
        for (Eigen::Index i = 0; i < X.size(); ++i)
            X.data()[i] = rng.normal();
        Eigen::VectorXd wStar(p);
        wStar << 1.5, -2.0, 0.25, 3.0;
        const Eigen::VectorXd y = X * wStar;
        auto grad = [&](const Eigen::VectorXd& w, const std::vector<Eigen::Index>& rows, Eigen::VectorXd& g) {
            const Eigen::MatrixXd Xb = X(rows, Eigen::all);
            const Eigen::VectorXd r = Xb * w - y(rows);
            g = Xb.transpose() * r / static_cast<double>(rows.size());
            return 0.5 * r.squaredNorm() / static_cast<double>(rows.size());
        };
        MinibatchOptions o;
        o.batchSize = 16;
        o.epochs = 60;
        o.seed = 3;
        int epochsSeen = 0;
        Eigen::Index batchesSeen = 0;
        std::vector<double> losses;
        Sgd sgd(0.05);
        Eigen::VectorXd w = Eigen::VectorXd::Zero(p);
        const double last = minimizeMinibatch(
            sgd, w, n, o, grad, [&](const BatchInfo&) { ++batchesSeen; },
            [&](const EpochInfo& e) {
                QCOMPARE(e.epoch, epochsSeen++);
                losses.push_back(e.meanLoss);
            });
        QVERIFY((w - wStar).norm() < 1e-8);
        QCOMPARE(epochsSeen, 60);
        QCOMPARE(batchesSeen, Eigen::Index(60 * 13)); // ceil(200/16) = 13 batches per epoch
        QVERIFY(last < 1e-15 && losses.front() > 1.0);

        Adam adam(0.05);
        Eigen::VectorXd v = Eigen::VectorXd::Zero(p);
        o.epochs = 300;
        minimizeMinibatch(adam, v, n, o, grad);
        QVERIFY2((v - wStar).norm() < 1e-4, qPrintable(QString::number((v - wStar).norm())));
    }

    void convergenceStopFollowsTheToleranceRule()
    {
        // A loss that halves each epoch for 5 epochs, then stays flat: with patience 3 the run
        // ends after epoch 5 + 3 = 8 (the rule: 3 epochs in a row without a relative gain of tol).
        int epoch = 0;
        auto lossAt = [&](int e) { return e < 5 ? std::pow(0.5, e) : std::pow(0.5, 4); };
        auto grad = [&](const Eigen::VectorXd&, const std::vector<Eigen::Index>&, Eigen::VectorXd& g) {
            g.setZero();
            return lossAt(epoch);
        };
        MinibatchOptions o;
        o.batchSize = 10;
        o.epochs = 100;
        o.tolerance = 1e-3;
        o.patience = 3;
        Sgd sgd(0.1);
        Eigen::VectorXd w = Eigen::VectorXd::Zero(2);
        int seen = 0;
        minimizeMinibatch(sgd, w, 10, o, grad, {}, [&](const EpochInfo&) { ++seen; ++epoch; });
        QCOMPARE(seen, 8);

        // Gains just above tol keep it running to the epoch cap; tolerance 0 never stops early.
        epoch = 0;
        seen = 0;
        auto slow = [&](const Eigen::VectorXd&, const std::vector<Eigen::Index>&, Eigen::VectorXd& g) {
            g.setZero();
            return std::pow(1.0 - 2e-3, epoch);
        };
        o.epochs = 40;
        minimizeMinibatch(sgd, w, 10, o, slow, {}, [&](const EpochInfo&) { ++seen; ++epoch; });
        QCOMPARE(seen, 40);
        epoch = 0;
        seen = 0;
        o.tolerance = 0.0;
        minimizeMinibatch(sgd, w, 10, o, grad, {}, [&](const EpochInfo&) { ++seen; ++epoch; });
        QCOMPARE(seen, 40);
    }

    void shufflingIsASeededPermutation()
    {
        Rng a(7), b(7), c(8);
        const auto pa = shuffledIndices(1000, a);
        const auto pb = shuffledIndices(1000, b);
        const auto pc = shuffledIndices(1000, c);
        QCOMPARE(pa, pb);
        QVERIFY(pa != pc);
        std::vector<Eigen::Index> sorted = pa;
        std::sort(sorted.begin(), sorted.end());
        for (Eigen::Index i = 0; i < 1000; ++i)
            QCOMPARE(sorted[static_cast<std::size_t>(i)], i);
        // Not the identity, and every position is equally likely: over many shuffles of 4 items,
        // item 0 lands in each slot about a quarter of the time.
        Rng r(1);
        int counts[4] = {0, 0, 0, 0};
        for (int t = 0; t < 4000; ++t) {
            const auto p = shuffledIndices(4, r);
            counts[std::find(p.begin(), p.end(), 0) - p.begin()]++;
        }
        for (int k : counts)
            QVERIFY(k > 850 && k < 1150);
        QVERIFY(shuffledIndices(0, r).empty());
    }

    void scheduleCoversEveryRowOncePerEpoch()
    {
        MinibatchSchedule s(10, 4, 42);
        QCOMPARE(s.batchesPerEpoch(), Eigen::Index(3));
        std::vector<Eigen::Index> batch, first;
        for (int epoch = 0; epoch < 2; ++epoch) {
            s.startEpoch();
            std::vector<Eigen::Index> all;
            std::vector<std::size_t> sizes;
            while (s.next(batch)) {
                sizes.push_back(batch.size());
                all.insert(all.end(), batch.begin(), batch.end());
            }
            QCOMPARE(sizes, (std::vector<std::size_t>{4, 4, 2}));
            std::set<Eigen::Index> unique(all.begin(), all.end());
            QCOMPARE(unique.size(), std::size_t(10));
            if (epoch == 0)
                first = all;
            else
                QVERIFY(all != first); // reshuffled
        }
        // Same seed, same batches.
        MinibatchSchedule t(10, 4, 42);
        t.startEpoch();
        std::vector<Eigen::Index> again;
        while (t.next(batch))
            again.insert(again.end(), batch.begin(), batch.end());
        QCOMPARE(again, first);
    }
};

QTEST_APPLESS_MAIN(TestOptimizers)
#include "TestOptimizers.moc"
