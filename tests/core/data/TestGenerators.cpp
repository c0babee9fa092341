// Tests of the seeded toy data generators (core/Generators.h).
#include "base/Errors.h"
#include "data/Generators.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <map>
#include <string>

using namespace olens;

namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

/// Expected number of columns with default parameters.
const std::map<std::string, int> kDefaultDims = {
    {"blobs", 2}, {"moons", 2}, {"ring", 2}, {"seam", 3},
    {"sphere", 3}, {"torus", 3}, {"swissroll", 3}, {"scurve", 3}, {"classes", 2},
};

bool bitIdentical(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols()
        && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

bool bitIdentical(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    return a.size() == b.size()
        && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

int countOnes(const Dataset& d)
{
    int c = 0;
    for (Eigen::Index i = 0; i < d.labels.size(); ++i)
        c += d.labels(i) == 1.0 ? 1 : 0;
    return c;
}

/// Runs f and checks that it throws ParamError whose message contains every one of `needles`.
template <class F>
bool throwsParamError(F&& f, std::initializer_list<const char*> needles, QString* message)
{
    try {
        f();
    } catch (const ParamError& e) {
        *message = QString::fromStdString(e.what());
        for (const char* n : needles)
            if (!message->contains(QLatin1String(n)))
                return false;
        return true;
    } catch (const std::exception& e) {
        *message = QStringLiteral("wrong exception type: ") + QString::fromStdString(e.what());
        return false;
    }
    *message = QStringLiteral("nothing thrown");
    return false;
}

#define VERIFY_PARAM_ERROR(expr, ...)                                                                     \
    do {                                                                                                  \
        QString msg_;                                                                                     \
        QVERIFY2(throwsParamError([&] { (void)(expr); }, {__VA_ARGS__}, &msg_), qPrintable(msg_));       \
    } while (false)

/// Assignments that turn off the seam's far outlier (so all non-background rows are on the shape).
ParamAssignments noFar(const std::string& id)
{
    if (id == "seam")
        return {{"far_outlier", "false"}};
    return {};
}

} // namespace

class TestGenerators : public QObject {
    Q_OBJECT

private slots:
    void listAndSchema();
    void shapesAndLabels_data();
    void shapesAndLabels();
    void dimParameter();
    void reproducible_data();
    void reproducible();
    void outlierFraction_data();
    void outlierFraction();
    void tinySampleCounts();
    void blobsCentres();
    void moonsOnHalfCircles();
    void ringRadii();
    void seamIdentities();
    void seamFarOutlier();
    void sphereNorms();
    void torusIdentity();
    void swissrollRanges();
    void scurveRanges();
    void errors();
};

void TestGenerators::listAndSchema()
{
    const auto& gens = generators();
    QCOMPARE(gens.size(), kDefaultDims.size());
    for (const auto& g : gens) {
        QVERIFY2(kDefaultDims.count(g.id) == 1, g.id.c_str());
        QVERIFY(!g.summary.empty());
        QCOMPARE(generatorInfo(g.id).id, g.id);
        bool hasOutliers = false;
        for (const auto& s : g.params) {
            QVERIFY2(!s.help.empty(), (g.id + "." + s.name).c_str());
            QVERIFY2(!s.reference.empty(), (g.id + "." + s.name).c_str());
            QVERIFY2(!s.defaultValue.empty(), (g.id + "." + s.name).c_str());
            if (s.name == "outliers") {
                hasOutliers = true;
                QVERIFY(s.type == ParamType::Real);
                QCOMPARE(std::stod(s.defaultValue), 0.0);
                QCOMPARE(s.minValue, 0.0);
                QCOMPARE(s.maxValue, 0.9);
            }
        }
        QVERIFY2(hasOutliers, g.id.c_str());
        // The defaults form a valid ParamSet.
        ParamSet ps(g.params, g.id);
        QCOMPARE(ps.getReal("outliers"), 0.0);
    }
}

void TestGenerators::shapesAndLabels_data()
{
    QTest::addColumn<QString>("id");
    for (const auto& g : generators())
        if (g.id != "classes") // class ids and sigma_ columns, not 0/1 outlier flags: tested in TestUaJb
            QTest::newRow(g.id.c_str()) << QString::fromStdString(g.id);
}

void TestGenerators::shapesAndLabels()
{
    QFETCH(QString, id);
    const std::string gid = id.toStdString();
    const int n = 257;
    const Dataset d = generate(gid, n, 7);
    const int p = kDefaultDims.at(gid);
    QCOMPARE(d.rows(), Eigen::Index(n));
    QCOMPARE(d.cols(), Eigen::Index(p));
    QCOMPARE(d.labels.size(), Eigen::Index(n));
    QVERIFY(d.hasLabels());
    QVERIFY(!d.hasSigma());
    QCOMPARE(d.labelName, std::string("label"));
    QVERIFY(d.labelNames.empty());
    QCOMPARE(d.source, "generate:" + gid + " n=257 seed=7");
    if (p == 2)
        QCOMPARE(d.featureNames, (std::vector<std::string>{"x", "y"}));
    else
        QCOMPARE(d.featureNames, (std::vector<std::string>{"x", "y", "z"}));
    QVERIFY(d.X.allFinite());
    for (Eigen::Index i = 0; i < n; ++i)
        QVERIFY(d.labels(i) == 0.0 || d.labels(i) == 1.0);
    // Default: no background outliers; the seam has its single far outlier as the last row.
    if (gid == "seam") {
        QCOMPARE(countOnes(d), 1);
        QCOMPARE(d.labels(n - 1), 1.0);
    } else {
        QCOMPARE(countOnes(d), 0);
    }

    // Explicit parameters appear in the source in canonical form.
    const Dataset d2 = generate(gid, 10, 3, {{"outliers", "0.20"}});
    QCOMPARE(d2.source, "generate:" + gid + " n=10 seed=3 outliers=0.2");
}

void TestGenerators::dimParameter()
{
    Dataset d = generate("blobs", 30, 1, {{"dim", "5"}});
    QCOMPARE(d.cols(), Eigen::Index(5));
    QCOMPARE(d.featureNames, (std::vector<std::string>{"x1", "x2", "x3", "x4", "x5"}));
    d = generate("blobs", 30, 1, {{"dim", "1"}});
    QCOMPARE(d.cols(), Eigen::Index(1));
    QCOMPARE(d.featureNames, (std::vector<std::string>{"x1"}));
    d = generate("blobs", 30, 1, {{"dim", "3"}});
    QCOMPARE(d.featureNames, (std::vector<std::string>{"x", "y", "z"}));
    d = generate("sphere", 40, 1, {{"dim", "7"}, {"outliers", "0.1"}});
    QCOMPARE(d.cols(), Eigen::Index(7));
    QCOMPARE(d.featureNames.size(), size_t(7));
    QCOMPARE(d.featureNames.back(), std::string("x7"));
    d = generate("sphere", 40, 1, {{"dim", "2"}});
    QCOMPARE(d.featureNames, (std::vector<std::string>{"x", "y"}));
}

void TestGenerators::reproducible_data()
{
    shapesAndLabels_data();
}

void TestGenerators::reproducible()
{
    QFETCH(QString, id);
    const std::string gid = id.toStdString();
    const ParamAssignments params = {{"outliers", "0.15"}};
    const Dataset a = generate(gid, 500, 12345, params);
    const Dataset b = generate(gid, 500, 12345, params);
    QVERIFY(bitIdentical(a.X, b.X));
    QVERIFY(bitIdentical(a.labels, b.labels));
    QCOMPARE(a.source, b.source);

    const Dataset c = generate(gid, 500, 12346, params);
    QVERIFY(!bitIdentical(a.X, c.X));
    // The labels depend only on n and the parameters.
    QVERIFY(bitIdentical(a.labels, c.labels));

    // Also without noise and without outliers a new seed changes the sample.
    const Dataset e = generate(gid, 100, 1, {{"outliers", "0"}});
    const Dataset f = generate(gid, 100, 2, {{"outliers", "0"}});
    QVERIFY(!bitIdentical(e.X, f.X));
}

void TestGenerators::outlierFraction_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("fraction");
    for (const auto& g : generators()) {
        if (g.id == "classes") // background points are singleton classes, not label 1: tested in TestUaJb
            continue;
        const QByteArray name = QByteArray::fromStdString(g.id);
        QTest::newRow(name + " 201 0.25") << QString::fromStdString(g.id) << 201 << 0.25;
        QTest::newRow(name + " 1000 0.1") << QString::fromStdString(g.id) << 1000 << 0.1;
        QTest::newRow(name + " 33 0.9") << QString::fromStdString(g.id) << 33 << 0.9;
        QTest::newRow(name + " 7 0.5") << QString::fromStdString(g.id) << 7 << 0.5;
        QTest::newRow(name + " 50 0") << QString::fromStdString(g.id) << 50 << 0.0;
    }
}

void TestGenerators::outlierFraction()
{
    QFETCH(QString, id);
    QFETCH(int, n);
    QFETCH(double, fraction);
    const std::string gid = id.toStdString();
    ParamAssignments params = noFar(gid);
    params.emplace_back("outliers", QString::number(fraction, 'g', 17).toStdString());
    const Dataset d = generate(gid, n, 99, params);
    QCOMPARE(d.rows(), Eigen::Index(n));
    const int expected = static_cast<int>(std::llround(fraction * n));
    QCOMPARE(countOnes(d), expected);
    QCOMPARE(d.outlierFlags().sum(), expected);

    // Bounding box of the inliers, enlarged by 10 % of its size per side.
    const Eigen::Index p = d.cols();
    Eigen::RowVectorXd lo = Eigen::RowVectorXd::Constant(p, std::numeric_limits<double>::infinity());
    Eigen::RowVectorXd hi = -lo;
    for (Eigen::Index i = 0; i < n; ++i)
        if (d.labels(i) == 0.0) {
            lo = lo.cwiseMin(d.X.row(i));
            hi = hi.cwiseMax(d.X.row(i));
        }
    const Eigen::RowVectorXd margin = 0.1 * (hi - lo);
    lo -= margin;
    hi += margin;
    for (Eigen::Index i = 0; i < n; ++i) {
        if (d.labels(i) != 1.0)
            continue;
        for (Eigen::Index j = 0; j < p; ++j) {
            QVERIFY2(d.X(i, j) >= lo(j) && d.X(i, j) <= hi(j),
                     qPrintable(QStringLiteral("row %1 col %2: %3 outside [%4, %5]")
                                    .arg(i).arg(j).arg(d.X(i, j)).arg(lo(j)).arg(hi(j))));
        }
    }

    // With enough outliers, they really spread over the box (not all on the shape).
    if (expected >= 50) {
        for (Eigen::Index j = 0; j < p; ++j) {
            double omin = std::numeric_limits<double>::infinity(), omax = -omin;
            for (Eigen::Index i = 0; i < n; ++i)
                if (d.labels(i) == 1.0) {
                    omin = std::min(omin, d.X(i, j));
                    omax = std::max(omax, d.X(i, j));
                }
            QVERIFY(omax - omin > 0.5 * (hi(j) - lo(j)));
        }
    }
}

void TestGenerators::tinySampleCounts()
{
    for (const auto& g : generators()) {
        for (int n : {1, 2, 3}) {
            const Dataset d = generate(g.id, n, 5, {{"outliers", "0.9"}});
            QCOMPARE(d.rows(), Eigen::Index(n));
            QVERIFY(d.X.allFinite());
            // At least one sample stays on the shape so that the bounding box exists.
            QVERIFY(d.outlierFlags().sum() <= n - 1);
            QVERIFY(d.outlierFlags().sum() >= 0);
        }
    }
    // A single seam sample cannot be both the curve and its far outlier: it stays on the curve.
    const Dataset s = generate("seam", 1, 5, {{"noise", "0"}});
    QCOMPARE(s.labels(0), 0.0);
    QVERIFY(std::abs(s.X.row(0).norm() - 1.0) < 1e-12);
}

void TestGenerators::blobsCentres()
{
    // std = 0: every sample sits on its centre; sample i belongs to centre i mod k.
    const int k = 4;
    const double spread = 3.0;
    const Dataset d = generate("blobs", 40, 11,
                               {{"centers", std::to_string(k)}, {"std", "0"}, {"spread", "3"}, {"dim", "3"}});
    for (Eigen::Index i = 0; i < d.rows(); ++i) {
        QVERIFY(d.X.row(i) == d.X.row(i % k));
        QVERIFY(d.X.row(i).cwiseAbs().maxCoeff() <= spread);
    }
    for (int a = 0; a < k; ++a)
        for (int b = a + 1; b < k; ++b)
            QVERIFY(d.X.row(a) != d.X.row(b));

    // With noise the per-centre sample spread matches std roughly.
    const Dataset e = generate("blobs", 30000, 3, {{"centers", "3"}, {"std", "0.5"}});
    for (int c = 0; c < 3; ++c) {
        Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(2);
        int m = 0;
        for (Eigen::Index i = c; i < e.rows(); i += 3, ++m)
            mean += e.X.row(i);
        mean /= m;
        double var = 0.0;
        for (Eigen::Index i = c; i < e.rows(); i += 3)
            var += (e.X.row(i) - mean).squaredNorm();
        var /= 2.0 * m;
        QVERIFY2(std::abs(std::sqrt(var) - 0.5) < 0.02, qPrintable(QString::number(std::sqrt(var))));
    }
}

void TestGenerators::moonsOnHalfCircles()
{
    const int n = 301;
    const Dataset d = generate("moons", n, 4, {{"noise", "0"}});
    const int outer = n / 2;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double x = d.X(i, 0), y = d.X(i, 1);
        if (i < outer) {
            QVERIFY(std::abs(x * x + y * y - 1.0) < 1e-12);
            QVERIFY(y >= 0.0);
        } else {
            QVERIFY(std::abs((x - 1.0) * (x - 1.0) + (y - 0.5) * (y - 0.5) - 1.0) < 1e-12);
            QVERIFY(y <= 0.5);
        }
    }
}

void TestGenerators::ringRadii()
{
    const double radius = 2.0, width = 0.4;
    const Dataset d = generate("ring", 2000, 8, {{"radius", "2"}, {"width", "0.4"}});
    double rmin = 1e300, rmax = 0;
    for (Eigen::Index i = 0; i < d.rows(); ++i) {
        const double r = d.X.row(i).norm();
        QVERIFY(r >= radius - width / 2 - 1e-12);
        QVERIFY(r <= radius + width / 2 + 1e-12);
        rmin = std::min(rmin, r);
        rmax = std::max(rmax, r);
    }
    // The annulus is filled, not just its centre circle.
    QVERIFY(rmin < radius - 0.4 * width);
    QVERIFY(rmax > radius + 0.4 * width);

    // Default: radius 1, width 0.1.
    const Dataset e = generate("ring", 500, 8);
    for (Eigen::Index i = 0; i < e.rows(); ++i) {
        const double r = e.X.row(i).norm();
        QVERIFY(r >= 0.95 - 1e-12 && r <= 1.05 + 1e-12);
    }
}

void TestGenerators::seamIdentities()
{
    // Quadrics paper eq. 18-19:  x = a cos t + b cos 3t,  y = a sin t − b sin 3t,  z = 2√(ab) sin 2t.
    // Write c = cos t, s = sin t, k = a − 3b. With cos 3t = 4c³ − 3c and sin 3t = 3s − 4s³:
    //   x = c (k + 4b c²),   y = s (k + 4b s²),   z = 4√(ab) s c   ⇒   s c = z / (4√(ab)).
    //
    // (1) Sphere (a quadric):
    //   x² + y² = a² + b² + 2ab (cos t cos 3t − sin t sin 3t) = a² + b² + 2ab cos 4t,
    //   z²      = 4ab sin² 2t = 2ab (1 − cos 4t),
    //   ⇒ x² + y² + z² = (a + b)².
    //
    // (2) Cubic:  x y = s c (k + 4b c²)(k + 4b s²) = s c (k² + 4bk (c² + s²) + 16b² s² c²)
    //                 = s c (k (k + 4b) + 16b² s² c²),  and k + 4b = a + b, 16b² s²c² = b z² / a:
    //   ⇒ 4√(ab) x y = z ((a − 3b)(a + b) + b z² / a).
    //
    // (3) Quartic:  x² − y² = k² (c² − s²) + 8bk (c⁴ − s⁴) + 16b² (c⁶ − s⁶)
    //   with c⁴ − s⁴ = c² − s² and c⁶ − s⁶ = (c² − s²)(1 − s²c²):
    //   x² − y² = (c² − s²) ((k + 4b)² − 16b² s²c²) = cos 2t ((a + b)² − b z² / a),
    //   and cos² 2t = 1 − sin² 2t = 1 − z² / (4ab):
    //   ⇒ (x² − y²)² = (1 − z² / (4ab)) ((a + b)² − b z² / a)².
    for (const auto& [a, b] : std::vector<std::pair<double, double>>{{0.8, 0.2}, {1.5, 0.5}, {0.6, 0.3}}) {
        const Dataset d = generate("seam", 1000, 21,
                                   {{"a", std::to_string(a)}, {"b", std::to_string(b)},
                                    {"noise", "0"}, {"far_outlier", "false"}});
        QCOMPARE(d.cols(), Eigen::Index(3));
        QCOMPARE(countOnes(d), 0);
        double zmax = 0.0;
        for (Eigen::Index i = 0; i < d.rows(); ++i) {
            const double x = d.X(i, 0), y = d.X(i, 1), z = d.X(i, 2);
            const double sphere = x * x + y * y + z * z - (a + b) * (a + b);
            QVERIFY2(std::abs(sphere) < 1e-12, qPrintable(QString::number(sphere)));
            const double cubic = 4.0 * std::sqrt(a * b) * x * y - z * ((a - 3 * b) * (a + b) + b * z * z / a);
            QVERIFY2(std::abs(cubic) < 1e-12, qPrintable(QString::number(cubic)));
            const double q = (a + b) * (a + b) - b * z * z / a;
            const double quartic = (x * x - y * y) * (x * x - y * y) - (1.0 - z * z / (4 * a * b)) * q * q;
            QVERIFY2(std::abs(quartic) < 1e-12, qPrintable(QString::number(quartic)));
            QVERIFY(std::abs(z) <= 2.0 * std::sqrt(a * b) + 1e-12);
            zmax = std::max(zmax, std::abs(z));
        }
        // t covers the whole period: |z| gets close to its maximum 2√(ab).
        QVERIFY(zmax > 0.99 * 2.0 * std::sqrt(a * b));
    }

    // Defaults a = 0.8, b = 0.2 with noise: points are near, not on, the unit sphere.
    const Dataset noisy = generate("seam", 500, 2, {{"far_outlier", "false"}});
    double maxDev = 0.0;
    for (Eigen::Index i = 0; i < noisy.rows(); ++i)
        maxDev = std::max(maxDev, std::abs(noisy.X.row(i).norm() - 1.0));
    QVERIFY(maxDev > 1e-3);
    QVERIFY(maxDev < 0.2);
}

void TestGenerators::seamFarOutlier()
{
    const int n = 100;
    const Dataset d = generate("seam", n, 17, {{"noise", "0"}});
    QCOMPARE(countOnes(d), 1);
    QCOMPARE(d.labels(n - 1), 1.0);
    // a + b = 1: curve points have norm 1, the far outlier twice that.
    for (Eigen::Index i = 0; i < n - 1; ++i)
        QVERIFY(std::abs(d.X.row(i).norm() - 1.0) < 1e-12);
    QVERIFY(std::abs(d.X.row(n - 1).norm() - 2.0) < 1e-12);
    // Half of it is a point on the curve: the cubic identity holds for X/2.
    const double a = 0.8, b = 0.2;
    const Eigen::RowVectorXd h = 0.5 * d.X.row(n - 1);
    const double cubic = 4.0 * std::sqrt(a * b) * h(0) * h(1)
        - h(2) * ((a - 3 * b) * (a + b) + b * h(2) * h(2) / a);
    QVERIFY(std::abs(cubic) < 1e-12);

    // Together with background outliers: the far outlier is still the last row.
    const Dataset e = generate("seam", 200, 17, {{"outliers", "0.1"}});
    QCOMPARE(countOnes(e), 21);
    QCOMPARE(e.labels(199), 1.0);
}

void TestGenerators::sphereNorms()
{
    for (const auto& [dim, radius] : std::vector<std::pair<int, double>>{{3, 1.0}, {2, 2.5}, {6, 0.7}}) {
        const Dataset d = generate("sphere", 400, 31,
                                   {{"dim", std::to_string(dim)}, {"radius", std::to_string(radius)},
                                    {"noise", "0"}});
        QCOMPARE(d.cols(), Eigen::Index(dim));
        for (Eigen::Index i = 0; i < d.rows(); ++i)
            QVERIFY(std::abs(d.X.row(i).norm() - radius) < 1e-12);
        // Roughly uniform: the mean is near the centre.
        QVERIFY(d.X.colwise().mean().norm() < 0.2 * radius);
    }
}

void TestGenerators::torusIdentity()
{
    const double R = 1.5, r = 0.4;
    const Dataset d = generate("torus", 800, 41, {{"R", "1.5"}, {"r", "0.4"}});
    for (Eigen::Index i = 0; i < d.rows(); ++i) {
        const double x = d.X(i, 0), y = d.X(i, 1), z = d.X(i, 2);
        const double rho = std::sqrt(x * x + y * y) - R;
        QVERIFY(std::abs(rho * rho + z * z - r * r) < 1e-12);
    }
    // Defaults R = 1, r = 0.3.
    const Dataset e = generate("torus", 200, 41);
    for (Eigen::Index i = 0; i < e.rows(); ++i) {
        const double rho = std::hypot(e.X(i, 0), e.X(i, 1)) - 1.0;
        QVERIFY(std::abs(rho * rho + e.X(i, 2) * e.X(i, 2) - 0.09) < 1e-12);
    }
}

void TestGenerators::swissrollRanges()
{
    // t = 1.5π (1 + 2u) ∈ [1.5π, 4.5π),  x = t cos t,  y = 21 v ∈ [0, 21),  z = t sin t.
    const Dataset d = generate("swissroll", 2000, 51);
    for (Eigen::Index i = 0; i < d.rows(); ++i) {
        const double x = d.X(i, 0), y = d.X(i, 1), z = d.X(i, 2);
        const double t = std::hypot(x, z); // = |t| = t
        QVERIFY(t >= 1.5 * kPi - 1e-12 && t <= 4.5 * kPi + 1e-12);
        QVERIFY(std::abs(x - t * std::cos(t)) < 1e-9);
        QVERIFY(std::abs(z - t * std::sin(t)) < 1e-9);
        QVERIFY(y >= 0.0 && y < 21.0);
    }
    QVERIFY(d.X.col(1).maxCoeff() > 20.0);
    QVERIFY(d.X.col(1).minCoeff() < 1.0);
}

void TestGenerators::scurveRanges()
{
    // t = 3π (u − 0.5) ∈ [−1.5π, 1.5π),  x = sin t,  y = 2v ∈ [0, 2),  z = sign(t)(cos t − 1) ∈ [−2, 2].
    // Since cos t − 1 ≤ 0: |z| = 1 − cos t, hence x² + (1 − |z|)² = sin² t + cos² t = 1,
    // and z ≤ 0 for t > 0, z ≥ 0 for t < 0.
    const Dataset d = generate("scurve", 2000, 61);
    bool pos = false, neg = false;
    for (Eigen::Index i = 0; i < d.rows(); ++i) {
        const double x = d.X(i, 0), y = d.X(i, 1), z = d.X(i, 2);
        QVERIFY(x >= -1.0 && x <= 1.0);
        QVERIFY(y >= 0.0 && y < 2.0);
        QVERIFY(z >= -2.0 && z <= 2.0);
        QVERIFY(std::abs(x * x + (1.0 - std::abs(z)) * (1.0 - std::abs(z)) - 1.0) < 1e-12);
        pos = pos || z > 1.0;
        neg = neg || z < -1.0;
    }
    QVERIFY(pos && neg);
}

void TestGenerators::errors()
{
    VERIFY_PARAM_ERROR(generatorInfo("nope"), "nope", "available", "moons", "seam");
    VERIFY_PARAM_ERROR(generate("nope", 10, 1), "nope", "available");
    VERIFY_PARAM_ERROR(generate("moons", 0, 1), "moons");
    VERIFY_PARAM_ERROR(generate("moons", -5, 1), "moons");
    VERIFY_PARAM_ERROR(generate("moons", 10'000'001, 1), "moons");
    VERIFY_PARAM_ERROR(generate("moons", 10, 1, {{"bogus", "1"}}), "bogus", "moons");
    VERIFY_PARAM_ERROR(generate("moons", 10, 1, {{"outliers", "0.95"}}), "outliers");
    VERIFY_PARAM_ERROR(generate("ring", 10, 1, {{"outliers", "-0.1"}}), "outliers");
    VERIFY_PARAM_ERROR(generate("moons", 10, 1, {{"noise", "abc"}}), "noise", "abc");
    VERIFY_PARAM_ERROR(generate("moons", 10, 1, {{"noise", "-1"}}), "noise");
    VERIFY_PARAM_ERROR(generate("blobs", 10, 1, {{"dim", "0"}}), "dim");
    VERIFY_PARAM_ERROR(generate("blobs", 10, 1, {{"dim", "51"}}), "dim");
    VERIFY_PARAM_ERROR(generate("blobs", 10, 1, {{"centers", "2.5"}}), "centers");
    VERIFY_PARAM_ERROR(generate("blobs", 10, 1, {{"centers", "0"}}), "centers");
    VERIFY_PARAM_ERROR(generate("seam", 10, 1, {{"far_outlier", "maybe"}}), "far_outlier");
    VERIFY_PARAM_ERROR(generate("ring", 10, 1, {{"width", "3"}}), "width", "ring");
    VERIFY_PARAM_ERROR(generate("sphere", 10, 1, {{"dim", "1"}}), "dim");
    // The upper limit itself is accepted.
    QCOMPARE(generate("moons", 10, 1, {{"outliers", "0.9"}}).outlierFlags().sum(), 9);
}

QTEST_APPLESS_MAIN(TestGenerators)
#include "TestGenerators.moc"
