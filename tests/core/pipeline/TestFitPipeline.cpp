// The Qt-free fit pipeline (core/pipeline) and the thread-safety promise of Detector.h.
#include "base/Errors.h"
#include "base/Stats.h"
#include "data/Generators.h"
#include "data/Normalizer.h"
#include "pipeline/FitDiagnostics.h"
#include "pipeline/DecisionsAt.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <numeric>
#include <thread>

using namespace olens;

class TestFitPipeline : public QObject {
    Q_OBJECT

    static Eigen::MatrixXd blob(int n, int p, std::uint64_t seed)
    {
        return generate("blobs", n, seed, {{"centers", "1"}, {"dim", std::to_string(p)}}).X;
    }

private slots:
    // The Ranking, its filter and the export flag through DecisionsAt: at the detector's own
    // threshold its own decisions (even where they differ from score > threshold, e.g. GODS eq. 23),
    // at any other threshold score > threshold, the threshold itself not flagged.
    void decisionsAtOwnAndUserThresholds()
    {
        FitResult r;
        r.scores = Eigen::Vector4d(0.1, 0.5, 0.9, 0.5);
        r.threshold = 0.5;
        r.outlier = Eigen::Vector4i(0, 1, 0, 0); // the method's own rule, not score > 0.5
        const DecisionsAt own(r, 0.5);
        QVERIFY(!own(0) && own(1) && !own(2) && !own(3));
        const DecisionsAt user(r, 0.4);
        QVERIFY(!user(0) && user(1) && user(2) && user(3));
        const DecisionsAt atScore(r, 0.9);
        QVERIFY(!atScore(2));
        r.outlier.resize(0); // no decisions of its own: score > threshold at its threshold too
        const DecisionsAt none(r, 0.5);
        QVERIFY(!none(1) && none(2));
        QVERIFY(!DecisionsAt()(0)); // no result: nothing flagged
    }

    void fitGivesTheMethodsOwnTrainingScores()
    {
        const Eigen::MatrixXd X = blob(80, 2, 3);
        auto r = fitPipeline(Registry::instance().create("knn", {{"k", "3"}}), Normalizer(Normalization::ZScore), X);
        // kNN training scores exclude the point itself: they differ from scoring the same rows.
        const Eigen::VectorXd rescored = r->detector->score(r->normalizer.transform(X));
        QCOMPARE(r->scores.size(), X.rows());
        QVERIFY((r->scores - r->detector->trainingScores()).norm() == 0.0);
        QVERIFY((r->scores - rescored).norm() > 0.0);
        QCOMPARE(r->outlier.size(), X.rows());
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            QCOMPARE(r->outlier(i), r->scores(i) > r->threshold ? 1 : 0);
        QCOMPARE(r->detectorId, std::string("knn"));
    }

    void aSettingAboveWhatTheDataAllowIsReportedNotSilentlyClamped_data()
    {
        QTest::addColumn<QString>("detector");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("used");
        // 40 rows of 3 features (#51: each of these was limited without a word).
        QTest::newRow("lof k=n") << "lof" << "k" << "40" << 39;
        QTest::newRow("lof k_min>k") << "lof" << "k_min" << "30" << 20; // k = 20 (the default)
        QTest::newRow("kic landmarks") << "kic" << "landmarks" << "1000000" << 40;
        QTest::newRow("ksp sample_size") << "ksp" << "sample_size" << "500" << 40;
        QTest::newRow("inf k_max") << "inf" << "k_max" << "1000" << 32; // 0.8·n
        QTest::newRow("quadrics batch") << "quadrics" << "batch" << "5000" << 40;
        QTest::newRow("quadrics-base dims") << "quadrics-base" << "dims" << "9" << 3;
        QTest::newRow("kods fit_rows") << "kods" << "fit_rows" << "4000" << 40;
        QTest::newRow("iforest psi") << "iforest" << "psi" << "300" << 40; // the default 256 is limited silently, as scikit-learn's "auto"
    }

    void aSettingAboveWhatTheDataAllowIsReportedNotSilentlyClamped()
    {
        QFETCH(QString, detector);
        QFETCH(QString, param);
        QFETCH(QString, value);
        QFETCH(int, used);
        const Eigen::MatrixXd X = blob(40, 3, 8);
        ParamAssignments a{{param.toStdString(), value.toStdString()}};
        if (detector == "quadrics")
            a.push_back({"epochs", "3"});
        auto r = fitPipeline(Registry::instance().create(detector.toStdString(), a), Normalizer(Normalization::ZScore), X);
        // The warning names the parameter, the value set and the value used.
        std::string said;
        for (const FitWarning& w : r->warnings)
            if (w.code == "clamped")
                said += w.message + "\n";
        const std::string expect = param.toStdString() + " = " + value.toStdString() + " is more than these data allow; "
                                   + std::to_string(used) + " was used";
        QVERIFY2(said.find(expect) != std::string::npos, (expect + " | " + said).c_str());
        // The model tells the truth: the value as set, and the value used (Python's params_ and
        // resolved_params_), also after a save and a load.
        QCOMPARE(r->detector->params().text(param.toStdString()), value.toStdString());
        QCOMPARE(r->detector->params().resolvedJson().value(param.toStdString(), -1), used);
        const auto loaded = Registry::instance().load(nlohmann::json::parse(r->detector->toJson().dump()));
        QCOMPARE(loaded->params().resolvedJson().value(param.toStdString(), -1), used);
        QCOMPARE(loaded->params().getInt(param.toStdString()), used);
        QVERIFY(loaded->score(r->normalizer.transform(X)) == r->detector->score(r->normalizer.transform(X)));
        // Within the data's limits: no word.
        auto fine = fitPipeline(Registry::instance().create(detector.toStdString(), detector == "quadrics" ? ParamAssignments{{"epochs", "3"}} : ParamAssignments{}),
                                Normalizer(Normalization::ZScore), X);
        for (const FitWarning& w : fine->warnings)
            QVERIFY2(w.code != "clamped", w.message.c_str());
    }

    void constantScoresAreRefusedNamingTheParameter_data()
    {
        QTest::addColumn<QString>("detector");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");
        QTest::newRow("kods sigma") << "kods" << "sigma" << "1e12";
        QTest::newRow("iforest psi") << "iforest" << "psi" << "2";
    }

    void constantScoresAreRefusedNamingTheParameter()
    {
        // #51: these settings gave every row the same score, with exit 0: a ranking of nothing.
        QFETCH(QString, detector);
        QFETCH(QString, param);
        QFETCH(QString, value);
        const Eigen::MatrixXd X = blob(200, 2, 9);
        try {
            fitPipeline(Registry::instance().create(detector.toStdString(), {{param.toStdString(), value.toStdString()}}),
                        Normalizer(Normalization::ZScore), X);
            QFAIL("constant scores were returned");
        } catch (const DataError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("constant scores") != std::string::npos && m.find(param.toStdString()) != std::string::npos, e.what());
        }
        // Rows that are all the same score alike: that is the truth, not refused.
        const Eigen::MatrixXd same = Eigen::MatrixXd::Ones(30, 2);
        auto r = fitPipeline(Registry::instance().create("knn", {}), Normalizer(Normalization::None), same);
        QCOMPARE(r->scores.maxCoeff(), r->scores.minCoeff());
    }

    void nearlyConstantScoresAreAWarningNotARefusal()
    {
        // ocsvm with gamma = 1e12 puts most of 200 distinct rows at one score: the ranking orders
        // only the rest, which the warning says, naming gamma.
        const Eigen::MatrixXd X = blob(200, 2, 9);
        auto r = fitPipeline(Registry::instance().create("ocsvm", {{"gamma", "1e12"}}), Normalizer(Normalization::ZScore), X);
        std::string said;
        for (const FitWarning& w : r->warnings)
            if (w.code == "constant_scores")
                said = w.message;
        QVERIFY2(said.find("distinct points: the ranking orders only the other") != std::string::npos
                     && said.find("gamma") != std::string::npos,
                 said.c_str());
        // A grid with outliers (knn defaults): the lattice points tie at the grid step and the outliers
        // do not. That ranking is right; it was refused as constant scores (a regression found in
        // review). It is scored, the outliers first.
        Eigen::MatrixXd grid(3620, 2);
        for (int i = 0; i < 3600; ++i)
            grid.row(i) << i % 60, i / 60;
        for (int i = 0; i < 20; ++i)
            grid.row(3600 + i) << 70.0 + 3.7 * i, -15.0 - 2.3 * i;
        auto g = fitPipeline(Registry::instance().create("knn", {}), Normalizer(Normalization::None), grid);
        for (int i = 0; i < 20; ++i)
            QVERIFY(g->scores(3600 + i) > g->scores.head(3600).maxCoeff());
    }

    void explainRowMatchesTheEagerExplanations()
    {
        // Above kEagerExplanationRows the GUI explains the point under the cursor alone; for knn that
        // must read as the fit's own explanation of the row (the point itself skipped), z-scored data.
        const Dataset d = generate("blobs", 150, 3, {{"outliers", "0.05"}});
        auto r = fitPipeline(Registry::instance().create("knn"), Normalizer(Normalization::ZScore), d.X);
        QCOMPARE(static_cast<Eigen::Index>(r->explanations.size()), d.X.rows());
        for (Eigen::Index i = 0; i < d.X.rows(); ++i)
            QCOMPARE(explainRow(*r, d.X, i), r->explanations[static_cast<std::size_t>(i)]);
        QCOMPARE(explainRow(*r, d.X, d.X.rows()), std::string()); // out of range: nothing
        FitOptions lazy;
        lazy.explanations = false;
        QVERIFY(fitPipeline(Registry::instance().create("knn"), Normalizer(Normalization::ZScore), d.X, lazy)
                    ->explanations.empty());
    }

    void restoredModelRescoresMovedPoints()
    {
        // Regression (issue 15): a session reused the stored training scores whenever the row count
        // matched, so a point moved after training came back with its old score.
        const Eigen::MatrixXd X = blob(60, 2, 4);
        auto fitted = fitPipeline(Registry::instance().create("knn", {{"k", "3"}}), Normalizer(Normalization::None), X);
        // As a session restores it.
        std::shared_ptr<const Detector> restored = Registry::instance().load(fitted->detector->toJson());

        const auto same = resultForRows(restored, fitted->normalizer, X);
        QVERIFY((same->scores - fitted->scores).norm() == 0.0); // the training data: stored scores

        Eigen::MatrixXd moved = X;
        moved.row(7) << 50.0, -50.0; // far away from everything
        const auto after = resultForRows(restored, fitted->normalizer, moved);
        const double expected = restored->score(moved.row(7))(0); // distance to its 3rd neighbour
        QCOMPARE(after->scores(7), expected);
        QVERIFY(after->scores(7) > 10.0 * fitted->scores.maxCoeff());
        QCOMPARE(after->outlier(7), 1);
    }

    void rescoreAfterEditKeepsUnmovedRows()
    {
        const Eigen::MatrixXd X = blob(40, 2, 5);
        FitOptions ranked;
        ranked.ranking = true;
        auto r = fitPipeline(Registry::instance().create("knn", {{"k", "2"}}), Normalizer(Normalization::None), X, ranked);
        QVERIFY(fitPipeline(Registry::instance().create("knn", {{"k", "2"}}), Normalizer(Normalization::None), X)->ranking.empty());
        Eigen::MatrixXd Y(41, 2);
        Y.topRows(40) = X;
        Y.row(40) << 9.0, 9.0;
        std::vector<int> keep(41);
        for (int i = 0; i < 40; ++i)
            keep[static_cast<std::size_t>(i)] = i;
        keep[40] = -1;
        const auto e = rescoreAfterEdit(*r, Y, keep);
        QVERIFY((e->scores.head(40) - r->scores).norm() == 0.0);
        QCOMPARE(e->scores(40), r->detector->score(Y.row(40))(0));
        // The ranking travels with the scores: recomputed, not copied (the far point added ranks first).
        QCOMPARE(r->ranking, rankByScore(r->scores));
        QCOMPARE(e->ranking, rankByScore(e->scores));
        QCOMPARE(e->ranking.front(), 40);
        // A moved point (same number of rows): the old order would be wrong.
        Eigen::MatrixXd Z = X;
        const int last = r->ranking.back(); // the most inlying row, moved far out
        Z.row(last) << 20.0, 20.0;
        std::vector<int> same(40);
        std::iota(same.begin(), same.end(), 0);
        same[static_cast<std::size_t>(last)] = -1;
        const auto moved = rescoreAfterEdit(*r, Z, same);
        QCOMPARE(moved->ranking.front(), last);
    }

    void recutFollowsTheHistoryWithoutRetraining()
    {
        const Eigen::MatrixXd X = generate("swissroll", 400, 1).X;
        auto r = fitPipeline(Registry::instance().create("acdt", {{"L", "12"}}), Normalizer(Normalization::None), X);
        const ClusterCut* cut = r->detector->clusterCut();
        QVERIFY(cut);
        QCOMPARE(cut->clusterCount(), 12);
        const auto r5 = recutResult(*r, X, 5);
        QCOMPARE(r5->detector->clusterCut()->clusterCount(), 5);
        // Same model as fitting with L = 5 from scratch (the greedy merging is deterministic).
        auto direct = fitPipeline(Registry::instance().create("acdt", {{"L", "5"}}), Normalizer(Normalization::None), X);
        QVERIFY((r5->scores - direct->scores).norm() < 1e-12);
        QCOMPARE(r5->threshold, direct->threshold);
        QCOMPARE(r5->geometry.flats.size(), direct->geometry.flats.size());
        // Non-clustering results refuse.
        auto k = fitPipeline(Registry::instance().create("knn"), Normalizer(Normalization::None), X);
        QVERIFY(!k->detector->clusterCut());
        QVERIFY_THROWS_EXCEPTION(ParamError, recutResult(*k, X, 3));
    }

    void calibrationRefreshesTrainingScores()
    {
        const Eigen::MatrixXd X = blob(100, 2, 6);
        const Dataset V = generate("blobs", 60, 7, {{"centers", "1"}, {"outliers", "0.25"}});
        FitOptions o;
        o.calibrationX = V.X;
        o.calibrationOutlier = V.outlierFlags();
        auto plain = fitPipeline(Registry::instance().create("gods", {{"K", "1"}}), Normalizer(Normalization::None), X);
        auto cal = fitPipeline(Registry::instance().create("gods", {{"K", "1"}}), Normalizer(Normalization::None), X, o);
        QVERIFY(cal->calibration);
        const double shift = cal->calibration->thresholdAfter - cal->calibration->thresholdBefore;
        QVERIFY(std::abs(shift) > 1e-9);
        // The stored training scores follow the calibrated eta (GODS scores shift by Δη).
        QVERIFY(((cal->scores - plain->scores).array() - shift).abs().maxCoeff() < 1e-9);
        QVERIFY((cal->scores - cal->detector->score(cal->normalizer.transform(X))).norm() < 1e-9);
        // Detectors without the capability refuse calibration.
        QVERIFY_THROWS_EXCEPTION(ParamError,
                                 fitPipeline(Registry::instance().create("knn"), Normalizer(Normalization::None), X, o));
    }

    void fitOnAPartEqualsAFitOnThatPartAlone_data()
    {
        QTest::addColumn<QString>("id");
        for (const auto& info : Registry::instance().detectors())
            QTest::newRow(info.id.c_str()) << QString::fromStdString(info.id);
    }

    void fitOnAPartEqualsAFitOnThatPartAlone()
    {
        // Fit on the inliers, score all (GODS paper's one-class protocol). Independent check: a
        // separate fit on a matrix holding only the inlier rows; its training scores must be the
        // inliers' scores and its score() of the outlier rows theirs, to 1e-12. The z-score
        // normaliser must be the inliers' too (fitted on the training rows, applied to all).
        QFETCH(QString, id);
        const Dataset d = generate("blobs", 150, 11, {{"centers", "2"}, {"dim", "3"}, {"outliers", "0.1"}});
        std::vector<int> inliers, others;
        for (Eigen::Index i = 0; i < d.rows(); ++i)
            (d.labels(i) == 0.0 ? inliers : others).push_back(static_cast<int>(i));
        QVERIFY(!others.empty());
        Eigen::MatrixXd Xin(static_cast<Eigen::Index>(inliers.size()), d.cols());
        Eigen::MatrixXd Xout(static_cast<Eigen::Index>(others.size()), d.cols());
        for (std::size_t j = 0; j < inliers.size(); ++j) Xin.row(static_cast<Eigen::Index>(j)) = d.X.row(inliers[j]);
        for (std::size_t j = 0; j < others.size(); ++j) Xout.row(static_cast<Eigen::Index>(j)) = d.X.row(others[j]);

        FitOptions o;
        o.trainingRows = inliers;
        const auto part = fitPipeline(Registry::instance().create(id.toStdString()), Normalizer(Normalization::ZScore), d.X, o);
        const auto alone = fitPipeline(Registry::instance().create(id.toStdString()), Normalizer(Normalization::ZScore), Xin);
        QCOMPARE(part->scores.size(), d.rows());
        QCOMPARE(part->outlier.size(), d.rows());
        QCOMPARE(part->trainingRows, inliers);
        const Eigen::VectorXd outScores = alone->detector->score(alone->normalizer.transform(Xout));
        const Eigen::VectorXi outFlags = alone->detector->isOutlier(alone->normalizer.transform(Xout));
        double worst = 0.0;
        for (std::size_t j = 0; j < inliers.size(); ++j) {
            worst = std::max(worst, std::abs(part->scores(inliers[j]) - alone->scores(static_cast<Eigen::Index>(j))));
            QCOMPARE(part->outlier(inliers[j]), alone->outlier(static_cast<Eigen::Index>(j)));
        }
        for (std::size_t j = 0; j < others.size(); ++j) {
            worst = std::max(worst, std::abs(part->scores(others[j]) - outScores(static_cast<Eigen::Index>(j))));
            QCOMPARE(part->outlier(others[j]), outFlags(static_cast<Eigen::Index>(j)));
        }
        QVERIFY2(worst <= 1e-12, qPrintable(id + ": " + QString::number(worst)));
        QCOMPARE(part->threshold, alone->threshold);
        if (!part->explanations.empty())
            QCOMPARE(part->explanations.size(), std::size_t(d.rows()));
    }

    void fitOnAPartScoresHeldOutRowsAsNewData()
    {
        // kNN: a training row's score excludes the row itself, a held-out row's counts every
        // training row (checked by brute force: the k-th smallest distance to the training rows).
        const Eigen::MatrixXd X = blob(60, 2, 12);
        std::vector<int> rows;
        for (int i = 0; i < 60; i += 2)
            rows.push_back(i);
        FitOptions o;
        o.trainingRows = rows;
        const auto r = fitPipeline(Registry::instance().create("knn", {{"k", "3"}}), Normalizer(Normalization::None), X, o);
        for (int i = 0; i < 60; ++i) {
            std::vector<double> dist;
            for (int t : rows)
                if (t != i)
                    dist.push_back((X.row(i) - X.row(t)).norm());
            std::sort(dist.begin(), dist.end());
            QVERIFY(std::abs(r->scores(i) - dist[2]) < 1e-12);
        }
        // A session restores the same: the stored training scores for the training rows.
        std::shared_ptr<const Detector> restored = Registry::instance().load(r->detector->toJson());
        const auto back = resultForRows(restored, r->normalizer, X, false, r->trainingRows);
        QVERIFY((back->scores - r->scores).norm() == 0.0);
        QCOMPARE(back->trainingRows, rows);
        // Without the rows, every row is scored as new data (training rows then include themselves).
        const auto plain = resultForRows(restored, r->normalizer, X, false);
        QCOMPARE(plain->scores(0), restored->score(X.row(0))(0));
        QVERIFY(plain->scores(0) != r->scores(0));
        // An edit keeps the training marks of the rows kept; the new row is not a training row.
        Eigen::MatrixXd Y(61, 2);
        Y.topRows(60) = X;
        Y.row(60) << 5.0, 5.0;
        std::vector<int> keep(61);
        for (int i = 0; i < 60; ++i)
            keep[static_cast<std::size_t>(i)] = i;
        keep[60] = -1;
        QCOMPARE(rescoreAfterEdit(*r, Y, keep)->trainingRows, rows);
        // Rows that are not sorted, distinct indices of the data are refused.
        o.trainingRows = {3, 1};
        QVERIFY_THROWS_EXCEPTION(DataError, fitPipeline(Registry::instance().create("knn"), Normalizer(), X, o));
        o.trainingRows = {1, 60};
        QVERIFY_THROWS_EXCEPTION(DataError, fitPipeline(Registry::instance().create("knn"), Normalizer(), X, o));
    }

    void fittedDetectorsScoreConcurrently_data()
    {
        QTest::addColumn<QString>("id");
        for (const auto& info : Registry::instance().detectors())
            QTest::newRow(info.id.c_str()) << QString::fromStdString(info.id);
    }

    void fittedDetectorsScoreConcurrently()
    {
        // Detector.h: a fitted detector's const methods may be called from several threads at once.
        // Four threads score and explain the same rows; each must equal the serial result exactly.
        QFETCH(QString, id);
        const Eigen::MatrixXd X = blob(150, 4, 8);
        const Eigen::MatrixXd Q = blob(64, 4, 9) * 1.5;
        std::shared_ptr<Detector> d = Registry::instance().create(id.toStdString());
        try {
            d->fit(X);
        } catch (const std::exception& e) {
            QFAIL(qPrintable(id + " cannot fit 150×4 blob data with its defaults: " + e.what()));
        }
        const Eigen::VectorXd serial = d->score(Q);
        const auto serialWhy = d->explain(Q);
        std::vector<Eigen::VectorXd> got(4);
        std::vector<std::vector<std::string>> why(4);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int rep = 0; rep < 3; ++rep) {
                    got[static_cast<std::size_t>(t)] = d->score(Q);
                    why[static_cast<std::size_t>(t)] = d->explain(Q);
                    (void)d->geometry();
                }
            });
        for (auto& th : threads)
            th.join();
        for (int t = 0; t < 4; ++t) {
            QVERIFY2((got[static_cast<std::size_t>(t)] - serial).norm() == 0.0, qPrintable(id));
            QVERIFY(why[static_cast<std::size_t>(t)] == serialWhy);
        }
    }
};

QTEST_APPLESS_MAIN(TestFitPipeline)
#include "TestFitPipeline.moc"
