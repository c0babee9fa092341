// Subspaces as points of the Grassmannian (core/linalg/Grassmann): principal angles of pairs built
// with known angles (analytic), including tiny angles where an arccos would lose every digit;
// against an independent reference written here (Björck–Golub: arccos of the singular values of
// AᵀB, Jacobi SVD) on random pairs; the geodesic distance as a metric (zero on the same subspace,
// symmetric, triangle inequality) invariant under a change of basis (X·Q, Q orthogonal) and a
// rotation of the ambient space; the leading singular subspace of matrices of known singular
// structure; the flag mean and the merged projector sums against the leading eigenvectors or
// singular vectors of the explicitly summed projectors, in every storage and solver regime.
#include "RandomData.h"
#include "linalg/Grassmann.h"

#include <Eigen/Dense>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace olens;
using olens::test::gaussianMatrix;

namespace {

constexpr double kHalfPi = 1.57079632679489661923;

/// N×d orthonormal columns: Q of the QR of a Gaussian N×d matrix (N×N orthogonal when d = N).
Eigen::MatrixXd orthonormal(Eigen::Index N, Eigen::Index d, std::uint64_t seed)
{
    const Eigen::MatrixXd G = gaussianMatrix(N, d, seed);
    return Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ() * Eigen::MatrixXd::Identity(N, d);
}

double orthonormalityError(const Eigen::MatrixXd& U)
{
    return (U.transpose() * U - Eigen::MatrixXd::Identity(U.cols(), U.cols())).norm();
}

/// ‖U Uᵀ − V Vᵀ‖_F: zero exactly when U and V span the same subspace (independent of Grassmann.h).
double projectorGap(const Eigen::MatrixXd& U, const Eigen::MatrixXd& V)
{
    return (U * U.transpose() - V * V.transpose()).norm();
}

/// Björck–Golub principal angles, ascending: arccos of the singular values of AᵀB.
Eigen::VectorXd referenceAngles(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B)
{
    const Eigen::VectorXd cosines = Eigen::JacobiSVD<Eigen::MatrixXd>(A.transpose() * B).singularValues();
    Eigen::VectorXd theta(cosines.size());
    for (Eigen::Index i = 0; i < cosines.size(); ++i)
        theta(i) = std::acos(std::min(1.0, cosines(i))); // cosines descending: angles ascending
    return theta;
}

/// A pair at the given principal angles in R^N (N ≥ 2d): A = the first d columns of a random
/// orthogonal Q, column i of B = cos θ_i q_i + sin θ_i q_{d+i}.
void pairAtAngles(const std::vector<double>& theta, Eigen::Index N, std::uint64_t seed, Eigen::MatrixXd& A,
                  Eigen::MatrixXd& B)
{
    const auto d = static_cast<Eigen::Index>(theta.size());
    const Eigen::MatrixXd Q = orthonormal(N, N, seed);
    A = Q.leftCols(d);
    B.resize(N, d);
    for (Eigen::Index i = 0; i < d; ++i)
        B.col(i) = std::cos(theta[static_cast<std::size_t>(i)]) * Q.col(i)
                 + std::sin(theta[static_cast<std::size_t>(i)]) * Q.col(d + i);
}

/// Subspaces near a common one: orthonormalised U0 + noise·G_i.
std::vector<Eigen::MatrixXd> cluster(const Eigen::MatrixXd& U0, int count, double noise, std::uint64_t seed)
{
    std::vector<Eigen::MatrixXd> out;
    for (int i = 0; i < count; ++i) {
        const Eigen::MatrixXd M = U0 + noise * gaussianMatrix(U0.rows(), U0.cols(), seed + static_cast<std::uint64_t>(i));
        out.push_back(Eigen::HouseholderQR<Eigen::MatrixXd>(M).householderQ()
                      * Eigen::MatrixXd::Identity(U0.rows(), U0.cols()));
    }
    return out;
}

/// The d leading eigenvectors of a symmetric matrix (full eigensolver; eigenvalues ascending).
Eigen::MatrixXd leadingEigenvectors(const Eigen::MatrixXd& P, int d)
{
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(P);
    return es.eigenvectors().rightCols(d);
}

/// The reference flag mean from its definition: the d leading eigenvectors of Σ B_i B_iᵀ, summed
/// here explicitly.
Eigen::MatrixXd eigenFlagMean(const std::vector<Eigen::MatrixXd>& bases, int d)
{
    const Eigen::Index N = bases.front().rows();
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(N, N);
    for (const auto& B : bases)
        P += B * B.transpose();
    return leadingEigenvectors(P, d);
}

} // namespace

class TestGrassmann : public QObject {
    Q_OBJECT
private slots:
    void principalAnglesOfPairsBuiltAtKnownAngles()
    {
        // d = 1, 2 take the closed-form path, d ≥ 3 the Jacobi SVD; angles given unsorted, with
        // repeats, 0, π/2 and 1e-9 (cos θ rounds to 1: only the sine carries the angle).
        const std::vector<std::vector<double>> cases = {
            {0.3}, {1e-9}, {kHalfPi}, {0.0},
            {1.1, 0.2}, {0.7, 1e-9}, {kHalfPi, 0.0}, {0.5, 0.5},
            {1.3, 0.1, 0.4}, {kHalfPi - 1e-9, 1e-9, 0.8},
            {1.5, 0.25, 0.0, 0.25},
        };
        std::uint64_t seed = 100;
        for (const auto& theta : cases) {
            const auto d = static_cast<Eigen::Index>(theta.size());
            Eigen::MatrixXd A, B;
            pairAtAngles(theta, 2 * d + 3, seed++, A, B);
            std::vector<double> expected = theta;
            std::sort(expected.begin(), expected.end());
            const Eigen::VectorXd got = grassmann::principalAngles(A, B);
            const Eigen::VectorXd back = grassmann::principalAngles(B, A);
            QCOMPARE(got.size(), d);
            double sumSquares = 0.0;
            for (Eigen::Index i = 0; i < d; ++i) {
                const double t = expected[static_cast<std::size_t>(i)];
                // Absolute 1e-12; for the tiny angles also relative 1e-4 (an arccos of the cosine
                // would return 0 or an error of about 1e-8 there).
                const double tol = t > 0.0 ? std::min(1e-12, 1e-4 * t) : 1e-12;
                QVERIFY2(std::abs(got(i) - t) <= tol,
                         qPrintable(QString("d=%1, angle %2: %3 instead of %4").arg(d).arg(i).arg(got(i), 0, 'g', 17).arg(t, 0, 'g', 17)));
                QVERIFY2(std::abs(back(i) - t) <= tol, qPrintable(QString("d=%1, reversed pair, angle %2").arg(d).arg(i)));
                if (i > 0)
                    QVERIFY(got(i) >= got(i - 1));
                sumSquares += t * t;
            }
            // D_T = ‖θ‖₂, in both orders.
            QVERIFY(std::abs(grassmann::distance(A, B) - std::sqrt(sumSquares)) <= 1e-12);
            QVERIFY(std::abs(grassmann::distance(B, A) - std::sqrt(sumSquares)) <= 1e-12);
        }
    }

    void principalAnglesAgreeWithBjorckGolub()
    {
        // Random pairs in R^12 (2d ≤ N: no forced common direction, so no tiny angle where the
        // arccos reference is inaccurate).
        std::uint64_t seed = 200;
        for (int d = 1; d <= 5; ++d)
            for (int trial = 0; trial < 4; ++trial) {
                const Eigen::MatrixXd A = orthonormal(12, d, seed++);
                const Eigen::MatrixXd B = orthonormal(12, d, seed++);
                const Eigen::VectorXd got = grassmann::principalAngles(A, B);
                const Eigen::VectorXd ref = referenceAngles(A, B);
                QVERIFY2((got - ref).cwiseAbs().maxCoeff() <= 1e-9,
                         qPrintable(QString("d=%1 trial %2: difference %3").arg(d).arg(trial).arg((got - ref).cwiseAbs().maxCoeff())));
                QVERIFY(got.minCoeff() >= 0.0 && got.maxCoeff() <= kHalfPi + 1e-15);
                QVERIFY(std::abs(grassmann::distance(A, B) - got.norm()) <= 1e-14);
            }
    }

    void distanceIsAMetricInvariantUnderChangeOfBasisAndRotation()
    {
        std::uint64_t seed = 300;
        for (int d : {1, 2, 3, 5}) {
            const Eigen::Index N = 12;
            const Eigen::MatrixXd A = orthonormal(N, d, seed++);
            const Eigen::MatrixXd B = orthonormal(N, d, seed++);
            const Eigen::MatrixXd C = orthonormal(N, d, seed++);
            const Eigen::MatrixXd Qa = orthonormal(d, d, seed++); // changes of basis within the subspaces
            const Eigen::MatrixXd Qb = orthonormal(d, d, seed++);
            const Eigen::MatrixXd R = orthonormal(N, N, seed++);  // a rotation of R^N
            const double dAB = grassmann::distance(A, B);
            const QString at = QString("d=%1").arg(d);
            // Zero for the same subspace, in any basis.
            QVERIFY2(grassmann::distance(A, A) <= 1e-12, qPrintable(at));
            QVERIFY2(grassmann::distance(A, A * Qa) <= 1e-12, qPrintable(at));
            QVERIFY2(grassmann::principalAngles(A * Qa, A).maxCoeff() <= 1e-12, qPrintable(at));
            // Positive for different subspaces, bounded by √d·π/2.
            QVERIFY2(dAB > 0.1 && dAB <= std::sqrt(double(d)) * kHalfPi + 1e-12, qPrintable(at));
            QVERIFY2(std::abs(grassmann::distance(B, A) - dAB) <= 1e-12, qPrintable(at));
            QVERIFY2(std::abs(grassmann::distance(A * Qa, B * Qb) - dAB) <= 1e-12, qPrintable(at));
            QVERIFY2(std::abs(grassmann::distance(R * A, R * B) - dAB) <= 1e-12, qPrintable(at));
            // The geodesic distance satisfies the triangle inequality.
            QVERIFY2(grassmann::distance(A, C) <= dAB + grassmann::distance(B, C) + 1e-12, qPrintable(at));
            QVERIFY2(dAB <= grassmann::distance(A, C) + grassmann::distance(C, B) + 1e-12, qPrintable(at));
        }
    }

    void planesAtAKnownAngle()
    {
        // Two planes of R^3 share a line: principal angles (0, φ) for the dihedral angle φ, so the
        // distance is φ; whatever bases describe them.
        for (double phi : {0.3, 1.0, kHalfPi}) {
            Eigen::MatrixXd A(3, 2), B(3, 2);
            A << 1, 0, 0, 1, 0, 0;
            B << 1, 0, 0, std::cos(phi), 0, std::sin(phi);
            const Eigen::VectorXd theta = grassmann::principalAngles(A, B);
            QVERIFY(std::abs(theta(0)) <= 1e-15);
            QVERIFY(std::abs(theta(1) - phi) <= 1e-15);
            QVERIFY(std::abs(grassmann::distance(A, B) - phi) <= 1e-15);
            Eigen::Matrix2d rot;
            rot << std::cos(0.7), -std::sin(0.7), std::sin(0.7), std::cos(0.7);
            const Eigen::MatrixXd Ar = A * rot, Br = B * rot.transpose(); // no common column any more
            QVERIFY(std::abs(grassmann::distance(Ar, Br) - phi) <= 1e-14);
        }
        // Two planes of R^4 through the origin meeting only there, at angles α and β.
        const double alpha = 0.4, beta = 1.2;
        Eigen::MatrixXd A = Eigen::MatrixXd::Zero(4, 2), B = Eigen::MatrixXd::Zero(4, 2);
        A(0, 0) = 1.0;
        A(1, 1) = 1.0;
        B(0, 0) = std::cos(alpha);
        B(2, 0) = std::sin(alpha);
        B(1, 1) = std::cos(beta);
        B(3, 1) = std::sin(beta);
        QVERIFY(std::abs(grassmann::distance(A, B) - std::hypot(alpha, beta)) <= 1e-14);
    }

    void shapesMustMatch()
    {
        const Eigen::MatrixXd A52 = orthonormal(5, 2, 1), A53 = orthonormal(5, 3, 2), A62 = orthonormal(6, 2, 3),
                              A63 = orthonormal(6, 3, 4);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grassmann::principalAngles(A52, A53));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grassmann::principalAngles(A52, A62));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grassmann::distance(A52, A62));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grassmann::distance(A63, A62));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grassmann::distance(A53, A63));
        // The zero-dimensional subspace: no angles, distance 0.
        const Eigen::MatrixXd empty(5, 0);
        QCOMPARE(grassmann::principalAngles(empty, empty).size(), Eigen::Index(0));
        QCOMPARE(grassmann::distance(empty, empty), 0.0);
    }

    void leadingLeftSingularVectorsOfKnownSingularStructure()
    {
        // M = U diag(s) Vᵀ with distinct s: the d leading left singular vectors are U's first d
        // columns (each up to sign). m ≤ N takes the thin SVD, m > N the eigenvectors of M Mᵀ.
        const Eigen::Index N = 8;
        Eigen::VectorXd s(5);
        s << 9, 4, 2, 1, 0.5;
        const Eigen::MatrixXd U = orthonormal(N, 5, 400);
        for (Eigen::Index m : {Eigen::Index(5), Eigen::Index(6), Eigen::Index(12)}) {
            const Eigen::MatrixXd V = orthonormal(m, 5, 401 + static_cast<std::uint64_t>(m));
            const Eigen::MatrixXd M = U * s.asDiagonal() * V.transpose();
            for (int d : {0, 1, 3, 5}) {
                const QString at = QString("m=%1 d=%2").arg(m).arg(d);
                const Eigen::MatrixXd L = grassmann::leadingLeftSingularVectors(M, d);
                QCOMPARE(L.rows(), N);
                QCOMPARE(L.cols(), Eigen::Index(d));
                QVERIFY2(orthonormalityError(L) <= 1e-12, qPrintable(at));
                for (int j = 0; j < d; ++j) {
                    const double gap = std::min((L.col(j) - U.col(j)).norm(), (L.col(j) + U.col(j)).norm());
                    QVERIFY2(gap <= 1e-10, qPrintable(at + QString(" column %1: %2").arg(j).arg(gap)));
                }
            }
            // Rank 5 < d = 7: the five genuine directions first, completed to orthonormal columns.
            const Eigen::MatrixXd L = grassmann::leadingLeftSingularVectors(M, 7);
            QVERIFY(orthonormalityError(L) <= 1e-12);
            QVERIFY(projectorGap(L.leftCols(5), U) <= 1e-10);
        }
        // Rank-deficient products (rank 2 of 6×4, rank 1 of 4×7) and the zero matrix: orthonormal
        // columns whose leading ones span the column space.
        {
            const Eigen::MatrixXd M = gaussianMatrix(6, 2, 410) * gaussianMatrix(2, 4, 411);
            const Eigen::MatrixXd L = grassmann::leadingLeftSingularVectors(M, 4);
            QVERIFY(orthonormalityError(L) <= 1e-12);
            QVERIFY((M - L.leftCols(2) * (L.leftCols(2).transpose() * M)).norm() <= 1e-12 * M.norm());
        }
        {
            const Eigen::MatrixXd M = gaussianMatrix(4, 1, 412) * gaussianMatrix(1, 7, 413);
            const Eigen::MatrixXd L = grassmann::leadingLeftSingularVectors(M, 3);
            QVERIFY(orthonormalityError(L) <= 1e-12);
            QVERIFY((M - L.col(0) * (L.col(0).transpose() * M)).norm() <= 1e-12 * M.norm());
        }
        for (Eigen::Index m : {Eigen::Index(0), Eigen::Index(3), Eigen::Index(9)}) {
            const Eigen::MatrixXd L = grassmann::leadingLeftSingularVectors(Eigen::MatrixXd::Zero(5, m), 2);
            QCOMPARE(L.cols(), Eigen::Index(2));
            QVERIFY(orthonormalityError(L) <= 1e-12);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grassmann::leadingLeftSingularVectors(Eigen::MatrixXd::Ones(3, 2), 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grassmann::leadingLeftSingularVectors(Eigen::MatrixXd::Ones(3, 2), -1));
    }

    void flagMeanOfKnownConfigurations()
    {
        // Two lines of the plane at ±α from the x axis: Σ u uᵀ = diag(2cos²α, 2sin²α), so the mean
        // line is the x axis for α < π/4 and the y axis beyond.
        for (double alpha : {0.1, 0.6, 1.0, 1.4}) {
            Eigen::MatrixXd u(2, 1), v(2, 1);
            u << std::cos(alpha), std::sin(alpha);
            v << std::cos(alpha), -std::sin(alpha);
            const Eigen::MatrixXd mean = grassmann::flagMean({u, v}, 1);
            const Eigen::Vector2d axis = alpha < kHalfPi / 2 ? Eigen::Vector2d(1.0, 0.0) : Eigen::Vector2d(0.0, 1.0);
            QVERIFY2(std::abs(std::abs(mean.col(0).dot(axis)) - 1.0) <= 1e-12, qPrintable(QString("alpha=%1").arg(alpha)));
            QVERIFY(std::abs(mean.col(0).norm() - 1.0) <= 1e-12);
        }
        // One subspace in several bases: the mean is that subspace.
        {
            const Eigen::MatrixXd A = orthonormal(7, 3, 500);
            std::vector<Eigen::MatrixXd> bases;
            for (std::uint64_t k = 0; k < 4; ++k)
                bases.push_back(A * orthonormal(3, 3, 501 + k));
            const Eigen::MatrixXd mean = grassmann::flagMean(bases, 3);
            QVERIFY(orthonormalityError(mean) <= 1e-12);
            QVERIFY(projectorGap(mean, A) <= 1e-10);
        }
        // Noisy copies of a plane in R^7: against the Jacobi SVD of the concatenated bases (the
        // definition), and the same whatever the order of the list.
        {
            const std::vector<Eigen::MatrixXd> bases = cluster(orthonormal(7, 2, 510), 5, 0.15, 511);
            Eigen::MatrixXd all(7, 10);
            for (std::size_t i = 0; i < bases.size(); ++i)
                all.middleCols(static_cast<Eigen::Index>(2 * i), 2) = bases[i];
            const Eigen::JacobiSVD<Eigen::MatrixXd> svd(all, Eigen::ComputeFullU);
            const Eigen::MatrixXd ref = svd.matrixU().leftCols(2);
            const Eigen::MatrixXd mean = grassmann::flagMean(bases, 2);
            QVERIFY(orthonormalityError(mean) <= 1e-12);
            QVERIFY(projectorGap(mean, ref) <= 1e-10);
            std::vector<Eigen::MatrixXd> reversed(bases.rbegin(), bases.rend());
            QVERIFY(projectorGap(grassmann::flagMean(reversed, 2), mean) <= 1e-10);
            // Fewer columns in total than N (the thin-SVD path): two of the planes, against the
            // eigenvectors of their summed projectors.
            const std::vector<Eigen::MatrixXd> two(bases.begin(), bases.begin() + 2);
            QVERIFY(projectorGap(grassmann::flagMean(two, 2), eigenFlagMean(two, 2)) <= 1e-10);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grassmann::flagMean({}, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grassmann::flagMean({orthonormal(5, 2, 1), orthonormal(5, 3, 2)}, 2));
    }

    void projectorSumOfOneSubspace()
    {
        const Eigen::MatrixXd B = orthonormal(6, 2, 600);
        const grassmann::ProjectorSum s = grassmann::ProjectorSum::of(B);
        QVERIFY(s.mean() == B);
        QVERIFY((s.projector() - B * B.transpose()).norm() <= 1e-15);
        QCOMPARE(s.rank(), Eigen::Index(2));
        QCOMPARE(s.dimension(), Eigen::Index(6));
    }

    void mergedProjectorSumsInEveryRegime()
    {
        // Small (N = 6): factored while the columns fit (2 + 2 = 4 ≤ 6), dense beyond (8 > 6).
        {
            const std::vector<Eigen::MatrixXd> B = cluster(orthonormal(6, 2, 700), 4, 0.15, 701);
            const auto ab = grassmann::ProjectorSum::merged(grassmann::ProjectorSum::of(B[0]),
                                                            grassmann::ProjectorSum::of(B[1]), 2);
            QCOMPARE(ab.rank(), Eigen::Index(4));
            QCOMPARE(ab.dimension(), Eigen::Index(6));
            QVERIFY((ab.projector() - B[0] * B[0].transpose() - B[1] * B[1].transpose()).norm() <= 1e-14);
            QVERIFY(orthonormalityError(ab.mean()) <= 1e-12);
            QVERIFY(projectorGap(ab.mean(), eigenFlagMean({B[0], B[1]}, 2)) <= 1e-10);
            const auto cd = grassmann::ProjectorSum::merged(grassmann::ProjectorSum::of(B[2]),
                                                            grassmann::ProjectorSum::of(B[3]), 2);
            const auto all = grassmann::ProjectorSum::merged(ab, cd, 2);
            QCOMPARE(all.rank(), Eigen::Index(6)); // dense: rank() reports N
            Eigen::MatrixXd P = Eigen::MatrixXd::Zero(6, 6);
            for (const auto& b : B)
                P += b * b.transpose();
            QVERIFY((all.projector() - P).norm() <= 1e-13);
            QVERIFY(orthonormalityError(all.mean()) <= 1e-12);
            QVERIFY(projectorGap(all.mean(), eigenFlagMean(B, 2)) <= 1e-10);
            QVERIFY(projectorGap(all.mean(), grassmann::flagMean(B, 2)) <= 1e-10);
        }
        // Large (N = 100, d = 3, 40 members): merged one by one and as a balanced tree, through the
        // direct solver (≤ 64 columns), subspace iteration on the factor (66…99 columns) and on the
        // dense sum (from 102 columns). Partial means at members on both sides of each switch, and
        // the final one, against the eigenvectors of the explicitly summed projectors.
        {
            const int d = 3;
            const std::vector<Eigen::MatrixXd> B = cluster(orthonormal(100, d, 800), 40, 0.05, 801);
            const std::vector<Eigen::Index> checkpoints = {2, 10, 21, 22, 30, 33, 34, 35, 40};
            grassmann::ProjectorSum chain = grassmann::ProjectorSum::of(B[0]);
            Eigen::MatrixXd P = B[0] * B[0].transpose();
            for (std::size_t i = 1; i < B.size(); ++i) {
                chain = grassmann::ProjectorSum::merged(chain, grassmann::ProjectorSum::of(B[i]), d);
                P += B[i] * B[i].transpose();
                const auto members = static_cast<Eigen::Index>(i + 1);
                const Eigen::Index columns = members * d;
                QCOMPARE(chain.rank(), columns <= 100 ? columns : Eigen::Index(100)); // factor, or dense N
                QCOMPARE(chain.dimension(), Eigen::Index(100));
                if (std::find(checkpoints.begin(), checkpoints.end(), members) == checkpoints.end())
                    continue;
                const QString at = QString("%1 members").arg(members);
                QVERIFY2(orthonormalityError(chain.mean()) <= 1e-10, qPrintable(at));
                const double gap = projectorGap(chain.mean(), leadingEigenvectors(P, d));
                QVERIFY2(gap <= 1e-8, qPrintable(at + QString(": %1").arg(gap)));
            }
            QVERIFY((chain.projector() - P).norm() <= 1e-12 * P.norm());
            // Balanced tree: pairs, then pairs of pairs, …
            std::vector<grassmann::ProjectorSum> level;
            for (const auto& b : B)
                level.push_back(grassmann::ProjectorSum::of(b));
            while (level.size() > 1) {
                std::vector<grassmann::ProjectorSum> next;
                for (std::size_t i = 0; i + 1 < level.size(); i += 2)
                    next.push_back(grassmann::ProjectorSum::merged(level[i], level[i + 1], d));
                if (level.size() % 2 == 1)
                    next.push_back(level.back());
                level = std::move(next);
            }
            const grassmann::ProjectorSum& tree = level.front();
            QCOMPARE(tree.rank(), Eigen::Index(100));
            QVERIFY((tree.projector() - P).norm() <= 1e-12 * P.norm());
            QVERIFY(orthonormalityError(tree.mean()) <= 1e-10);
            QVERIFY(projectorGap(tree.mean(), chain.mean()) <= 1e-8); // whatever the merge order
            QVERIFY(projectorGap(tree.mean(), eigenFlagMean(B, d)) <= 1e-8);
        }
        // Shapes that do not fit.
        const auto a = grassmann::ProjectorSum::of(orthonormal(6, 2, 900));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grassmann::ProjectorSum::merged(a, grassmann::ProjectorSum::of(orthonormal(7, 2, 901)), 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grassmann::ProjectorSum::merged(a, grassmann::ProjectorSum::of(orthonormal(6, 2, 902)), 3));
    }
};

QTEST_APPLESS_MAIN(TestGrassmann)
#include "TestGrassmann.moc"
