// Parameter schema, parsing and validation, and the detector registry.
#include "base/Errors.h"
#include "registry/Registry.h"

#include <nlohmann/json.hpp>
#include <QtTest>

using namespace olens;

namespace {
ParamSet sample()
{
    ParamSpec k{"k", ParamType::Int, "5", 1, 100, {}, "neighbours", "ref"};
    ParamSpec s{"sigma", ParamType::Real, "0.5", 0, 10, {}, "width", "ref"};
    ParamSpec b{"robust", ParamType::Bool, "false", 0, 1, {}, "flag", "ref"};
    ParamSpec c{"kernel", ParamType::Choice, "rbf", 0, 0, {"rbf", "poly"}, "kernel", "ref"};
    return ParamSet({k, s, b, c}, "demo");
}

QString errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const ParamError& e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}
} // namespace

class TestParams : public QObject {
    Q_OBJECT

private slots:
    void defaults()
    {
        const ParamSet p = sample();
        QCOMPARE(p.getInt("k"), 5);
        QCOMPARE(p.getReal("sigma"), 0.5);
        QCOMPARE(p.getBool("robust"), false);
        QCOMPARE(QString::fromStdString(p.getChoice("kernel")), QString("rbf"));
    }

    void setValidValues()
    {
        ParamSet p = sample();
        p.set({{"k", " 12 "}, {"sigma", "1e-3"}, {"robust", "yes"}, {"kernel", "poly"}});
        QCOMPARE(p.getInt("k"), 12);
        QCOMPARE(p.getReal("sigma"), 1e-3);
        QCOMPARE(p.getBool("robust"), true);
        QCOMPARE(QString::fromStdString(p.text("sigma")), QString("0.001"));
    }

    void badValuesAreRejectedWithClearMessages()
    {
        ParamSet p = sample();
        QCOMPARE(errorOf([&] { p.set("k", "abc"); }),
                 QString("parameter 'k' of demo: expected an integer, got 'abc'"));
        QCOMPARE(errorOf([&] { p.set("k", "2.5"); }),
                 QString("parameter 'k' of demo: expected an integer, got '2.5'"));
        QCOMPARE(errorOf([&] { p.set("k", "0"); }), QString("parameter 'k' of demo: 0 is outside [1, 100]"));
        QCOMPARE(errorOf([&] { p.set("sigma", "nan"); }),
                 QString("parameter 'sigma' of demo: expected a finite number, got 'nan'"));
        QCOMPARE(errorOf([&] { p.set("sigma", "11"); }),
                 QString("parameter 'sigma' of demo: 11 is outside [0, 10]"));
        QCOMPARE(errorOf([&] { p.set("robust", "maybe"); }),
                 QString("parameter 'robust' of demo: expected true/false, got 'maybe'"));
        QCOMPARE(errorOf([&] { p.set("kernel", "linear"); }),
                 QString("parameter 'kernel' of demo: 'linear' is not one of rbf|poly"));
        QCOMPARE(errorOf([&] { p.set("bogus", "1"); }),
                 QString("unknown parameter 'bogus' for demo (known: k, sigma, robust, kernel)"));
        // A rejected value leaves the previous one in place.
        QCOMPARE(p.getInt("k"), 5);
    }

    void assignments()
    {
        const auto [k, v] = splitAssignment("k = 7");
        QCOMPARE(QString::fromStdString(k), QString("k"));
        QCOMPARE(QString::fromStdString(v), QString("7"));
        QCOMPARE(errorOf([] { splitAssignment("k7"); }), QString("parameter 'k7' is not of the form name=value"));
    }

    void jsonRoundTrip()
    {
        ParamSet p = sample();
        p.set({{"k", "9"}, {"sigma", "0.1"}, {"robust", "true"}, {"kernel", "poly"}});
        const nlohmann::json j = p.toJson();
        QVERIFY(j["k"].is_number_integer());
        QVERIFY(j["robust"].is_boolean());
        ParamSet q = sample();
        q.setFromJson(j);
        QCOMPARE(q.toJson(), j);
        nlohmann::json bad = j;
        bad["k"] = 1000;
        QVERIFY_THROWS_EXCEPTION(ParamError, q.setFromJson(bad));
    }

    void registryListsDetectorsWithSchemas()
    {
        const Registry& r = Registry::instance();
        QVERIFY(r.detectors().size() >= 2);
        for (const auto& d : r.detectors()) {
            QVERIFY(!d.title.empty());
            QVERIFY(!d.reference.empty());
            QVERIFY(d.make != nullptr);
            for (const auto& s : d.params) {
                QVERIFY2(!s.help.empty(), s.name.c_str());
                ParamSet p(d.params, d.id); // every default must validate
                QCOMPARE(QString::fromStdString(p.text(s.name)).isEmpty(), false);
            }
        }
        QCOMPARE(r.defaultParams("knn").getInt("k"), 5);
        const QString e = errorOf([&] { r.info("nope"); });
        QVERIFY(e.startsWith("unknown detector 'nope' (available: knn"));
        QVERIFY(e.contains("pca"));
        QVERIFY_THROWS_EXCEPTION(ParamError, r.create("knn", {{"k", "-1"}}));
        const nlohmann::json list = r.toJson();
        QCOMPARE(list[0]["id"].get<std::string>(), std::string("knn"));
        QCOMPARE(list[0]["params"][0]["name"].get<std::string>(), std::string("k"));
    }
};

QTEST_APPLESS_MAIN(TestParams)
#include "TestParams.moc"
