// outlierlens-cli: the docs/architecture.md "Command line" contract (list, generate, score, evaluate), exit codes and
// one-line errors; evaluate's AUROC/AUPRC checked against an independent pair-counting computation.
#include "Cli.h"
#include "CliProgress.h"
#include "CliTestSupport.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "session/Session.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QThread>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>

using namespace olens;

namespace {
using test::Run;
using test::cli;

// AUROC as the probability that a random outlier outscores a random inlier (ties count 1/2).
double pairAuroc(const std::vector<double>& s, const std::vector<int>& y)
{
    double wins = 0;
    long pairs = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        for (std::size_t j = 0; j < s.size(); ++j)
            if (y[i] == 1 && y[j] == 0) {
                ++pairs;
                wins += s[i] > s[j] ? 1.0 : s[i] == s[j] ? 0.5 : 0.0;
            }
    return wins / pairs;
}

// Average precision straight from its definition, assuming distinct scores:
// mean over outliers of the precision among all points scoring at least as high.
double definitionAp(const std::vector<double>& s, const std::vector<int>& y)
{
    double sum = 0;
    int positives = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (y[i] != 1)
            continue;
        ++positives;
        int above = 0, hits = 0;
        for (std::size_t j = 0; j < s.size(); ++j)
            if (s[j] >= s[i]) {
                ++above;
                hits += y[j];
            }
        sum += double(hits) / above;
    }
    return sum / positives;
}
} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const char* name) { return m_dir.filePath(name).toStdString(); }

private slots:
    void recordHistoryReportsTheMetricsOfEveryRecordedStep()
    {
        // Issue #37 from the command line: evaluate --record-history lists the recorded steps with the
        // AUROC of the model at each; the last is the fitted model's (the top-level auroc); a
        // detector without steps says null; --save-model keeps the path, a plain save does not.
        QCOMPARE(cli({"generate", "blobs", "--n", "150", "--seed", "3", "--param", "centers=1", "--param", "outliers=0.1",
                      "--output", path("hblobs.csv")}).code, 0);
        const Run r = cli({"evaluate", "--input", path("hblobs.csv"), "--detector", "gods", "--param", "max_iter=30",
                           "--record-history", "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        const auto& steps = j.at("history").at("steps");
        QCOMPARE(QString::fromStdString(j["history"]["unit"].get<std::string>()), QString("iteration"));
        QVERIFY(steps.size() >= 5);
        QCOMPARE(steps.front()["step"].get<int>(), 0);
        for (std::size_t i = 1; i < steps.size(); ++i)
            QVERIFY(steps[i]["step"].get<int>() > steps[i - 1]["step"].get<int>());
        QCOMPARE(steps.back()["auroc"].get<double>(), j["auroc"].get<double>());
        QVERIFY(!nlohmann::json::parse(cli({"evaluate", "--input", path("hblobs.csv"), "--detector", "gods",
                                            "--param", "max_iter=30", "--json"}).out).contains("history"));
        const Run knn = cli({"evaluate", "--input", path("hblobs.csv"), "--detector", "knn", "--record-history", "--json"});
        QVERIFY2(knn.code == 0, knn.err.c_str());
        QVERIFY(nlohmann::json::parse(knn.out)["history"].is_null());

        QVERIFY(cli({"score", "--input", path("hblobs.csv"), "--detector", "quadrics", "--param", "epochs=8",
                     "--record-history", "--save-model", path("hq.json"), "--output", path("hq.csv")}).code == 0);
        QVERIFY(cli({"score", "--input", path("hblobs.csv"), "--detector", "quadrics", "--param", "epochs=8",
                     "--save-model", path("hq0.json"), "--output", path("hq0.csv")}).code == 0);
        std::ifstream with(path("hq.json")), without(path("hq0.json"));
        const auto mw = nlohmann::json::parse(with), m0 = nlohmann::json::parse(without);
        QCOMPARE(int(mw.at("history").at("steps").size()), 9); // epochs 0 … 8
        QVERIFY(!m0.contains("history"));
    }

    void calibrateAppliesEq24ToGodsOnly()
    {
        // train: a blob; validation: blob + far points; the calibrated eta differs from the trained one
        QCOMPARE(cli({"generate", "blobs", "--n", "120", "--seed", "1", "--param", "centers=1", "--output", path("gtrain.csv")}).code, 0);
        QCOMPARE(cli({"generate", "blobs", "--n", "80", "--seed", "2", "--param", "centers=1", "--param", "outliers=0.25",
                      "--output", path("gval.csv")}).code, 0);
        const Run r = cli({"score", "--fit-input", path("gtrain.csv"), "--input", path("gval.csv"), "--detector", "gods",
                           "--param", "K=1", "--param", "eta=0.3", "--calibrate", path("gval.csv"), "--output", path("gs.csv")});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(r.err.find("eq. 24 calibration: eta 0.3 -> ") != std::string::npos, r.err.c_str());
        const Run bad = cli({"score", "--input", path("gval.csv"), "--detector", "knn", "--calibrate", path("gval.csv"),
                             "--output", path("ks.csv")});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.find("--calibrate applies to gods") != std::string::npos, bad.err.c_str());
    }

    void calibrateWithoutFitInputWritesCalibratedScores()
    {
        // Regression (issue 15): without --fit-input the training scores were written as they were
        // before eq. 24, although the printed eta had changed. GODS scores are
        // max(eta - min(W1'x + b1), eta + max(W2'x + b2)): calibration shifts every score by
        // exactly eta' - eta (computed from the printed figures, independently of the code).
        QCOMPARE(cli({"generate", "blobs", "--n", "80", "--seed", "2", "--param", "centers=1", "--param", "outliers=0.25",
                      "--output", path("cval.csv")}).code, 0);
        const Run plain = cli({"score", "--input", path("cval.csv"), "--detector", "gods", "--param", "K=1",
                               "--output", path("c0.csv")});
        QVERIFY2(plain.code == 0, plain.err.c_str());
        const Run cal = cli({"score", "--input", path("cval.csv"), "--detector", "gods", "--param", "K=1",
                             "--calibrate", path("cval.csv"), "--output", path("c1.csv")});
        QVERIFY2(cal.code == 0, cal.err.c_str());
        double before = 0, after = 0;
        const auto at = cal.err.find("eta ");
        QVERIFY2(at != std::string::npos, cal.err.c_str());
        QCOMPARE(std::sscanf(cal.err.c_str() + at, "eta %lf -> %lf", &before, &after), 2);
        QVERIFY2(std::abs(after - before) > 1e-6, cal.err.c_str()); // the data must move eta
        auto scores = [](const std::string& file) {
            std::ifstream in(file);
            std::string line;
            std::getline(in, line); // header
            std::vector<double> s;
            while (std::getline(in, line)) {
                const auto c1 = line.find(',');
                s.push_back(std::stod(line.substr(c1 + 1, line.find(',', c1 + 1) - c1 - 1)));
            }
            return s;
        };
        const auto s0 = scores(path("c0.csv")), s1 = scores(path("c1.csv"));
        QCOMPARE(s0.size(), std::size_t(80));
        QCOMPARE(s1.size(), s0.size());
        // CSV values carry ~7 significant digits.
        for (std::size_t i = 0; i < s0.size(); ++i)
            QVERIFY2(std::abs((s1[i] - s0[i]) - (after - before)) < 1e-4 * (1 + std::abs(s0[i])),
                     qPrintable(QString("row %1: %2 -> %3, eta shift %4").arg(i).arg(s0[i]).arg(s1[i]).arg(after - before)));
    }

    void aLongFitSaysSoOnce()
    {
        // #53: quadrics ran 196 s on 207 × 751 without a word. By its pace after two seconds a fit
        // that will take more than 30 s says how long, once, on any stderr; not with --quiet. The
        // clock is the test's.
        auto t = std::chrono::steady_clock::time_point{};
        const auto at = [&t](double s) { t = std::chrono::steady_clock::time_point{} + std::chrono::milliseconds(long(s * 1000)); };
        for (const bool announce : {true, false}) {
            std::ostringstream err;
            at(0);
            CliProgress p(err, CliProgress::Mode::Off, 0.0, announce, [&t] { return t; });
            auto cb = p.callback();
            auto report = [&cb](double f) { ProgressInfo i; i.fraction = f; i.message = "quadrics: epoch"; cb(i); };
            at(1.0);
            report(0.01); // too early to tell
            at(1.9);
            report(0.05); // 38 s in all, but under two seconds spent
            QVERIFY(err.str().empty());
            at(2.5);
            report(0.05); // 50 s in all: 47.5 left
            at(3.0);
            report(0.06);
            if (!announce) {
                QVERIFY(err.str().empty());
                continue;
            }
            QCOMPARE(err.str(), std::string("outlierlens-cli: this fit may take about 50 s in all (48 s left at its pace "
                                            "so far; less if it converges early); --timeout S stops it\n"));
            QVERIFY2(p.lastReport().find("(~47 s left)") != std::string::npos, p.lastReport().c_str());
        }
        // A run with a budget (--timeout) is bounded already: no notice.
        {
            std::ostringstream err;
            at(0);
            CliProgress p(err, CliProgress::Mode::Off, 100.0, true, [&t] { return t; });
            auto cb = p.callback();
            ProgressInfo i;
            i.fraction = 0.05;
            at(2.5);
            cb(i);
            QVERIFY(err.str().empty());
        }
        // A short fit says nothing.
        std::ostringstream err;
        at(0);
        CliProgress p(err, CliProgress::Mode::Off, 0.0, true, [&t] { return t; });
        auto cb = p.callback();
        ProgressInfo i;
        i.fraction = 0.5;
        at(3.0);
        cb(i); // 6 s in all
        QVERIFY(err.str().empty());
    }

    void progressQuietAndTimeout()
    {
        // Issue #20 item 5: progress on stderr (here forced with --progress: the in-process stream is
        // not a terminal), none by default off a terminal or with --quiet, and --timeout stops a fit
        // that would run for minutes, exits 1, names the budget and writes nothing.
        QTemporaryDir dir;
        const std::string data = (dir.path() + "/moons.csv").toStdString();
        // With outliers: evaluate refuses labels of one class (issue #34).
        QCOMPARE(test::cli({"generate", "moons", "--n", "1500", "--seed", "1", "--param", "outliers=0.05", "--output", data}).code, 0);
        const std::vector<std::string> slow = {"evaluate", "--input", data, "--detector", "kods", "--param",
                                               "max_iter=100000", "--label-column", "label", "--json"};
        auto with = [&](std::vector<std::string> extra) {
            auto args = slow;
            args.insert(args.end(), extra.begin(), extra.end());
            return test::cli(args);
        };
        const test::Run timed = with({"--timeout", "1.5", "--progress"});
        QCOMPARE(timed.code, 1);
        QVERIFY2(timed.err.find("stopped by --timeout 1.5 s") != std::string::npos, timed.err.c_str());
        QVERIFY(timed.out.empty());
        // Progress lines are "outlierlens-cli: NN % message", at most one a second (1.5 s: 1–3 lines).
        int lines = 0;
        std::istringstream in(timed.err);
        for (std::string l; std::getline(in, l);)
            if (l.find(" % ") != std::string::npos && l.find("error") == std::string::npos)
                ++lines;
        QVERIFY2(lines >= 1 && lines <= 3, timed.err.c_str());
        // Without --progress (not a terminal) and with --quiet: no progress lines, only the error.
        for (const auto& extra : {std::vector<std::string>{"--timeout", "0.3"},
                                  std::vector<std::string>{"--timeout", "0.3", "--quiet"}}) {
            const test::Run r = with(extra);
            QCOMPARE(r.code, 1);
            QVERIFY(r.err.find(" % ") == r.err.rfind(" % ")); // only the one inside the error line
            QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1L);
        }
        // A fit within its budget is unaffected; bad budgets and contradictory flags are refused.
        const test::Run ok = test::cli({"evaluate", "--input", data, "--detector", "knn", "--label-column", "label",
                                        "--json", "--timeout", "60", "--quiet"});
        QCOMPARE(ok.code, 0);
        QVERIFY(ok.err.empty());
        QCOMPARE(with({"--timeout", "-1"}).code, 1);
        QVERIFY(with({"--timeout", "abc"}).err.find("--timeout") != std::string::npos);
        QVERIFY(with({"--quiet", "--progress"}).err.find("contradict") != std::string::npos);
    }

    void helpExitsZero()
    {
        const Run r = cli({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("outlierlens-cli evaluate") != std::string::npos);
        // The real executable too.
        QProcess p;
        p.start(OLENS_CLI_PATH, {"--help"});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains("usage:"));
    }

    void errorsAreOneLineAndNonZero()
    {
        const std::vector<std::vector<std::string>> bad = {
            {"frobnicate"},
            {"score", "--detector", "knn", "--output", path("x.csv")},
            {"evaluate", "--input", path("missing.csv"), "--detector", "knn", "--json"},
            {"generate", "moons", "--n", "ten", "--output", path("m.csv")},
            {"list", "--bogus"},
        };
        for (const auto& args : bad) {
            const Run r = cli(args);
            QVERIFY(r.code != 0);
            QVERIFY2(r.err.rfind("outlierlens-cli: error: ", 0) == 0, r.err.c_str());
            QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1L);
        }
        QProcess p;
        p.start(OLENS_CLI_PATH, {"score", "--input", "/nonexistent.csv", "--detector", "knn", "--output", "/tmp/x"});
        QVERIFY(p.waitForFinished(20000));
        QVERIFY(p.exitCode() != 0);
        QVERIFY(p.readAllStandardError().contains("/nonexistent.csv"));
    }

    void listShowsDetectorsAndJson()
    {
        const Run r = cli({"list"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("knn") != std::string::npos);
        QVERIFY(r.out.find("pca") != std::string::npos);
        const Run j = cli({"list", "--json"});
        QCOMPARE(j.code, 0);
        const auto doc = nlohmann::json::parse(j.out);
        QVERIFY(doc["detectors"].size() >= 2);
        QVERIFY(doc["generators"].size() >= 8);
    }

    void generateIsReproducible()
    {
        QCOMPARE(cli({"generate", "moons", "--n", "50", "--seed", "3", "--param", "outliers=0.1", "--output", path("a.csv")}).code, 0);
        QCOMPARE(cli({"generate", "moons", "--n", "50", "--seed", "3", "--param", "outliers=0.1", "--output", path("b.csv")}).code, 0);
        std::ifstream a(path("a.csv")), b(path("b.csv"));
        std::stringstream sa, sb;
        sa << a.rdbuf();
        sb << b.rdbuf();
        QCOMPARE(sa.str(), sb.str());
        const Dataset d = loadDataset(path("a.csv"));
        QCOMPARE(d.rows(), Eigen::Index(50));
        QCOMPARE(d.cols(), Eigen::Index(2));
        QCOMPARE(d.outlierFlags().sum(), 5);
    }

    void scoreWritesTheContractColumns()
    {
        QCOMPARE(cli({"generate", "blobs", "--n", "80", "--seed", "5", "--param", "outliers=0.1", "--output", path("blobs.csv")}).code, 0);
        const Run r = cli({"score", "--input", path("blobs.csv"), "--detector", "knn", "--param", "k=3",
                           "--normalize", "zscore", "--output", path("scores.csv"), "--save-model", path("model.json")});
        QVERIFY2(r.code == 0, r.err.c_str());
        std::ifstream f(path("scores.csv"));
        std::string header;
        std::getline(f, header);
        QCOMPARE(QString::fromStdString(header), QString("index,score,outlier,label"));
        LoadOptions lo;
        const Dataset s = loadDataset(path("scores.csv"), lo);
        QCOMPARE(s.rows(), Eigen::Index(80));
        QCOMPARE(s.X(0, 0), 0.0);
        QCOMPARE(s.X(79, 0), 79.0);
        QVERIFY((s.X.col(1).array() >= 0).all());
        // contamination 0.1 of 80 points: the top 10 % (about 8) are flagged.
        const double flagged = s.X.col(2).sum();
        QVERIFY(flagged >= 7 && flagged <= 9);
        std::ifstream m(path("model.json"));
        const auto model = nlohmann::json::parse(m);
        QCOMPARE(model["detector"].get<std::string>(), std::string("knn"));
        QCOMPARE(model["normalizer"]["kind"].get<std::string>(), std::string("zscore"));
    }

    void scorePercentileIsTheTrainingRankOfEachScore()
    {
        // --percentile (compare mode's colour scale): 100·(#{s_j < s_i} + #{s_j ≤ s_i}) / (2n) over
        // the training scores, recomputed here by counting; a fit on a part ranks among its rows.
        QCOMPARE(cli({"generate", "blobs", "--n", "60", "--seed", "3", "--output", path("pblobs.csv")}).code, 0);
        for (const bool part : {false, true}) {
            std::vector<std::string> args = {"score", "--input", path("pblobs.csv"), "--detector", "knn",
                                             "--percentile", "--output", path("pscores.csv")};
            if (part)
                args.insert(args.end(), {"--fit-on", "fraction:0.5"});
            const Run r = cli(args);
            QVERIFY2(r.code == 0, r.err.c_str());
            std::ifstream f(path("pscores.csv"));
            std::string header;
            std::getline(f, header);
            QVERIFY2(QString::fromStdString(header).endsWith(",percentile"), header.c_str());
            LoadOptions lo;
            const Dataset s = loadDataset(path("pscores.csv"), lo);
            const Eigen::Index n = s.rows(), pc = s.X.cols() - 1;
            std::vector<double> trainingScores;
            for (Eigen::Index i = 0; i < n; ++i)
                if (!part || s.X(i, pc - 1) == 1.0) // the 'training' column before it
                    trainingScores.push_back(s.X(i, 1));
            QVERIFY(part ? trainingScores.size() < std::size_t(n) : trainingScores.size() == std::size_t(n));
            for (Eigen::Index i = 0; i < n; ++i) {
                double below = 0, upTo = 0;
                for (double t : trainingScores) {
                    below += t < s.X(i, 1) ? 1 : 0;
                    upTo += t <= s.X(i, 1) ? 1 : 0;
                }
                const double expected = 100.0 * (below + upTo) / (2.0 * double(trainingScores.size()));
                QVERIFY2(std::abs(s.X(i, pc) - expected) < 1e-9,
                         qPrintable(QString("row %1: %2 vs %3").arg(i).arg(s.X(i, pc)).arg(expected)));
            }
        }
    }

    void scoreExplainPrintsTheDriversOfOneRow()
    {
        // pca with k = 0: the residual is x − mean, so the contributions are (x_j − mean_j)². Rows
        // (0,0,0), (4,0,0), (0,8,0), (0,0,12): mean (1,2,3); row 3 → (1, 4, 81), sum 86 = score².
        {
            std::ofstream f(path("explain.csv"));
            f << "a,b,c\n0,0,0\n4,0,0\n0,8,0\n0,0,12\n";
        }
        const Run r = cli({"score", "--input", path("explain.csv"), "--detector", "pca", "--param", "k=0", "--explain", "3"});
        QVERIFY2(r.code == 0, r.err.c_str());
        std::istringstream lines(r.out);
        std::string comment, header, first, second, third;
        std::getline(lines, comment);
        std::getline(lines, header);
        std::getline(lines, first);
        std::getline(lines, second);
        std::getline(lines, third);
        QVERIFY2(comment.find("# row 3: score 9.273618495") == 0, comment.c_str()); // √86
        QVERIFY2(comment.find("score² (sum 86)") != std::string::npos, comment.c_str());
        QCOMPARE(QString::fromStdString(header), QString("feature,contribution,share"));
        QCOMPARE(QString::fromStdString(first), QString("c,81,%1").arg(81.0 / 86.0, 0, 'g', 10));
        QVERIFY2(second.rfind("b,4,", 0) == 0, second.c_str());
        QVERIFY2(third.rfind("a,1,", 0) == 0, third.c_str());
        // knn on generated data: the contributions add up to the row's squared score in --output.
        QCOMPARE(cli({"generate", "blobs", "--n", "60", "--seed", "4", "--output", path("kx.csv")}).code, 0);
        const Run k = cli({"score", "--input", path("kx.csv"), "--detector", "knn", "--normalize", "zscore",
                           "--explain", "7", "--output", path("ks.csv")});
        QVERIFY2(k.code == 0, k.err.c_str());
        const Dataset scores = loadDataset(path("ks.csv"));
        double sum = 0.0;
        std::istringstream kl(k.out);
        std::string line;
        std::getline(kl, line);
        std::getline(kl, line);
        int features = 0;
        while (std::getline(kl, line)) {
            sum += std::stod(line.substr(line.find(',') + 1));
            ++features;
        }
        QCOMPARE(features, 2);
        QVERIFY2(std::abs(sum - std::pow(scores.X(7, 1), 2)) < 1e-6 * (1 + sum), k.out.c_str());
        // Refusals: a detector without the capability, a row out of range, both on standard output.
        const Run lof = cli({"score", "--input", path("kx.csv"), "--detector", "lof", "--explain", "0"});
        QCOMPARE(lof.code, 1);
        QVERIFY2(lof.err.find("lof cannot split its score by feature") != std::string::npos, lof.err.c_str());
        QCOMPARE(cli({"score", "--input", path("kx.csv"), "--detector", "knn", "--explain", "60"}).code, 1);
        QCOMPARE(cli({"score", "--input", path("kx.csv"), "--detector", "knn", "--explain", "1", "--output", "-"}).code, 1);
    }

    void scoreWithSeparateFitInput()
    {
        QCOMPARE(cli({"generate", "blobs", "--n", "60", "--seed", "1", "--output", path("train.csv")}).code, 0);
        QCOMPARE(cli({"generate", "blobs", "--n", "20", "--seed", "2", "--param", "outliers=0.5", "--output", path("test.csv")}).code, 0);
        const Run r = cli({"score", "--input", path("test.csv"), "--fit-input", path("train.csv"), "--detector", "pca",
                           "--output", path("s2.csv")});
        QVERIFY2(r.code == 0, r.err.c_str());
        QCOMPARE(loadDataset(path("s2.csv")).rows(), Eigen::Index(20));
    }

    void evaluateMatchesIndependentComputation()
    {
        QCOMPARE(cli({"generate", "moons", "--n", "200", "--seed", "9", "--param", "outliers=0.1", "--output", path("ev.csv")}).code, 0);
        const Run r = cli({"evaluate", "--input", path("ev.csv"), "--detector", "knn", "--normalize", "zscore", "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        for (const char* key : {"detector", "params", "n", "p", "auroc", "auprc", "fit_seconds", "score_seconds"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(j["n"].get<int>(), 200);
        QCOMPARE(j["p"].get<int>(), 2);
        QCOMPARE(j["params"]["k"].get<int>(), 5);
        QVERIFY(j["fit_seconds"].get<double>() >= 0);

        // Independent: the same scores through `score`, then pair counting and the AP definition.
        QCOMPARE(cli({"score", "--input", path("ev.csv"), "--detector", "knn", "--normalize", "zscore", "--output", path("ev_s.csv")}).code, 0);
        const Dataset s = loadDataset(path("ev_s.csv"));
        std::vector<double> score(s.X.col(1).data(), s.X.col(1).data() + s.rows());
        std::vector<int> y;
        for (Eigen::Index i = 0; i < s.rows(); ++i)
            y.push_back(s.labels(i) != 0 ? 1 : 0);
        QVERIFY(std::abs(j["auroc"].get<double>() - pairAuroc(score, y)) < 1e-12);
        QVERIFY(std::abs(j["auprc"].get<double>() - definitionAp(score, y)) < 1e-12);
        // Background outliers on moons are easy for knn.
        QVERIFY(j["auroc"].get<double>() > 0.8);
    }

    void evaluateReportsResolvedAutoParametersAndTheFlaggedCount()
    {
        // Issue #17: `auto` parameters print what they became; "flagged" = the outlier column of
        // `score` (the detector's own decision), counted independently here.
        QCOMPARE(cli({"generate", "moons", "--n", "200", "--seed", "4", "--param", "outliers=0.1", "--output", path("au.csv")}).code, 0);
        const Run r = cli({"evaluate", "--input", path("au.csv"), "--detector", "gods", "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["params"]["K"].get<std::string>(), std::string("auto"));
        QCOMPARE(j["resolved"]["K"].get<int>(), 2); // K = p
        QCOMPARE(cli({"score", "--input", path("au.csv"), "--detector", "gods", "--output", path("au_s.csv")}).code, 0);
        const Dataset s = loadDataset(path("au_s.csv"));
        const int flagged = static_cast<int>(s.X.col(2).sum()); // index, score, outlier
        QCOMPARE(j["flagged"].get<int>(), flagged);
        QVERIFY(flagged >= 2 && flagged <= 80); // between 1 % and 40 % of 200
        // `list` names the rule and the paper's value.
        const Run l = cli({"list"});
        QVERIFY(l.out.find("(auto: p for p features") != std::string::npos);
        QVERIFY(l.out.find("[paper: 3]") != std::string::npos);
    }

    void kicFamilyReproducesThePapersWbcFigures()
    {
        // KIC paper Table 2, WBC (569 samples, 212 outliers, zscore): AUPRC of KIC 0.569,
        // KIC-RBF 0.613, IC 0.676, KNN 0.610 (deterministic methods).
        const std::string wbc = OLENS_SOURCE_DIR "/samples/wbc.csv";
        const std::vector<std::pair<std::vector<std::string>, double>> cases = {
            {{"--detector", "kic", "--param", "kernel=poly"}, 0.569},
            {{"--detector", "kic", "--param", "kernel=rbf"}, 0.613},
            {{"--detector", "ic"}, 0.676},
            {{"--detector", "knn"}, 0.610},
        };
        for (const auto& [extra, paper] : cases) {
            std::vector<std::string> args = {"evaluate", "--input", wbc, "--normalize", "zscore", "--json"};
            args.insert(args.end(), extra.begin(), extra.end());
            const Run r = cli(args);
            QVERIFY2(r.code == 0, r.err.c_str());
            const auto j = nlohmann::json::parse(r.out);
            QCOMPARE(j["n"].get<int>(), 569);
            QCOMPARE(j["outliers"].get<int>(), 212);
            const double auprc = j["auprc"].get<double>();
            QVERIFY2(std::abs(auprc - paper) < 0.0015,
                     qPrintable(QString("%1: AUPRC %2, paper %3").arg(QString::fromStdString(extra[1])).arg(auprc).arg(paper)));
        }
    }

    void fitOnAPartScoresEveryRow()
    {
        // --fit-on label:0: fit on the inliers, score all. Independent check: the same scores from a
        // fit on a file holding only the inlier rows (its training scores for them, --fit-input for
        // the others); the CSV's shortest round-trip numbers make that an exact comparison.
        QCOMPARE(cli({"generate", "moons", "--n", "200", "--seed", "3", "--param", "outliers=0.1", "--output", path("fo.csv")}).code, 0);
        const Dataset d = loadDataset(path("fo.csv"));
        Dataset inl = d;
        std::vector<int> inRows;
        for (Eigen::Index i = 0; i < d.rows(); ++i)
            if (d.labels(i) == 0)
                inRows.push_back(static_cast<int>(i));
        inl.X.resize(static_cast<Eigen::Index>(inRows.size()), d.cols());
        inl.labels.resize(inl.X.rows());
        for (std::size_t j = 0; j < inRows.size(); ++j) {
            inl.X.row(static_cast<Eigen::Index>(j)) = d.X.row(inRows[j]);
            inl.labels(static_cast<Eigen::Index>(j)) = 0;
        }
        writeCsv(path("fo_in.csv"), inl);

        const std::vector<std::string> knn = {"--detector", "knn", "--param", "k=4", "--normalize", "zscore"};
        auto with = [&](std::vector<std::string> head) {
            head.insert(head.end(), knn.begin(), knn.end());
            return head;
        };
        Run r = cli(with({"score", "--input", path("fo.csv"), "--fit-on", "label:0", "--output", path("fo_s.csv")}));
        QVERIFY2(r.code == 0, r.err.c_str());
        {
            std::ifstream f(path("fo_s.csv"));
            std::string header;
            std::getline(f, header);
            QCOMPARE(QString::fromStdString(header), QString("index,score,outlier,label,training"));
        }
        const Dataset part = loadDataset(path("fo_s.csv"));
        QCOMPARE(cli(with({"score", "--input", path("fo_in.csv"), "--output", path("fo_alone.csv")})).code, 0);
        QCOMPARE(cli(with({"score", "--input", path("fo.csv"), "--fit-input", path("fo_in.csv"), "--output", path("fo_new.csv")})).code, 0);
        const Dataset alone = loadDataset(path("fo_alone.csv"));
        const Dataset asNew = loadDataset(path("fo_new.csv"));
        std::size_t j = 0;
        for (Eigen::Index i = 0; i < d.rows(); ++i) {
            const bool training = d.labels(i) == 0;
            QCOMPARE(part.X(i, 3), training ? 1.0 : 0.0); // index, score, outlier, training (label is the label)
            const double expected = training ? alone.X(static_cast<Eigen::Index>(j++), 1) : asNew.X(i, 1);
            QCOMPARE(part.X(i, 1), expected);
        }

        // evaluate: metrics over every row (pair counting on those scores), counts of the part.
        r = cli(with({"evaluate", "--input", path("fo.csv"), "--fit-on", "label:0", "--json"}));
        QVERIFY2(r.code == 0, r.err.c_str());
        auto j1 = nlohmann::json::parse(r.out);
        QCOMPARE(j1["fit_on"].get<std::string>(), std::string("label 0"));
        QCOMPARE(j1["n_fit"].get<std::size_t>(), inRows.size());
        QCOMPARE(j1["n_held_out"].get<int>(), 200 - static_cast<int>(inRows.size()));
        QVERIFY(j1["auroc_held_out"].is_null()); // only outliers held out: no AUROC
        std::vector<double> score(part.X.col(1).data(), part.X.col(1).data() + part.rows());
        std::vector<int> y;
        for (Eigen::Index i = 0; i < d.rows(); ++i)
            y.push_back(d.labels(i) != 0 ? 1 : 0);
        QVERIFY(std::abs(j1["auroc"].get<double>() - pairAuroc(score, y)) < 1e-12);

        // A seeded fraction: same rows every run; held-out metrics over the other half.
        r = cli(with({"evaluate", "--input", path("fo.csv"), "--fit-on", "fraction:0.5:7", "--json"}));
        QVERIFY2(r.code == 0, r.err.c_str());
        j1 = nlohmann::json::parse(r.out);
        QCOMPARE(j1["n_fit"].get<int>(), 100);
        QCOMPARE(j1["n_held_out"].get<int>(), 100);
        QVERIFY(j1["auroc_held_out"].is_number());
        for (const char* out : {"fo_f1.csv", "fo_f2.csv"})
            QCOMPARE(cli(with({"score", "--input", path("fo.csv"), "--fit-on", "fraction:0.5:7", "--output", path(out)})).code, 0);
        const Dataset f1 = loadDataset(path("fo_f1.csv")), f2 = loadDataset(path("fo_f2.csv"));
        QCOMPARE(f1.X, f2.X);
        QCOMPARE(f1.X.col(3).sum(), 100.0);

        // rows:FILE (whitespace or commas).
        {
            std::ofstream f(path("rows.txt"));
            f << "0, 1 2\n5\n7,9,11,13\n";
        }
        r = cli(with({"score", "--input", path("fo.csv"), "--fit-on", "rows:" + path("rows.txt"), "--output", path("fo_r.csv")}));
        QVERIFY2(r.code == 0, r.err.c_str());
        const Dataset rs = loadDataset(path("fo_r.csv"));
        QCOMPARE(rs.X.col(3).sum(), 8.0);
        QCOMPARE(rs.X(5, 3), 1.0);
        QCOMPARE(rs.X(6, 3), 0.0);
        // The rows file is an input: --output must not overwrite it.
        QVERIFY(cli(with({"score", "--input", path("fo.csv"), "--fit-on", "rows:" + path("rows.txt"), "--output",
                          path("rows.txt")})).code != 0);
        {
            std::ifstream f(path("rows.txt"));
            std::string first;
            std::getline(f, first);
            QCOMPARE(QString::fromStdString(first), QString("0, 1 2"));
        }

        // Refusals: a part and another fit file, a bad fraction, a label without labels, --model.
        for (const std::vector<std::string>& bad :
             {with({"score", "--input", path("fo.csv"), "--fit-on", "label:0", "--fit-input", path("fo_in.csv"), "--output", "-"}),
              with({"score", "--input", path("fo.csv"), "--fit-on", "fraction:1.5", "--output", "-"}),
              with({"score", "--input", path("fo.csv"), "--fit-on", "label:3", "--output", "-"}),
              with({"score", "--input", path("fo.csv"), "--fit-on", "rows:" + path("nope.txt"), "--output", "-"}),
              // a device is refused at once (it was read until the OOM killer, 3.9 GB)
              with({"score", "--input", path("fo.csv"), "--fit-on", "rows:/dev/zero", "--output", "-"})}) {
            const Run e = cli(bad);
            QVERIFY2(e.code != 0 && e.err.find("fit") != std::string::npos, e.err.c_str());
        }
    }

    void evaluateNeedsLabels()
    {
        std::ofstream(path("nolabel.csv")) << "x,y\n0,0\n1,1\n2,2\n3,3\n4,4\n5,5\n6,7\n";
        const Run r = cli({"evaluate", "--input", path("nolabel.csv"), "--detector", "knn", "--json"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("label column 'label' not found") != std::string::npos, r.err.c_str());
    }

    void aSignalDuringAWriteLeavesNoTemporaryFile()
    {
        // Issue #34: SIGINT/TERM while the output was written left a 20–46 MB hidden
        // ".name.tmp-XXXXXX" beside it. The CLI is stopped while its temporary file exists.
        QTemporaryDir dir;
        const QString out = dir.filePath("big.csv");
        QProcess p;
        p.start(QStringLiteral(OLENS_CLI_PATH), {"generate", "moons", "--n", "3000000", "--output", out});
        QVERIFY(p.waitForStarted());
        bool seen = false;
        QElapsedTimer clock;
        clock.start();
        while (!seen && p.state() == QProcess::Running && clock.elapsed() < 60000) {
            seen = !QDir(dir.path()).entryList({".big.csv.tmp-*"}, QDir::Files | QDir::Hidden).isEmpty();
            if (!seen)
                QThread::usleep(500);
        }
        QVERIFY2(seen, "the CLI finished before its temporary file was seen; nothing was tested");
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(30000));
        // No temporary file, whenever the signal landed; the finished output may exist when the
        // rename won the race (a loaded machine), but never a half-written one under its name.
        const QStringList left = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
        QVERIFY2(left.filter(".tmp-").isEmpty(), qPrintable(left.join(", ")));
        if (!left.isEmpty()) {
            QCOMPARE(left, QStringList{"big.csv"});
            QVERIFY(QFileInfo(out).size() > 100000000); // the whole output (3M rows ≈ 123 MB)
        } else {
            QCOMPARE(p.exitStatus(), QProcess::CrashExit); // ended by the signal, as before
        }
    }

    void readOnlyOutputIsRefusedNotReplaced()
    {
        // Before: a mode-444 output was replaced silently by the rename.
        QCOMPARE(cli({"generate", "moons", "--n", "50", "--seed", "2", "--output", path("ro-in.csv")}).code, 0);
        const std::string out = path("ro-out.csv");
        std::ofstream(out) << "keep\n";
        QVERIFY(QFile::setPermissions(QString::fromStdString(out), QFileDevice::ReadOwner | QFileDevice::ReadGroup
                                                                         | QFileDevice::ReadOther));
        const Run r = cli({"score", "--input", path("ro-in.csv"), "--detector", "knn", "--output", out});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("read-only") != std::string::npos, r.err.c_str());
        std::ifstream in(out);
        std::string line;
        std::getline(in, line);
        QCOMPARE(QString::fromStdString(line), QStringLiteral("keep"));
    }

    void evaluateRefusesLabelsOfOneClass()
    {
        // Before: exit 0 with "auroc": null and "auprc": 1.0 for each of these label columns.
        const char* body = "x,y,label\n0,0,%1\n1,1,%1\n2,2,%2\n3,3,%1\n4,4,%1\n5,5,%1\n9,9,%2\n";
        struct Case { const char* in; const char* out; const char* kind; };
        for (const Case c : {Case{"0", "0", "inliers"}, Case{"1", "1", "outliers"}, Case{"1", "-1", "outliers"},
                             Case{"1", "2", "outliers"}}) {
            std::ofstream(path("one.csv")) << QString(body).arg(c.in, c.out).toStdString();
            const Run r = cli({"evaluate", "--input", path("one.csv"), "--detector", "knn", "--param", "k=2", "--json"});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.out.empty(), r.out.c_str());
            QVERIFY2(r.err.find("one class only") != std::string::npos, r.err.c_str());
            QVERIFY2(r.err.find(std::string("7 of 7 rows are ") + c.kind) != std::string::npos, r.err.c_str());
            QVERIFY2(r.err.find("--outlier-label") != std::string::npos, r.err.c_str());
        }
        // The fix the message names works: -1 marks the outliers, and the metrics are defined.
        std::ofstream(path("pm.csv")) << QString(body).arg("1", "-1").toStdString();
        const Run ok = cli({"evaluate", "--input", path("pm.csv"), "--detector", "knn", "--param", "k=2",
                            "--outlier-label", "-1", "--json"});
        QVERIFY2(ok.code == 0, ok.err.c_str());
        const auto j = nlohmann::json::parse(ok.out);
        QCOMPARE(j.at("outliers").get<int>(), 2);
        QVERIFY(j.at("auroc").is_number());
        // Refused before any fit (85 s of mcd on a million rows came first): with a constant column
        // mcd's fit would fail with its own error; the labels' is the one given.
        std::ofstream(path("flat.csv")) << "x,c,label\n0,1,0\n1,1,0\n2,1,0\n3,1,0\n5,1,0\n";
        const Run early = cli({"evaluate", "--input", path("flat.csv"), "--detector", "mcd", "--json"});
        QCOMPARE(early.code, 1);
        QVERIFY2(early.err.find("one class only") != std::string::npos && early.err.find("constant") == std::string::npos,
                 early.err.c_str());
    }

    void thresholdRuleAppliesToEveryPath()
    {
        // --threshold-rule iqr: the decisions are score > Q3 + 1.5·IQR of the model's training scores,
        // whether the model is fitted on --input, on --fit-input or read with --model (the first
        // version applied it to the fit file's rows only and ignored it with --model).
        std::ofstream f(path("tr.csv"));
        f << "x,y\n";
        for (int i = 0; i < 60; ++i)
            f << (i % 10) * 0.1 << "," << (i / 10) * 0.1 << "\n";
        f << "5,5\n6,-4\n";
        f.close();
        std::ofstream g(path("new.csv"));
        g << "x,y\n0.3,0.2\n7,7\n0.5,0.5\n";
        g.close();
        auto check = [](const Run& r, int rows) {
            QVERIFY2(r.code == 0, r.err.c_str());
            const auto at = r.err.find("threshold iqr: ");
            QVERIFY2(at != std::string::npos, r.err.c_str());
            const double t = std::stod(r.err.substr(at + 15));
            std::istringstream in(r.out);
            std::string line;
            std::getline(in, line); // index,score,outlier
            int n = 0;
            while (std::getline(in, line)) {
                const auto c1 = line.find(','), c2 = line.find(',', c1 + 1);
                const double score = std::stod(line.substr(c1 + 1, c2 - c1 - 1));
                QCOMPARE(std::stoi(line.substr(c2 + 1)), score > t ? 1 : 0);
                ++n;
            }
            QCOMPARE(n, rows);
        };
        check(cli({"score", "--input", path("tr.csv"), "--detector", "knn", "--threshold-rule", "iqr", "--output", "-"}), 62);
        check(cli({"score", "--fit-input", path("tr.csv"), "--input", path("new.csv"), "--detector", "knn",
                   "--threshold-rule", "iqr", "--output", "-"}),
              3);
        const Run saved = cli({"score", "--input", path("tr.csv"), "--detector", "knn", "--save-model", path("m.json"),
                               "--output", path("s.csv")});
        QVERIFY2(saved.code == 0, saved.err.c_str());
        check(cli({"score", "--input", path("new.csv"), "--model", path("m.json"), "--threshold-rule", "iqr", "--output", "-"}), 3);
        const Run bad = cli({"score", "--input", path("tr.csv"), "--detector", "knn", "--threshold-rule", "guess", "--output", "-"});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.find("mad, iqr, otsu") != std::string::npos, bad.err.c_str());
    }

    void modelReadsAGuiSessionAndRefusesSpecialFiles()
    {
        // Issue #36: `score --model autosave.olens.json` exited 1 ("session /model: missing
        // \"normalizer\"") although sessions are promised to be read; issue #34: --model on a FIFO
        // blocked forever. The session is written by the core's own serialiser, as the GUI's autosave.
        QCOMPARE(cli({"generate", "blobs", "--n", "70", "--seed", "8", "--output", path("sess.csv")}).code, 0);
        const Run fitted = cli({"score", "--input", path("sess.csv"), "--detector", "knn", "--param", "k=4",
                                "--normalize", "zscore", "--save-model", path("sess-model.json"), "--output",
                                path("sess-direct.csv")});
        QVERIFY2(fitted.code == 0, fitted.err.c_str());
        Session s;
        s.dataPath = path("sess.csv");
        std::ifstream mf(path("sess-model.json"));
        s.model = nlohmann::json::parse(mf);
        {
            std::ofstream out(path("autosave.olens.json"));
            out << serializeSession(s);
        }
        const Run viaSession = cli({"score", "--input", path("sess.csv"), "--model", path("autosave.olens.json"),
                                    "--training-rows", "--output", path("sess-via.csv")});
        QVERIFY2(viaSession.code == 0, viaSession.err.c_str());
        LoadOptions lo;
        const Dataset a = loadDataset(path("sess-direct.csv"), lo), b = loadDataset(path("sess-via.csv"), lo);
        QCOMPARE(b.rows(), a.rows());
        QVERIFY((a.X.col(1) - b.X.col(1)).cwiseAbs().maxCoeff() == 0.0); // the stored training scores
        // #53: without --training-rows the rows are scored as new rows (Python's score_samples),
        // whichever file they come from; --training-rows on other rows is refused.
        {
            const Run asNew = cli({"score", "--input", path("sess.csv"), "--model", path("autosave.olens.json"),
                                   "--output", path("sess-new.csv")});
            QVERIFY2(asNew.code == 0, asNew.err.c_str());
            // A leave-one-out model on its own training rows says what it did and how to get the
            // training ranking (knn k=1 gave all zeros with exit 0 and no word).
            QVERIFY2(asNew.err.find("--training-rows gives the training ranking") != std::string::npos, asNew.err.c_str());
            const Run noModel = cli({"score", "--input", path("sess.csv"), "--detector", "knn", "--training-rows", "--output", "-"});
            QCOMPARE(noModel.code, 1);
            QVERIFY2(noModel.err.find("--training-rows applies to a saved model") != std::string::npos, noModel.err.c_str());
            const Dataset data = loadDataset(path("sess.csv"), lo);
            RestoredModel m = restoreSessionModel(s.model, static_cast<int>(data.cols()));
            const Eigen::VectorXd expect = m.detector->score(m.normalizer.transform(data.X));
            const Dataset n = loadDataset(path("sess-new.csv"), lo);
            QVERIFY((n.X.col(1) - expect).cwiseAbs().maxCoeff() == 0.0);
            QVERIFY((n.X.col(1) - a.X.col(1)).cwiseAbs().maxCoeff() > 0.0); // not the leave-one-out ranking
            // One appended row changed all 70 scores (the CLI switched to leave-one-out on the
            // training file only); as new rows, the first 70 keep theirs.
            {
                std::ifstream in(path("sess.csv"));
                std::string text((std::istreambuf_iterator<char>(in)), {});
                std::ofstream(path("sess-plus.csv")) << text << "0.5,0.5,0\n";
            }
            const Run plus = cli({"score", "--input", path("sess-plus.csv"), "--model", path("autosave.olens.json"),
                                  "--output", path("sess-plus-scores.csv")});
            QVERIFY2(plus.code == 0, plus.err.c_str());
            const Dataset p = loadDataset(path("sess-plus-scores.csv"), lo);
            QCOMPARE(p.rows(), Eigen::Index(71));
            QVERIFY((p.X.col(1).head(70) - n.X.col(1)).cwiseAbs().maxCoeff() == 0.0);
            QCOMPARE(cli({"generate", "blobs", "--n", "71", "--seed", "8", "--output", path("sess71.csv")}).code, 0);
            const Run other = cli({"score", "--input", path("sess71.csv"), "--model", path("autosave.olens.json"),
                                   "--training-rows", "--output", "-"});
            QCOMPARE(other.code, 1);
            QVERIFY2(other.err.find("other rows than the model was fitted on") != std::string::npos, other.err.c_str());
        }
        // Issue #34 item 7: the GUI's autosave stores a knn model without its training rows, as a
        // reference to the session's data; the CLI reads them from the data file named there.
        {
            const Dataset data = loadDataset(path("sess.csv"), lo);
            RestoredModel m = restoreSessionModel(s.model, static_cast<int>(data.cols()));
            Session byRef = s;
            byRef.model = sessionModelJson(*m.detector, m.normalizer, &data.X, {});
            QVERIFY(modelRefersToData(byRef.model));
            std::ofstream out(path("byref.olens.json"));
            out << serializeSession(byRef);
        }
        const Run viaRef = cli({"score", "--input", path("sess.csv"), "--model", path("byref.olens.json"),
                                "--training-rows", "--output", path("sess-ref.csv")});
        QVERIFY2(viaRef.code == 0, viaRef.err.c_str());
        const Dataset c = loadDataset(path("sess-ref.csv"), lo);
        QVERIFY((a.X.col(1) - c.X.col(1)).cwiseAbs().maxCoeff() == 0.0);
        // On its own (not through its session) such a model is refused with the reason.
        {
            std::ifstream in(path("byref.olens.json"));
            std::ofstream out(path("byref-model.json"));
            out << parseSession(std::string(std::istreambuf_iterator<char>(in), {})).model.dump();
        }
        const Run alone = cli({"score", "--input", path("sess.csv"), "--model", path("byref-model.json"), "--output", "-"});
        QCOMPARE(alone.code, 1);
        QVERIFY2(alone.err.find("refers to the data it was fitted on") != std::string::npos, alone.err.c_str());
        // A session without a model says so; a FIFO is refused at once instead of blocking.
        Session empty;
        empty.dataPath = path("sess.csv");
        {
            std::ofstream out(path("empty.olens.json"));
            out << serializeSession(empty);
        }
        const Run none = cli({"score", "--input", path("sess.csv"), "--model", path("empty.olens.json"), "--output", "-"});
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.find("holds no fitted model") != std::string::npos, none.err.c_str());
        QCOMPARE(::mkfifo(path("model.fifo").c_str(), 0600), 0);
        const Run fifo = cli({"score", "--input", path("sess.csv"), "--model", path("model.fifo"), "--output", "-"});
        QCOMPARE(fifo.code, 1);
        QVERIFY2(fifo.err.find("not a regular file") != std::string::npos, fifo.err.c_str());
    }

    void extremeMagnitudesGiveFiniteScoresOrARefusal()
    {
        // Before: finite data near 1e300 gave NaN (pca) or constant (knn) scores with exit 0.
        const std::string base = path("unit.csv");
        QCOMPARE(cli({"generate", "blobs", "--n", "80", "--seed", "3", "--param", "outliers=0.1", "--output", base}).code, 0);
        std::ifstream in(base);
        std::string header, line;
        std::getline(in, header);
        std::vector<std::string> rows;
        while (std::getline(in, line)) rows.push_back(line);
        for (const char* scale : {"1e300", "1e-300", "1e-310"}) {
            const std::string scaled = path("scaled.csv");
            {
                std::ofstream out(scaled);
                out << header << "\n";
                for (const std::string& row : rows) {
                    // every field but the last (the label) times the scale
                    QStringList f = QString::fromStdString(row).split(',');
                    for (int k = 0; k + 1 < f.size(); ++k)
                        f[k] = QString::number(f[k].toDouble() * std::strtod(scale, nullptr), 'g', 17);
                    out << f.join(',').toStdString() << "\n";
                }
            }
            for (const char* det : {"knn", "pca", "lof", "mcd", "iforest"}) {
                const Run u = cli({"score", "--input", base, "--detector", det, "--output", "-"});
                const Run r = cli({"score", "--input", scaled, "--detector", det, "--output", "-"});
                QVERIFY2(u.code == 0, u.err.c_str());
                if (r.code != 0) { // a refusal must name the cause
                    QVERIFY2(r.err.find("non-finite") != std::string::npos, r.err.c_str());
                    continue;
                }
                QVERIFY2(r.out.find("nan") == std::string::npos && r.out.find("inf") == std::string::npos,
                         (std::string(det) + " at " + scale + ": " + r.out.substr(0, 200)).c_str());
                QVERIFY2(r.err.find("scaled by 2^") != std::string::npos, r.err.c_str()); // the warning says so
                // Same ranking as at unit scale: the decisions (the "outlier" column) agree on every row.
                auto flags = [](const std::string& csv) {
                    std::istringstream s(csv);
                    std::string l, out;
                    std::getline(s, l);
                    const int column = QString::fromStdString(l).split(',').indexOf("outlier");
                    while (std::getline(s, l)) out += QString::fromStdString(l).split(',').value(column).toStdString();
                    return out;
                };
                QCOMPARE(QString::fromStdString(flags(r.out)), QString::fromStdString(flags(u.out)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestCli)
#include "TestCli.moc"
