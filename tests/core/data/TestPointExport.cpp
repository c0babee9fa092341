// Tests for core/data/PointExport: inliers / flagged rows written as CSV and binary PLY re-open with
// the project's own loader (loadDataset) with the same values and column names, plus score and
// outlier; names are kept unique; PLY without x, y, z.
#include "data/PointExport.h"
#include "data/CsvCells.h"
#include "data/DataLoader.h"
#include "data/PlyReader.h"
#include "base/Errors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
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
            QCOMPARE(names(back.featureNames), QStringList({"x", "y", "z", "score", "outlier", "index"}));
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
        QCOMPARE(names(back.featureNames), QStringList({"x", "y", "z", "score", "outlier", "index"}));
        QVERIFY(back.hasSigma());
        QCOMPARE(back.sigma(1, 2), d.sigma(4, 2));
        QVERIFY(out.str().find("anomaly") != std::string::npos);
        QCOMPARE(back.labels(0), 0.0);
        QCOMPARE(back.labels(1), 1.0);
    }

    void formulaCellsAreNeutralisedAndReadBackExactly()
    {
        // #51: a text label, a carried text column or a header beginning with = + - @ was written
        // raw, and a spreadsheet ran it as a formula. Now each such text gets a leading apostrophe
        // (OWASP's rule; numbers stay numbers) and the loader takes it off again: the same texts
        // come back. Expected cells written by hand from the rule.
        Dataset d = sample(false, {"x", "-y", "z"});
        d.labelName = "=kind";
        d.labelNames = {"normal", "=cmd|' /C calc'!A0"};
        d.labels = Eigen::Vector<double, 5>(0, 1, 0, 1, 0);
        d.carried.push_back({"@note", {"=1+1", "+A1", "-x", "'=q", "-2.5"}});
        const Eigen::VectorXd scores = Eigen::VectorXd::LinSpaced(5, -1, 1); // negative numbers stay numbers
        const Eigen::VectorXi flags = Eigen::Vector<int, 5>(1, 1, 0, 0, 0);
        std::ostringstream out;
        writePointsCsv(out, {d, scores, flags, {0, 1, 2, 3, 4}});
        const std::string text = out.str();
        const std::string header = text.substr(0, text.find('\n'));
        QCOMPARE(QString::fromStdString(header), QStringLiteral("x,'-y,z,'=kind,'@note,score,outlier,index"));
        for (const char* cell : {"'=1+1", "'+A1", "'-x", "''=q", "'=cmd|' /C calc'!A0"})
            QVERIFY2(text.find(cell) != std::string::npos, cell);
        for (const char* raw : {",=", ",+A1", ",-x", ",@"})
            QVERIFY2(text.find(raw) == std::string::npos, raw);
        QVERIFY(text.find(",-2.5,") != std::string::npos); // a number, not protected
        QVERIFY(text.find(",-1,") != std::string::npos);   // the first score
        LoadOptions o;
        o.labelColumn = "=kind";
        o.excludeColumns = {"@note"};
        const Dataset back = parseDataset(text, "e.csv", o);
        QCOMPARE(names(back.featureNames), QStringList({"x", "-y", "z", "score", "outlier", "index"}));
        QCOMPARE(QString::fromStdString(back.labelName), QStringLiteral("=kind"));
        QCOMPARE(back.labelNames.size(), std::size_t(2));
        QVERIFY(std::find(back.labelNames.begin(), back.labelNames.end(), "=cmd|' /C calc'!A0") != back.labelNames.end());
        QCOMPARE(back.carried.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(back.carried[0].name), QStringLiteral("@note"));
        QCOMPARE(back.carried[0].cells, d.carried[0].cells);
        QCOMPARE(back.X(0, 3), -1.0);
        // The rule and its inverse on every short text over the characters that matter.
        const std::string alphabet = "'=+-@\t\r1.ea ";
        std::vector<std::string> texts{""};
        for (int len = 1; len <= 4; ++len)
            for (std::size_t k = 0, m = texts.size(); k < m; ++k)
                if (static_cast<int>(texts[k].size()) == len - 1)
                    for (char c : alphabet)
                        texts.push_back(texts[k] + c);
        for (const std::string& t : texts) {
            const std::string w = neutraliseCell(t);
            QVERIFY2(std::string(restoreCell(w)) == t, t.c_str());
            const bool formula = !w.empty() && std::string("=+-@\t\r").find(w.front()) != std::string::npos;
            double v = 0.0;
            const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
            QVERIFY2(!formula || (r.ec == std::errc() && r.ptr == w.data() + w.size()), w.c_str()); // only numbers
        }
    }

    void ignoredColumnsAreWrittenBack_data()
    {
        QTest::addColumn<QString>("ext");
        QTest::newRow("csv") << "csv";
        QTest::newRow("ply") << "ply";
    }
    void ignoredColumnsAreWrittenBack()
    {
        // Issue #35: a PLY's `intensity` (or a CSV's id) marked *ignore* on import was missing from
        // every export. Loaded with the column excluded, it is carried as read and written back
        // after the label: CSV keeps text and numbers, PLY the numeric column (a text column is
        // named in a comment: PLY has no text properties).
        QTemporaryDir dir;
        const std::string src = dir.filePath("src.csv").toStdString();
        {
            std::ofstream f(src);
            f << "x,y,z,intensity,id,label\n0,0,0,0.5,a1,0\n1,0,0,7,b2,0\n0,1,0,1e-3,\"c,3\",1\n";
        }
        LoadOptions o;
        o.excludeColumns = {"intensity", "id"};
        const Dataset d = loadDataset(src, o);
        QCOMPARE(names(d.featureNames), QStringList({"x", "y", "z"}));
        QCOMPARE(d.carried.size(), std::size_t(2));
        QCOMPARE(d.carried[1].cells[2], std::string("c,3"));
        QFETCH(QString, ext);
        const std::string out = dir.filePath("out." + ext).toStdString();
        const Eigen::VectorXd scores = Eigen::Vector3d(0.1, 0.2, 0.9);
        const Eigen::VectorXi flags = Eigen::Vector3i(0, 0, 1);
        writePoints(out, {d, scores, flags, {2, 1}}); // the flagged row first
        LoadOptions back;
        back.excludeColumns = ext == "csv" ? std::vector<std::string>{"id"} : std::vector<std::string>{};
        const Dataset r = loadDataset(out, back);
        QCOMPARE(names(r.featureNames), QStringList({"x", "y", "z", "intensity", "score", "outlier", "index"}));
        QCOMPARE(r.X(0, 3), 1e-3);
        QCOMPARE(r.X(1, 3), 7.0);
        if (ext == "csv") {
            QCOMPARE(r.carried.size(), std::size_t(1));
            QCOMPARE(r.carried[0].cells, (std::vector<std::string>{"c,3", "b2"}));
        } else {
            std::ifstream f(out, std::ios::binary);
            std::string header((std::istreambuf_iterator<char>(f)), {});
            QVERIFY(header.find("comment not written (text column): id") != std::string::npos);
        }
        // Selecting rows keeps the carried cells with their rows.
        const Dataset part = selectRows(d, {2, 0});
        QCOMPARE(part.carried[0].cells, (std::vector<std::string>{"1e-3", "0.5"}));
    }

    void plyReaderCarriesIgnoredProperties()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("i.ply").toStdString();
        {
            std::ofstream f(path);
            f << "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\n"
                 "property float intensity\nend_header\n0 0 0 0.25\n1 2 3 4\n";
        }
        LoadOptions o;
        o.excludeColumns = {"intensity"};
        const Dataset d = loadDataset(path, o);
        QCOMPARE(d.cols(), Eigen::Index(3));
        QCOMPARE(d.carried.size(), std::size_t(1));
        QCOMPARE(d.carried[0].name, std::string("intensity"));
        QCOMPARE(d.carried[0].cells, (std::vector<std::string>{"0.25", "4"}));
    }

    void plyKeepsSigmaColumns()
    {
        // sigma_<feature> properties come back as the data's sigma, not as features.
        QTemporaryDir dir;
        const std::string path = dir.filePath("s.ply").toStdString();
        const Dataset d = sample(true);
        const Eigen::VectorXd scores = Eigen::VectorXd::LinSpaced(5, 0, 1);
        const Eigen::VectorXi flags = Eigen::VectorXi::Zero(5);
        writePoints(path, {d, scores, flags, {4, 0, 2}});
        const Dataset back = loadDataset(path);
        QCOMPARE(names(back.featureNames), QStringList({"x", "y", "z", "score", "outlier", "index"}));
        QVERIFY(back.hasSigma());
        QCOMPARE(back.sigma.rows(), Eigen::Index(3));
        QCOMPARE(Eigen::RowVectorXd(back.sigma.row(0).head(3)), Eigen::RowVectorXd(d.sigma.row(4)));
        QCOMPARE(Eigen::RowVectorXd(back.sigma.row(2).head(3)), Eigen::RowVectorXd(d.sigma.row(2)));
        QCOMPARE(back.sigma(1, 3), 0.0); // score has no sigma
    }

    void plyReaderSigmaRules()
    {
        const std::string head = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\n"
                                 "property float z\nproperty float sigma_y\nproperty float sigma_q\nend_header\n";
        const Dataset a = parsePly(head + "1 2 3 0.5 7\n4 5 6 0.25 8\n", "a.ply");
        QCOMPARE(names(a.featureNames), QStringList({"x", "y", "z", "sigma_q"})); // no feature q: a feature
        QVERIFY(a.hasSigma());
        QCOMPARE(a.sigma(1, 1), 0.25);
        QCOMPARE(a.sigma(1, 0), 0.0);
        QCOMPARE(a.X(1, 3), 8.0);
        try {
            parsePly(head + "1 2 3 -0.5 7\n4 5 6 0.25 8\n", "b.ply");
            QFAIL("negative sigma accepted");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("negative sigma"), e.what());
        }
        LoadOptions none;
        none.sigmaPrefix.clear(); // no prefix: every property is a feature
        QCOMPARE(parsePly(head + "1 2 3 0.5 7\n4 5 6 0.25 8\n", "c.ply", none).cols(), Eigen::Index(5));
    }

    void takenNamesGetASuffix()
    {
        // Re-exporting an export: the data already have score and outlier columns.
        const Dataset d = sample(false, {"x", "score", "outlier", "index"});
        const Eigen::VectorXd scores = Eigen::VectorXd::Ones(5);
        const Eigen::VectorXi flags = Eigen::VectorXi::Zero(5);
        std::ostringstream out;
        writePointsCsv(out, {d, scores, flags, {0, 3}});
        const Dataset back = parseDataset(out.str(), "e.csv");
        QCOMPARE(names(back.featureNames),
                 QStringList({"x", "score", "outlier", "index", "score_2", "outlier_2", "index_2"}));
        QCOMPARE(back.X(1, 6), 3.0); // the second row written is row 3 of the data
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
        QCOMPARE(names(back.featureNames), QStringList({"x", "y", "z", "d", "score", "outlier", "index"}));
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
