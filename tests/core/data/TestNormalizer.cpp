// Tests for core/Normalizer: hand-computed zscore/minmax/l2 examples, constant columns,
// training statistics reused on new data, JSON round trip and the error cases.
#include "base/Errors.h"
#include "data/Normalizer.h"

#include "Numeric.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>

using namespace olens;

namespace {

Eigen::MatrixXd mat(std::initializer_list<std::initializer_list<double>> rows)
{
    Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
    Eigen::Index i = 0;
    for (const auto& r : rows) {
        Eigen::Index j = 0;
        for (double v : r) m(i, j++) = v;
        ++i;
    }
    return m;
}

bool near(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol = 1e-12)
{
    return test::maxAbsDiff(a, b) <= tol; // infinite when the shapes differ
}

bool sameBits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols()
           && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

template <class E, class F>
QString messageOf(F&& f)
{
    try {
        f();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("<wrong exception: %1>").arg(QString::fromStdString(e.what()));
    }
    return QStringLiteral("<no exception>");
}

/// Enums are compared by name: QCOMPARE would pick olens::toString (std::string) through ADL.
QString kindName(Normalization k)
{
    return QString::fromStdString(toString(k));
}

QStringList toQt(const std::vector<std::string>& v)
{
    QStringList out;
    for (const auto& s : v) out << QString::fromStdString(s);
    return out;
}

} // namespace

class TestNormalizer : public QObject {
    Q_OBJECT

private slots:
    void parseAndToString();
    void zscoreHandExample();
    void zscoreMeanZeroStdOne();
    void zscoreDropsConstantColumn();
    void zscoreAllConstant();
    void transformUsesTrainingStatistics();
    void minmaxHandExample();
    void l2UnitRows();
    void noneIsIdentity();
    void missingValuesStayMissing();
    void jsonRoundTrip_data();
    void jsonRoundTrip();
    void jsonUnfitted();
    void jsonGarbled();
    void wrongColumnCount();
    void unfitted();
    void badName();
};

void TestNormalizer::parseAndToString()
{
    QCOMPARE(kindName(parseNormalization("none")), kindName(Normalization::None));
    QCOMPARE(kindName(parseNormalization("zscore")), kindName(Normalization::ZScore));
    QCOMPARE(kindName(parseNormalization("l2")), kindName(Normalization::L2));
    QCOMPARE(kindName(parseNormalization("minmax")), kindName(Normalization::MinMax));
    for (auto k : {Normalization::None, Normalization::ZScore, Normalization::L2, Normalization::MinMax})
        QCOMPARE(kindName(parseNormalization(toString(k))), kindName(k));
    QCOMPARE(toString(Normalization::ZScore), std::string("zscore"));
    QCOMPARE(toString(Normalization::MinMax), std::string("minmax"));
}

void TestNormalizer::zscoreHandExample()
{
    // Column 1: mean 2, population std sqrt(2/3). Column 2: mean 30, std sqrt(1400/3).
    const Eigen::MatrixXd X = mat({{1, 10}, {2, 20}, {3, 60}});
    Normalizer n(Normalization::ZScore);
    const Eigen::MatrixXd Z = n.fitTransform(X);
    const double a = std::sqrt(1.5);
    const Eigen::MatrixXd expected =
        mat({{-a, -std::sqrt(6.0 / 7.0)}, {0.0, -std::sqrt(3.0 / 14.0)}, {a, std::sqrt(27.0 / 14.0)}});
    QVERIFY(near(Z, expected, 1e-14));
    QCOMPARE(kindName(n.kind()), kindName(Normalization::ZScore));
    QVERIFY(n.isFitted());
    QCOMPARE(n.keptColumns(), std::vector<int>({0, 1}));
    QVERIFY(n.warnings().empty());
}

void TestNormalizer::zscoreMeanZeroStdOne()
{
    std::mt19937 rng(7);
    std::normal_distribution<double> nd(5.0, 3.0);
    Eigen::MatrixXd X(500, 4);
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        for (Eigen::Index j = 0; j < X.cols(); ++j) X(i, j) = nd(rng) * static_cast<double>(j + 1) + 100.0 * j;
    Normalizer n(Normalization::ZScore);
    const Eigen::MatrixXd Z = n.fitTransform(X);
    QCOMPARE(Z.cols(), Eigen::Index(4));
    for (Eigen::Index j = 0; j < Z.cols(); ++j) {
        const double mean = Z.col(j).mean();
        const double var = (Z.col(j).array() - mean).square().mean(); // population variance
        QVERIFY2(std::abs(mean) < 1e-12, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(std::sqrt(var) - 1.0) < 1e-12, qPrintable(QString::number(var)));
    }
}

void TestNormalizer::zscoreDropsConstantColumn()
{
    // Column 2 is constant, column 4 varies by 1e-9, far below 1e-12 relative to its mean.
    const double big = 1e6;
    const Eigen::MatrixXd X = mat({{1, 5, 2, big}, {2, 5, 4, big + 1e-9}, {3, 5, 9, big}});
    Normalizer n(Normalization::ZScore);
    const Eigen::MatrixXd Z = n.fitTransform(X);
    QCOMPARE(Z.cols(), Eigen::Index(2));
    QCOMPARE(n.keptColumns(), std::vector<int>({0, 2}));
    QCOMPARE(toQt(n.keptNames({"a", "b", "c", "d"})), QStringList({"a", "c"}));
    QCOMPARE(n.warnings().size(), std::size_t(2));
    QVERIFY2(QString::fromStdString(n.warnings()[0]).contains(QLatin1String("column 2")),
             n.warnings()[0].c_str());
    QVERIFY2(QString::fromStdString(n.warnings()[1]).contains(QLatin1String("column 4")),
             n.warnings()[1].c_str());
    QVERIFY(QString::fromStdString(n.warnings()[0]).contains(QLatin1String("constant")));
    // The kept columns are exactly the zscore of the input columns 1 and 3.
    Normalizer two(Normalization::ZScore);
    Eigen::MatrixXd X13(3, 2);
    X13 << X.col(0), X.col(2);
    QVERIFY(sameBits(two.fitTransform(X13), Z));
    // Refitting clears old warnings.
    n.fit(X13);
    QVERIFY(n.warnings().empty());
}

void TestNormalizer::zscoreAllConstant()
{
    Normalizer n(Normalization::ZScore);
    QVERIFY(!messageOf<DataError>([&] { n.fit(mat({{1, 2}, {1, 2}})); }).startsWith('<'));
    QVERIFY(!n.isFitted());
}

void TestNormalizer::transformUsesTrainingStatistics()
{
    const Eigen::MatrixXd train = mat({{1, 10}, {2, 20}, {3, 60}});
    Normalizer n(Normalization::ZScore);
    n.fit(train);
    const Eigen::MatrixXd test = mat({{4, 30}, {2, 0}});
    const Eigen::MatrixXd Z = n.transform(test);
    const double s1 = std::sqrt(2.0 / 3.0), s2 = std::sqrt(1400.0 / 3.0);
    QVERIFY(near(Z, mat({{2.0 / s1, 0.0}, {0.0, -30.0 / s2}}), 1e-14));
    // Transforming the training data again is unchanged by the test transform.
    QVERIFY(near(n.transform(train).col(0), Eigen::Vector3d(-std::sqrt(1.5), 0, std::sqrt(1.5)), 1e-14));

    Normalizer m(Normalization::MinMax);
    m.fit(train);
    QVERIFY(near(m.transform(test), mat({{1.5, 0.4}, {0.5, -0.2}}), 1e-15));
}

void TestNormalizer::minmaxHandExample()
{
    const Eigen::MatrixXd X = mat({{1, 10, 7}, {3, 20, 7}, {2, 40, 7}});
    Normalizer n(Normalization::MinMax);
    const Eigen::MatrixXd M = n.fitTransform(X);
    QVERIFY(near(M, mat({{0, 0, 0}, {1, 1.0 / 3.0, 0}, {0.5, 1, 0}}), 1e-15));
    QCOMPARE(n.keptColumns(), std::vector<int>({0, 1, 2}));
    QCOMPARE(n.warnings().size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(n.warnings()[0]).contains(QLatin1String("column 3")), n.warnings()[0].c_str());
    // New data: outside the training range maps outside [0,1]; the constant column stays 0.
    QVERIFY(near(n.transform(mat({{5, 0, 8}})), mat({{2, -1.0 / 3.0, 0}}), 1e-15));
}

void TestNormalizer::l2UnitRows()
{
    const Eigen::MatrixXd X = mat({{3, 4}, {0, 0}, {1, 1}, {-2, 0}});
    Normalizer n(Normalization::L2);
    const Eigen::MatrixXd L = n.fitTransform(X);
    QVERIFY(near(L, mat({{0.6, 0.8}, {0, 0}, {std::sqrt(0.5), std::sqrt(0.5)}, {-1, 0}}), 1e-15));
    QCOMPARE(L(1, 0), 0.0);
    QCOMPARE(L(1, 1), 0.0);
    for (Eigen::Index i : {0, 2, 3}) QVERIFY(std::abs(L.row(i).norm() - 1.0) < 1e-15);

    std::mt19937 rng(3);
    std::normal_distribution<double> nd;
    Eigen::MatrixXd R(50, 5);
    for (Eigen::Index i = 0; i < R.size(); ++i) R(i) = nd(rng) * 1e3;
    QCOMPARE(n.keptColumns(), std::vector<int>({0, 1}));
    Normalizer five(Normalization::L2);
    const Eigen::MatrixXd RL = five.fitTransform(R);
    for (Eigen::Index i = 0; i < RL.rows(); ++i) QVERIFY(std::abs(RL.row(i).norm() - 1.0) < 1e-14);
}

void TestNormalizer::noneIsIdentity()
{
    const Eigen::MatrixXd X = mat({{1, -2}, {3.5, 4}});
    Normalizer n; // None by default
    QCOMPARE(kindName(n.kind()), kindName(Normalization::None));
    QVERIFY(sameBits(n.fitTransform(X), X));
    QCOMPARE(toQt(n.keptNames({"u", "v"})), QStringList({"u", "v"}));
}

void TestNormalizer::missingValuesStayMissing()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Eigen::MatrixXd X = mat({{1, 10}, {nan, 20}, {3, nan}, {2, 60}});
    Normalizer n(Normalization::ZScore);
    const Eigen::MatrixXd Z = n.fitTransform(X);
    QVERIFY(std::isnan(Z(1, 0)));
    QVERIFY(std::isnan(Z(2, 1)));
    // Statistics come from the present values: column 1 is {1,3,2} -> mean 2.
    QCOMPARE(Z(3, 0), 0.0);
    QVERIFY(std::abs(Z(0, 0) + std::sqrt(1.5)) < 1e-14);
}

void TestNormalizer::jsonRoundTrip_data()
{
    QTest::addColumn<QString>("kind");
    for (const char* k : {"none", "zscore", "l2", "minmax"}) QTest::newRow(k) << QString::fromLatin1(k);
}

void TestNormalizer::jsonRoundTrip()
{
    QFETCH(QString, kind);
    std::mt19937 rng(11);
    std::normal_distribution<double> nd;
    Eigen::MatrixXd X(40, 4);
    for (Eigen::Index i = 0; i < X.size(); ++i) X(i) = nd(rng) * 0.1 + 1.0 / 3.0;
    X.col(2).setConstant(2.5); // dropped by zscore, 0 for minmax
    Normalizer n(parseNormalization(kind.toStdString()));
    n.fit(X);
    const std::string text = n.toJson().dump();
    const Normalizer r = Normalizer::fromJson(nlohmann::json::parse(text));
    QCOMPARE(kindName(r.kind()), kindName(n.kind()));
    QVERIFY(r.isFitted());
    QCOMPARE(r.keptColumns(), n.keptColumns());
    QCOMPARE(toQt(r.warnings()), toQt(n.warnings()));
    Eigen::MatrixXd Y(7, 4);
    for (Eigen::Index i = 0; i < Y.size(); ++i) Y(i) = nd(rng);
    QVERIFY(sameBits(r.transform(Y), n.transform(Y)));
    QVERIFY(sameBits(r.transform(X), n.transform(X)));
    const nlohmann::json j = n.toJson();
    QCOMPARE(QString::fromStdString(j.at("kind").get<std::string>()), kind);
    QVERIFY(j.contains("inputCols") && j.contains("kept") && j.contains("offset") && j.contains("scale"));
    QCOMPARE(j.at("inputCols").get<int>(), 4);
}

void TestNormalizer::jsonUnfitted()
{
    const Normalizer n(Normalization::MinMax);
    const Normalizer r = Normalizer::fromJson(n.toJson());
    QCOMPARE(kindName(r.kind()), kindName(Normalization::MinMax));
    QVERIFY(!r.isFitted());
}

void TestNormalizer::jsonGarbled()
{
    Normalizer n(Normalization::ZScore);
    n.fit(mat({{1, 2}, {2, 4}, {4, 9}}));
    const nlohmann::json good = n.toJson();

    std::vector<nlohmann::json> bad;
    bad.push_back(nlohmann::json::array({1, 2}));
    bad.push_back(nlohmann::json("zscore"));
    bad.push_back(nlohmann::json::object());
    auto edit = [&](auto f) {
        nlohmann::json j = good;
        f(j);
        bad.push_back(j);
    };
    edit([](nlohmann::json& j) { j["kind"] = "whiten"; });
    edit([](nlohmann::json& j) { j["kind"] = 3; });
    edit([](nlohmann::json& j) { j.erase("offset"); });
    edit([](nlohmann::json& j) { j["scale"] = "1,2"; });
    edit([](nlohmann::json& j) { j["scale"] = {1.0}; });           // length mismatch
    edit([](nlohmann::json& j) { j["kept"] = {0, 7}; });           // out of range
    edit([](nlohmann::json& j) { j["kept"] = {1, 0}; });           // not increasing
    edit([](nlohmann::json& j) { j["offset"] = {1.0, nullptr}; }); // null number
    edit([](nlohmann::json& j) { j["inputCols"] = -1; });
    // #51: a tampered scale of 0 (or below) scored with exit 0: every row equal on that feature.
    edit([](nlohmann::json& j) { j["scale"][1] = 0.0; });
    edit([](nlohmann::json& j) { j["scale"][0] = -2.0; });
    for (std::size_t i = 0; i < bad.size(); ++i) {
        const QString msg = messageOf<ParamError>([&] { Normalizer::fromJson(bad[i]); });
        QVERIFY2(!msg.startsWith('<'), qPrintable(QString::number(i) + ": " + msg + " for "
                                                  + QString::fromStdString(bad[i].dump())));
    }
    QVERIFY(messageOf<ParamError>([&] { Normalizer::fromJson(bad.back()); }).contains("scale 0 is -2"));
    // A constant column's minmax scale is 0, as fitted: still read.
    Normalizer m(Normalization::MinMax);
    m.fit(mat({{1, 5}, {2, 5}, {4, 5}}));
    QCOMPARE(Normalizer::fromJson(m.toJson()).transform(mat({{3, 7}}))(0, 1), 0.0);
}

void TestNormalizer::wrongColumnCount()
{
    for (auto k : {Normalization::None, Normalization::ZScore, Normalization::L2, Normalization::MinMax}) {
        Normalizer n(k);
        n.fit(mat({{1, 2, 3}, {2, 5, 7}}));
        const QString msg = messageOf<DataError>([&] { n.transform(mat({{1, 2}})); });
        QVERIFY2(msg.contains(QLatin1String("3 columns")) && msg.contains(QLatin1String("has 2")), qPrintable(msg));
        QVERIFY(!messageOf<DataError>([&] { n.keptNames({"a"}); }).startsWith('<'));
    }
}

void TestNormalizer::unfitted()
{
    for (auto k : {Normalization::None, Normalization::ZScore, Normalization::L2, Normalization::MinMax}) {
        const Normalizer n(k);
        QVERIFY(!n.isFitted());
        QVERIFY(!messageOf<NotFittedError>([&] { n.transform(mat({{1, 2}})); }).startsWith('<'));
        QVERIFY(!messageOf<NotFittedError>([&] { n.keptNames({"a", "b"}); }).startsWith('<'));
    }
}

void TestNormalizer::badName()
{
    QCOMPARE(messageOf<ParamError>([] { parseNormalization("whiten"); }),
             QStringLiteral("unknown normalization 'whiten' (choices: none, zscore, l2, minmax)"));
    QVERIFY(!messageOf<ParamError>([] { parseNormalization(""); }).startsWith('<'));
}

QTEST_APPLESS_MAIN(TestNormalizer)
#include "TestNormalizer.moc"
