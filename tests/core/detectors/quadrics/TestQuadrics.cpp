// Quadric hypersurface intersection (quadrics paper): analytic gradients of the Q-FULL loss against
// central finite differences, the HS inner product and its invariance (eq. 12, 36), the 2-distance
// (eq. 8, 9, 10), exact Q-BASE on data lying on a known quadric (App. A.1), equivariance of Q-FULL and
// the documented non-equivariance of Q-BASE (App. A.3), the seam-curve toy example (sec. 5.1), the
// similarity robustification (eq. 17), the spectra for choosing m (App. B.4), and the detector contract.
#include "RandomData.h"
#include "similarity/RobustSimilarity.h"
#include "base/Errors.h"
#include "data/Generators.h"
#include "detectors/quadrics/QuadricsDetector.h"
#include "registry/Registry.h"
#include "base/Rng.h"

#include <nlohmann/json.hpp>
#include <QtTest>
#include <type_traits>

#include <cmath>
#include <Eigen/Dense>

using namespace olens;
using olens::test::gaussianMatrix;

namespace {

Eigen::MatrixXd randomOrthogonal(int d, Rng& rng)
{
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussianMatrix(d, d, rng));
    return qr.householderQ();
}

Quadric randomQuadric(int d, Rng& rng)
{
    Quadric q;
    const Eigen::MatrixXd M = gaussianMatrix(d, d, rng);
    q.A = (M + M.transpose()) / 2.0;
    q.b = gaussianMatrix(d, 1, rng);
    q.c = rng.normal();
    return q;
}

/// Central differences of a scalar function of θ.
Eigen::VectorXd numericGradient(const std::function<double(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& theta,
                                double h = 1e-5)
{
    Eigen::VectorXd g(theta.size());
    Eigen::VectorXd t = theta;
    for (Eigen::Index i = 0; i < theta.size(); ++i) {
        t(i) = theta(i) + h;
        const double fp = f(t);
        t(i) = theta(i) - h;
        const double fm = f(t);
        t(i) = theta(i);
        g(i) = (fp - fm) / (2.0 * h);
    }
    return g;
}

/// Largest relative error, component-wise, with a floor for entries that are (nearly) zero.
double relativeError(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    const double scale = std::max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff());
    double worst = 0.0;
    for (Eigen::Index i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a(i) - b(i)) / std::max({std::abs(a(i)), std::abs(b(i)), 1e-3 * scale}));
    return worst;
}

template <class D>
std::unique_ptr<D> fitted(const Eigen::MatrixXd& X, const ParamAssignments& params = {})
{
    ParamSet p(D::info().params, D::info().id);
    // Q-BASE's checks of eq. 7 itself run as in the paper (all features, unweighted), unless a test asks.
    if constexpr (std::is_same_v<D, QuadricsBaseDetector>) {
        p.set("dims", "0");
        p.set("weights", "none");
    }
    p.set(params);
    auto d = std::make_unique<D>(p);
    d->fit(X);
    return d;
}

/// Mean over the rows of X of the mean 2-distance to the quadrics (eq. 16 on given quadrics).
double meanScore(const std::vector<Quadric>& qs, const Eigen::MatrixXd& X)
{
    double total = 0.0;
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        double s = 0.0;
        for (const Quadric& q : qs)
            s += quadricDistance(q, X.row(i).transpose());
        total += s / static_cast<double>(qs.size());
    }
    return total / static_cast<double>(X.rows());
}

double meanRelativeDifference(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    return (a - b).cwiseAbs().mean() / a.cwiseAbs().mean();
}

double correlation(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    const Eigen::VectorXd x = a.array() - a.mean();
    const Eigen::VectorXd y = b.array() - b.mean();
    return x.dot(y) / (x.norm() * y.norm());
}

/// A proper rotation about a fixed axis and a shift: the rigid motion used by the equivariance tests.
Eigen::MatrixXd rigidlyMoved(const Eigen::MatrixXd& X)
{
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.9, Eigen::Vector3d(1, -2, 0.5).normalized()).toRotationMatrix();
    return (X * R.transpose()).rowwise() + Eigen::RowVector3d(3, -1, 2);
}

} // namespace

class TestQuadrics : public QObject {
    Q_OBJECT

private slots:
    // ---- gradients -------------------------------------------------------------------------------

    void dataTermGradientMatchesFiniteDifferences_data()
    {
        QTest::addColumn<QString>("distance");
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("m");
        QTest::newRow("d2 3D m=2") << "d2" << 3 << 2;
        QTest::newRow("d2 5D m=3") << "d2" << 5 << 3;
        QTest::newRow("d1 3D m=2") << "d1" << 3 << 2;
        QTest::newRow("algebraic 4D m=2") << "algebraic" << 4 << 2;
    }

    void dataTermGradientMatchesFiniteDifferences()
    {
        QFETCH(QString, distance);
        QFETCH(int, dim);
        QFETCH(int, m);
        Rng rng(static_cast<std::uint64_t>(dim * 10 + m));
        const QuadricsObjective obj(dim, m, parseQuadricDistance(distance.toStdString()), 0.0);
        const Eigen::VectorXd theta = gaussianMatrix(obj.parameterCount(), 1, rng, 0.7);
        const Eigen::MatrixXd P = gaussianMatrix(9, dim, rng);
        Eigen::VectorXd g;
        const double value = obj.dataTerm(theta, P, &g);
        const Eigen::VectorXd num = numericGradient([&](const Eigen::VectorXd& t) { return obj.dataTerm(t, P); }, theta);
        const double err = relativeError(g, num);
        QVERIFY2(err < 1e-5, qPrintable(QString("relative error %1").arg(err)));
        // The value is the batch mean of Σ_k distance, the distances those of quadricDistance.
        Eigen::MatrixXd dist;
        obj.dataTerm(theta, P, nullptr, &dist);
        const std::vector<Quadric> qs = obj.toQuadrics(theta);
        for (Eigen::Index j = 0; j < P.rows(); ++j)
            for (int k = 0; k < m; ++k)
                QVERIFY(std::abs(dist(j, k) - quadricDistance(qs[k], P.row(j).transpose(),
                                                              parseQuadricDistance(distance.toStdString())))
                        < 1e-12);
        QVERIFY(std::abs(value - dist.rowwise().sum().mean()) < 1e-12);
    }

    void mixedPrecisionDataTermAgreesWithDoublePrecision_data()
    {
        dataTermGradientMatchesFiniteDifferences_data();
    }

    void mixedPrecisionDataTermAgreesWithDoublePrecision()
    {
        // Training's minibatch products in 32-bit floats (precision=single): the same value and
        // gradient as the 64-bit data term (itself checked against finite differences above) to
        // float rounding, ~1e-6 relative; not bit for bit (that would mean no float arithmetic).
        QFETCH(QString, distance);
        QFETCH(int, dim);
        QFETCH(int, m);
        Rng rng(static_cast<std::uint64_t>(dim * 10 + m + 1));
        const QuadricsObjective obj(dim, m, parseQuadricDistance(distance.toStdString()), 1.0);
        const Eigen::VectorXd theta = gaussianMatrix(obj.parameterCount(), 1, rng, 0.7);
        const Eigen::MatrixXd P = gaussianMatrix(300, dim, rng);
        const Eigen::MatrixXf Pf = P.cast<float>();
        Eigen::VectorXd g, gf;
        const double value = obj.loss(theta, P, &g);
        const double valueF = obj.loss(theta, Pf, &gf);
        QVERIFY2(std::abs(valueF - value) < 1e-5 * std::abs(value), qPrintable(QString("%1 vs %2").arg(valueF).arg(value)));
        const double err = relativeError(gf, g);
        QVERIFY2(err < 1e-4 && err > 0.0, qPrintable(QString("relative error %1").arg(err)));
        QCOMPARE(obj.dataTerm(theta, Pf), obj.dataTerm(theta, Pf, &gf)); // the value without gradient too
    }

    void orthonormalityPenaltyGradientMatchesFiniteDifferences()
    {
        Rng rng(21);
        const QuadricsObjective obj(4, 3, QuadricDistance::D2, 1.0);
        const Eigen::VectorXd theta = gaussianMatrix(obj.parameterCount(), 1, rng, 0.5);
        Eigen::VectorXd g;
        obj.orthonormalityError(theta, &g);
        const Eigen::VectorXd num
            = numericGradient([&](const Eigen::VectorXd& t) { return obj.orthonormalityError(t); }, theta);
        const double err = relativeError(g, num);
        QVERIFY2(err < 1e-5, qPrintable(QString("relative error %1").arg(err)));
        // The full loss (15) = data term + λ·penalty, gradients included.
        const Eigen::MatrixXd P = gaussianMatrix(6, 4, rng);
        const QuadricsObjective withLambda(4, 3, QuadricDistance::D2, 2.5);
        Eigen::VectorXd gl;
        withLambda.loss(theta, P, &gl);
        const Eigen::VectorXd numl
            = numericGradient([&](const Eigen::VectorXd& t) { return withLambda.loss(t, P); }, theta);
        QVERIFY(relativeError(gl, numl) < 1e-5);
    }

    void penaltyVanishesExactlyOnHsOrthonormalQuadrics()
    {
        // x² − y² and √2·xy (A = [[0, 1/√2], [1/√2, 0]]) and z²: HS-orthonormal (eq. 12), ‖VᵀV − I‖ = 0.
        Quadric a{Eigen::Matrix3d(Eigen::Vector3d(1, -1, 0).asDiagonal()) / std::sqrt(2.0), Eigen::Vector3d(1, 2, 3), 4};
        Quadric b{Eigen::Matrix3d::Zero(), Eigen::Vector3d::Zero(), -1};
        b.A(0, 1) = b.A(1, 0) = 1 / std::sqrt(2.0);
        Quadric c{Eigen::Matrix3d::Zero(), Eigen::Vector3d(0, 0, 1), 0};
        c.A(2, 2) = 1;
        const QuadricsObjective obj(3, 3, QuadricDistance::D2, 1.0);
        const Eigen::VectorXd theta = obj.fromQuadrics({a, b, c});
        QVERIFY(obj.orthonormalityError(theta) < 1e-28);
        // Round trip θ → quadrics → θ.
        const auto back = obj.toQuadrics(theta);
        QVERIFY(back[1].A.isApprox(b.A) && back[0].b.isApprox(a.b) && back[0].c == 4.0);
        QVERIFY((obj.fromQuadrics(back) - theta).norm() < 1e-15);
    }

    // ---- the HS inner product and the distances --------------------------------------------------------

    void hsInnerProductIsInvariantUnderIsometries()
    {
        Rng rng(4);
        for (int trial = 0; trial < 5; ++trial) {
            const int d = 2 + trial;
            const Quadric f = randomQuadric(d, rng), g = randomQuadric(d, rng);
            const Eigen::MatrixXd Q = randomOrthogonal(d, rng);
            const Eigen::VectorXd v = gaussianMatrix(d, 1, rng, 3.0);
            const Quadric ft = composeWithIsometry(f, Q, v), gt = composeWithIsometry(g, Q, v);
            // eq. 36: ⟨f∘θ, g∘θ⟩_HS = ⟨f, g⟩_HS.
            QVERIFY(std::abs(hsInner(ft, gt) - hsInner(f, g)) < 1e-10 * (1 + std::abs(hsInner(f, g))));
            // Sec. 4.3: the HS-weighted coefficient vectors ṽ realise it as a Euclidean inner product.
            const Eigen::VectorXd vf = QuadricsObjective::matrixToHs(f.A), vg = QuadricsObjective::matrixToHs(g.A);
            QVERIFY(std::abs(vf.dot(vg) - hsInner(f, g)) < 1e-12 * (1 + std::abs(hsInner(f, g))));
            // composeWithIsometry is f∘θ: values agree at a random point.
            const Eigen::VectorXd x = gaussianMatrix(d, 1, rng);
            QVERIFY(std::abs(evaluateQuadric(ft, x) - evaluateQuadric(f, Q * x + v)) < 1e-9);
        }
        // The plain coefficient inner product of problem (7) (α_ij of eq. 6, including b and c) is not
        // invariant: ‖v(f)‖ of f = xy changes under a 45° rotation (xy → (x² − y²)/2).
        Quadric xy{Eigen::Matrix2d::Zero(), Eigen::Vector2d::Zero(), 0};
        xy.A(0, 1) = xy.A(1, 0) = 0.5; // α_12 = 1, ‖v‖ = 1
        const double c = std::cos(M_PI / 4), s = std::sin(M_PI / 4);
        const Eigen::Matrix2d R = (Eigen::Matrix2d() << c, -s, s, c).finished();
        const Quadric r = composeWithIsometry(xy, R, Eigen::Vector2d::Zero()); // α = (1/2, 0, −1/2), ‖v‖ = 1/√2
        QVERIFY(std::abs(r.A(0, 0) * r.A(0, 0) + 4 * r.A(0, 1) * r.A(0, 1) + r.A(1, 1) * r.A(1, 1) - 0.5) < 1e-12);
        QVERIFY(std::abs(hsInner(r, r) - hsInner(xy, xy)) < 1e-12);
    }

    void secondOrderDistanceMatchesEquation8AndIsEquivariant()
    {
        Rng rng(8);
        for (int trial = 0; trial < 20; ++trial) {
            const int d = 2 + trial % 4;
            const Quadric f = randomQuadric(d, rng);
            const Eigen::VectorXd p = gaussianMatrix(d, 1, rng);
            // eq. 8 written out: (√(h² + |f|N) − h)/N, h = ‖∇f‖/2, N = ‖f‖_HS.
            const double val = std::abs(evaluateQuadric(f, p));
            const double h = (2 * f.A * p + f.b).norm() / 2, N = std::sqrt(hsInner(f, f));
            const double eq8 = (std::sqrt(h * h + val * N) - h) / N;
            QVERIFY(std::abs(quadricDistance(f, p) - eq8) < 1e-10 * (1 + eq8));
            QVERIFY(std::abs(quadricDistance(f, p, QuadricDistance::D1) - val / (2 * h)) < 1e-12 * (1 + val / h));
            // d2 is a root of c0 + c1 t + c2 t² with c0 = |f|, c1 = −‖∇f‖, c2 = −‖A‖_HS (App. A.4, eq. 28–29).
            const double t = quadricDistance(f, p);
            QVERIFY(std::abs(val - 2 * h * t - N * t * t) < 1e-9 * (1 + val));
            // Invariant under scaling f (it depends on the zero set's equation up to a factor).
            Quadric g = f;
            g.A *= -3.5;
            g.b *= -3.5;
            g.c *= -3.5;
            QVERIFY(std::abs(quadricDistance(g, p) - t) < 1e-10 * (1 + t));
            // eq. 9 (App. A.5): for an isometry θ, d2(p, Z(f∘θ)) = d2(θ(p), Z(f)).
            const Eigen::MatrixXd Q = randomOrthogonal(d, rng);
            const Eigen::VectorXd v = gaussianMatrix(d, 1, rng, 2.0);
            QVERIFY(std::abs(quadricDistance(composeWithIsometry(f, Q, v), p) - quadricDistance(f, Q * p + v))
                    < 1e-9 * (1 + t));
        }
    }

    void secondOrderDistanceIsMajorisedByTheGeometricDistance()
    {
        // eq. 10 on a sphere of radius 2 (geometric distance |‖p‖ − 2|) and on a hyperbolic paraboloid
        // z = xy (distance checked against dense sampling of the surface).
        Quadric sphere{Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero(), -4.0};
        Quadric saddle{Eigen::Matrix3d::Zero(), Eigen::Vector3d(0, 0, -1), 0.0};
        saddle.A(0, 1) = saddle.A(1, 0) = 0.5;
        Rng rng(10);
        for (int i = 0; i < 30; ++i) {
            const Eigen::VectorXd p = gaussianMatrix(3, 1, rng, 1.5);
            const double geo = std::abs(p.norm() - 2.0);
            QVERIFY(quadricDistance(sphere, p) <= geo + 1e-12);
            double best = 1e300;
            for (double x = -6; x <= 6; x += 0.02)
                for (double y = -6; y <= 6; y += 0.02)
                    best = std::min(best, (p - Eigen::Vector3d(x, y, x * y)).squaredNorm());
            QVERIFY(quadricDistance(saddle, p) <= std::sqrt(best) + 1e-9);
        }
        // On the quadric the distance is 0; along the normal of the sphere it is exact to first order.
        QCOMPARE(quadricDistance(sphere, Eigen::Vector3d(0, 2, 0)), 0.0);
        QVERIFY(std::abs(quadricDistance(sphere, Eigen::Vector3d(0, 2.001, 0)) - 0.001) < 2e-6);
    }

    // ---- Q-BASE --------------------------------------------------------------------------------------

    void quadricsBaseRecoversCircleExactly()
    {
        // Points exactly on the circle (x − 0.5)² + (y + 0.3)² = 1.2²: m=1 gives
        // x² + y² − x + 0.6y + 0.25 + 0.09 − 1.44 up to scale (and the centred circle x² + y² − r²).
        for (const auto& [cx, cy] : {std::pair{0.0, 0.0}, std::pair{0.5, -0.3}}) {
            const double r = 1.2;
            Eigen::MatrixXd X(40, 2);
            for (int i = 0; i < 40; ++i) {
                const double t = 2 * M_PI * (i + 0.3 * std::sin(i)) / 40.0;
                X.row(i) << cx + r * std::cos(t), cy + r * std::sin(t);
            }
            auto d = fitted<QuadricsBaseDetector>(X, {{"m", "1"}});
            const Quadric q = d->quadrics().at(0);
            const double k = q.A(0, 0);
            QVERIFY(std::abs(q.A(1, 1) / k - 1.0) < 1e-8);
            QVERIFY(std::abs(q.A(0, 1) / k) < 1e-8);
            QVERIFY(std::abs(q.b(0) / k + 2 * cx) < 1e-8);
            QVERIFY(std::abs(q.b(1) / k + 2 * cy) < 1e-8);
            QVERIFY(std::abs(q.c / k - (cx * cx + cy * cy - r * r)) < 1e-8);
            // v(f) is a unit vector (eq. 7) and the training scores (algebraic) vanish.
            QVERIFY(std::abs(d->coefficients().col(0).norm() - 1.0) < 1e-12);
            QVERIFY(d->trainingScores().cwiseAbs().maxCoeff() < 1e-10);
            // One zero eigenvalue of the moment matrix, the next clearly positive (App. B.4 guidance).
            const Eigen::VectorXd ev = QuadricsDetector::momentSpectrum(X);
            QCOMPARE(ev.size(), Eigen::Index(6));
            QVERIFY(std::abs(ev(0)) < 1e-12 && ev(1) > 1e-3);
            QVERIFY((d->spectrum() - ev).cwiseAbs().maxCoeff() < 1e-12);
            // A point off the circle scores |f|/‖v‖-ish > 0: (cx + 2r, cy) has |f| = 3r² k.
            Eigen::MatrixXd off(1, 2);
            off << cx + 2 * r, cy;
            QVERIFY(std::abs(d->score(off)(0) - std::abs(3 * r * r * k)) < 1e-10);
        }
    }

    void quadricsBaseRecoversSphereExactly()
    {
        Rng rng(12);
        const double r = 0.8;
        Eigen::MatrixXd X(60, 3);
        for (int i = 0; i < 60; ++i) {
            const Eigen::Vector3d g = gaussianMatrix(3, 1, rng);
            X.row(i) = (r * g.normalized()).transpose();
        }
        auto d = fitted<QuadricsBaseDetector>(X, {{"m", "1"}});
        const Quadric q = d->quadrics().at(0);
        const double k = q.A(0, 0);
        QVERIFY((q.A / k - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-8);
        QVERIFY((q.b / k).cwiseAbs().maxCoeff() < 1e-8);
        QVERIFY(std::abs(q.c / k + r * r) < 1e-8);
        QCOMPARE(d->figures().at("quadrics"), 1.0);
        QVERIFY(d->figures().at("final_loss") < 1e-12);
        QVERIFY(d->figures().at("moment_eigenvalue_next") > 1e-4);
    }

    void quadricsBaseIsNotTranslationEquivariant()
    {
        // App. A.3: shifting the cloud by (10, 0) changes the solution of (7) beyond a shift. A noisy
        // ellipse with two quadrics (a conic and a second, spurious one).
        Rng rng(13);
        Eigen::MatrixXd X(80, 2);
        for (int i = 0; i < 80; ++i) {
            const double t = rng.uniform(0, 2 * M_PI);
            X.row(i) << 1.5 * std::cos(t) + 0.1 * rng.normal(), 0.7 * std::sin(t) + 0.1 * rng.normal();
        }
        const Eigen::MatrixXd S = X.rowwise() + Eigen::RowVector2d(10, 0);
        auto a = fitted<QuadricsBaseDetector>(X, {{"m", "1"}});
        auto b = fitted<QuadricsBaseDetector>(S, {{"m", "1"}});
        // Shift the fitted quadric of the moved cloud back: if (7) were equivariant, it would be the
        // original conic up to scale and the scores would be proportional. They are not.
        const Quadric back = composeWithIsometry(b->quadrics()[0], Eigen::Matrix2d::Identity(), Eigen::Vector2d(10, 0));
        const Quadric orig = a->quadrics()[0];
        const double ratio = orig.A.norm() / back.A.norm();
        const double mismatch
            = std::min((orig.A - ratio * back.A).norm(), (orig.A + ratio * back.A).norm()) / orig.A.norm();
        QVERIFY2(mismatch > 0.03, qPrintable(QString::number(mismatch)));
        // Scores (normalised by their mean, the scale of v(f) being arbitrary) change point by point.
        const Eigen::VectorXd sa = a->trainingScores() / a->trainingScores().mean();
        const Eigen::VectorXd sb = b->trainingScores() / b->trainingScores().mean();
        const double corr = correlation(sa, sb);
        QVERIFY2(corr < 0.85, qPrintable(QString::number(corr)));
        QVERIFY2(meanRelativeDifference(sa, sb) > 0.3, qPrintable(QString::number(meanRelativeDifference(sa, sb))));
        // Q-FULL fits in internally centred coordinates, so the same shift changes nothing but rounding
        // (over long runs the non-smooth l1 loss lets rounding differences grow to optimisation noise).
        auto fa = fitted<QuadricsDetector>(X, {{"m", "1"}, {"epochs", "20"}});
        auto fb = fitted<QuadricsDetector>(S, {{"m", "1"}, {"epochs", "20"}});
        const double full = meanRelativeDifference(fa->trainingScores(), fb->trainingScores());
        QVERIFY2(full < 1e-8, qPrintable(QString::number(full)));
    }

    // ---- Q-FULL --------------------------------------------------------------------------------------

    void seamCurveToyExample()
    {
        // Sec. 5.1, fig. 2: 99 noisy points on the tennis-ball seam (a = 0.8, b = 0.2) and one point at
        // twice the norm. Q-FULL (m = p − 1 = 2) ranks the far outlier first; the seam points lie
        // within a few noise levels of the fitted intersection.
        for (int seed : {1, 2, 3}) {
            const Dataset data = generate("seam", 100, static_cast<std::uint64_t>(seed), {{"noise", "0.01"}});
            QCOMPARE(data.labels(99), 1.0);
            auto q = fitted<QuadricsDetector>(data.X);
            const Eigen::VectorXd s = q->trainingScores();
            Eigen::Index top = 0;
            s.maxCoeff(&top);
            QCOMPARE(top, Eigen::Index(99));
            const Eigen::VectorXd seam = s.head(99);
            QVERIFY2(seam.mean() < 0.02, qPrintable(QString::number(seam.mean())));
            QVERIFY(seam.maxCoeff() < 0.06);
            QVERIFY(s(99) > 4 * seam.maxCoeff());
            QCOMPARE(q->quadrics().size(), std::size_t(2));
            QVERIFY(q->figures().at("orthonormality_error") < 1e-2);
            QVERIFY(q->lossHistory().back() < 0.2 * q->lossHistory().front());
            // Q-BASE is pulled by the outlier (fig. 2b): its quadrics pass farther from the seam points
            // than Q-FULL's, and farther than Q-BASE fitted without the outlier.
            auto base = fitted<QuadricsBaseDetector>(data.X);
            auto clean = fitted<QuadricsBaseDetector>(data.X.topRows(99));
            const double full = meanScore(q->quadrics(), data.X.topRows(99));
            const double pulled = meanScore(base->quadrics(), data.X.topRows(99));
            const double unpulled = meanScore(clean->quadrics(), data.X.topRows(99));
            QVERIFY2(pulled > 2 * full, qPrintable(QString("%1 %2").arg(pulled).arg(full)));
            QVERIFY2(pulled > 1.5 * unpulled, qPrintable(QString("%1 %2").arg(pulled).arg(unpulled)));
        }
    }

    void scoresAreTheMeanDistanceToTheReportedQuadrics()
    {
        // Geometry is in the coordinates of the data given to fit: eq. 16 recomputed from it matches.
        const Dataset data = generate("seam", 100, 4, {{"noise", "0.01"}});
        const Eigen::MatrixXd X = data.X * 3.0 + Eigen::MatrixXd::Constant(100, 3, 5.0);
        for (const char* dist : {"d2", "d1", "algebraic"}) {
            auto q = fitted<QuadricsDetector>(X, {{"distance", dist}});
            const auto qs = q->geometry().quadrics;
            QCOMPARE(qs.size(), std::size_t(2));
            for (const Quadric& f : qs)
                QVERIFY(std::abs(hsInner(f, f) - 1.0) < 0.05); // HS-normalised (soft constraint)
            const Eigen::VectorXd s = q->score(X.topRows(10));
            for (Eigen::Index i = 0; i < 10; ++i) {
                double e = 0;
                for (const Quadric& f : qs)
                    e += quadricDistance(f, X.row(i).transpose(), parseQuadricDistance(dist));
                QVERIFY2(std::abs(s(i) - e / 2) < 1e-8 * (1 + std::abs(s(i))), dist);
            }
            QVERIFY((q->trainingScores().head(10) - s).cwiseAbs().maxCoeff() < 1e-9);
        }
    }

    void fittedScoresAreEquivariantUnderRigidMotion()
    {
        // Problem (14) is equivariant (sec. 4.4): fitting the rotated and shifted cloud with the same
        // seed reaches an equally good intersection, so the scores agree up to optimisation noise.
        // Q-BASE under the same motion (App. A.3) fails the same checks by a wide margin.
        const Dataset data = generate("seam", 100, 5, {{"noise", "0.01"}});
        const Eigen::MatrixXd Y = rigidlyMoved(data.X);
        auto a = fitted<QuadricsDetector>(data.X);
        auto b = fitted<QuadricsDetector>(Y);
        const Eigen::VectorXd sa = a->trainingScores(), sb = b->trainingScores();
        const double lossA = a->figures().at("final_loss"), lossB = b->figures().at("final_loss");
        QVERIFY2(std::abs(lossA - lossB) < 0.25 * lossA, qPrintable(QString("%1 %2").arg(lossA).arg(lossB)));
        const double inliers = std::abs(sa.head(99).mean() - sb.head(99).mean()) / sa.head(99).mean();
        QVERIFY2(inliers < 0.2, qPrintable(QString::number(inliers)));
        const double pointwise = meanRelativeDifference(sa.head(99), sb.head(99));
        QVERIFY2(pointwise < 0.5, qPrintable(QString::number(pointwise)));
        QVERIFY(correlation(sa, sb) > 0.95);
        Eigen::Index ta = 0, tb = 0;
        sa.maxCoeff(&ta);
        sb.maxCoeff(&tb);
        QCOMPARE(ta, Eigen::Index(99));
        QCOMPARE(tb, Eigen::Index(99));

        auto ba = fitted<QuadricsBaseDetector>(data.X);
        auto bb = fitted<QuadricsBaseDetector>(Y);
        const double basePointwise = meanRelativeDifference(ba->trainingScores().head(99), bb->trainingScores().head(99));
        QVERIFY2(basePointwise > 0.6, qPrintable(QString::number(basePointwise)));
    }

    void optimisersAndDistancesAreSelectable()
    {
        const Dataset data = generate("seam", 100, 6, {{"noise", "0.01"}});
        for (const auto& params : std::vector<ParamAssignments>{
                 {{"optimizer", "sgd"}, {"lr", "0.05"}, {"epochs", "300"}, {"batch", "16"}},
                 {{"distance", "d1"}},
                 {{"distance", "algebraic"}, {"lambda", "5"}}}) {
            auto q = fitted<QuadricsDetector>(data.X, params);
            Eigen::Index top = 0;
            q->trainingScores().maxCoeff(&top);
            QCOMPARE(top, Eigen::Index(99));
            QVERIFY(q->lossHistory().back() < q->lossHistory().front());
        }
        // Same seed → same model; another seed → another initialisation.
        auto a = fitted<QuadricsDetector>(data.X, {{"epochs", "20"}, {"seed", "3"}});
        auto b = fitted<QuadricsDetector>(data.X, {{"epochs", "20"}, {"seed", "3"}});
        auto c = fitted<QuadricsDetector>(data.X, {{"epochs", "20"}, {"seed", "4"}});
        QCOMPARE(a->trainingScores(), b->trainingScores());
        QVERIFY(a->trainingScores() != c->trainingScores());
        // Both precisions train (single is the default); they follow different roundings.
        auto d = fitted<QuadricsDetector>(data.X, {{"epochs", "20"}, {"seed", "3"}, {"precision", "double"}});
        QVERIFY(a->trainingScores() != d->trainingScores());
        QVERIFY(d->lossHistory().back() < d->lossHistory().front());
        Eigen::Index topD = 0;
        d->trainingScores().maxCoeff(&topD);
        QCOMPARE(topD, Eigen::Index(99));
    }

    void convergenceStopWaitsPatienceEpochs()
    {
        // tol = 1 asks each epoch to improve on the best by 100 %, which none does: training stops
        // after the first epoch plus `patience` epochs without improvement.
        const Dataset data = generate("seam", 100, 6, {{"noise", "0.01"}});
        for (int patience : {1, 3, 7}) {
            auto q = fitted<QuadricsDetector>(data.X, {{"tol", "1"}, {"patience", std::to_string(patience)}});
            QCOMPARE(static_cast<int>(q->lossHistory().size()), 1 + patience);
        }
        auto all = fitted<QuadricsDetector>(data.X, {{"tol", "0"}, {"epochs", "12"}});
        QCOMPARE(static_cast<int>(all->lossHistory().size()), 12);
    }

    // ---- parameters, progress, contract ------------------------------------------------------------

    void numberOfQuadricsAndItsGuidance()
    {
        QCOMPARE(QuadricsDetector::autoQuadrics(1), 1);
        QCOMPARE(QuadricsDetector::autoQuadrics(3), 2);
        QCOMPARE(QuadricsDetector::autoQuadrics(64), 50);
        Rng rng(14);
        const Eigen::MatrixXd X = gaussianMatrix(30, 3, rng);
        // HS-orthonormal quadrics: at most p(p+1)/2 = 6 in 3D; Q-BASE: fewer than D = 10 monomials.
        QVERIFY_THROWS_EXCEPTION(ParamError, fitted<QuadricsDetector>(X, {{"m", "7"}}));
        QVERIFY_THROWS_EXCEPTION(ParamError, fitted<QuadricsBaseDetector>(X, {{"m", "10"}}));
        QCOMPARE(fitted<QuadricsBaseDetector>(X, {{"m", "9"}})->quadrics().size(), std::size_t(9));
        QVERIFY_THROWS_EXCEPTION(ParamError, Registry::instance().create("quadrics", {{"distance", "d3"}}));
        QVERIFY_THROWS_EXCEPTION(ParamError, Registry::instance().create("quadrics", {{"optimizer", "lbfgs"}}));
        // App. B.4: points on a plane in 3D look 2-dimensional: −log λ_3/λ_1 is huge, λ_2 moderate.
        Eigen::MatrixXd plane = gaussianMatrix(50, 3, rng);
        plane.col(2) = 0.5 * plane.col(0) - plane.col(1);
        const Eigen::VectorXd decay = QuadricsDetector::pcaLogDecay(plane);
        QCOMPARE(decay(0), 0.0);
        QVERIFY(decay(1) < 3 && decay(2) > 20);
        // The moment spectrum is ascending and non-negative, of size D = (p² + 3p)/2 + 1.
        const Eigen::VectorXd ev = QuadricsDetector::momentSpectrum(X);
        QCOMPARE(ev.size(), Eigen::Index(10));
        for (Eigen::Index i = 1; i < ev.size(); ++i)
            QVERIFY(ev(i) >= ev(i - 1));
        QVERIFY(ev(0) > -1e-12);
    }

    void progressReportsLossAndSnapshots()
    {
        const Dataset data = generate("seam", 100, 7, {{"noise", "0.01"}});
        auto d = Registry::instance().create("quadrics", {{"epochs", "40"}});
        int withLoss = 0, withSnapshot = 0;
        double lastFraction = -1;
        bool monotone = true;
        d->fit(data.X, [&](const ProgressInfo& info) {
            if (info.loss)
                ++withLoss;
            if (info.snapshot) {
                ++withSnapshot;
                if (info.snapshot->quadrics.size() != 2)
                    monotone = false;
            }
            monotone = monotone && info.fraction >= lastFraction;
            lastFraction = info.fraction;
            return false;
        });
        QVERIFY(monotone);
        QCOMPARE(withLoss, 40); // one loss per epoch
        QVERIFY(withSnapshot >= 1); // throttled, but the final geometry is always sent
        QCOMPARE(lastFraction, 1.0);
    }

    void cancellationKeepsThePreviousModel()
    {
        const Dataset data = generate("seam", 100, 8, {{"noise", "0.01"}});
        auto d = Registry::instance().create("quadrics", {{"epochs", "30"}});
        d->fit(data.X);
        const Eigen::VectorXd before = d->trainingScores();
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, d->fit(rigidlyMoved(data.X), [&](const ProgressInfo&) { return ++calls > 5; }));
        QCOMPARE(d->trainingScores(), before);
        QVERIFY((d->score(data.X.topRows(3)) - before.head(3)).cwiseAbs().maxCoeff() < 1e-12);
    }

    void jsonRoundTripAndGarbledState()
    {
        const Dataset data = generate("seam", 60, 9, {{"noise", "0.01"}});
        for (const char* id : {"quadrics", "quadrics-base"}) {
            auto d = Registry::instance().create(id, {{"m", "2"}});
            d->fit(data.X);
            const nlohmann::json j = nlohmann::json::parse(d->toJson().dump());
            auto e = Registry::instance().load(j);
            QCOMPARE(e->score(data.X), d->score(data.X));
            QCOMPARE(e->geometry().quadrics.size(), std::size_t(2));
            nlohmann::json bad = j;
            bad["state"][std::string(id) == "quadrics" ? "theta" : "coefficients"] = std::vector<double>{1.0, 2.0};
            QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
        }
    }

    void similarityRobustification()
    {
        // eq. 17: s_h(x, y) = s(x, y) if max(o(x), o(y)) < t, else 0.
        QCOMPARE(robustSimilarity(0.8, 0.01, 0.02, 0.033), 0.8);
        QCOMPARE(robustSimilarity(0.8, 0.01, 0.05, 0.033), 0.0);
        QCOMPARE(robustSimilarity(0.8, 0.05, 0.01, 0.033), 0.0);
        QCOMPARE(robustSimilarity(-0.3, 0.033, 0.0, 0.033), 0.0); // the threshold itself counts as outlier
        QCOMPARE(robustSimilarity(-0.3, 0.0, 0.0, 0.033), -0.3);
        const Eigen::VectorXd s = (Eigen::VectorXd(3) << 0.9, 0.5, 0.7).finished();
        const Eigen::VectorXd ox = (Eigen::VectorXd(3) << 0.1, 2.0, 0.1).finished();
        const Eigen::VectorXd oy = (Eigen::VectorXd(3) << 0.2, 0.1, 0.1).finished();
        const Eigen::VectorXd r = robustSimilarity(s, ox, oy, 1.0);
        QCOMPARE(r, (Eigen::VectorXd(3) << 0.9, 0.0, 0.7).finished());
        QVERIFY_THROWS_EXCEPTION(DataError, robustSimilarity(s, ox.head(2), oy, 1.0));
        // With Q-FULL scores on the seam: pairs involving the far outlier are declared dissimilar.
        const Dataset data = generate("seam", 100, 1, {{"noise", "0.01"}});
        auto q = fitted<QuadricsDetector>(data.X);
        const Eigen::VectorXd o = q->trainingScores();
        const double t = q->threshold();
        Eigen::Index best = 0;
        o.minCoeff(&best);
        const double cos = data.X.row(best).normalized().dot(data.X.row(99).normalized());
        QCOMPARE(robustSimilarity(cos, o(best), o(best), t), cos);
        QCOMPARE(robustSimilarity(cos, o(best), o(99), t), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestQuadrics)
#include "TestQuadrics.moc"
