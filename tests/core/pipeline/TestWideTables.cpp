// Wide tables (issue #34 item 3): every registered detector, through the one fit pipeline, on a
// 20 × 20 000 table (a few planted far rows) either gives finite scores for every row or refuses
// with a ParamError/DataError that names the cause — never a p×p or p³ step that runs for minutes
// or takes gigabytes: before, pca, quadrics-base and bods eigen-decomposed a 20 000² covariance
// (> 60 s each, killed), gods with K = auto (= p) failed with "K=20000 is outside [1, 1000]" and
// quadrics-base's geometry wrote out m dense p×p matrices. The process's peak memory stays
// under 2 GiB (a single 20 000² matrix is 3.2 GB).
#include "ProcessMemory.h"
#include "RandomData.h"
#include "base/Errors.h"
#include "data/Normalizer.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"

#include <QtTest>

#include <string>

using namespace olens;
using olens::test::peakRssMiB;
using olens::test::gaussianRows;

namespace {


} // namespace

class TestWideTables : public QObject {
    Q_OBJECT
private slots:
    void everyDetectorScoresOrRefusesA20By20000Table()
    {
        Eigen::MatrixXd X = gaussianRows(20, 20000, 77);
        X.topRows(2) *= 3.0; // two far rows
        int scored = 0;
        QStringList refused;
        for (const DetectorInfo& info : Registry::instance().detectors()) {
            try {
                const auto r = fitPipeline(Registry::instance().create(info.id), Normalizer(Normalization::None), X);
                QCOMPARE(r->scores.size(), X.rows());
                QVERIFY2(r->scores.allFinite(), info.id.c_str());
                ++scored;
            } catch (const ParamError& e) {
                QVERIFY2(std::string(e.what()).size() > 20, e.what());
                refused << QString::fromStdString(info.id + ": " + e.what()).left(140);
            } catch (const DataError& e) {
                QVERIFY2(std::string(e.what()).size() > 20, e.what());
                refused << QString::fromStdString(info.id + ": " + e.what()).left(140);
            }
            QVERIFY2(peakRssMiB() < 2048, qPrintable(QString("%1 after %2").arg(peakRssMiB()).arg(info.id.c_str())));
        }
        qInfo("%d detectors scored, %lld refused:\n%s", scored, static_cast<long long>(refused.size()),
              qPrintable(refused.join('\n')));
        // The view's detectors of wide data: distances, subspaces and the slabs all score.
        QVERIFY(scored >= 10);
    }

    void wideRefusalsNameTheCause()
    {
        const Eigen::MatrixXd X = gaussianRows(20, 20000, 78);
        // mcd: a covariance needs more rows than features.
        try {
            fitPipeline(Registry::instance().create("mcd"), Normalizer(Normalization::None), X);
            QFAIL("mcd fitted 20 rows in 20 000 dimensions");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("20002") != std::string::npos, e.what());
        } catch (const ParamError& e) {
            QVERIFY2(std::string(e.what()).find("20002") != std::string::npos, e.what());
        }
        // gods: K = auto is n − 1 on wide data, inside its range (was "K=20000 is outside [1, 1000]").
        const auto r = fitPipeline(Registry::instance().create("gods", {{"max_iter", "5"}}), Normalizer(Normalization::None), X);
        QCOMPARE(r->detector->params().getInt("K"), 19);
    }
};

QTEST_APPLESS_MAIN(TestWideTables)
#include "TestWideTables.moc"
