// Per-feature drivers of a score (FeatureAttribution capability, issue #22 item 5): the
// contributions add up to the score as the method defines it — pca: Σ r_j² = ‖r‖² = score² (eq. 2),
// knn: Σ (x − n_k)_j² = score², mcd: Σ δ_j (S⁻¹δ)_j = δᵀS⁻¹δ = score — and each vector equals an
// independent computation written here (brute-force neighbours, the robust T and S in input units).
#include "data/Normalizer.h"
#include "detectors/mcd/McdDetector.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"

#include <QtTest>

#include <algorithm>
#include <numeric>
#include <random>
#include <Eigen/Dense>

using namespace olens;

namespace {

// 5-D data with unequal spreads and a correlated pair, plus three far points.
Eigen::MatrixXd data5(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> g;
    Eigen::MatrixXd X(n + 3, 5);
    for (int i = 0; i < n; ++i) {
        const double a = g(rng), b = g(rng);
        X.row(i) << a, 0.8 * a + 0.3 * b, 2.0 * g(rng), 0.5 * g(rng), g(rng) + 3.0;
    }
    X.row(n) << 4, -4, 0, 0, 3;
    X.row(n + 1) << 0, 0, 9, 0, 3;
    X.row(n + 2) << 0, 0, 0, 5, 3;
    return X;
}

void verifyClose(double got, double want, double rel, const QString& what)
{
    QVERIFY2(std::abs(got - want) <= rel * std::max(1.0, std::abs(want)),
             qPrintable(QString("%1: %2 vs %3").arg(what).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
}

} // namespace

class TestFeatureAttribution : public QObject {
    Q_OBJECT
private slots:
    void pcaSumsToSquaredScore()
    {
        const Eigen::MatrixXd X = data5(200, 1);
        for (int k : {0, 2, 4}) {
            auto d = Registry::instance().create("pca", {{"k", std::to_string(k)}});
            d->fit(X);
            const FeatureAttribution* fa = d->featureAttribution();
            QVERIFY(fa);
            QCOMPARE(fa->attributionTotal(), std::string("score²"));
            for (Eigen::Index i = 0; i < X.rows(); ++i) {
                const Eigen::VectorXd c = fa->attribute(X.row(i).transpose(), int(i));
                QCOMPARE(c.size(), Eigen::Index(5));
                QVERIFY(c.minCoeff() >= 0.0);
                const double s = d->trainingScores()(i);
                verifyClose(c.sum(), s * s, 1e-12, QString("pca k=%1 row %2").arg(k).arg(i));
            }
        }
        // k = 0: the residual is the offset from the mean itself, feature by feature.
        auto d0 = Registry::instance().create("pca", {{"k", "0"}});
        d0->fit(X);
        const Eigen::VectorXd mean = X.colwise().mean();
        const Eigen::VectorXd c = d0->featureAttribution()->attribute(X.row(201).transpose());
        for (int j = 0; j < 5; ++j)
            verifyClose(c(j), std::pow(X(201, j) - mean(j), 2), 1e-12, QString("k=0 feature %1").arg(j));
        QCOMPARE(Eigen::Index(std::max_element(c.data(), c.data() + 5) - c.data()), Eigen::Index(2)); // the far feature
    }

    void knnIsTheKthNeighbourDifference()
    {
        const Eigen::MatrixXd X = data5(150, 2);
        const int k = 4;
        auto d = Registry::instance().create("knn", {{"k", std::to_string(k)}});
        d->fit(X);
        const FeatureAttribution* fa = d->featureAttribution();
        QVERIFY(fa);
        const Eigen::Index n = X.rows();
        // Brute force: the k-th nearest other row (training rows leave themselves out).
        auto kth = [&](const Eigen::VectorXd& x, Eigen::Index self) {
            std::vector<std::pair<double, Eigen::Index>> dist;
            for (Eigen::Index j = 0; j < n; ++j)
                if (j != self)
                    dist.emplace_back((X.row(j).transpose() - x).squaredNorm(), j);
            std::sort(dist.begin(), dist.end());
            return dist[std::size_t(k - 1)].second;
        };
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::VectorXd x = X.row(i).transpose();
            const Eigen::VectorXd c = fa->attribute(x, int(i));
            const Eigen::VectorXd want = (x - X.row(kth(x, i)).transpose()).array().square();
            QVERIFY2((c - want).norm() <= 1e-12 * (1.0 + want.norm()), qPrintable(QString("row %1").arg(i)));
            const double s = d->trainingScores()(i);
            verifyClose(c.sum(), s * s, 1e-12, QString("knn row %1").arg(i));
        }
        // A new point: all training rows are candidates.
        Eigen::MatrixXd Q(1, 5);
        Q << 1.0, -2.0, 0.5, 3.0, 2.0;
        const Eigen::VectorXd q = Q.row(0).transpose();
        const Eigen::VectorXd c = fa->attribute(q);
        const Eigen::VectorXd want = (q - X.row(kth(q, -1)).transpose()).array().square();
        QVERIFY((c - want).norm() <= 1e-12 * (1.0 + want.norm()));
        verifyClose(c.sum(), std::pow(d->score(Q)(0), 2), 1e-12, "knn new point");
    }

    void mcdSplitsTheMahalanobisDistance()
    {
        const Eigen::MatrixXd X = data5(300, 3);
        auto det = Registry::instance().create("mcd", {{"seed", "1"}});
        det->fit(X);
        const FeatureAttribution* fa = det->featureAttribution();
        QVERIFY(fa);
        QCOMPARE(fa->attributionTotal(), std::string("score"));
        // Independent: δ ∘ S⁻¹δ with T and S in input units (invariant to the internal per-column
        // scaling: D⁻¹δ ∘ (D S⁻¹ D)D⁻¹δ = δ ∘ S⁻¹δ).
        const auto* mcd = dynamic_cast<const McdDetector*>(det.get()); // test only: T and S
        QVERIFY(mcd);
        const Eigen::MatrixXd Sinv = mcd->covariance().inverse();
        for (Eigen::Index i = 0; i < X.rows(); ++i) {
            const Eigen::VectorXd x = X.row(i).transpose();
            const Eigen::VectorXd c = fa->attribute(x, int(i));
            const Eigen::VectorXd delta = x - mcd->location();
            const Eigen::VectorXd want = delta.cwiseProduct(Sinv * delta);
            QVERIFY2((c - want).norm() <= 1e-8 * (1.0 + want.norm()), qPrintable(QString("row %1").arg(i)));
            verifyClose(c.sum(), det->trainingScores()(i), 1e-10, QString("mcd row %1").arg(i));
        }
    }

    void pipelineUsesTheNormalisedRowsAndTheTrainingExclusion()
    {
        const Eigen::MatrixXd X = data5(120, 4);
        auto r = fitPipeline(Registry::instance().create("knn", {{"k", "3"}}), Normalizer(Normalization::ZScore), X);
        for (int i : {0, 50, 121, 122}) {
            const Eigen::VectorXd c = featureContributions(*r, X, i);
            QCOMPARE(c.size(), Eigen::Index(5));
            verifyClose(c.sum(), r->scores(i) * r->scores(i), 1e-12, QString("row %1").arg(i));
        }
        QCOMPARE(featureContributions(*r, X, -1).size(), Eigen::Index(0));
        QCOMPARE(featureContributions(*r, X, int(X.rows())).size(), Eigen::Index(0));
        // "Fitted on these rows" asked once (the SPLOM caches it per result and data): the same
        // contributions; other rows are not the training rows, and their point is then a new one
        // (kNN keeps it among its neighbours: contribution of the nearest other point differs).
        QVERIFY(fittedOnRows(*r, X));
        for (int i : {0, 50})
            QCOMPARE(featureContributions(*r, X, i, true), featureContributions(*r, X, i));
        Eigen::MatrixXd moved = X;
        moved(7, 2) += 1e-9;
        QVERIFY(!fittedOnRows(*r, moved));
        QVERIFY(!fittedOnRows(*r, X.topRows(X.rows() - 1)));
        QCOMPARE(featureContributions(*r, moved, 50), featureContributions(*r, X, 50, false));
        // Detectors without the capability say so (no guess).
        auto lof = fitPipeline(Registry::instance().create("lof"), Normalizer(), X);
        QVERIFY(!lof->detector->featureAttribution());
        QCOMPARE(featureContributions(*lof, X, 0).size(), Eigen::Index(0));
    }
};

QTEST_APPLESS_MAIN(TestFeatureAttribution)
#include "TestFeatureAttribution.moc"
