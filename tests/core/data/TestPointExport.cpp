// Tests for core/data/PointExport: inliers / flagged rows written as CSV and binary PLY re-open with
// the project's own loader (loadDataset) with the same values and column names, plus score and
// outlier; names are kept unique; PLY without x, y, z.
#include "data/PointExport.h"
#include "data/DataLoader.h"
#include "base/Errors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace olens;

namespace {

Dataset sample(bool sigma, std::vector<std::string> names = {"x", "y", "z"})
{
    Dataset d;
    d.featureNames = names;
    const Eigen::Index p = static_cast<Eigen::Index>(names.size());
    d.X.resize(5, p);
    for (Eigen::Index i = 0; i < 5; ++i)
        for (Eigen::Index j = 0; j < p; ++j)
            d.X(i, j) = 0.1 * double(i) + 1.0 / 3.0 * double(j + 1) - (i == 3 ? 1e-17 : 0.0) + (j == 1 ? 1e9 * double(i) : 0.0);
    d.labelName = "label";
    d.labels = Eigen::Vector<double, 5>(0, 1, 0, 0, 1);
    if (sigma) d.sigma = Eigen::MatrixXd::Constant(5, p, 0.25) + d.X * 1e-3;
    return d;
}

QStringList names(const std::vector<std::string>& v)
{
    QStringList out;
    for (const auto& s : v) out << QString::fromStdString(s);
    return out;
}

} // namespace

class TestPointExport : public QObject {
    Q_OBJECT
private slots:
    void rowsWithFlagSplitsTheRows()
    {
        const Eigen::VectorXi flags = Eigen::Vector<int, 5>(0, 1, 0, 0, 1);
        QCOMPARE(rowsWithFlag(flags, true), (std::vector<Eigen::Index>{1, 4}));
        QCOMPARE(rowsWithFlag(flags, false), (std::vector<Eigen::Index>{0, 2, 3}));
    }

    void formatFollowsTheExtension()
    {
        QVERIFY(pointFormatFor("a/b.ply") == PointFormat::Ply);
        QVERIFY(pointFormatFor("B.PLY") == PointFormat::Ply);
        QVERIFY(pointFormatFor("b.csv") == PointFormat::Csv);
        QVERIFY(pointFormatFor("ply") == PointFormat::Csv);
    }

    void roundTrip_data() { QTest::addColumn<QString>("ext"); QTest::newRow("csv") << "csv"; QTest::newRow("ply") << "ply"; }
    void roundTrip()
    {
        QFETCH(QString, ext);
        QTemporaryDir dir;
        const Dataset d = sample(false);
        const Eigen::VectorXd scores = Eigen::Vector<double, 5>(0.5, 2.25, 0.125, 1.0 / 7.0, 3.5);
        const Eigen::VectorXi flags = Eigen::Vector<int, 5>(0, 1, 0, 0, 1);
        for (bool flagged : {false, true}) {
            const std::string path = dir.filePath("out." + ext).toStdString();
            const std::vector<Eigen::Index> rows = rowsWithFlag(flags, flagged);
            writePoints(path, {d, scores, flags, rows});
            const Dataset back = loadDataset(path);
            QCOMPARE(names(back.featureNames), QStringList({"x", "y", "z", "score", "outlier"}));
            QCOMPARE(QString::fromStdString(back.labelName), QStringLiteral("label"));
            QCOMPARE(back.rows(), Eigen::Index(rows.size()));
            for (Eigen::Index r = 0; r < back.rows(); ++r) {
                const Eigen::Index i = rows[std::size_t(r)];
                for (Eigen::Index j = 0; j < 3; ++j)
                    QCOMPARE(back.X(r, j), d.X(i, j)); // bit-exact: shortest round-trip text / doubles
                QCOMPARE(back.X(r, 3), scores(i));
                QCOMPARE(back.X(r, 4), double(flags(i)));
                QCOMPARE(back.labels(r), d.labels(i));
            }
        }
    }

    void csvKeepsSigmaAndTextLabels()
    {
        Dataset d = sample(true);
        d.labelName = "kind";
        d.labelNames = {"normal", "anomaly"};
        const Eigen::VectorXd scores = Eigen::VectorXd::LinSpaced(5, 0, 1);
        const Eigen::VectorXi flags = Eigen::Vector<int, 5>(1, 1, 0, 0, 0);
        std::ostringstream out;
        writePointsCsv(out, {d, scores, flags, {0, 4}});
        LoadOptions o;
        o.labelColumn = "kind";
        const Dataset back = parseDataset(out.str(), "e.csv", o);
        QCOMPARE(names(back.featureNames), QStringList({"x", "y", "z", "score", "outlier"}));
        QVERIFY(back.hasSigma());
        QCOMPARE(back.sigma(1, 2), d.sigma(4, 2));
        QVERIFY(out.str().find("anomaly") != std::string::npos);
        QCOMPARE(back.labels(0), 0.0);
        QCOMPARE(back.labels(1), 1.0);
    }

    void takenNamesGetASuffix()
    {
        // Re-exporting an export: the data already have score and outlier columns.
        const Dataset d = sample(false, {"x", "score", "outlier"});
        const Eigen::VectorXd scores = Eigen::VectorXd::Ones(5);
        const Eigen::VectorXi flags = Eigen::VectorXi::Zero(5);
        std::ostringstream out;
        writePointsCsv(out, {d, scores, flags, {0, 1}});
        const Dataset back = parseDataset(out.str(), "e.csv");
        QCOMPARE(names(back.featureNames), QStringList({"x", "score", "outlier", "score_2", "outlier_2"}));
    }

    void plyWithoutXyz()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("o.ply").toStdString();
        const Eigen::VectorXd scores = Eigen::VectorXd::Zero(5);
        const Eigen::VectorXi flags = Eigen::VectorXi::Zero(5);
        // p = 2: refused with a message that says what to do.
        const Dataset flat = sample(false, {"a", "b"});
        try {
            writePoints(path, {flat, scores, flags, {0}});
            QFAIL("2-D data written as PLY");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("CSV"), e.what());
        }
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
        // p = 4 without x, y, z: the first three become x, y, z, the fourth keeps its name.
        const Dataset wide = sample(false, {"a", "b", "c", "d"});
        writePoints(path, {wide, scores, flags, {1, 2}});
        const Dataset back = loadDataset(path);
        QCOMPARE(names(back.featureNames), QStringList({"x", "y", "z", "d", "score", "outlier"}));
        QCOMPARE(back.X(1, 3), wide.X(2, 3));
    }

    void mismatchedScoresAreAnError()
    {
        const Dataset d = sample(false);
        const Eigen::VectorXd scores = Eigen::VectorXd::Zero(4);
        const Eigen::VectorXi flags = Eigen::VectorXi::Zero(5);
        std::ostringstream out;
        QVERIFY_THROWS_EXCEPTION(DataError, writePointsPly(out, {d, scores, flags, {0}}));
    }
};

QTEST_APPLESS_MAIN(TestPointExport)
#include "TestPointExport.moc"
