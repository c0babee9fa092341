// The detector registry (core/registry): ids and schemas of every registered detector, create()
// with defaults and with settings, the ParamError for an unknown id, an unknown parameter and a
// value outside its schema (message naming the id and the parameter), the schema JSON of
// `list --json`, and save (Detector::toJson) → Registry::load round trips. Expected values come
// from each detector's own declaration (DetectorInfo and its ParamSpecs: type, range, choices,
// default, paper setting, auto rule) or from the definitions in Detector.h, never from a run.
#include "RandomData.h"
#include "base/Errors.h"
#include "base/Params.h"
#include "registry/Registry.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using namespace olens;
using olens::test::gaussianRows;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Whether f() threw a ParamError, and its message.
struct Outcome {
    bool paramError = false;
    std::string message = "no ParamError was thrown";
};

template <class F>
Outcome paramErrorOf(F&& f)
{
    try {
        f();
    } catch (const ParamError& e) {
        return {true, e.what()};
    }
    return {};
}

std::string number(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

/// Texts a parameter of this spec must refuse: just outside each finite bound, values of the wrong
/// kind, a choice that is not listed. ("auto" is not among them: specs with an autoRule accept it.)
std::vector<std::string> invalidValues(const ParamSpec& s)
{
    std::vector<std::string> v;
    switch (s.type) {
    case ParamType::Int:
        if (std::isfinite(s.minValue))
            v.push_back(std::to_string(static_cast<long long>(std::ceil(s.minValue)) - 1));
        if (std::isfinite(s.maxValue))
            v.push_back(std::to_string(static_cast<long long>(std::floor(s.maxValue)) + 1));
        v.push_back("2.5");
        v.push_back("many");
        break;
    case ParamType::Real:
        if (std::isfinite(s.minValue))
            v.push_back(number(s.minValue - std::max(1.0, std::abs(s.minValue))));
        if (std::isfinite(s.maxValue))
            v.push_back(number(s.maxValue + std::max(1.0, std::abs(s.maxValue))));
        v.push_back("nan");
        v.push_back("inf");
        v.push_back("0.5x");
        break;
    case ParamType::Bool:
        v.push_back("maybe");
        v.push_back("2");
        break;
    case ParamType::Choice:
        v.push_back("no-such-choice");
        v.push_back("");
        break;
    }
    return v;
}

/// A valid setting of s that differs from its default, as text.
std::string otherValidValue(const ParamSpec& s)
{
    const bool autoDefault = !s.autoRule.empty() && s.defaultValue == "auto";
    switch (s.type) {
    case ParamType::Int: {
        const long long lo = std::isfinite(s.minValue) ? static_cast<long long>(std::ceil(s.minValue)) : 0;
        const long long def = autoDefault ? lo - 1 : std::atoll(s.defaultValue.c_str());
        return std::to_string(def == lo ? lo + 1 : lo);
    }
    case ParamType::Real: {
        const double def = autoDefault ? std::nan("") : std::strtod(s.defaultValue.c_str(), nullptr);
        for (double c : {s.minValue, s.maxValue, 0.5, 1.0, 2.0})
            if (std::isfinite(c) && c >= s.minValue && c <= s.maxValue && c != def)
                return number(c);
        return {};
    }
    case ParamType::Bool:
        return s.defaultValue == "true" ? "false" : "true";
    case ParamType::Choice:
        for (const auto& c : s.choices)
            if (c != s.defaultValue)
                return c;
        return {};
    }
    return {};
}

/// The fitted-model fields Detector::toJson writes itself (the method's "state" is the detector's
/// own business: it may store an equivalent form).
const char* const kBaseFields[] = {"format", "version", "detector", "params", "resolved", "dimension",
                                   "threshold", "training_scores", "training_fingerprint"};

/// j[key], or null when j has no such key.
nlohmann::json fieldOf(const nlohmann::json& j, const char* key)
{
    return j.contains(key) ? j.at(key) : nlohmann::json();
}

} // namespace

class TestRegistry : public QObject {
    Q_OBJECT
private slots:
    void idsAreUniqueAndInfoFindsEachEntry()
    {
        const Registry& r = Registry::instance();
        QVERIFY(&r == &Registry::instance()); // one registry
        QVERIFY(!r.detectors().empty());
        std::set<std::string> ids;
        std::set<int> takenSlots;
        for (const DetectorInfo& d : r.detectors()) {
            QVERIFY2(!d.id.empty(), d.title.c_str());
            QVERIFY2(std::none_of(d.id.begin(), d.id.end(), [](unsigned char c) { return std::isspace(c); }),
                     d.id.c_str()); // usable as a CLI word
            QVERIFY2(ids.insert(d.id).second, qPrintable(QString("duplicate id %1").arg(QString::fromStdString(d.id))));
            QVERIFY2(&r.info(d.id) == &d, d.id.c_str()); // info() finds this very entry
            QVERIFY2(!d.title.empty() && !d.summary.empty() && !d.reference.empty(), d.id.c_str());
            QVERIFY2(static_cast<bool>(d.make), d.id.c_str());
            // DetectorInfo.h: one of the normalisations the GUI knows.
            const std::set<std::string> norms = {"none", "zscore", "l2", "minmax"};
            QVERIFY2(norms.count(d.normalization) == 1, qPrintable(QString::fromStdString(d.id + ": " + d.normalization)));
            // Compare mode's default panels: each position taken at most once.
            QVERIFY2(d.compareSlot >= 0, d.id.c_str());
            if (d.compareSlot > 0)
                QVERIFY2(takenSlots.insert(d.compareSlot).second, qPrintable(QString("%1: compare slot %2 taken twice")
                                                                            .arg(QString::fromStdString(d.id)).arg(d.compareSlot)));
        }
        QCOMPARE(ids.size(), r.detectors().size());
    }

    void everySchemaValidatesItsOwnDefaultsAndPaperSettings()
    {
        for (const DetectorInfo& d : Registry::instance().detectors()) {
            std::set<std::string> names;
            for (const ParamSpec& s : d.params) {
                const QString at = QString::fromStdString(d.id + "." + s.name);
                QVERIFY2(!s.name.empty() && names.insert(s.name).second, qPrintable(at + ": empty or repeated name"));
                QVERIFY2(!s.help.empty(), qPrintable(at + ": no help text"));
                if (s.type == ParamType::Choice) {
                    QVERIFY2(!s.choices.empty(), qPrintable(at));
                    QVERIFY2(std::find(s.choices.begin(), s.choices.end(), s.defaultValue) != s.choices.end()
                                 || (!s.autoRule.empty() && s.defaultValue == "auto"),
                             qPrintable(at + ": default not among the choices"));
                }
                if (s.type == ParamType::Int || s.type == ParamType::Real)
                    QVERIFY2(s.minValue <= s.maxValue, qPrintable(at));
                // The default and the paper's setting pass the schema's own validation, on a set
                // holding the defaults (which the constructor validated too).
                ParamSet p(d.params, d.id);
                const Outcome def = paramErrorOf([&] { p.set(s.name, s.defaultValue); });
                QVERIFY2(!def.paramError, qPrintable(at + ": default '" + QString::fromStdString(s.defaultValue) + "': "
                                                     + QString::fromStdString(def.message)));
                QCOMPARE(p.isAuto(s.name), !s.autoRule.empty() && s.defaultValue == "auto");
                const Outcome paper = paramErrorOf([&] { p.set(s.name, paperSetting(s)); });
                QVERIFY2(!paper.paramError, qPrintable(at + ": paper setting: " + QString::fromStdString(paper.message)));
                // "auto" is accepted exactly where the schema gives a rule for it (a choice may list
                // "auto" as an ordinary value, as kic's solver does).
                const Outcome autoValue = paramErrorOf([&] { p.set(s.name, "auto"); });
                const bool listed = s.type == ParamType::Choice
                    && std::find(s.choices.begin(), s.choices.end(), "auto") != s.choices.end();
                QVERIFY2(autoValue.paramError == (s.autoRule.empty() && !listed), qPrintable(at + ": auto"));
            }
            QVERIFY2(names.count("contamination") == 1, d.id.c_str()); // Detector.h: every detector has it
            // The defaults survive the JSON of sessions and models.
            const ParamSet defaults = Registry::instance().defaultParams(d.id);
            QCOMPARE(defaults.owner(), d.id);
            ParamSet back(d.params, d.id);
            back.setFromJson(nlohmann::json::parse(defaults.toJson().dump()));
            QVERIFY2(back.toJson() == defaults.toJson(), d.id.c_str());
            for (const ParamSpec& s : d.params)
                QCOMPARE(defaults.text(s.name), back.text(s.name));
        }
    }

    void createWithDefaultsGivesAnUnfittedDetector()
    {
        const Registry& r = Registry::instance();
        for (const DetectorInfo& d : r.detectors()) {
            const auto det = r.create(d.id);
            QVERIFY(det != nullptr);
            QCOMPARE(det->id(), d.id);
            QVERIFY2(!det->isFitted(), d.id.c_str());
            QCOMPARE(det->inputDimension(), 0);
            QVERIFY2(det->params().toJson() == r.defaultParams(d.id).toJson(), d.id.c_str());
            QVERIFY_THROWS_EXCEPTION(NotFittedError, det->score(Eigen::MatrixXd::Zero(3, 2)));
            QVERIFY_THROWS_EXCEPTION(NotFittedError, det->trainingScores());
            QVERIFY(!det->trainedOn(Eigen::MatrixXd::Zero(3, 2)));
            try {
                det->score(Eigen::MatrixXd::Zero(3, 2));
            } catch (const NotFittedError& e) {
                QVERIFY2(contains(e.what(), "'" + d.id + "'"), e.what()); // names the detector
            }
        }
    }

    void createAppliesEachSettingAndKeepsTheOtherDefaults()
    {
        const Registry& r = Registry::instance();
        for (const DetectorInfo& d : r.detectors()) {
            const ParamSet defaults = r.defaultParams(d.id);
            for (const ParamSpec& s : d.params) {
                const std::string value = otherValidValue(s);
                const QString at = QString::fromStdString(d.id + "." + s.name + "=" + value);
                QVERIFY2(!value.empty(), qPrintable(at + ": no second valid value"));
                const auto det = r.create(d.id, {{s.name, value}});
                const ParamSet& p = det->params();
                QVERIFY2(!p.isAuto(s.name), qPrintable(at));
                switch (s.type) {
                case ParamType::Int:
                    QVERIFY2(p.getInt(s.name) == std::atoi(value.c_str()), qPrintable(at));
                    break;
                case ParamType::Real:
                    QVERIFY2(p.getReal(s.name) == std::strtod(value.c_str(), nullptr), qPrintable(at));
                    break;
                case ParamType::Bool:
                    QVERIFY2(p.getBool(s.name) == (value == "true"), qPrintable(at));
                    break;
                case ParamType::Choice:
                    QVERIFY2(p.getChoice(s.name) == value, qPrintable(at));
                    break;
                }
                QVERIFY2(p.text(s.name) != defaults.text(s.name), qPrintable(at));
                for (const ParamSpec& other : d.params)
                    if (other.name != s.name)
                        QVERIFY2(p.text(other.name) == defaults.text(other.name), qPrintable(at + " changed " + QString::fromStdString(other.name)));
            }
        }
    }

    void unknownIdsAndParametersAreParamErrorsNamingThem()
    {
        const Registry& r = Registry::instance();
        for (const std::string& id : {std::string("no-such-detector"), std::string("")}) {
            for (const Outcome& o : {paramErrorOf([&] { r.info(id); }), paramErrorOf([&] { r.create(id); }),
                                     paramErrorOf([&] { r.defaultParams(id); })}) {
                QVERIFY2(o.paramError, o.message.c_str());
                QVERIFY2(contains(o.message, "'" + id + "'"), o.message.c_str());
                for (const DetectorInfo& d : r.detectors()) // and lists what exists
                    QVERIFY2(contains(o.message, d.id), o.message.c_str());
            }
        }
        for (const DetectorInfo& d : r.detectors()) {
            const Outcome o = paramErrorOf([&] { r.create(d.id, {{"no_such_parameter", "1"}}); });
            QVERIFY2(o.paramError, d.id.c_str());
            QVERIFY2(contains(o.message, "'no_such_parameter'") && contains(o.message, d.id), o.message.c_str());
            for (const ParamSpec& s : d.params) // the known names are listed
                QVERIFY2(contains(o.message, s.name), o.message.c_str());
        }
    }

    void valuesOutsideTheSchemaAreParamErrorsNamingTheParameter()
    {
        const Registry& r = Registry::instance();
        for (const DetectorInfo& d : r.detectors())
            for (const ParamSpec& s : d.params)
                for (const std::string& bad : invalidValues(s)) {
                    const QString at = QString::fromStdString(d.id + "." + s.name + "='" + bad + "'");
                    const Outcome o = paramErrorOf([&] { r.create(d.id, {{s.name, bad}}); });
                    QVERIFY2(o.paramError, qPrintable(at + ": accepted"));
                    QVERIFY2(contains(o.message, "'" + s.name + "'") && contains(o.message, d.id),
                             qPrintable(at + ": " + QString::fromStdString(o.message)));
                }
    }

    void schemaJsonDescribesEveryDetector()
    {
        // Registry::toJson (`list --json`) against the DetectorInfo and ParamSpecs it is built from.
        const Registry& r = Registry::instance();
        const nlohmann::json list = nlohmann::json::parse(r.toJson().dump());
        QVERIFY(list.is_array());
        QCOMPARE(list.size(), r.detectors().size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            const nlohmann::json& e = list[i];
            const DetectorInfo& d = r.detectors()[i];
            QCOMPARE(e.at("id").get<std::string>(), d.id);
            QCOMPARE(e.at("title").get<std::string>(), d.title);
            QCOMPARE(e.at("summary").get<std::string>(), d.summary);
            QCOMPARE(e.at("reference").get<std::string>(), d.reference);
            const nlohmann::json& params = e.at("params");
            QCOMPARE(params.size(), d.params.size());
            for (std::size_t j = 0; j < d.params.size(); ++j) {
                const nlohmann::json& ps = params[j];
                const ParamSpec& s = d.params[j];
                const QString at = QString::fromStdString(d.id + "." + s.name);
                QCOMPARE(ps.at("name").get<std::string>(), s.name);
                QCOMPARE(ps.at("type").get<std::string>(), olens::toString(s.type));
                QCOMPARE(ps.at("default").get<std::string>(), s.defaultValue);
                QCOMPARE(ps.at("help").get<std::string>(), s.help);
                QCOMPARE(ps.at("paper").get<std::string>(), paperSetting(s));
                const bool numeric = s.type == ParamType::Int || s.type == ParamType::Real;
                QVERIFY2(ps.contains("min") == numeric && ps.contains("max") == numeric, qPrintable(at));
                if (numeric) {
                    // An infinite bound is null (JSON has no infinity).
                    QVERIFY2(std::isinf(s.minValue) ? ps.at("min").is_null() : ps.at("min").get<double>() == s.minValue, qPrintable(at));
                    QVERIFY2(std::isinf(s.maxValue) ? ps.at("max").is_null() : ps.at("max").get<double>() == s.maxValue, qPrintable(at));
                }
                QVERIFY2(ps.contains("choices") == (s.type == ParamType::Choice), qPrintable(at));
                if (s.type == ParamType::Choice)
                    QVERIFY2(ps.at("choices").get<std::vector<std::string>>() == s.choices, qPrintable(at));
                QVERIFY2(ps.contains("auto") == !s.autoRule.empty(), qPrintable(at));
                if (!s.autoRule.empty())
                    QCOMPARE(ps.at("auto").get<std::string>(), s.autoRule);
            }
        }
    }

    void savedModelLoadsBackWithIdenticalScores_data()
    {
        QTest::addColumn<QString>("detector");
        for (const DetectorInfo& d : Registry::instance().detectors())
            QTest::newRow(d.id.c_str()) << QString::fromStdString(d.id);
    }

    void savedModelLoadsBackWithIdenticalScores()
    {
        QFETCH(QString, detector);
        const std::string id = detector.toStdString();
        const Registry& r = Registry::instance();
        Eigen::MatrixXd X = gaussianRows(60, 3, 31);
        X.row(0) << 6.0, -5.0, 4.0; // one clear outlier
        const Eigen::MatrixXd Q = gaussianRows(25, 3, 32, 2.0);
        const auto fitted = r.create(id);
        fitted->fit(X);
        const std::string saved = fitted->toJson().dump(); // as written to a model file
        const nlohmann::json model = nlohmann::json::parse(saved);
        const auto loaded = r.load(model);
        QVERIFY(loaded->isFitted());
        QCOMPARE(loaded->id(), id);
        QCOMPARE(loaded->inputDimension(), 3);
        QVERIFY(loaded->params().toJson() == fitted->params().toJson());
        QVERIFY(loaded->params().resolvedJson() == fitted->params().resolvedJson()); // what `auto` became
        QVERIFY(loaded->trainingScores() == fitted->trainingScores());
        QVERIFY(loaded->threshold() == fitted->threshold());
        QVERIFY(loaded->score(Q) == fitted->score(Q));
        QVERIFY(loaded->score(X) == fitted->score(X));
        QVERIFY(loaded->isOutlier(Q) == fitted->isOutlier(Q));
        // The training-data fingerprint travels with the model: the loaded detector knows its data.
        QVERIFY(loaded->trainedOn(X));
        Eigen::MatrixXd edited = X;
        edited(7, 1) += 0.5;
        QVERIFY(!loaded->trainedOn(edited));
        // Saving the loaded model again writes the same model fields.
        const nlohmann::json again = nlohmann::json::parse(loaded->toJson().dump());
        for (const char* field : kBaseFields)
            QVERIFY2(fieldOf(again, field) == fieldOf(model, field), field);
    }

    void aNonFiniteNumberInAModelIsRefusedNamingIt_data() { savedModelLoadsBackWithIdenticalScores_data(); }

    void aNonFiniteNumberInAModelIsRefusedNamingIt()
    {
        // #51: NaN split values (iforest) or a NaN in an mcd model scored with exit 0 or came out as
        // "arithmetic overflowed". Every number of a model's state must be finite: a NaN planted in
        // the first number of the state, and in the training scores, is refused naming its place.
        QFETCH(QString, detector);
        const Registry& r = Registry::instance();
        Eigen::MatrixXd X = gaussianRows(60, 3, 31);
        const auto fitted = r.create(detector.toStdString());
        fitted->fit(X);
        const nlohmann::json model = fitted->toJson();
        std::function<bool(nlohmann::json&, std::string&)> plant = [&](nlohmann::json& v, std::string& at) {
            if (v.is_number_float()) {
                v = std::numeric_limits<double>::quiet_NaN();
                return true;
            }
            if (v.is_array() || v.is_object())
                for (auto it = v.begin(); it != v.end(); ++it) {
                    std::string inner = at + "/" + (v.is_object() ? it.key() : std::to_string(std::distance(v.begin(), it)));
                    if (plant(it.value(), inner)) {
                        at = inner;
                        return true;
                    }
                }
            return false;
        };
        auto refusal = [&r](const nlohmann::json& j) {
            try {
                r.load(j);
            } catch (const DataError& e) {
                return std::string(e.what());
            }
            return std::string("(loaded)");
        };
        nlohmann::json tampered = model;
        std::string at = "state";
        QVERIFY2(plant(tampered["state"], at), "no number in the state");
        std::string why = refusal(tampered);
        QVERIFY2(contains(why, at + " is nan, not a finite number"), (at + ": " + why).c_str());
        tampered = model;
        tampered["training_scores"][5] = std::numeric_limits<double>::infinity();
        why = refusal(tampered);
        QVERIFY2(contains(why, "training_scores/5 is inf"), why.c_str());
    }

    void aKnnModelClaimingMoreNeighboursThanPointsIsRefused()
    {
        // #51: a session's knn model with k = 5000 over 200 stored points was accepted.
        const auto knn = Registry::instance().create("knn", {{"k", "5"}});
        knn->fit(gaussianRows(30, 2, 4));
        nlohmann::json j = knn->toJson();
        j["params"]["k"] = 30;
        try {
            Registry::instance().load(j);
            QFAIL("a knn model with k = 30 over 30 points was loaded");
        } catch (const DataError& e) {
            QVERIFY2(contains(e.what(), "k = 30 needs at least 31 stored points, the model has 30"), e.what());
        }
        j["params"]["k"] = 29;
        QCOMPARE(Registry::instance().load(j)->params().getInt("k"), 29);
    }

    void loadingValidatesTheParameters()
    {
        // A model file edited by hand goes through the same validation as create().
        const Registry& r = Registry::instance();
        const auto knn = r.create("knn", {{"k", "2"}});
        knn->fit(gaussianRows(20, 2, 41));
        const nlohmann::json model = knn->toJson();
        QCOMPARE(r.load(model)->params().getInt("k"), 2);
        {
            nlohmann::json j = model;
            j["params"]["contamination"] = 0.9; // outside [0, 0.5]
            const Outcome o = paramErrorOf([&] { r.load(j); });
            QVERIFY2(o.paramError && contains(o.message, "'contamination'") && contains(o.message, "knn"), o.message.c_str());
        }
        {
            nlohmann::json j = model;
            j["params"]["bogus"] = 1;
            const Outcome o = paramErrorOf([&] { r.load(j); });
            QVERIFY2(o.paramError && contains(o.message, "'bogus'"), o.message.c_str());
        }
        {
            nlohmann::json j = model;
            j["detector"] = "no-such-detector";
            const Outcome o = paramErrorOf([&] { r.load(j); });
            QVERIFY2(o.paramError && contains(o.message, "'no-such-detector'"), o.message.c_str());
        }
        {
            nlohmann::json j = model;
            j["format"] = "something-else";
            QVERIFY_THROWS_EXCEPTION(DataError, r.load(j));
            j = model;
            j["version"] = 2;
            QVERIFY_THROWS_EXCEPTION(DataError, r.load(j));
            j = model;
            j.erase("detector");
            QVERIFY_THROWS_EXCEPTION(DataError, r.load(j));
        }
    }
};

QTEST_APPLESS_MAIN(TestRegistry)
#include "TestRegistry.moc"
