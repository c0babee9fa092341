// outlierlens-cli verify (docs/architecture.md "Command line" contract: eer, fnr_at_fpr_0.001, auc, n_pairs, fit_seconds,
// method, dim) and perturb (noise protocol of the uncertainty paper, sec. 5.1).
#include "Cli.h"
#include "CliTestSupport.h"
#include "data/CsvWriter.h"
#include "data/DataLoader.h"
#include "data/Generators.h"
#include "metrics/Metrics.h"
#include "similarity/Verification.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace olens;

namespace {
using test::Run;
using test::cli;

bool oneLineError(const Run& r)
{
    return r.code != 0 && r.err.rfind("outlierlens-cli: error: ", 0) == 0 && r.err.find('\n') == r.err.size() - 1;
}
} // namespace

class TestCliVerify : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const char* name) { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const ParamAssignments p = {{"classes", "5"}, {"dim", "3"}, {"t", "1.5"}, {"std", "0.6"}, {"spread", "2"}};
        writeCsv(path("train.csv"), generate("classes", 150, 1, p));
        writeCsv(path("test.csv"), generate("classes", 60, 2, p));
    }

    void verifyJson_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("uajb") << "uajb";
        QTest::newRow("jb") << "jb";
    }

    void verifyJson()
    {
        QFETCH(QString, method);
        const Run r = cli({"verify", "--train", path("train.csv"), "--test", path("test.csv"), "--class-column", "label",
                           "--method", method.toStdString(), "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        for (const char* key : {"eer", "fnr_at_fpr_0.001", "auc", "n_pairs", "fit_seconds", "method", "dim"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(j["method"].get<std::string>(), method.toStdString());
        QCOMPARE(j["n_pairs"].get<long long>(), 60LL * 59 / 2);
        QCOMPARE(j["dim"].get<int>(), 3);
        QCOMPARE(j["sampled"].get<bool>(), false);
        // Genuine pairs: 5 classes of 12 → 5 · 66.
        QCOMPARE(j["genuine_pairs"].get<long long>(), 5LL * 66);
        const double eer = j["eer"].get<double>();
        QVERIFY(eer >= 0 && eer < 0.5);
        QVERIFY(j["auc"].get<double>() > 0.5);
        QVERIFY(j["fnr_at_fpr_0.001"].get<double>() >= 0 && j["fnr_at_fpr_0.001"].get<double>() <= 1);

        // The same numbers as the core computation.
        LoadOptions lo;
        VerificationOptions vo;
        vo.model.method = method == "jb" ? JointBayesianParams::Method::Jb : JointBayesianParams::Method::UaJb;
        const VerificationResult v = runVerification(loadDataset(path("train.csv"), lo), loadDataset(path("test.csv"), lo), vo);
        QCOMPARE(j["eer"].get<double>(), v.eer);
        QCOMPARE(j["auc"].get<double>(), auroc(v.similarity, v.genuine));
    }

    void verifySampledPairs()
    {
        const std::vector<std::string> base = {"verify", "--train", path("train.csv"), "--test", path("test.csv"),
                                               "--method", "uajb", "--pairs", "300", "--json"};
        auto withSeed = [&](const char* seed) {
            auto a = base;
            a.insert(a.end(), {"--seed", seed});
            return a;
        };
        const Run a = cli(withSeed("4")), b = cli(withSeed("4")), c = cli(withSeed("5"));
        QVERIFY2(a.code == 0, a.err.c_str());
        const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out), jc = nlohmann::json::parse(c.out);
        QCOMPARE(ja["n_pairs"].get<long long>(), 300LL);
        QCOMPARE(ja["sampled"].get<bool>(), true);
        QCOMPARE(ja["eer"].get<double>(), jb["eer"].get<double>());
        QVERIFY(ja["genuine_pairs"] != jc["genuine_pairs"] || ja["eer"] != jc["eer"]);
        // Explicit reduction: dimension and the Table 3 ablation options.
        const Run d = cli({"verify", "--train", path("train.csv"), "--test", path("test.csv"), "--method", "uajb",
                           "--dim", "2", "--reduction", "pca", "--projection", "linear", "--json"});
        QVERIFY2(d.code == 0, d.err.c_str());
        const auto jd = nlohmann::json::parse(d.out);
        QCOMPARE(jd["dim"].get<int>(), 2);
        QCOMPARE(jd["reduction"].get<std::string>(), std::string("pca"));
        QCOMPARE(jd["projection"].get<std::string>(), std::string("linear"));
    }

    void verifyErrors()
    {
        const std::string tr = path("train.csv"), te = path("test.csv");
        QVERIFY(oneLineError(cli({"verify", "--train", tr, "--test", te, "--method", "uajb"}))); // no --json
        QVERIFY(oneLineError(cli({"verify", "--train", tr, "--test", te, "--method", "xx", "--json"})));
        QVERIFY(oneLineError(cli({"verify", "--train", tr, "--test", te, "--json"}))); // no --method
        QVERIFY(oneLineError(cli({"verify", "--train", tr, "--test", te, "--method", "jb", "--class-column", "nope", "--json"})));
        QVERIFY(oneLineError(cli({"verify", "--train", tr, "--test", te, "--method", "jb", "--pairs", "0", "--json"})));
        QVERIFY(oneLineError(cli({"verify", "--train", tr, "--test", path("missing.csv"), "--method", "jb", "--json"})));
        // Missing cells: an error by default, imputed on request (sec. 5.2.2).
        {
            std::ifstream in(te);
            std::ofstream out(path("holes.csv"));
            std::string line;
            int k = 0;
            while (std::getline(in, line)) {
                if (k == 3 || k == 10) // blank the first feature of two data rows
                    line = line.substr(line.find(','));
                out << line << "\n";
                ++k;
            }
        }
        const Run bad = cli({"verify", "--train", tr, "--test", path("holes.csv"), "--method", "uajb", "--json"});
        QVERIFY(oneLineError(bad));
        QVERIFY(bad.err.find("holes.csv:4:1") != std::string::npos);
        const Run ok = cli({"verify", "--train", tr, "--test", path("holes.csv"), "--method", "uajb", "--impute-missing", "--json"});
        QVERIFY2(ok.code == 0, ok.err.c_str());
        QCOMPARE(nlohmann::json::parse(ok.out)["imputed_cells"].get<long long>(), 2LL);
    }

    void perturb()
    {
        {
            std::ofstream f(path("plain.csv"));
            f << "a,b,digit\n";
            for (int i = 0; i < 40; ++i)
                f << i << "," << 2 * i << "," << i % 4 << "\n";
        }
        const Run r = cli({"perturb", "--input", path("plain.csv"), "--t", "0.5", "--seed", "3", "--label-column", "digit",
                           "--output", path("noisy.csv")});
        QVERIFY2(r.code == 0, r.err.c_str());
        LoadOptions lo;
        lo.labelColumn = "digit";
        const Dataset d = loadDataset(path("noisy.csv"), lo);
        QCOMPARE(d.featureNames, (std::vector<std::string>{"a", "b"}));
        QVERIFY(d.hasSigma());
        QCOMPARE(d.labelName, std::string("digit"));
        QVERIFY(d.sigma.minCoeff() >= 0 && d.sigma.maxCoeff() < 0.5);
        for (int i = 0; i < 40; ++i) {
            QCOMPARE(d.labels(i), double(i % 4));
            QVERIFY(std::abs(d.X(i, 0) - i) <= 6 * d.sigma(i, 0) + 1e-12);
        }
        QVERIFY(d.sigma.maxCoeff() > 0.3);
        // Seeded: the same output again; t = 0: features unchanged, σ = 0.
        QVERIFY(cli({"perturb", "--input", path("plain.csv"), "--t", "0.5", "--seed", "3", "--label-column", "digit",
                     "--output", path("noisy2.csv")}).code == 0);
        const Dataset d2 = loadDataset(path("noisy2.csv"), lo);
        QVERIFY(d2.X == d.X && d2.sigma == d.sigma);
        const Run z = cli({"perturb", "--input", path("plain.csv"), "--t", "0", "--seed", "3", "--label-column", "digit",
                           "--output", "-"});
        QCOMPARE(z.code, 0);
        const Dataset dz = parseDataset(z.out, "stdout", lo);
        QVERIFY(dz.sigma.isZero(0));
        QCOMPARE(dz.X(7, 1), 14.0);
        QVERIFY(oneLineError(cli({"perturb", "--input", path("plain.csv"), "--t", "-1", "--seed", "3", "--output", "-"})));
        QVERIFY(oneLineError(cli({"perturb", "--input", path("plain.csv"), "--seed", "3", "--output", "-"})));
        // The perturbed file feeds verify.
        const Run v = cli({"verify", "--train", path("noisy.csv"), "--test", path("noisy2.csv"), "--class-column", "digit",
                           "--method", "uajb", "--json"});
        QVERIFY2(v.code == 0, v.err.c_str());
    }

    void helpMentionsCommands()
    {
        const Run r = cli({"--help"});
        QVERIFY(r.out.find("outlierlens-cli verify") != std::string::npos);
        QVERIFY(r.out.find("outlierlens-cli perturb") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCliVerify)
#include "TestCliVerify.moc"
