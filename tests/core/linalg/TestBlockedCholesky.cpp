// The interruptible Cholesky against Eigen's LLT (an independent implementation), its failure on
// indefinite matrices, its progress, and that a throwing progress call stops it.
#include "base/Errors.h"
#include "linalg/BlockedCholesky.h"

#include <Eigen/Cholesky>
#include <QtTest>
#include <Eigen/Dense>

using namespace olens;

namespace {
Eigen::MatrixXd spd(Eigen::Index n, unsigned seed)
{
    std::srand(seed);
    const Eigen::MatrixXd B = Eigen::MatrixXd::Random(n, n / 2 + 3);
    Eigen::MatrixXd A = B * B.transpose();
    A.diagonal().array() += 0.5;
    return A;
}
} // namespace

class TestBlockedCholesky : public QObject {
    Q_OBJECT
private slots:
    void equalsEigenLlt_data()
    {
        QTest::addColumn<int>("n");
        for (int n : {1, 5, 255, 256, 257, 700, 1300})
            QTest::addRow("n=%d", n) << n;
    }
    void equalsEigenLlt()
    {
        QFETCH(int, n);
        const Eigen::MatrixXd A = spd(n, 7u + unsigned(n));
        Eigen::MatrixXd F = A;
        F.triangularView<Eigen::StrictlyUpper>().setConstant(42.0); // left as it was
        const Eigen::MatrixXd upperBefore = F.triangularView<Eigen::StrictlyUpper>();
        std::vector<double> ticks;
        QVERIFY(choleskyInPlace(F, [&](double f) { ticks.push_back(f); }));
        const Eigen::MatrixXd L = F.triangularView<Eigen::Lower>();
        const Eigen::MatrixXd Lref = Eigen::LLT<Eigen::MatrixXd>(A).matrixL();
        QVERIFY((L - Lref).norm() <= 1e-10 * Lref.norm());
        QVERIFY((L * L.transpose() - A).norm() <= 1e-11 * A.norm());
        QCOMPARE(Eigen::MatrixXd(F.triangularView<Eigen::StrictlyUpper>()), upperBefore);
        QVERIFY(!ticks.empty());
        QCOMPARE(ticks.back(), 1.0);
        QVERIFY(std::is_sorted(ticks.begin(), ticks.end()));
    }
    void refusesIndefinite()
    {
        Eigen::MatrixXd A = spd(600, 3);
        A(400, 400) = -1.0; // a negative pivot in the second panel
        Eigen::MatrixXd F = A;
        QVERIFY(!choleskyInPlace(F));
        Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(3, 3);
        QVERIFY(!choleskyInPlace(Z));
    }
    void progressCanStopIt()
    {
        // n = 2000: 8 panels; the second progress call throws and nothing after it runs.
        Eigen::MatrixXd F = spd(2000, 11);
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, choleskyInPlace(F, [&](double) {
            if (++calls == 2)
                throw Cancelled();
        }));
        QCOMPARE(calls, 2);
    }
};

QTEST_APPLESS_MAIN(TestBlockedCholesky)
#include "TestBlockedCholesky.moc"
