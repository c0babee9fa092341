// Session files: a full round trip (embedded data, detector, fitted model, camera, view, compare)
// gives identical scores; every kind of malformed file is rejected with a DataError naming the
// JSON path, never a crash.
#include "base/Errors.h"
#include "base/Json.h"
#include "data/Generators.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"
#include "session/Session.h"
#include "session/SessionDataFile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <sstream>

using namespace olens;

namespace {

Session fittedSession()
{
    Session s;
    s.embedded = true;
    s.data = generate("moons", 60, 7, {{"outliers", "0.1"}});
    s.data.sigma = Eigen::MatrixXd::Constant(s.data.rows(), s.data.cols(), 0.25);
    SessionDetector d{"knn", nlohmann::json::object({{"k", 4}}), "zscore"};
    s.detector = d;
    Normalizer n(Normalization::ZScore);
    const Eigen::MatrixXd Xn = n.fitTransform(s.data.X);
    auto det = Registry::instance().create("knn", {{"k", "4"}});
    det->fit(Xn);
    s.model = det->toJson();
    s.model["normalizer"] = n.toJson();
    s.threshold = 0.75;
    s.topK = 5;
    s.camera.valid = true;
    s.camera.position = {1, 2, 3};
    s.camera.focalPoint = {0.5, -0.5, 0};
    s.camera.viewUp = {0, 1, 0};
    s.camera.parallelScale = 2.5;
    s.view = {{"colour_by", "score"}, {"point_size", 9}, {"contours", true}};
    s.compare = {SessionDetector{"pca", nlohmann::json::object(), "none"}, SessionDetector{"knn", {}, "zscore"}};
    s.compareQuantile = 0.9;
    return s;
}

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos) throw std::logic_error("test pattern not found: " + from);
    return text.replace(at, from.size(), to);
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT

private slots:
    void packedArraysAreBitExactAndCompact()
    {
        // Issue #34 item 7: long double arrays are stored as base64 of their bytes. Checked bit for
        // bit (memcmp), with the values JSON text cannot hold (NaN, ±inf) or rounds carelessly
        // (−0, the smallest subnormal, the largest double).
        std::vector<double> values = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(), -0.0, 4.9406564584124654e-324,
                                      1.7976931348623157e308, 0.1, 1.0 / 3.0};
        std::mt19937_64 rng(3);
        std::normal_distribution<double> normal;
        while (values.size() < 1001) // an odd byte count is not needed: 8 bytes each; 1001 → padding "="
            values.push_back(normal(rng) * 1e3);
        const nlohmann::json doc = {{"state", {{"points", values}, {"k", 5}, {"short", std::vector<double>(10, 0.5)},
                                               {"rows", std::vector<int>(200, 7)}}}};
        const nlohmann::json packed = packArrays(doc);
        QVERIFY(packed["state"]["points"].is_object());
        QCOMPARE(packed["state"]["points"]["n"].get<int>(), 1001);
        QVERIFY(packed["state"]["short"].is_array()); // below kPackedMinimum: text, as before
        QVERIFY(packed["state"]["rows"].is_array());  // integers are not doubles: untouched
        const nlohmann::json back = unpackArrays(nlohmann::json::parse(packed.dump()));
        const auto restored = back["state"]["points"].get<std::vector<double>>();
        QCOMPARE(restored.size(), values.size());
        QVERIFY(std::memcmp(restored.data(), values.data(), values.size() * sizeof(double)) == 0);
        QCOMPARE(back["state"]["short"], doc["state"]["short"]);
        QCOMPARE(back["state"]["rows"], doc["state"]["rows"]);
        // Packed in place (the tree consumed) and packed straight from the doubles: the same text.
        nlohmann::json consumed = doc;
        QCOMPARE(packArrays(std::move(consumed)), packed);
        QCOMPARE(packedDoubles(values.data(), values.size()), packed["state"]["points"]);
        QCOMPARE(packedDoubles(values.data() + 8, 10), nlohmann::json(std::vector<double>(values.begin() + 8, values.begin() + 18)));
        for (const std::size_t n : {std::size_t(64), std::size_t(65), std::size_t(66), std::size_t(769), std::size_t(770)}) {
            // Every tail a chunk of the encoder can leave (chunks of 768 doubles; base64 pads at 1, 2)
            const nlohmann::json one = packedDoubles(values.data(), n);
            const auto again = unpackArrays(one).get<std::vector<double>>();
            QCOMPARE(again.size(), n);
            QVERIFY(std::memcmp(again.data(), values.data(), n * sizeof(double)) == 0);
        }
        // Compact: about 11 characters per double instead of ~20.
        nlohmann::json textOnly = doc;
        textOnly["state"]["points"] = std::vector<double>(values.begin() + 8, values.end());
        nlohmann::json packedOnly = packArrays(textOnly);
        QVERIFY2(packedOnly.dump().size() * 10 < textOnly.dump().size() * 7,
                 qPrintable(QString("%1 vs %2").arg(packedOnly.dump().size()).arg(textOnly.dump().size())));
    }

    void sessionsAreWrittenAsTheyAreMadeWithTheirModelPacked()
    {
        // Issue #54: a 20 M-row knn autosave held its scores as 320 MB of JSON numbers, again packed,
        // and again as text (peak +0.9 GB at exit). The model is now built packed, and the text is
        // streamed: the same bytes as serializeSession, the same model back.
        Session s = fittedSession();
        const Normalizer n = Normalizer::fromJson(s.model["normalizer"]);
        const auto det = Registry::instance().load(s.model);
        const nlohmann::json model = sessionModelJson(*det, n, nullptr, {});
        QVERIFY(model["training_scores"].is_array()); // 60 scores: below kPackedMinimum
        QVERIFY(model["state"]["points"].is_object()); // 60 × 2 values: packed where it is made
        QCOMPARE(unpackArrays(model), s.model);
        s.data = generate("moons", 300, 7, {{"outliers", "0.1"}});
        const auto fitted = fitPipeline(Registry::instance().create("knn", {{"k", "4"}}), Normalizer(Normalization::ZScore), s.data.X, {});
        s.model = sessionModelJson(*fitted->detector, fitted->normalizer, nullptr, {});
        QVERIFY(s.model["training_scores"].is_object());
        QCOMPARE(s.model["training_scores"]["n"].get<int>(), 300);
        const std::string text = serializeSession(s);
        std::ostringstream streamed;
        writeSession(Session(s), streamed);
        QCOMPARE(streamed.str(), text);
        const Session r = parseSession(streamed.str());
        const RestoredModel back = restoreSessionModel(r.model, 2);
        QVERIFY(back.detector->trainingScores() == fitted->detector->trainingScores());
    }

    void versionTwoTextSessionsStillLoad()
    {
        const Session s = fittedSession();
        nlohmann::json j = nlohmann::json::parse(serializeSession(s));
        QCOMPARE(j["version"].get<int>(), Session::kVersion);
        QVERIFY(j["model"]["state"]["points"].is_object()); // 60 points × 2: packed
        QVERIFY(j["model"]["training_scores"].is_array());  // 60 scores: below kPackedMinimum, text
        j["model"] = unpackArrays(j["model"]);
        j["data"] = unpackArrays(j["data"]);
        j["version"] = 2;
        const Session r = parseSession(j.dump(1));
        QCOMPARE(r.model, s.model);
        QCOMPARE(r.data.X, s.data.X);
        // A damaged packed array names its place in the file.
        nlohmann::json bad = nlohmann::json::parse(serializeSession(s));
        bad["model"]["state"]["points"]["f64le"] = "AAAA";
        try {
            parseSession(bad.dump());
            QFAIL("a truncated packed array was accepted");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("/model/state/points") != std::string::npos, e.what());
        }
    }

    void roundTripGivesIdenticalScores()
    {
        const Session s = fittedSession();
        const Session r = parseSession(serializeSession(s));
        QVERIFY(r.embedded);
        QCOMPARE(r.data.X, s.data.X);
        QCOMPARE(r.data.labels, s.data.labels);
        QCOMPARE(r.data.sigma, s.data.sigma);
        QCOMPARE(r.data.featureNames, s.data.featureNames);
        QVERIFY(r.detector.has_value());
        QCOMPARE(r.detector->id, std::string("knn"));
        QCOMPARE(r.detector->normalization, std::string("zscore"));
        QCOMPARE(r.detector->params.at("k").get<int>(), 4);
        QCOMPARE(*r.threshold, 0.75);
        QCOMPARE(r.topK, 5);
        QVERIFY(r.camera.valid);
        QCOMPARE(r.camera.position[2], 3.0);
        QCOMPARE(r.camera.focalPoint[1], -0.5);
        QCOMPARE(r.camera.parallelScale, 2.5);
        QCOMPARE(r.view.at("point_size").get<int>(), 9);
        QCOMPARE(int(r.compare.size()), 2);
        QCOMPARE(r.compare[0].id, std::string("pca"));
        QCOMPARE(r.compareQuantile, 0.9);

        // The restored model scores new data exactly as the original.
        const RestoredModel a = restoreSessionModel(s.model, 2);
        const RestoredModel b = restoreSessionModel(r.model, 2);
        const Eigen::MatrixXd Q = generate("blobs", 25, 3).X;
        const Eigen::VectorXd sa = a.detector->score(a.normalizer.transform(Q));
        const Eigen::VectorXd sb = b.detector->score(b.normalizer.transform(Q));
        QCOMPARE(sa, sb);
        // and the training scores equal a fresh fit's (same data, same parameters)
        auto fresh = Registry::instance().create("knn", {{"k", "4"}});
        fresh->fit(b.normalizer.transform(r.data.X));
        QVERIFY((fresh->trainingScores() - b.detector->trainingScores()).cwiseAbs().maxCoeff() < 1e-12);
    }

    void fitOnPartAndSelectionRoundTrip()
    {
        // Fit on the inliers (label 0), a selection: both come back, and the restored model gives
        // every row the score it had (training rows their kNN training scores, the others new-data
        // scores), which needs the training rows: without them row 0 would be scored as new data.
        Session s = fittedSession();
        s.fitOn = parseFitSubset("label:0");
        const std::vector<int> rows = resolveFitSubset(s.fitOn, s.data);
        QVERIFY(rows.size() < std::size_t(s.data.rows()));
        FitOptions o;
        o.trainingRows = rows;
        const auto fitted = fitPipeline(Registry::instance().create("knn", {{"k", "4"}}),
                                        Normalizer(Normalization::ZScore), s.data.X, o);
        s.model = fitted->detector->toJson();
        s.model["normalizer"] = fitted->normalizer.toJson();
        s.trainingRows = fitted->trainingRows;
        s.selection = {2, 3, 17};
        const Session r = parseSession(serializeSession(s));
        QVERIFY(r.fitOn == s.fitOn);
        QCOMPARE(r.trainingRows, rows);
        QCOMPARE(r.selection, s.selection);
        RestoredModel m = restoreSessionModel(r.model, 2);
        const auto back = resultForRows(std::shared_ptr<const Detector>(std::move(m.detector)), m.normalizer, r.data.X,
                                        false, r.trainingRows);
        QVERIFY((back->scores - fitted->scores).norm() == 0.0);
        QCOMPARE(back->trainingRows, rows);

        // A fraction and the selection kind ("rows" without rows) round-trip too.
        s.fitOn = parseFitSubset("fraction:0.25:3");
        QVERIFY(parseSession(serializeSession(s)).fitOn == s.fitOn);
        s.fitOn = FitSubset{FitSubset::Kind::Rows, {}, {}, 1.0, 0};
        QVERIFY(parseSession(serializeSession(s)).fitOn == s.fitOn);

        // A version-1 file (no fit_on, training_rows, selection) loads with all rows and no selection.
        nlohmann::json j = nlohmann::json::parse(serializeSession(fittedSession()));
        j["version"] = 1;
        for (const char* k : {"fit_on", "training_rows", "selection"})
            j.erase(k);
        const Session old = parseSession(j.dump());
        QVERIFY(old.fitOn.isAll());
        QVERIFY(old.trainingRows.empty());
        QVERIFY(old.selection.empty());
    }

    void memorisingModelsReferToTheirTrainingRows_data()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("knn") << "knn";
        QTest::newRow("lof") << "lof";
    }

    void memorisingModelsReferToTheirTrainingRows()
    {
        // Issue #34 item 7: knn and lof keep their (normalised) training rows; a session stores them
        // as a reference to its data. Put back from the data, the model is the same to the bit:
        // its state equals the full save's and every row gets the same score.
        QFETCH(QString, id);
        Session s;
        s.embedded = true;
        s.data = generate("moons", 400, 11, {{"outliers", "0.1"}});
        std::vector<int> rows;
        for (int i = 0; i < s.data.rows(); ++i)
            if (i % 5 != 3)
                rows.push_back(i); // fitted on a part: the reference is to those rows of the data
        FitOptions o;
        o.trainingRows = rows;
        const auto fitted = fitPipeline(Registry::instance().create(id.toStdString(), {}),
                                        Normalizer(Normalization::ZScore), s.data.X, o);
        const nlohmann::json full = sessionModelJson(*fitted->detector, fitted->normalizer, nullptr, rows);
        const nlohmann::json ref = sessionModelJson(*fitted->detector, fitted->normalizer, &s.data.X, rows);
        QVERIFY(!modelRefersToData(full));
        QVERIFY(modelRefersToData(ref));
        nlohmann::json withoutPoints = full["state"];
        withoutPoints.erase("points");
        QVERIFY(ref["state"] == withoutPoints); // everything else of the state is kept
        // On its own the model cannot be used: it says what it needs.
        try {
            Registry::instance().load(ref);
            QFAIL("a model without its rows was loaded");
        } catch (const DataError& e) {
            QVERIFY2(std::strstr(e.what(), "refers to the data it was fitted on"), e.what());
        }

        s.model = ref;
        s.trainingRows = rows;
        const Session r = parseSession(serializeSession(s));
        const nlohmann::json back = sessionModel(r, {}, {}); // embedded rows: no file read
        QVERIFY(!modelRefersToData(back));
        QVERIFY(back["state"] == unpackArrays(full["state"])); // the same doubles, bit for bit (JSON compares them exactly)
        RestoredModel m = restoreSessionModel(back, 2);
        const auto again = resultForRows(std::shared_ptr<const Detector>(std::move(m.detector)), m.normalizer, r.data.X,
                                         false, r.trainingRows);
        QVERIFY((again->scores - fitted->scores).norm() == 0.0);

        // A row the model was not fitted on may change; a training row may not (the file changed
        // since the save): refused with the reason, never a model with other points.
        Eigen::MatrixXd other = s.data.X;
        other(3, 0) += 1.0; // row 3 is not a training row
        QVERIFY(modelRefersToData(ref) && !modelRefersToData(modelWithTrainingRows(ref, other, rows)));
        other(4, 1) += 1e-9; // row 4 is
        try {
            modelWithTrainingRows(ref, other, rows);
            QFAIL("changed training rows were accepted");
        } catch (const DataError& e) {
            QVERIFY2(std::strstr(e.what(), "not the rows it was fitted on"), e.what());
        }
        // A model fitted on other data than the session's is stored whole.
        QVERIFY(!modelRefersToData(sessionModelJson(*fitted->detector, fitted->normalizer, &other, rows)));
        // A detector that keeps no rows is stored whole whatever the data.
        const auto pca = fitPipeline(Registry::instance().create("pca", {}), Normalizer(Normalization::ZScore), s.data.X);
        QVERIFY(!modelRefersToData(sessionModelJson(*pca->detector, pca->normalizer, &s.data.X, {})));
    }

    // The big-cloud check (issue #54) hashes the normalised rows block by block, column by column,
    // without building them; it must give matrixFingerprint of the matrix built whole, for every
    // normaliser (row-wise l2, column-wise zscore/minmax with a dropped constant column), all rows
    // or a part, and sizes below and above the one-copy cut (2^20 values) and not a multiple of the
    // block. The whole-matrix hash is the independent computation.
    void streamedFingerprintEqualsTheWholeMatrixs_data()
    {
        QTest::addColumn<QString>("norm");
        QTest::addColumn<int>("rows");
        QTest::addColumn<bool>("part");
        for (const char* norm : {"none", "zscore", "minmax", "l2"})
            for (const int rows : {1000, 400'003})
                for (const bool part : {false, true})
                    QTest::addRow("%s %d %s", norm, rows, part ? "part" : "all") << QString(norm) << rows << part;
    }
    void streamedFingerprintEqualsTheWholeMatrixs()
    {
        QFETCH(QString, norm);
        QFETCH(int, rows);
        QFETCH(bool, part);
        std::mt19937 rng(5);
        std::normal_distribution<double> g(3.0, 2.0);
        Eigen::MatrixXd X(rows, 4);
        for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = g(rng);
        X.col(2).setConstant(1.5); // minmax/zscore drop or zero a constant column
        std::vector<int> subset;
        if (part)
            for (int i = 0; i < rows; i += 3) subset.push_back(i);
        Normalizer n(parseNormalization(norm.toStdString()));
        const Eigen::MatrixXd raw = part ? Eigen::MatrixXd(X(subset, Eigen::all)) : X;
        n.fit(raw);
        const std::uint64_t whole = matrixFingerprint(n.transform(raw));
        const auto streamed = normalisedRowsFingerprint(n, X, subset);
        QVERIFY(streamed.has_value());
        QCOMPARE(*streamed, whole);
        // One value changed in a row it reads: another fingerprint; a row out of range: none.
        Eigen::MatrixXd Y = X;
        Y(part ? subset.back() : rows - 1, 0) += 1e-9;
        QVERIFY(*normalisedRowsFingerprint(n, Y, subset) != whole);
        QVERIFY(!normalisedRowsFingerprint(n, X, {0, rows}).has_value());
    }

    void referredRowsAreReadFromTheSessionsDataFile()
    {
        // A session that names a file (the autosave of file data): the CLI and Python read the rows
        // from it; the file edited afterwards gives a refusal naming the cause.
        QTemporaryDir dir;
        const std::string csv = dir.filePath("d.csv").toStdString();
        const Dataset d = generate("blobs", 300, 5, {});
        auto write = [&](const Eigen::MatrixXd& X) {
            std::FILE* f = std::fopen(csv.c_str(), "w");
            std::fprintf(f, "x,y\n");
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                std::fprintf(f, "%.17g,%.17g\n", X(i, 0), X(i, 1));
            std::fclose(f);
        };
        write(d.X);
        const auto fitted = fitPipeline(Registry::instance().create("knn", {}), Normalizer(Normalization::MinMax), d.X);
        Session s;
        s.dataPath = csv;
        s.model = sessionModelJson(*fitted->detector, fitted->normalizer, &d.X, {});
        QVERIFY(modelRefersToData(s.model));
        const Session r = parseSession(serializeSession(s));
        const std::string sessionPath = dir.filePath("s.olens.json").toStdString(); // beside the data
        RestoredModel m = restoreSessionModel(sessionModel(r, sessionPath, {}), 2);
        QVERIFY((m.detector->trainingScores() - fitted->detector->trainingScores()).norm() == 0.0);
        Eigen::MatrixXd edited = d.X;
        edited(0, 0) = 42.0;
        write(edited);
        QVERIFY_THROWS_EXCEPTION(DataError, sessionModel(r, sessionPath, {}));
    }

    void moreComparePanelsThanCompareModeShowsAreRefused()
    {
        // #51: a session with 16 compare panels was read and restored with fewer, without a word.
        Session s = fittedSession();
        s.compare.clear();
        for (int i = 0; i < kMaxComparePanels; ++i)
            s.compare.push_back({"knn", nlohmann::json::object(), "zscore"});
        QCOMPARE(parseSession(serializeSession(s)).compare.size(), std::size_t(kMaxComparePanels));
        s.compare.push_back({"knn", nlohmann::json::object(), "zscore"});
        try {
            parseSession(serializeSession(s));
            QFAIL("10 panels were read");
        } catch (const DataError& e) {
            QVERIFY2(std::strstr(e.what(), "/compare/detectors: 10 panels; compare mode shows at most 9"), e.what());
        }
    }

    void sessionDataOutsideItsFolderNeedsTheUsersWord()
    {
        // #51: a session handed over named any file (../../../etc/passwd, another user's data) and
        // the CLI and Python read it without a question; a FIFO there blocked for ever (fopen).
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("class/sessions"));
        QVERIFY(QDir(dir.path()).mkpath("elsewhere"));
        const Dataset d = generate("blobs", 60, 5, {});
        const std::string outside = dir.filePath("elsewhere/d.csv").toStdString();
        const std::string inside = dir.filePath("class/sessions/d-in.csv").toStdString(); // another name: see below
        for (const std::string& csv : {outside, inside}) {
            std::FILE* f = std::fopen(csv.c_str(), "w");
            std::fprintf(f, "x,y\n");
            for (Eigen::Index i = 0; i < d.X.rows(); ++i)
                std::fprintf(f, "%.17g,%.17g\n", d.X(i, 0), d.X(i, 1));
            std::fclose(f);
        }
        const auto fitted = fitPipeline(Registry::instance().create("knn", {}), Normalizer(Normalization::MinMax), d.X);
        Session s;
        s.model = sessionModelJson(*fitted->detector, fitted->normalizer, &d.X, {});
        const std::string sessionPath = dir.filePath("class/sessions/s.olens.json").toStdString();
        auto refusal = [&](const Session& x, const DataPermission& p) {
            try {
                sessionModel(x, sessionPath, p);
            } catch (const DataError& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        // By absolute path, and by a relative path that climbs out: refused, naming the file, the
        // folder and the way to allow it; allowed, the same model as from inside.
        s.dataPath = outside;
        std::string why = refusal(s, {false, "add --allow-data-outside"});
        QVERIFY2(why.find("outside the session's folder") != std::string::npos && why.find("elsewhere/d.csv") != std::string::npos
                     && why.find("add --allow-data-outside") != std::string::npos,
                 why.c_str());
        QVERIFY(refusal(s, {true, ""}).empty());
        s.dataPath = dir.filePath("gone.csv").toStdString();
        s.dataRelativePath = "../../elsewhere/d.csv";
        QVERIFY(refusal(s, {}).find("outside the session's folder") != std::string::npos);
        // A symbolic link in the session's folder that points out of it is outside too.
        s.dataRelativePath = "link.csv";
        QCOMPARE(::symlink(outside.c_str(), dir.filePath("class/sessions/link.csv").toLocal8Bit().constData()), 0);
        QVERIFY(refusal(s, {}).find("outside the session's folder") != std::string::npos);
        // A copy beside the session wins over the stored path elsewhere (a project folder copied as
        // a whole was refused, the stored path winning).
        s.dataPath = outside;
        s.dataRelativePath.clear();
        QVERIFY(QFile::copy(QString::fromStdString(outside), dir.filePath("class/sessions/d-copy.csv")));
        s.dataPath = dir.filePath("elsewhere/d-copy.csv").toStdString();
        QVERIFY(QFile::copy(QString::fromStdString(outside), QString::fromStdString(s.dataPath)));
        const SessionDataFile copied = locateSessionData(s, sessionPath);
        QVERIFY2(!copied.outside && copied.path.find("class/sessions/d-copy.csv") != std::string::npos, copied.path.c_str());
        // In the folder (moved together with the session): read as it asks.
        s.dataRelativePath = "d-in.csv";
        QVERIFY(refusal(s, {}).empty());
        // A session given as text has no folder: any file needs the word.
        s.dataPath = inside;
        s.dataRelativePath.clear();
        try {
            sessionModel(s, {}, {});
            QFAIL("a session without a folder read a file");
        } catch (const DataError& e) {
            QVERIFY2(std::strstr(e.what(), "a file it names itself"), e.what());
        }
        // A FIFO is not a data file: refused at once, never opened (fopen blocked for ever).
        const std::string fifo = dir.filePath("class/sessions/pipe.csv").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        s.dataPath = fifo;
        QVERIFY(refusal(s, {}).find("no regular file") != std::string::npos);
    }

    void cameraProjectionRoundTrip()
    {
        // Orthographic 3D views are kept; sessions written before the field existed read as perspective.
        Session s = fittedSession();
        s.camera.parallel = true;
        QVERIFY(parseSession(serializeSession(s)).camera.parallel);
        s.camera.parallel = false;
        const std::string text = serializeSession(s);
        QVERIFY(text.find("\"perspective\"") != std::string::npos);
        QVERIFY(!parseSession(text).camera.parallel);
        nlohmann::json j = nlohmann::json::parse(serializeSession(s));
        j["camera"].erase("projection");
        QVERIFY(!parseSession(j.dump()).camera.parallel);
        j["camera"]["projection"] = "fisheye";
        try {
            parseSession(j.dump());
            QFAIL("an unknown projection was accepted");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("/camera/projection"), e.what());
        }
    }

    void lessonAndClassroomRoundTrip()
    {
        // A teacher's lesson travels with the session: steps, what each shows, the current step,
        // and classroom mode with the panels kept in it. Files without them read as none.
        Session s = fittedSession();
        QVERIFY(!parseSession(serializeSession(s)).lesson);
        Lesson lesson;
        lesson.title = "Seam";
        lesson.steps = {{"Random quadrics", 0, LessonStep::kTop}, {"Epoch 5", 5, 17}, {"Trained", LessonStep::kLive, -1}};
        lesson.current = 1;
        s.lesson = lesson;
        s.classroom = true;
        s.classroomPanels = {"RankingDock"};
        const std::string text = serializeSession(s);
        QVERIFY(text.find("\"trained\"") != std::string::npos && text.find("\"top\"") != std::string::npos);
        const Session r = parseSession(text);
        QVERIFY(r.lesson);
        QCOMPARE(r.lesson->title, std::string("Seam"));
        QCOMPARE(r.lesson->current, 1);
        QCOMPARE(r.lesson->steps.size(), std::size_t(3));
        QCOMPARE(r.lesson->steps[0].highlight, LessonStep::kTop);
        QCOMPARE(r.lesson->steps[1].atStep, 5);
        QCOMPARE(r.lesson->steps[1].highlight, 17);
        QCOMPARE(r.lesson->steps[2].atStep, LessonStep::kLive);
        QCOMPARE(r.lesson->steps[2].text, std::string("Trained"));
        QVERIFY(r.classroom);
        QCOMPARE(r.classroomPanels, std::vector<std::string>{"RankingDock"});
        nlohmann::json j = nlohmann::json::parse(text);
        j.erase("classroom");
        QVERIFY(!parseSession(j.dump()).classroom);
    }

    void fileReferenceRoundTrip()
    {
        Session s;
        s.dataPath = "/data/cloud.csv";
        s.labelColumn = "is_outlier";
        s.dataRelativePath = "../data/cloud.csv";
        const Session r = parseSession(serializeSession(s));
        QCOMPARE(r.dataRelativePath, s.dataRelativePath);
        // A file's rows saved with the session keep the file's name as their origin.
        Session e = fittedSession();
        e.dataPath = "/data/cloud.csv";
        const Session re = parseSession(serializeSession(e));
        QVERIFY(re.embedded);
        QCOMPARE(re.dataPath, e.dataPath);
        QCOMPARE(re.data.rows(), e.data.rows());
        QVERIFY(!r.embedded);
        QCOMPARE(r.dataPath, s.dataPath);
        QCOMPARE(r.labelColumn, s.labelColumn);
        QVERIFY(!r.detector.has_value());
        QVERIFY(r.model.is_null());
        QVERIFY(!r.camera.valid);
    }

    void malformedFilesNameThePath_data()
    {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<QString>("expected");
        const std::string good = serializeSession(fittedSession());
        auto row = [&](const char* name, const std::string& text, const char* expected) {
            QTest::newRow(name) << QString::fromStdString(text) << QString(expected);
        };
        auto edited = [&](const std::function<void(nlohmann::json&)>& edit) {
            nlohmann::json j = nlohmann::json::parse(good);
            edit(j);
            return j.dump();
        };
        row("empty", "", "not valid JSON");
        row("truncated", good.substr(0, good.size() / 2), "not valid JSON");
        row("array", "[1,2]", "expected a JSON object");
        // #51: strings are bounded (a 50 MB lesson title took the GUI 90 s and 2 GB); the refusal
        // names the field and the sizes, never the content.
        row("long title", edited([](nlohmann::json& j) {
                j["lesson"] = {{"title", std::string(1 << 20, 'T')}, {"steps", {{{"text", "one"}}}}};
            }),
            "/lesson/title: longer than 300 bytes (1048576)");
        row("long feature name", edited([](nlohmann::json& j) {
                j["data"]["embedded"]["features"][0] = std::string(5000, 'f');
            }),
            "/data/embedded/features/0: longer than 4096 bytes (5000)");
        row("no format", "{\"version\":1}", "/format");
        row("newer version", edited([](nlohmann::json& j) { j["version"] = 7; }), "newer OutlierLens");
        row("version string", edited([](nlohmann::json& j) { j["version"] = "1"; }), "/version");
        row("unknown detector", replaced(good, "\"id\": \"knn\"", "\"id\": \"nope\""), "unknown detector 'nope'");
        row("bad param", replaced(good, "\"k\": 4", "\"k\": -3"), "/detector");
        row("unknown param", replaced(good, "\"k\": 4", "\"kk\": 4"), "kk");
        row("bad normalization", edited([](nlohmann::json& j) { j["detector"]["normalization"] = "cube"; }),
            "/detector/normalization");
        row("ragged row", edited([](nlohmann::json& j) { j["data"]["embedded"]["rows"][0].push_back(1.0); }),
            "/data/embedded/rows/0");
        row("text cell", edited([](nlohmann::json& j) { j["data"]["embedded"]["rows"][0][0] = "x"; }),
            "/data/embedded/rows/0/0");
        row("labels long", edited([](nlohmann::json& j) { j["data"]["embedded"]["labels"].push_back(0); }),
            "/data/embedded/labels");
        row("negative sigma", edited([](nlohmann::json& j) { j["data"]["embedded"]["sigma"][3][1] = -1.0; }),
            "/data/embedded/sigma");
        row("no rows", edited([](nlohmann::json& j) { j["data"]["embedded"]["rows"] = nlohmann::json::array(); }),
            "no samples");
        row("camera", replaced(good, "\"parallel_scale\": 2.5", "\"parallel_scale\": -1"), "/camera/parallel_scale");
        row("view nested", replaced(good, "\"point_size\": 9", "\"point_size\": [9]"), "/view/point_size");
        row("quantile", replaced(good, "\"quantile\": 0.9", "\"quantile\": 1.5"), "/compare/quantile");
        row("model without id", edited([](nlohmann::json& j) { j["model"].erase("detector"); }), "/model/detector");
        row("selection unsorted", edited([](nlohmann::json& j) { j["selection"] = {3, 1}; }), "/selection/1");
        row("selection negative", edited([](nlohmann::json& j) { j["selection"] = {-1}; }), "/selection/0");
        row("training rows text", edited([](nlohmann::json& j) { j["training_rows"] = "all"; }), "/training_rows");
        row("fit_on kind", edited([](nlohmann::json& j) { j["fit_on"] = {{"kind", "half"}}; }), "/fit_on/kind");
        row("fit_on fraction", edited([](nlohmann::json& j) { j["fit_on"] = {{"kind", "fraction"}, {"fraction", 0}}; }),
            "/fit_on/fraction");
        row("no data", replaced(good, "\"data\"", "\"datum\""), "missing \"data\"");
        const nlohmann::json lesson = {{"title", "t"}, {"steps", {{{"text", "a"}}, {{"text", "b"}, {"at_step", 3}}}}};
        row("lesson no steps", edited([](nlohmann::json& j) { j["lesson"] = {{"steps", nlohmann::json::array()}}; }),
            "/lesson/steps");
        row("lesson step word", edited([&](nlohmann::json& j) { j["lesson"] = lesson; j["lesson"]["steps"][1]["at_step"] = "end"; }),
            "/lesson/steps/1/at_step");
        row("lesson highlight", edited([&](nlohmann::json& j) { j["lesson"] = lesson; j["lesson"]["steps"][0]["highlight"] = -4; }),
            "/lesson/steps/0/highlight");
        row("lesson current", edited([&](nlohmann::json& j) { j["lesson"] = lesson; j["lesson"]["current"] = 2; }),
            "/lesson/current");
        row("lesson text", edited([&](nlohmann::json& j) { j["lesson"] = lesson; j["lesson"]["steps"][0].erase("text"); }),
            "/lesson/steps/0");
        row("classroom panels", edited([](nlohmann::json& j) { j["classroom"] = {{"panels", "all"}}; }), "/classroom/panels");
    }

    void malformedFilesNameThePath()
    {
        QFETCH(QString, mutation);
        QFETCH(QString, expected);
        try {
            parseSession(mutation.toStdString());
            QFAIL("accepted a malformed session");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
    }

    void garbledModelIsRejectedOnRestore()
    {
        Session s = fittedSession();
        // dimension mismatch with the data
        try {
            restoreSessionModel(s.model, 3);
            QFAIL("accepted a model for other data");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("/model"), e.what());
        }
        nlohmann::json broken = s.model;
        broken["state"] = "garbage";
        QVERIFY_THROWS_EXCEPTION(DataError, restoreSessionModel(broken, 2));
        broken = s.model;
        broken.erase("normalizer");
        QVERIFY_THROWS_EXCEPTION(DataError, restoreSessionModel(broken, 2));
        broken = s.model;
        broken["normalizer"]["kind"] = "cube";
        QVERIFY_THROWS_EXCEPTION(DataError, restoreSessionModel(broken, 2));
    }
};

QTEST_APPLESS_MAIN(TestSession)
#include "TestSession.moc"
