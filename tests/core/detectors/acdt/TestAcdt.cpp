// ACDT: Grassmann distance and flag mean, the greedy merging (hand-computed order), graph
// connectivity of every cluster, final flats/MSRE, the bounded-patch score, the dendrogram replay,
// JSON round trip, reproducibility and the detector contract.
#include "detectors/acdt/AcdtDetector.h"
#include "base/Errors.h"
#include "data/Generators.h"
#include "linalg/Grassmann.h"
#include "registry/Registry.h"
#include "base/Rng.h"

#include <nlohmann/json.hpp>
#include <QtTest>
#include <QFile>

#include <set>
#include <Eigen/Dense>

using namespace olens;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

Eigen::MatrixXd randomMatrix(Eigen::Index r, Eigen::Index c, Rng& rng)
{
    Eigen::MatrixXd M(r, c);
    for (Eigen::Index i = 0; i < M.size(); ++i)
        M.data()[i] = rng.normal();
    return M;
}

/// N×d orthonormal basis of a random subspace.
Eigen::MatrixXd randomBasis(Eigen::Index N, Eigen::Index d, Rng& rng)
{
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(randomMatrix(N, d, rng));
    return qr.householderQ() * Eigen::MatrixXd::Identity(N, d);
}

Eigen::MatrixXd randomOrthogonal(Eigen::Index N, Rng& rng)
{
    return randomBasis(N, N, rng);
}

Eigen::MatrixXd lineAt(double angle)
{
    return (Eigen::MatrixXd(2, 1) << std::cos(angle), std::sin(angle)).finished();
}

int distinct(const std::vector<int>& labels)
{
    return static_cast<int>(std::set<int>(labels.begin(), labels.end()).size());
}

/// Is every cluster of `labels` connected in the subgraph induced on its members?
bool clustersConnected(const acdt::Graph& g, const std::vector<int>& labels)
{
    const int n = static_cast<int>(labels.size());
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    std::set<int> started;
    for (int s = 0; s < n; ++s) {
        if (seen[static_cast<std::size_t>(s)])
            continue;
        if (!started.insert(labels[static_cast<std::size_t>(s)]).second)
            return false; // a second piece of a cluster already visited
        std::vector<int> stack{s};
        seen[static_cast<std::size_t>(s)] = 1;
        while (!stack.empty()) {
            const int x = stack.back();
            stack.pop_back();
            for (int y : g[static_cast<std::size_t>(x)])
                if (!seen[static_cast<std::size_t>(y)] && labels[static_cast<std::size_t>(y)] == labels[static_cast<std::size_t>(x)]) {
                    seen[static_cast<std::size_t>(y)] = 1;
                    stack.push_back(y);
                }
        }
    }
    return true;
}

AcdtDetector& asAcdt(const std::unique_ptr<Detector>& d)
{
    return dynamic_cast<AcdtDetector&>(*d);
}

} // namespace

class TestAcdt : public QObject {
    Q_OBJECT

private slots:
    // ---- Grassmann distance D_T ----------------------------------------------------------------

    void leadingSingularVectorsOfARankDeficientNeighbourhood()
    {
        // Regression: Eigen 3.4's BDCSVD crashed (SIGSEGV in perturbCol0) on this 57×57 matrix of
        // neighbour differences from z-scored Spambase (k = 32, rank 40, 12 zero rows), which killed
        // `evaluate --detector acdt --param k=32` on Spambase. Checked against the leading
        // eigenvectors of M Mᵀ (an independent route) through their projector.
        QFile f(QStringLiteral(OLENS_SOURCE_DIR "/tests/core/detectors/acdt/spambase-neighbourhood-57x57.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        std::vector<double> v;
        Eigen::Index rows = 0;
        while (!f.atEnd()) {
            const QString line = QString::fromUtf8(f.readLine()).trimmed();
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            for (const QString& t : line.split(' ', Qt::SkipEmptyParts))
                v.push_back(t.toDouble());
            ++rows;
        }
        QCOMPARE(rows, Eigen::Index(57));
        const Eigen::MatrixXd M = Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(v.data(), 57, 57);
        const Eigen::MatrixXd U = grassmann::leadingLeftSingularVectors(M, 2);
        QCOMPARE(U.cols(), Eigen::Index(2));
        QVERIFY((U.transpose() * U - Eigen::Matrix2d::Identity()).norm() < 1e-12);
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M * M.transpose());
        const Eigen::MatrixXd E = es.eigenvectors().rightCols(2); // ascending: the two largest
        QVERIFY((U * U.transpose() - E * E.transpose()).norm() < 1e-9);
    }

    void distanceIsZeroForEqualSubspaces()
    {
        Rng rng(1);
        for (int d : {1, 2, 3}) {
            const Eigen::MatrixXd A = randomBasis(6, d, rng);
            QVERIFY(grassmann::distance(A, A) < 1e-14);
            // Same subspace, another orthonormal basis (A·R, R orthogonal d×d).
            const Eigen::MatrixXd B = A * randomOrthogonal(d, rng);
            QVERIFY(grassmann::distance(A, B) < 1e-14);
            QVERIFY(grassmann::distance(B, A) < 1e-14);
        }
    }

    void distanceIsSymmetric()
    {
        Rng rng(2);
        for (int d : {1, 2, 3})
            for (int rep = 0; rep < 20; ++rep) {
                const Eigen::MatrixXd A = randomBasis(5, d, rng), B = randomBasis(5, d, rng);
                QVERIFY(std::abs(grassmann::distance(A, B) - grassmann::distance(B, A)) < 1e-13);
            }
    }

    void twoLinesInAPlaneAtAngleTheta()
    {
        // D_T of the lines spanned by (1,0) and (cos θ, sin θ) is θ for θ ∈ [0, π/2] (and π − θ
        // beyond: lines have no orientation). θ = 1e-10 checks the sine branch: arccos of the
        // cosine would be off by ~1e-8.
        for (double theta : {1e-10, 1e-5, 0.3, 1.0, 1.2, kPi / 2}) {
            const double D = grassmann::distance(lineAt(0.0), lineAt(theta));
            QVERIFY2(std::abs(D - theta) <= 1e-15 + 1e-12 * theta, qPrintable(QString::number(D - theta)));
        }
        QVERIFY(std::abs(grassmann::distance(lineAt(0.0), lineAt(kPi - 0.2)) - 0.2) < 1e-14);
        // The same lines embedded in R^5 by a random rotation.
        Rng rng(3);
        const Eigen::MatrixXd Q = randomOrthogonal(5, rng);
        Eigen::MatrixXd a = Eigen::MatrixXd::Zero(5, 1), b = Eigen::MatrixXd::Zero(5, 1);
        a(0, 0) = 1;
        b(0, 0) = std::cos(0.7);
        b(1, 0) = std::sin(0.7);
        QVERIFY(std::abs(grassmann::distance(Q * a, Q * b) - 0.7) < 1e-14);
    }

    void planesWithKnownPrincipalAngles()
    {
        // span{e1, e2} against span{cos θ1 e1 + sin θ1 e3, cos θ2 e2 + sin θ2 e4}: principal
        // angles θ1, θ2, so D_T = √(θ1² + θ2²); invariant under a common rotation. Mixed tiny and
        // large angles exercise the sine/cosine combination of the d = 2 closed form and, with a
        // third pair (θ3 on e5/e6), of the Jacobi path.
        Rng rng(4);
        const Eigen::MatrixXd Q = randomOrthogonal(6, rng);
        const double pairs[][3] = {{1e-9, 1.3}, {0.25, 0.6}, {1e-7, 2e-8}, {kPi / 2, 0.1}};
        for (const auto& t : pairs) {
            Eigen::MatrixXd A = Eigen::MatrixXd::Zero(6, 3), B = Eigen::MatrixXd::Zero(6, 3);
            for (int i = 0; i < 3; ++i) {
                A(2 * i, i) = 1;
                B(2 * i, i) = std::cos(t[i]);
                B(2 * i + 1, i) = std::sin(t[i]);
            }
            // Rows 0, 2, 4 hold A; B tilts each column into rows 1, 3, 5.
            const Eigen::MatrixXd A2 = Q * A.leftCols(2), B2 = Q * B.leftCols(2);
            const double want2 = std::hypot(t[0], t[1]);
            QVERIFY(std::abs(grassmann::distance(A2, B2) - want2) <= 1e-15 + 1e-9 * want2);
            const Eigen::VectorXd angles = grassmann::principalAngles(A2, B2);
            QVERIFY(std::abs(angles(0) - std::min(t[0], t[1])) <= 1e-15 + 1e-9 * std::min(t[0], t[1]));
            QVERIFY(std::abs(angles(1) - std::max(t[0], t[1])) <= 1e-15 + 1e-9 * std::max(t[0], t[1]));
            const double want3 = std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
            QVERIFY(std::abs(grassmann::distance(Q * A, Q * B) - want3) <= 1e-15 + 1e-9 * want3);
        }
    }

    void closedFormAgreesWithPlainSvdForModerateAngles()
    {
        // For angles away from 0 the textbook arccos(σ(AᵀB)) is accurate: compare.
        Rng rng(5);
        for (int d : {1, 2, 3})
            for (int rep = 0; rep < 30; ++rep) {
                const Eigen::MatrixXd A = randomBasis(7, d, rng), B = randomBasis(7, d, rng);
                const Eigen::VectorXd s = Eigen::JacobiSVD<Eigen::MatrixXd>(A.transpose() * B).singularValues();
                const double plain = s.unaryExpr([](double c) { return std::acos(std::min(c, 1.0)); }).norm();
                QVERIFY(std::abs(grassmann::distance(A, B) - plain) < 1e-7);
            }
    }

    // ---- flag (Karcher) mean ---------------------------------------------------------------------

    void flagMeanOfIdenticalSubspacesIsThatSubspace()
    {
        Rng rng(6);
        const Eigen::MatrixXd A = randomBasis(5, 2, rng);
        std::vector<Eigen::MatrixXd> same;
        for (int i = 0; i < 4; ++i)
            same.push_back(A * randomOrthogonal(2, rng)); // other bases of the same plane
        const Eigen::MatrixXd M = grassmann::flagMean(same, 2);
        QVERIFY((M.transpose() * M - Eigen::MatrixXd::Identity(2, 2)).norm() < 1e-14);
        QVERIFY(grassmann::distance(M, A) < 1e-14);
        // The running projector sum gives the same mean.
        auto sum = grassmann::ProjectorSum::of(same[0]);
        for (std::size_t i = 1; i < same.size(); ++i)
            sum = grassmann::ProjectorSum::merged(sum, grassmann::ProjectorSum::of(same[i]), 2);
        QVERIFY(grassmann::distance(sum.mean(), A) < 1e-14);
    }

    void flagMeanOfTwoLinesIsTheBisector()
    {
        // Σ projectors of the lines at α and β in R² has its leading eigenvector at (α + β)/2.
        const std::vector<Eigen::MatrixXd> lines{lineAt(10 * kDeg), lineAt(50 * kDeg)};
        QVERIFY(grassmann::distance(grassmann::flagMean(lines, 1), lineAt(30 * kDeg)) < 1e-14);
        // Three lines at 0°, 10°, 12°: angle ½·atan2(Σ sin 2θ, Σ cos 2θ).
        const std::vector<Eigen::MatrixXd> three{lineAt(0), lineAt(10 * kDeg), lineAt(12 * kDeg)};
        const double phi = 0.5 * std::atan2(std::sin(20 * kDeg) + std::sin(24 * kDeg),
                                            1 + std::cos(20 * kDeg) + std::cos(24 * kDeg));
        QVERIFY(grassmann::distance(grassmann::flagMean(three, 1), lineAt(phi)) < 1e-14);
    }

    void projectorSumIsOrderIndependent()
    {
        // Merging in two different orders (as the dendrogram may) gives the flag mean of all:
        // small (direct eigensolver, factor then dense) and large (N = 90: subspace iteration on
        // the factor, then on the dense sum) problems. Bases are perturbations of one subspace,
        // as in a cluster, plus a few unrelated ones.
        for (const auto& [N, d] : {std::pair<int, int>{4, 2}, std::pair<int, int>{90, 3}}) {
            Rng rng(7);
            const Eigen::MatrixXd base = randomBasis(N, d, rng);
            std::vector<grassmann::ProjectorSum> B;
            std::vector<Eigen::MatrixXd> bases;
            for (int i = 0; i < 60; ++i) {
                const double spread = i % 10 == 9 ? 1.0 : 0.2;
                const Eigen::HouseholderQR<Eigen::MatrixXd> qr(base + spread * randomMatrix(N, d, rng));
                bases.push_back(qr.householderQ() * Eigen::MatrixXd::Identity(N, d));
                B.push_back(grassmann::ProjectorSum::of(bases.back()));
            }
            auto left = B[0];
            for (std::size_t i = 1; i < B.size(); ++i)
                left = grassmann::ProjectorSum::merged(left, B[i], d);
            auto p = grassmann::ProjectorSum::merged(B[0], B[1], d);
            auto q = grassmann::ProjectorSum::merged(B[2], B[3], d);
            for (std::size_t i = 4; i < B.size(); ++i)
                q = grassmann::ProjectorSum::merged(q, B[i], d);
            const auto tree = grassmann::ProjectorSum::merged(p, q, d);
            const Eigen::MatrixXd all = grassmann::flagMean(bases, d);
            QVERIFY2(grassmann::distance(left.mean(), all) < 1e-10, qPrintable(QString::number(N)));
            QVERIFY2(grassmann::distance(tree.mean(), all) < 1e-10, qPrintable(QString::number(N)));
            QVERIFY((left.mean().transpose() * left.mean() - Eigen::MatrixXd::Identity(d, d)).norm() < 1e-12);
            QVERIFY((left.projector() - tree.projector()).norm() < 1e-10 * left.projector().norm());
        }
    }

    // ---- greedy merging ------------------------------------------------------------------------

    void mergeOrderOnHandMadeExample()
    {
        // Path graph 0–1–2–3–4 in R², d = 1, tangent lines at 0°, 10°, 12°, 30°, 42°.
        // d̃(Ci,Cj) = (|Ci|+|Cj|) D² + 2D (S_i + S_j), S = Σ_{x∈C} D_T(M_x, M_C); in degrees²:
        //  singletons (S = 0): (0,1) 2·10² = 200, (1,2) 2·2² = 8, (2,3) 2·18² = 648, (3,4) 2·12² = 288
        //  merge 0: (1,2) at 8 → cluster 5, mean 11° (bisector), S5 = 1 + 1 = 2
        //    new pairs: (0,5) D = 11: 3·121 + 2·11·2 = 407;  (5,3) D = 19: 3·361 + 2·19·2 = 1159
        //  merge 1: (3,4) at 288 → cluster 6, mean 36°, S6 = 12      [note D(0,5) = 11 < 12]
        //    new pair: (5,6) D = 25: 4·625 + 2·25·(2 + 12) = 3200
        //  merge 2: (0,5) at 407 → cluster 7 = {0,1,2}, mean φ = ½ atan2(Σ sin 2θ, Σ cos 2θ) ≈ 7.3526°,
        //    S7 = φ + (10 − φ) + (12 − φ) = 22 − φ ≈ 14.647
        //    new pair: (6,7) D = 36 − φ ≈ 28.647: 5 D² + 2 D (S7 + S6) ≈ 5630.2
        //  merge 3: (6,7).
        const double deg[] = {0, 10, 12, 30, 42};
        Eigen::MatrixXd T(2, 5);
        for (int i = 0; i < 5; ++i)
            T.col(i) = lineAt(deg[i] * kDeg);
        const acdt::Graph path{{1}, {0, 2}, {1, 3}, {2, 4}, {3}};
        int observed = 0;
        const auto history = acdt::greedyMerge(T, 1, path, [&](const std::vector<acdt::Merge>& h) {
            QCOMPARE(static_cast<int>(h.size()), ++observed);
        });
        QCOMPARE(history.size(), std::size_t(4));
        QCOMPARE(observed, 4);
        const int want[4][2] = {{1, 2}, {3, 4}, {0, 5}, {6, 7}};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(history[static_cast<std::size_t>(i)].a, want[i][0]);
            QCOMPARE(history[static_cast<std::size_t>(i)].b, want[i][1]);
        }
        const double r2 = kDeg * kDeg;
        const double phi = 0.5 * std::atan2(std::sin(20 * kDeg) + std::sin(24 * kDeg),
                                            1 + std::cos(20 * kDeg) + std::cos(24 * kDeg)) / kDeg;
        const double D7 = 36 - phi, S7 = 22 - phi;
        const double wantCost[4] = {8 * r2, 288 * r2, 407 * r2, (5 * D7 * D7 + 2 * D7 * (S7 + 12)) * r2};
        for (int i = 0; i < 4; ++i)
            QVERIFY(std::abs(history[static_cast<std::size_t>(i)].cost - wantCost[i]) < 1e-12);
        QCOMPARE(history[2].size, 3);
        QCOMPARE(history[3].size, 5);
        // P(C) = Σ_C Σ_x D_T²(M_x, M_C): after merge 0 it is 1² + 1², after merge 1 also + 6² + 6².
        QVERIFY(std::abs(history[0].partitionCost - 2 * r2) < 1e-14);
        QVERIFY(std::abs(history[1].partitionCost - 74 * r2) < 1e-14);
        // Replaying: L = 3 is {0}, {1,2}, {3,4}; L = 2 is {0,1,2}, {3,4}.
        QCOMPARE(acdt::labelsAfterMerges(5, history, 2), (std::vector<int>{0, 1, 1, 2, 2}));
        QCOMPARE(acdt::labelsAfterMerges(5, history, 3), (std::vector<int>{0, 0, 0, 1, 1}));
    }

    void mergingStopsAtGraphComponents()
    {
        // Two components {0,1,2} and {3,4}: never merged across, 3 merges in total.
        Eigen::MatrixXd T(2, 5);
        for (int i = 0; i < 5; ++i)
            T.col(i) = lineAt(i * 5 * kDeg);
        const acdt::Graph g{{1}, {0, 2}, {1}, {4}, {3}};
        const auto history = acdt::greedyMerge(T, 1, g);
        QCOMPARE(history.size(), std::size_t(3));
        QCOMPARE(acdt::labelsAfterMerges(5, history, 3), (std::vector<int>{0, 0, 0, 1, 1}));
    }

    void everyClusterIsGraphConnectedAtEveryL()
    {
        const Dataset data = generate("swissroll", 600, 17, {{"noise", "0.2"}});
        auto det = Registry::instance().create("acdt", {{"k", "10"}, {"d", "2"}});
        det->fit(data.X);
        const auto& acdt = asAcdt(det);
        const auto& g = acdt.graph();
        const auto& history = acdt.mergeHistory();
        const int n = 600;
        QCOMPARE(static_cast<int>(history.size()), n - acdt.minClusterCount());
        // Induction over the dendrogram: each merge joins two clusters linked by an edge (Ψ) ...
        std::vector<int> labels(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < history.size(); ++i) {
            labels = acdt::labelsAfterMerges(n, history, static_cast<int>(i));
            const auto after = acdt::labelsAfterMerges(n, history, static_cast<int>(i) + 1);
            bool linked = false;
            for (int x = 0; x < n && !linked; ++x)
                for (int y : g[static_cast<std::size_t>(x)])
                    if (labels[static_cast<std::size_t>(x)] != labels[static_cast<std::size_t>(y)]
                        && after[static_cast<std::size_t>(x)] == after[static_cast<std::size_t>(y)]) {
                        linked = true;
                        break;
                    }
            QVERIFY2(linked, qPrintable(QString("merge %1 joins clusters without an edge").arg(i)));
            QCOMPARE(distinct(after), n - static_cast<int>(i) - 1);
        }
        // ... and directly at several L.
        for (int L : {1, 2, 3, 5, 8, 13, 40, 150, 599, 600}) {
            const auto lab = acdt.labelsForClusterCount(L);
            QCOMPARE(distinct(lab), std::max(L, acdt.minClusterCount()));
            QVERIFY2(clustersConnected(g, lab), qPrintable(QString("L=%1").arg(L)));
        }
    }

    // ---- final flats and MSRE ------------------------------------------------------------------

    void msreIsZeroOnExactlyPlanarPieces()
    {
        // Two non-coplanar planar patches (noise 0) 100 apart: the kNN graph has two components,
        // so L = 2 gives one cluster per patch and each flat reproduces its patch exactly.
        Rng rng(8);
        const int m = 200;
        Eigen::MatrixXd X(2 * m, 3);
        const Eigen::Matrix3d R = Eigen::AngleAxisd(0.9, Eigen::Vector3d(1, -2, 0.5).normalized()).toRotationMatrix();
        for (int i = 0; i < m; ++i) {
            const double u = rng.uniform(0, 2), v = rng.uniform(0, 1);
            X.row(i) << u, v, 0.0;
            X.row(m + i) = (R * Eigen::Vector3d(3 * rng.uniform(), rng.uniform(), 0.0)).transpose()
                         + Eigen::RowVector3d(100, 100, 100);
        }
        auto det = Registry::instance().create("acdt", {{"k", "10"}, {"L", "2"}});
        det->fit(X);
        const auto& acdt = asAcdt(det);
        QCOMPARE(acdt.clusterCount(), 2);
        QCOMPARE(det->figures().at("graph_components"), 2.0);
        const auto labels = acdt.labelsForClusterCount(2);
        for (int i = 0; i < m; ++i) {
            QCOMPARE(labels[static_cast<std::size_t>(i)], 0);
            QCOMPARE(labels[static_cast<std::size_t>(m + i)], 1);
        }
        // Relative to the members' spread around their own cluster mean.
        double spread = 0.0;
        for (int c = 0; c < 2; ++c) {
            const auto block = X.middleRows(c * m, m);
            spread += (block.rowwise() - block.colwise().mean()).squaredNorm();
        }
        spread /= 2 * m;
        const double msre = det->figures().at("msre");
        QVERIFY2(msre / spread < 1e-20, qPrintable(QString::number(msre / spread)));
        QCOMPARE(acdt.msreForClusterCount(2), msre);
        QVERIFY((acdt.reconstruction(2) - X).norm() < 1e-9);
        QVERIFY(det->trainingScores().maxCoeff() < 1e-9);
    }

    void scoreIsDistanceToTheBoundedPatch()
    {
        // A 4×1 grid rectangle in the plane z = 0 (symmetric grid: principal axes exactly x and y,
        // extent t_x ∈ [−2, 2], t_y ∈ [−0.5, 0.5] around the centre (2, 0.5, 0)). One flat (L = 1).
        // Patch rule: t clamped to [lower − 0.1·len, upper + 0.1·len], i.e. t_x ∈ [−2.4, 2.4].
        Eigen::MatrixXd X(17 * 5, 3);
        for (int i = 0; i < 17; ++i)
            for (int j = 0; j < 5; ++j)
                X.row(i * 5 + j) << 0.25 * i, 0.25 * j, 0.0;
        auto det = Registry::instance().create("acdt", {{"k", "8"}, {"L", "1"}, {"score_rule", "patch"}});
        det->fit(X);
        const Geometry g = det->geometry();
        QCOMPARE(g.flats.size(), std::size_t(1));
        QVERIFY(std::abs((g.flats[0].upper - g.flats[0].lower).maxCoeff() - 4.0) < 1e-12);
        Eigen::MatrixXd Q(5, 3);
        Q << 2, 0.5, 0,    // centre: 0
            1, 0.5, 3,     // above the patch: 3
            10, 0.5, 0,    // in the plane, 8 along x from the centre: 8 − 2.4 = 5.6
            -1, 0.5, 0,    // 3 from the centre along x: 3 − 2.4 = 0.6
            10, 2.5, 2;    // beyond in x (5.6) and y (2 − 0.6 = 1.4) and above (2)
        const Eigen::VectorXd s = det->score(Q);
        const double want[] = {0, 3, 5.6, 0.6, std::sqrt(5.6 * 5.6 + 1.4 * 1.4 + 4)};
        for (int i = 0; i < 5; ++i)
            QVERIFY2(std::abs(s(i) - want[i]) < 1e-9, qPrintable(QString("%1: %2").arg(i).arg(s(i))));
        QVERIFY(det->trainingScores().maxCoeff() < 1e-12);
        QCOMPARE(det->explain(Q).size(), std::size_t(5));
    }

    void tinyClustersDoNotScore()
    {
        // Flats of clusters with fewer than k members are drawn but do not score.
        std::vector<Flat> flats(2);
        for (int c = 0; c < 2; ++c) {
            flats[static_cast<std::size_t>(c)].origin = Eigen::Vector2d(10.0 * c, 0);
            flats[static_cast<std::size_t>(c)].basis = Eigen::Vector2d(1, 0);
            flats[static_cast<std::size_t>(c)].lower = Eigen::VectorXd::Constant(1, -1);
            flats[static_cast<std::size_t>(c)].upper = Eigen::VectorXd::Constant(1, 1);
            flats[static_cast<std::size_t>(c)].cluster = c;
        }
        const std::vector<int> labels{0, 0, 0, 1};
        QCOMPARE(acdt::supportedFlats(flats, labels, 3).size(), std::size_t(1));
        QCOMPARE(acdt::supportedFlats(flats, labels, 3)[0].cluster, 0);
        QCOMPARE(acdt::supportedFlats(flats, labels, 5).size(), std::size_t(2)); // none qualifies: all
        // (10, 2) is 2 above flat 1 but, flat 1 not scoring, √(8.8² + 2²) from flat 0's patch [−1.2, 1.2].
        const Eigen::MatrixXd q = (Eigen::MatrixXd(1, 2) << 10, 2).finished();
        QVERIFY(std::abs(acdt::patchDistance(q, acdt::supportedFlats(flats, labels, 3), 0.1)(0)
                         - std::hypot(8.8, 2.0)) < 1e-12);
        // In a fit: with many clusters on a noisy roll with background points, members of
        // clusters smaller than k keep a positive score (they do not sit on their own flat).
        const Dataset data = generate("swissroll", 600, 4, {{"outliers", "0.05"}});
        auto det = Registry::instance().create("acdt", {{"k", "10"}, {"L", "200"}});
        det->fit(data.X);
        const auto labels200 = asAcdt(det).labelsForClusterCount(200);
        std::vector<int> count(200, 0);
        for (int l : labels200)
            ++count[static_cast<std::size_t>(l)];
        int tiny = 0;
        for (int x = 0; x < 600; ++x)
            if (count[static_cast<std::size_t>(labels200[static_cast<std::size_t>(x)])] < 10) {
                ++tiny;
                QVERIFY(det->trainingScores()(x) > 1e-6);
            }
        QVERIFY(tiny > 0);
        QVERIFY(det->figures().at("scoring_flats") < 200);
    }

    // ---- dendrogram replay, persistence, reproducibility ------------------------------------------

    void labelsForClusterCountFollowTheHistory()
    {
        const Dataset data = generate("scurve", 500, 5);
        auto det = Registry::instance().create("acdt", {{"L", "12"}});
        det->fit(data.X);
        const auto& acdt = asAcdt(det);
        QCOMPARE(acdt.clusterCount(), 12);
        QCOMPARE(det->figures().at("clusters"), 12.0);
        QCOMPARE(det->geometry().clusterOfPoint, acdt.labelsForClusterCount(12));
        const int n = 500;
        const auto& history = acdt.mergeHistory();
        for (int L = std::max(1, acdt.minClusterCount()); L <= 40; ++L) {
            const auto coarse = acdt.labelsForClusterCount(L);
            const auto fine = acdt.labelsForClusterCount(L + 1);
            QCOMPARE(distinct(coarse), L);
            QCOMPARE(static_cast<int>(acdt.flatsForClusterCount(L).size()), L);
            // Going from L+1 to L merges exactly the two clusters of merge n − L − 1: every fine
            // cluster lies in one coarse cluster, and exactly one coarse cluster has two parts.
            std::map<int, std::set<int>> parts;
            for (int x = 0; x < n; ++x)
                parts[coarse[static_cast<std::size_t>(x)]].insert(fine[static_cast<std::size_t>(x)]);
            int joined = 0;
            for (const auto& [c, p] : parts)
                joined += p.size() == 2 ? 1 : 0;
            QCOMPARE(joined, 1);
            // That coarse cluster has the size recorded in the history.
            const acdt::Merge& m = history[static_cast<std::size_t>(n - L - 1)];
            const auto it = std::find_if(parts.begin(), parts.end(), [](const auto& kv) { return kv.second.size() == 2; });
            QCOMPARE(static_cast<int>(std::count(coarse.begin(), coarse.end(), it->first)), m.size);
        }
        // Out-of-range L is clamped to [graph components, n].
        QCOMPARE(distinct(acdt.labelsForClusterCount(100000)), n);
        QCOMPARE(distinct(acdt.labelsForClusterCount(0)), acdt.minClusterCount());
        QCOMPARE(acdt.reconstruction(7).rows(), Eigen::Index(n));
    }

    void jsonRoundTripReproducesScores()
    {
        const Dataset data = generate("swissroll", 400, 9, {{"outliers", "0.05"}});
        const Dataset test = generate("swissroll", 100, 10, {{"outliers", "0.2"}});
        auto det = Registry::instance().create("acdt", {{"L", "9"}, {"k", "12"}});
        det->fit(data.X);
        const nlohmann::json j = nlohmann::json::parse(det->toJson().dump());
        auto back = Registry::instance().load(j);
        QCOMPARE(back->score(test.X), det->score(test.X));
        QCOMPARE(back->trainingScores(), det->trainingScores());
        QCOMPARE(back->figures(), det->figures());
        const auto& a = asAcdt(det);
        const auto& b = dynamic_cast<const AcdtDetector&>(*back);
        QCOMPARE(b.labelsForClusterCount(4), a.labelsForClusterCount(4));
        QCOMPARE(b.mergeHistory().size(), a.mergeHistory().size());
        QCOMPARE(b.graph(), a.graph());
        // Garbled dendrograms are refused.
        nlohmann::json bad = j;
        bad["state"]["merge_b"][3] = bad["state"]["merge_a"][3];
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
        bad = j;
        bad["state"]["merge_size"][0] = 3;
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
        bad = j;
        bad["state"]["clusters"] = 0;
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
        bad = j;
        bad["state"]["points"] = std::vector<double>{1.0, 2.0};
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
    }

    void seededRunsAreReproducible()
    {
        auto run = [] {
            const Dataset data = generate("swissroll", 500, 21, {{"noise", "0.3"}, {"outliers", "0.05"}});
            auto det = Registry::instance().create("acdt");
            det->fit(data.X);
            return det;
        };
        const auto a = run(), b = run();
        QCOMPARE(a->trainingScores(), b->trainingScores());
        const auto& ha = asAcdt(a).mergeHistory();
        const auto& hb = asAcdt(b).mergeHistory();
        QCOMPARE(ha.size(), hb.size());
        for (std::size_t i = 0; i < ha.size(); ++i) {
            QCOMPARE(ha[i].a, hb[i].a);
            QCOMPARE(ha[i].b, hb[i].b);
            QCOMPARE(ha[i].cost, hb[i].cost);
        }
        QCOMPARE(a->figures(), b->figures());
    }

    // ---- detector contract ---------------------------------------------------------------------

    void parametersThatDoNotFitAreErrors()
    {
        const Dataset data = generate("swissroll", 100, 1);
        QVERIFY_THROWS_EXCEPTION(ParamError, Registry::instance().create("acdt", {{"d", "3"}})->fit(data.X));
        QVERIFY_THROWS_EXCEPTION(ParamError,
                                 Registry::instance().create("acdt", {{"d", "2"}, {"k", "1"}})->fit(data.X));
        // More clusters than points: limited to n with the "clamped" note (#51), no longer refused.
        auto many = Registry::instance().create("acdt", {{"L", "101"}});
        many->fit(data.X);
        QCOMPARE(many->params().getInt("L"), 100);
        QCOMPARE(many->adjustments().size(), std::size_t(1));
        // The auto k adapts to small samples (at most n − 1, #53): 15 rows fit, 5 are too few.
        auto small = Registry::instance().create("acdt");
        small->fit(data.X.topRows(15));
        QCOMPARE(small->params().getInt("k"), 14);
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().create("acdt")->fit(data.X.topRows(5)));
        QVERIFY_THROWS_EXCEPTION(NotFittedError, asAcdt(Registry::instance().create("acdt")).labelsForClusterCount(3));
    }

    void progressReportsAndCancelKeepsModel()
    {
        const Dataset data = generate("swissroll", 300, 2);
        auto det = Registry::instance().create("acdt", {{"L", "5"}});
        double last = -1.0;
        bool monotone = true;
        det->fit(data.X, [&](const ProgressInfo& p) {
            monotone = monotone && p.fraction >= last;
            last = p.fraction;
            if (p.snapshot) // any snapshot: flats of clusters with ≥ k points of the current partition
                monotone = monotone && p.snapshot->flats.size() <= static_cast<std::size_t>(distinct(p.snapshot->clusterOfPoint));
            return false;
        });
        QVERIFY(monotone);
        QCOMPARE(last, 1.0);
        const Eigen::VectorXd before = det->trainingScores();
        const Eigen::VectorXd scoredBefore = det->score(data.X); // tangent rule: rows do not exclude themselves here
        const Dataset other = generate("scurve", 300, 3);
        QVERIFY_THROWS_EXCEPTION(Cancelled, det->fit(other.X, [](const ProgressInfo& p) { return p.fraction >= 0.15; }));
        QCOMPARE(det->trainingScores(), before);
        QCOMPARE(asAcdt(det).clusterCount(), 5);
        QCOMPARE(det->score(data.X), scoredBefore);
    }
};

QTEST_APPLESS_MAIN(TestAcdt)
#include "TestAcdt.moc"
