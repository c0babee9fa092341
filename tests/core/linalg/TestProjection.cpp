// Display projections (core/linalg/Projection): the principal axes against an independent
// reference written here (Jacobi SVD of the centred data: Projection uses linalg/Pca, an
// eigen-decomposition of the covariance, so Eigen's SelfAdjointEigenSolver on the covariance would
// repeat its computation), compared up to the sign of each axis; the variances the display
// coordinates carry (the eigenvalues, uncorrelated); the round trips toDisplay/toFeature; invariance
// of the display under rotations and translations of the data; the identity and axis projections
// exactly; and the errors for impossible choices.
#include "RandomData.h"
#include "base/Errors.h"
#include "display/DisplayGeometry.h"
#include "linalg/Projection.h"
#include "linalg/RowNorms.h"

#include <Eigen/Dense>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace olens;
using olens::test::gaussianMatrix;
using olens::test::gaussianRows;

namespace {

/// A random p×p orthogonal matrix (Q of the QR of a Gaussian matrix).
Eigen::MatrixXd randomRotation(Eigen::Index p, std::uint64_t seed)
{
    const Eigen::MatrixXd G = gaussianMatrix(p, p, seed);
    return Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ() * Eigen::MatrixXd::Identity(p, p);
}

/// n×6 data with principal standard deviations 5, 3, 2, 1.2, 0.7, 0.3 along rotated axes, offset
/// from the origin: well separated variances, so each principal axis is well defined.
Eigen::MatrixXd anisotropic(Eigen::Index n, std::uint64_t seed)
{
    Eigen::VectorXd sd(6);
    sd << 5, 3, 2, 1.2, 0.7, 0.3;
    const Eigen::MatrixXd Z = gaussianRows(n, 6, seed);
    Eigen::RowVectorXd offset(6);
    offset << 10, -4, 0.5, 3, 100, -7;
    return (Z * sd.asDiagonal() * randomRotation(6, seed + 1).transpose()).rowwise() + offset;
}

/// The reference: principal directions (columns, by decreasing variance) and population variances
/// from the SVD of the centred data, the mean summed explicitly.
struct Reference {
    Eigen::VectorXd mean;
    Eigen::MatrixXd axes;
    Eigen::VectorXd variances;
};

Reference reference(const Eigen::MatrixXd& X)
{
    Reference r;
    const auto n = static_cast<double>(X.rows());
    r.mean = Eigen::VectorXd::Zero(X.cols());
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        r.mean += X.row(i).transpose();
    r.mean /= n;
    const Eigen::MatrixXd C = X.rowwise() - r.mean.transpose();
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeThinV);
    r.axes = svd.matrixV();
    r.variances = svd.singularValues().array().square() / n;
    return r;
}

/// Distance between two unit vectors that span the same line, whichever their signs.
double signFreeDistance(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    return std::min((a - b).norm(), (a + b).norm());
}

std::string percent(double share)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * share);
    return buf;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> names(int p)
{
    std::vector<std::string> out;
    for (int j = 0; j < p; ++j)
        out.push_back("f" + std::to_string(j));
    return out;
}

} // namespace

class TestProjection : public QObject {
    Q_OBJECT
private slots:
    void pcaAxesAreThePrincipalDirections()
    {
        const Eigen::MatrixXd X = anisotropic(400, 5);
        const Reference ref = reference(X);
        const Projection pr = Projection::pca(X, 3);
        QCOMPARE(pr.displayDims(), 3);
        QVERIFY(!pr.identity);
        QVERIFY(pr.axisNames == (std::vector<std::string>{"PC1", "PC2", "PC3"}));
        QVERIFY((pr.origin - ref.mean).norm() <= 1e-12 * ref.mean.norm());
        QCOMPARE(pr.basis.rows(), Eigen::Index(6));
        QVERIFY((pr.basis.transpose() * pr.basis - Eigen::MatrixXd::Identity(3, 3)).norm() <= 1e-12);
        for (int k = 0; k < 3; ++k) {
            const Eigen::VectorXd b = pr.basis.col(k);
            QVERIFY2(signFreeDistance(b, ref.axes.col(k)) <= 1e-9, qPrintable(QString("PC%1").arg(k + 1)));
            // The documented sign convention (linalg/Pca.h): the largest |entry| is positive.
            Eigen::Index arg = 0;
            b.cwiseAbs().maxCoeff(&arg);
            QVERIFY(b(arg) > 0.0);
        }
        // The note gives the share of the variance shown, (λ1 + λ2 + λ3) / Σλ.
        const double share = ref.variances.head(3).sum() / ref.variances.sum();
        QVERIFY2(contains(pr.note, percent(share)), pr.note.c_str());
        QVERIFY2(contains(pr.note, "6 features"), pr.note.c_str());

        // Two axes: the third display coordinate is 0.
        const Projection two = Projection::pca(X, 2);
        QCOMPARE(two.displayDims(), 2);
        QVERIFY(two.basis == pr.basis.leftCols(2));
        QVERIFY(two.toDisplay(X).col(2).isZero(0.0));
        // More axes asked than features: as many as there are.
        const Eigen::MatrixXd X2 = X.leftCols(2);
        QCOMPARE(Projection::pca(X2, 3).displayDims(), 2);
    }

    void displayCoordinatesAreUncorrelatedWithTheEigenvaluesAsVariances()
    {
        // PCA scores: zero mean, covariance diag(λ1, λ2, λ3) (an analytic property of PCA).
        const Eigen::MatrixXd X = anisotropic(400, 6);
        const Reference ref = reference(X);
        const Projection pr = Projection::pca(X, 3);
        const Eigen::MatrixX3d U = pr.toDisplay(X);
        QCOMPARE(U.rows(), X.rows());
        const double n = static_cast<double>(X.rows());
        QVERIFY(U.colwise().mean().norm() <= 1e-10 * std::sqrt(ref.variances(0)));
        const Eigen::Matrix3d cov = U.transpose() * U / n;
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) {
                const double expected = a == b ? ref.variances(a) : 0.0;
                QVERIFY2(std::abs(cov(a, b) - expected) <= 1e-10 * ref.variances(0),
                         qPrintable(QString("cov(%1,%2) = %3, expected %4").arg(a).arg(b).arg(cov(a, b)).arg(expected)));
            }
        // What the display drops: the residual is orthogonal to the basis and carries the other
        // variances, mean squared residual = λ4 + λ5 + λ6.
        const Eigen::MatrixXd R = X - pr.toFeature(U);
        QVERIFY((R * pr.basis).norm() <= 1e-10 * X.norm());
        const double meanSquared = R.squaredNorm() / n;
        const double dropped = ref.variances.tail(3).sum();
        QVERIFY(std::abs(meanSquared - dropped) <= 1e-10 * ref.variances.sum());
    }

    void roundTripsBetweenFeatureAndDisplaySpace()
    {
        // Data on a 3-D affine subspace of R^6 are reproduced exactly (up to rounding) by
        // feature → display → feature; any display point survives display → feature → display.
        const Eigen::MatrixXd coeff = gaussianRows(150, 3, 7);
        const Eigen::MatrixXd A = gaussianMatrix(3, 6, 8);
        Eigen::RowVectorXd offset(6);
        offset << 1, 2, 3, -4, -5, 60;
        const Eigen::MatrixXd X = (coeff * A).rowwise() + offset;
        const Projection pr = Projection::pca(X, 3);
        QVERIFY((pr.toFeature(pr.toDisplay(X)) - X).norm() <= 1e-10 * X.norm());
        const Eigen::MatrixXd U = gaussianRows(40, 3, 9, 4.0);
        QVERIFY((pr.toDisplay(pr.toFeature(U)) - U).norm() <= 1e-12 * U.norm());
    }

    void displayIsInvariantUnderRotationAndTranslationOfTheData()
    {
        // X ↦ X Rᵀ + c moves the principal axes with the data: the display coordinates stay the
        // same up to the sign of each axis.
        const Eigen::MatrixXd X = anisotropic(300, 10);
        const Eigen::MatrixXd R = randomRotation(6, 12);
        Eigen::RowVectorXd c(6);
        c << -3, 8, 1, 0, 2, -50;
        const Eigen::MatrixXd Y = (X * R.transpose()).rowwise() + c;
        const Eigen::MatrixX3d U = Projection::pca(X, 3).toDisplay(X);
        const Eigen::MatrixX3d V = Projection::pca(Y, 3).toDisplay(Y);
        for (int k = 0; k < 3; ++k)
            QVERIFY2(signFreeDistance(U.col(k), V.col(k)) <= 1e-9 * U.col(k).norm(), qPrintable(QString("axis %1").arg(k)));
    }

    void automaticIsTheIdentityUpToThreeFeatures()
    {
        for (int p = 1; p <= 3; ++p) {
            const Eigen::MatrixXd X = gaussianRows(20, p, 20 + static_cast<std::uint64_t>(p), 3.0);
            std::vector<std::string> nm = names(p);
            nm.push_back("unused"); // more names than features: the first p are taken
            const Projection pr = Projection::automatic(X, nm);
            QVERIFY(pr.identity);
            QCOMPARE(pr.displayDims(), p);
            QVERIFY(pr.basis == Eigen::MatrixXd::Identity(p, p));
            QVERIFY(pr.origin == Eigen::VectorXd::Zero(p));
            QVERIFY(pr.axisNames == names(p));
            QCOMPARE(pr.note.empty(), p != 1); // only one feature needs saying
            const Eigen::MatrixX3d U = pr.toDisplay(X);
            QVERIFY(U.leftCols(p) == X);
            QVERIFY(U.rightCols(3 - p).isZero(0.0));
            QVERIFY(pr.toFeature(U) == X);
        }
        // Beyond three features: the PCA onto three axes.
        const Eigen::MatrixXd X = anisotropic(100, 21);
        const Projection a = Projection::automatic(X, names(6));
        const Projection b = Projection::pca(X, 3);
        QVERIFY(!a.identity);
        QVERIFY(a.basis == b.basis);
        QVERIFY(a.origin == b.origin);
        QVERIFY(a.axisNames == b.axisNames);
    }

    void chosenComponents()
    {
        const Eigen::MatrixXd X = anisotropic(400, 30);
        const Reference ref = reference(X);
        const Projection pr = Projection::components(X, {1, 3}); // PC2 against PC4
        QCOMPARE(pr.displayDims(), 2);
        QVERIFY(!pr.identity);
        QVERIFY(pr.axisNames == (std::vector<std::string>{"PC2", "PC4"}));
        QVERIFY((pr.origin - ref.mean).norm() <= 1e-12 * ref.mean.norm());
        QVERIFY(signFreeDistance(pr.basis.col(0), ref.axes.col(1)) <= 1e-9);
        QVERIFY(signFreeDistance(pr.basis.col(1), ref.axes.col(3)) <= 1e-9);
        const Eigen::MatrixX3d U = pr.toDisplay(X);
        const double n = static_cast<double>(X.rows());
        QVERIFY(std::abs(U.col(0).squaredNorm() / n - ref.variances(1)) <= 1e-10 * ref.variances(0));
        QVERIFY(std::abs(U.col(1).squaredNorm() / n - ref.variances(3)) <= 1e-10 * ref.variances(0));
        QVERIFY(U.col(2).isZero(0.0));
        const double share = (ref.variances(1) + ref.variances(3)) / ref.variances.sum();
        QVERIFY2(contains(pr.note, percent(share)), pr.note.c_str());
        QVERIFY2(contains(pr.note, "PC2, PC4"), pr.note.c_str());
        // The first three components are the automatic PCA projection.
        QVERIFY(Projection::components(X, {0, 1, 2}).basis == Projection::pca(X, 3).basis);

        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::components(X, {}));
        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::components(X, {0, 1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::components(X, {-1}));
        try {
            Projection::components(X, {0, 6}); // p = 6: PC7 does not exist
            QFAIL("expected ParamError");
        } catch (const ParamError& e) {
            QVERIFY2(contains(e.what(), "PC7"), e.what());
        }
    }

    void chosenFeatureAxes()
    {
        const Eigen::MatrixXd X = anisotropic(50, 40);
        const std::vector<std::string> nm = names(6);
        const Projection pr = Projection::axes(X, nm, {4, 1}); // f4 against f1
        QCOMPARE(pr.displayDims(), 2);
        QVERIFY(!pr.identity);
        QVERIFY(pr.axisNames == (std::vector<std::string>{"f4", "f1"}));
        Eigen::MatrixXd expectedBasis = Eigen::MatrixXd::Zero(6, 2);
        expectedBasis(4, 0) = 1.0;
        expectedBasis(1, 1) = 1.0;
        QVERIFY(pr.basis == expectedBasis);
        QVERIFY2(contains(pr.note, "f4, f1") && contains(pr.note, "mean"), pr.note.c_str());
        // Display coordinates are the chosen features themselves (exactly: products with 1 and 0).
        const Eigen::MatrixX3d U = pr.toDisplay(X);
        QVERIFY(U.col(0) == X.col(4));
        QVERIFY(U.col(1) == X.col(1));
        QVERIFY(U.col(2).isZero(0.0));
        // Back in feature space: the chosen features from the display, the others at their mean.
        const Eigen::MatrixXd F = pr.toFeature(U);
        const Eigen::RowVectorXd mean = X.colwise().mean();
        for (Eigen::Index j = 0; j < 6; ++j) {
            if (j == 4 || j == 1) {
                QVERIFY(F.col(j) == X.col(j));
            } else {
                for (Eigen::Index i = 0; i < F.rows(); ++i)
                    QVERIFY(std::abs(F(i, j) - mean(j)) <= 1e-12 * (1.0 + std::abs(mean(j))));
            }
        }
        // Every feature of a 3-D set in its own order is the identity.
        const Eigen::MatrixXd X3 = X.leftCols(3);
        const Projection all = Projection::axes(X3, names(3), {0, 1, 2});
        QVERIFY(all.identity);
        QVERIFY(all.note.empty());
        QVERIFY(all.basis == Eigen::MatrixXd::Identity(3, 3));
        QVERIFY(all.toDisplay(X3) == X3);

        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::axes(X, nm, {}));
        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::axes(X, nm, {0, 1, 2, 3}));
        try {
            Projection::axes(X, nm, {6});
            QFAIL("expected ParamError");
        } catch (const ParamError& e) {
            QVERIFY2(contains(e.what(), "axis 7"), e.what());
        }
    }

    // Bugs found by these tests (each assertion below failed on the old code).
    void reorderedAxesAreNotTheIdentity()
    {
        // {1, 0} of a 2-D set swaps the display axes: it was marked identity, so glyphMatrix gave
        // display axis 0 the spread of feature 0 (it must be feature 1's).
        const Eigen::MatrixXd X = anisotropic(30, 41).leftCols(2);
        const Projection swapped = Projection::axes(X, names(2), {1, 0});
        QVERIFY(!swapped.identity);
        QVERIFY(swapped.toDisplay(X).col(0) == X.col(1));
        QVERIFY2(!contains(swapped.note, "mean"), swapped.note.c_str()); // no feature is held fixed
        const Eigen::Vector2d sigma(1.0, 5.0);
        const Eigen::Matrix3d G = glyphMatrix(sigma, swapped, 1.0);
        QVERIFY2(std::abs(G(0, 0) - 5.0) < 1e-12 && std::abs(G(1, 1) - 1.0) < 1e-12,
                 qPrintable(QString("glyph diagonal %1 %2").arg(G(0, 0)).arg(G(1, 1))));
        // The identity order still is the identity, with the plain diagonal.
        const Projection plain = Projection::axes(X, names(2), {0, 1});
        QVERIFY(plain.identity);
        QCOMPARE(glyphMatrix(sigma, plain, 1.0)(0, 0), 1.0);
    }

    void pcaNeverExceedsTheThreeDisplayAxes()
    {
        // pca(X, 5) kept 5 axes and toDisplay wrote past its n×3 output.
        const Eigen::MatrixXd X = anisotropic(40, 42);
        const Projection pr = Projection::pca(X, 5);
        QCOMPARE(pr.basis.cols(), Eigen::Index(3));
        QCOMPARE(pr.axisNames.size(), std::size_t(3));
        const Eigen::MatrixX3d U = pr.toDisplay(X);
        QCOMPARE(U.rows(), X.rows());
    }

    void wideTablesGetTheirLeadingAxesWithoutAp2Matrix_data()
    {
        // Wide data (issue #34 item 3): a 40 × 10 000 table used to eigen-decompose a 10 000²
        // covariance on the GUI thread (minutes; 6.3 GB at 20 × 20 000). Each shape takes another
        // path of linalg/pcaLeading: few rows → the n×n Gram matrix, many rows and columns → the
        // seeded randomised subspace iteration, p ≤ 512 → the full covariance as before.
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("p");
        QTest::newRow("40x10000 Gram") << 40 << 10000;
        QTest::newRow("20x20000 Gram") << 20 << 20000;
        QTest::newRow("700x600 randomised") << 700 << 600;
        QTest::newRow("300x200 covariance") << 300 << 200;
    }

    void wideTablesGetTheirLeadingAxesWithoutAp2Matrix()
    {
        QFETCH(int, n);
        QFETCH(int, p);
        // Three planted directions with standard deviations 6, 4, 2.5 over isotropic noise of 0.3,
        // so PC1-PC3 are well separated from each other and from the noise.
        const Eigen::MatrixXd G = gaussianMatrix(p, 3, 7);
        const Eigen::MatrixXd dirs = Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ() * Eigen::MatrixXd::Identity(p, 3);
        const Eigen::MatrixXd Z = gaussianRows(n, 3, 8);
        Eigen::Vector3d sd(6, 4, 2.5);
        Eigen::MatrixXd X = Z * sd.asDiagonal() * dirs.transpose() + 0.3 * gaussianRows(n, p, 9);
        X.rowwise() += Eigen::RowVectorXd::LinSpaced(p, -3, 5);
        const Reference ref = reference(X);
        const Projection pr = Projection::automatic(X, names(p));
        QCOMPARE(pr.displayDims(), 3);
        QVERIFY((pr.origin - ref.mean).norm() <= 1e-10 * ref.mean.norm());
        QVERIFY((pr.basis.transpose() * pr.basis - Eigen::Matrix3d::Identity()).norm() <= 1e-10);
        for (int k = 0; k < 3; ++k)
            QVERIFY2(signFreeDistance(pr.basis.col(k), ref.axes.col(k)) <= 1e-6,
                     qPrintable(QString("PC%1 off by %2").arg(k + 1).arg(signFreeDistance(pr.basis.col(k), ref.axes.col(k)))));
        const double share = ref.variances.head(3).sum() / ref.variances.sum();
        QVERIFY2(contains(pr.note, percent(share)), pr.note.c_str());
        // Chosen components beyond the third: PC2 against PC5, from the same leading decomposition.
        const Projection chosen = Projection::components(X, {1, 4});
        QVERIFY(signFreeDistance(chosen.basis.col(0), ref.axes.col(1)) <= 1e-6);
        QVERIFY(signFreeDistance(chosen.basis.col(1), ref.axes.col(4)) <= (n > 3 * p ? 1e-6 : 1.5));
        QVERIFY(std::abs(chosen.basis.col(0).dot(chosen.basis.col(1))) <= 1e-8);
    }

    void fewerRowsThanAxesStillGivesAnOrthonormalBasis()
    {
        // Two rows in 1 000 columns have one direction of variance: PC2 and PC3 carry none, but
        // the basis stays orthonormal (the display needs three axes).
        const Eigen::MatrixXd X = gaussianRows(2, 1000, 10);
        const Projection pr = Projection::automatic(X, names(1000));
        QCOMPARE(pr.displayDims(), 3);
        QVERIFY((pr.basis.transpose() * pr.basis - Eigen::Matrix3d::Identity()).norm() <= 1e-10);
        const Eigen::MatrixX3d U = pr.toDisplay(X);
        QVERIFY(U.col(1).cwiseAbs().maxCoeff() <= 1e-9 && U.col(2).cwiseAbs().maxCoeff() <= 1e-9);
        QVERIFY(std::abs(U(0, 0) - U(1, 0)) > 1.0); // the two rows apart along PC1
    }

    void repeatedChoicesAreRefused()
    {
        // {0, 0} gave a "basis" with two identical columns.
        const Eigen::MatrixXd X = anisotropic(40, 43);
        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::components(X, {0, 0}));
        QVERIFY_THROWS_EXCEPTION(ParamError, Projection::axes(X, names(6), {2, 2}));
        // Fewer names than features was read past the end of the names.
        QVERIFY_THROWS_EXCEPTION(DataError, Projection::axes(X, names(3), {0, 1}));
        QVERIFY_THROWS_EXCEPTION(DataError, Projection::automatic(X.leftCols(3), names(2)));
    }

    // linalg/RowNorms: 3-4-5 rows at scales where squaring overflows (1e200), underflows to 0
    // (1e-170) or to subnormals that lost digits (1e-160) give 5·scale, as the plain norm does at
    // scale 1; a zero row stays 0 and a non-finite row keeps the plain result (NaN in, NaN out).
    void rowNormsNeitherOverflowNorUnderflow()
    {
        Eigen::MatrixXd M(6, 2);
        M << 3, 4, 3e200, 4e200, 3e-170, 4e-170, 0, 0, std::nan(""), 1, 3e-160, 4e-160;
        QVERIFY(std::isinf(M.row(1).norm())); // what the plain norm gives
        QCOMPARE(M.row(2).norm(), 0.0);
        QVERIFY(std::abs(M.row(5).norm() / 5e-160 - 1) > 1e-8);
        const Eigen::VectorXd n = rowNorms(M);
        QCOMPARE(n(0), 5.0);
        QVERIFY(std::abs(n(1) / 5e200 - 1) < 1e-15);
        QVERIFY(std::abs(n(2) / 5e-170 - 1) < 1e-15);
        QCOMPARE(n(3), 0.0);
        QVERIFY(std::isnan(n(4)));
        QVERIFY(std::abs(n(5) / 5e-160 - 1) < 1e-15);
    }
};

QTEST_APPLESS_MAIN(TestProjection)
#include "TestProjection.moc"
