// Fit on a part (data/FitSubset): which rows a subset names, deterministic fractions, the CLI
// spelling and the session JSON.
#include "base/Errors.h"
#include "data/FitSubset.h"

#include <nlohmann/json.hpp>
#include <QtTest>
#include <set>

using namespace olens;

class TestFitSubset : public QObject {
    Q_OBJECT

    static Dataset labelled(int n)
    {
        Dataset d;
        d.featureNames = {"x"};
        d.X = Eigen::VectorXd::LinSpaced(n, 0.0, 1.0);
        d.labelName = "label";
        d.labels = Eigen::VectorXd::Zero(n);
        for (int i = 0; i < n; i += 4)
            d.labels(i) = 1.0; // every fourth row an outlier
        return d;
    }

private slots:
    void allIsEveryRow()
    {
        const auto rows = resolveFitSubset({}, labelled(10));
        QCOMPARE(rows.size(), std::size_t(10));
        for (int i = 0; i < 10; ++i)
            QCOMPARE(rows[static_cast<std::size_t>(i)], i);
    }

    void labelSelectsExactlyThoseRows()
    {
        const Dataset d = labelled(21); // outliers at 0, 4, ..., 20: 6 rows
        const auto inl = resolveFitSubset(parseFitSubset("label:0"), d);
        QCOMPARE(inl.size(), std::size_t(15));
        for (int i : inl)
            QCOMPARE(d.labels(i), 0.0);
        const auto out = resolveFitSubset(parseFitSubset("label:1"), d);
        QCOMPARE(out, (std::vector<int>{0, 4, 8, 12, 16, 20}));
        // A text label's name.
        Dataset t = d;
        t.labelNames = {"normal", "anomaly"};
        QCOMPARE(resolveFitSubset(parseFitSubset("label:normal"), t), inl);
        // No such rows, no labels, not a value: refused.
        QVERIFY_THROWS_EXCEPTION(DataError, resolveFitSubset(parseFitSubset("label:7"), d));
        QVERIFY_THROWS_EXCEPTION(DataError, resolveFitSubset(parseFitSubset("label:x"), d));
        Dataset u = d;
        u.labels.resize(0);
        QVERIFY_THROWS_EXCEPTION(DataError, resolveFitSubset(parseFitSubset("label:0"), u));
    }

    void fractionIsSeededAndSized()
    {
        const Dataset d = labelled(200);
        const auto a = resolveFitSubset(parseFitSubset("fraction:0.3:7"), d);
        const auto b = resolveFitSubset(parseFitSubset("fraction:0.3:7"), d);
        const auto c = resolveFitSubset(parseFitSubset("fraction:0.3:8"), d);
        QCOMPARE(a.size(), std::size_t(60)); // round(0.3 · 200)
        QCOMPARE(a, b);                      // same seed, same rows
        QVERIFY(a != c);                     // another seed, other rows
        QVERIFY(std::is_sorted(a.begin(), a.end()));
        QCOMPARE(std::set<int>(a.begin(), a.end()).size(), a.size());
        QVERIFY(a.front() >= 0 && a.back() < 200);
        // Not just the first rows: the shuffle spreads them over the data.
        QVERIFY(a.back() > 100 && a.front() < 100);
        QCOMPARE(resolveFitSubset(parseFitSubset("fraction:1"), d).size(), std::size_t(200));
        QCOMPARE(resolveFitSubset(parseFitSubset("fraction:0.001"), d).size(), std::size_t(1)); // at least one
        // Over many seeds every row is drawn about equally often (a uniform shuffle): 0.3 ± 0.1.
        std::vector<int> hits(20, 0);
        for (std::uint64_t s = 0; s < 400; ++s)
            for (int i : resolveFitSubset(FitSubset{FitSubset::Kind::Fraction, {}, {}, 0.3, s}, labelled(20)))
                ++hits[static_cast<std::size_t>(i)];
        for (int h : hits)
            QVERIFY2(h > 80 && h < 160, qPrintable(QString::number(h)));
    }

    void rowsAreSortedAndChecked()
    {
        FitSubset s;
        s.kind = FitSubset::Kind::Rows;
        s.rows = {5, 1, 5, 3};
        QCOMPARE(resolveFitSubset(s, labelled(6)), (std::vector<int>{1, 3, 5}));
        s.rows = {1, 6};
        QVERIFY_THROWS_EXCEPTION(DataError, resolveFitSubset(s, labelled(6)));
        s.rows.clear();
        QVERIFY_THROWS_EXCEPTION(DataError, resolveFitSubset(s, labelled(6)));
    }

    void cliSpellings()
    {
        QVERIFY(parseFitSubset("all").isAll());
        const FitSubset f = parseFitSubset("fraction:0.25:42");
        QCOMPARE(f.kind, FitSubset::Kind::Fraction);
        QCOMPARE(f.fraction, 0.25);
        QCOMPARE(f.seed, std::uint64_t(42));
        QCOMPARE(parseFitSubset("fraction:0.5").seed, std::uint64_t(0));
        for (const char* bad : {"", "some", "label:", "fraction:0", "fraction:1.5", "fraction:x", "fraction:0.5:-1",
                                "fraction:0.5:", "rows"})
            QVERIFY_THROWS_EXCEPTION(ParamError, parseFitSubset(bad));
    }

    void jsonRoundTrip()
    {
        for (const FitSubset& s : {FitSubset{}, FitSubset{FitSubset::Kind::Rows, {2, 4}, {}, 1.0, 0},
                                   FitSubset{FitSubset::Kind::Rows, {}, {}, 1.0, 0},
                                   FitSubset{FitSubset::Kind::Label, {}, "normal", 1.0, 0},
                                   FitSubset{FitSubset::Kind::Fraction, {}, {}, 0.4, 9}})
            QVERIFY(fitSubsetFromJson(toJson(s), "/fit_on") == s);
        for (const char* bad : {R"({"kind": "some"})", R"({"kind": "label"})", R"({"kind": "fraction", "fraction": 2})",
                                R"({"kind": "rows", "rows": [1, -2]})", R"({"kind": "fraction", "fraction": 0.5, "seed": -1})",
                                R"([])"})
            QVERIFY_THROWS_EXCEPTION(DataError, fitSubsetFromJson(nlohmann::json::parse(bad), "/fit_on"));
    }
};

QTEST_APPLESS_MAIN(TestFitSubset)
#include "TestFitSubset.moc"
