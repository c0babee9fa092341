// outlierlens-cli score --inliers / --outliers: the rows themselves (every input column + score,
// outlier) as CSV or binary PLY; together they are the input, split by the detector's decision,
// and they agree with --output's scores.
#include "Cli.h"
#include "CliTestSupport.h"
#include "data/DataLoader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <vector>

using namespace olens;
using test::cli;
using test::Run;

class TestCliExport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const char* name) { return m_dir.filePath(name).toStdString(); }

private slots:
    void inliersAndOutliersSplitTheInput_data()
    {
        QTest::addColumn<QString>("ext");
        QTest::newRow("csv") << "csv";
        QTest::newRow("ply") << "ply";
    }
    void inliersAndOutliersSplitTheInput()
    {
        QFETCH(QString, ext);
        const std::string in = std::string(OLENS_SOURCE_DIR) + "/samples/seam3d.csv";
        const std::string inl = path(qPrintable("clean." + ext)), outl = path(qPrintable("flagged." + ext));
        const Run r = cli({"score", "--input", in, "--detector", "knn", "--output", path("s.csv"), "--inliers", inl,
                           "--outliers", outl});
        QVERIFY2(r.code == 0, r.err.c_str());
        const Dataset data = loadDataset(in), scores = loadDataset(path("s.csv")); // index,score,outlier,label
        const Dataset a = loadDataset(inl), b = loadDataset(outl);
        const QStringList cols{"x", "y", "z", "score", "outlier", "index"};
        for (const Dataset* d : {&a, &b}) {
            QStringList names;
            for (const auto& s : d->featureNames) names << QString::fromStdString(s);
            QCOMPARE(names, cols);
            QCOMPARE(QString::fromStdString(d->labelName), QStringLiteral("label"));
        }
        const Eigen::Index flagged = static_cast<Eigen::Index>(scores.X.col(2).sum());
        QVERIFY(flagged > 0 && flagged < data.rows());
        QCOMPARE(b.rows(), flagged);
        QCOMPARE(a.rows() + b.rows(), data.rows());
        QVERIFY((a.X.col(4).array() == 0).all());
        QVERIFY((b.X.col(4).array() == 1).all());
        // Issue #52: each exported point carries its row in the input; the two files together
        // hold every row once, and each row's coordinates are the input's at that index.
        std::vector<int> seen(static_cast<std::size_t>(data.rows()), 0);
        for (const Dataset* d : {&a, &b})
            for (Eigen::Index r = 0; r < d->rows(); ++r) {
                const auto i = static_cast<Eigen::Index>(d->X(r, 5));
                QVERIFY(i >= 0 && i < data.rows());
                ++seen[static_cast<std::size_t>(i)];
                QCOMPARE(d->X(r, 0), data.X(i, 0));
                QCOMPARE(d->X(r, 2), data.X(i, 2));
            }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
        // Rows keep their order: walk the input and match each row to the file it went to.
        Eigen::Index ia = 0, ib = 0;
        for (Eigen::Index i = 0; i < data.rows(); ++i) {
            const bool isFlagged = scores.X(i, 2) != 0;
            const Dataset& d = isFlagged ? b : a;
            const Eigen::Index row = isFlagged ? ib++ : ia++;
            for (Eigen::Index j = 0; j < 3; ++j)
                QCOMPARE(d.X(row, j), data.X(i, j));
            QCOMPARE(d.X(row, 3), scores.X(i, 1));
            QCOMPARE(d.labels(row), data.labels(i));
        }
    }

    void inliersAloneNeedNoOutput()
    {
        const std::string in = std::string(OLENS_SOURCE_DIR) + "/samples/moons2d.csv";
        const Run r = cli({"score", "--input", in, "--detector", "knn", "--inliers", path("m.csv")});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(loadDataset(path("m.csv")).rows() > 0);
        // PLY needs x, y, z: 2-D data are refused with a one-line reason, and nothing is written.
        const Run p = cli({"score", "--input", in, "--detector", "knn", "--outliers", path("m.ply")});
        QCOMPARE(p.code, 1);
        QVERIFY2(QString::fromStdString(p.err).contains("CSV"), p.err.c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(path("m.ply"))));
    }

    void badPointPathsAreRefusedBeforeFitting()
    {
        const std::string in = std::string(OLENS_SOURCE_DIR) + "/samples/moons2d.csv";
        Run r = cli({"score", "--input", in, "--detector", "knn", "--inliers", path("x.csv"), "--outliers", path("x.csv")});
        QCOMPARE(r.code, 1);
        QVERIFY2(QString::fromStdString(r.err).contains("own file path"), r.err.c_str());
        r = cli({"score", "--input", in, "--detector", "knn", "--inliers", "-"});
        QCOMPARE(r.code, 1);
        r = cli({"score", "--input", in, "--detector", "knn", "--inliers", in});
        QCOMPARE(r.code, 1);
        QVERIFY(!QFile::exists(QString::fromStdString(path("x.csv"))));
    }
};

QTEST_APPLESS_MAIN(TestCliExport)
#include "TestCliExport.moc"
