// The recorded training path behind the timeline: the recorder keeps a bounded, dense-at-the-start
// record; the model rebuilt at recorded step k scores exactly like a fit stopped after k steps
// (quadrics: epochs = k, the same seed and minibatch stream; gods/bods: max_iter = k of the same
// conjugate-gradient run) — an independent fit, not the recorded state, is the reference; the last
// step equals the fitted model; the path survives the model's JSON; fitted on a part of the rows,
// the step's result covers every row.
#include "base/Errors.h"
#include "data/Generators.h"
#include "base/Rng.h"
#include "detectors/TrainingHistory.h"
#include "detectors/mcd/McdDetector.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <Eigen/Dense>
#include <nlohmann/json.hpp>

using namespace olens;

namespace {

std::shared_ptr<Detector> make(const std::string& id, const ParamAssignments& a, bool record)
{
    std::shared_ptr<Detector> d = Registry::instance().create(id, a);
    d->setRecordHistory(record);
    return d;
}

double maxDiff(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    return a.size() == b.size() ? (a - b).cwiseAbs().maxCoeff() : INFINITY;
}

} // namespace

class TestTrainingHistory : public QObject {
    Q_OBJECT
private slots:
    void recorderIsBoundedAndDenseAtTheStart()
    {
        HistoryRecorder rec("epoch");
        for (int step = 0; step <= 10000; ++step)
            if (rec.wants(step))
                rec.record(step, 1.0 / (step + 1), {{"x", step}});
        rec.record(10000, 1e-4, {{"x", 10000}}, true);
        const TrainingHistory h = rec.take();
        QVERIFY(h.size() <= HistoryRecorder::kMaxSteps);
        QVERIFY(h.size() >= HistoryRecorder::kMaxSteps / 2);
        for (int s = 0; s <= HistoryRecorder::kDense; ++s) // every early step is there
            QCOMPARE(h.steps[static_cast<std::size_t>(s)].step, s);
        QCOMPARE(h.steps.back().step, 10000);
        for (int i = 1; i < h.size(); ++i)
            QVERIFY(h.steps[static_cast<std::size_t>(i)].step > h.steps[static_cast<std::size_t>(i - 1)].step);
        QCOMPARE(h.indexAtOrBefore(25), h.indexAtOrBefore(25)); // defined
        QCOMPARE(h.steps[static_cast<std::size_t>(h.indexAtOrBefore(7))].step, 7);
        QVERIFY(h.steps[static_cast<std::size_t>(h.indexAtOrBefore(9999))].step <= 9999);
    }

    void recorderKeepsStatesUnderTheMemoryBudget()
    {
        HistoryRecorder rec("iteration");
        const std::vector<double> big(100000, 1.0); // ~1.6 MB a state as JSON nodes: ~10 fit in the budget
        for (int step = 0; step < 100; ++step)
            if (rec.wants(step))
                rec.record(step, 0.0, {{"w", big}});
        rec.record(99, 0.0, {{"w", big}}, true); // the fit's last state is always kept
        QVERIFY(rec.maxSteps() < HistoryRecorder::kMaxSteps);
        const TrainingHistory h = rec.take();
        QVERIFY(h.size() <= rec.maxSteps());
        QVERIFY2(h.bytes <= HistoryRecorder::kBudgetBytes + h.bytes / h.size(), std::to_string(h.bytes).c_str());
        QCOMPARE(h.steps.back().step, 99);
    }

    void quadricsStepEqualsAFitStoppedThere()
    {
        const Eigen::MatrixXd X = generate("seam", 300, 7).X;
        auto full = make("quadrics", {{"epochs", "40"}, {"tol", "0"}}, true);
        full->fit(X);
        const auto h = full->history();
        QVERIFY(h);
        QCOMPARE(QString::fromStdString(h->unit), QString("epoch"));
        QCOMPARE(h->steps.front().step, 0);
        QCOMPARE(h->steps.back().step, 40);
        for (int k : {1, 3, 12}) {
            const int index = h->indexAtOrBefore(k);
            QCOMPARE(h->steps[static_cast<std::size_t>(index)].step, k);
            const auto atK = full->modelAtStep(index, X);
            auto stopped = make("quadrics", {{"epochs", std::to_string(k)}, {"tol", "0"}}, false);
            stopped->fit(X);
            QVERIFY2(maxDiff(atK->score(X), stopped->score(X)) <= 1e-12, std::to_string(k).c_str());
            QVERIFY(maxDiff(atK->trainingScores(), stopped->trainingScores()) <= 1e-12);
            QCOMPARE(atK->threshold(), stopped->threshold());
        }
        // Early steps differ from the end (the fit moves), the last step is the fitted model.
        const auto first = full->modelAtStep(0, X), last = full->modelAtStep(h->size() - 1, X);
        QVERIFY(maxDiff(first->score(X), full->score(X)) > 1e-3);
        QVERIFY(maxDiff(last->score(X), full->score(X)) <= 1e-12);
        QCOMPARE(last->geometry().quadrics.size(), full->geometry().quadrics.size());
        QVERIFY(h->bytes > 0);
    }

    void godsAndBodsStepEqualsAFitStoppedThere()
    {
        const Eigen::MatrixXd X = generate("seam", 200, 3).X;
        for (const std::string id : {"gods", "bods"}) {
            auto full = make(id, {{"max_iter", "30"}}, true);
            full->fit(X);
            const auto h = full->history();
            QVERIFY2(h, id.c_str());
            QCOMPARE(QString::fromStdString(h->unit), QString("iteration"));
            QVERIFY(h->steps.back().step >= 5);
            for (int k : {1, 4}) {
                const int index = h->indexAtOrBefore(k);
                QCOMPARE(h->steps[static_cast<std::size_t>(index)].step, k);
                auto stopped = make(id, {{"max_iter", std::to_string(k)}}, false);
                stopped->fit(X);
                QVERIFY2(maxDiff(full->modelAtStep(index, X)->score(X), stopped->score(X)) <= 1e-10,
                         (id + " step " + std::to_string(k)).c_str());
            }
            QVERIFY(maxDiff(full->modelAtStep(h->size() - 1, X)->score(X), full->score(X)) <= 1e-12);
        }
    }

    void kodsStepEqualsAFitStoppedThere()
    {
        const Eigen::MatrixXd X = generate("seam", 120, 4).X;
        auto full = make("kods", {{"max_iter", "15"}}, true);
        full->fit(X);
        const auto h = full->history();
        QVERIFY(h);
        for (int k : {1, 3}) {
            const int index = h->indexAtOrBefore(k);
            QCOMPARE(h->steps[static_cast<std::size_t>(index)].step, k);
            auto stopped = make("kods", {{"max_iter", std::to_string(k)}}, false);
            stopped->fit(X);
            QVERIFY2(maxDiff(full->modelAtStep(index, X)->score(X), stopped->score(X)) <= 1e-9, std::to_string(k).c_str());
        }
        QVERIFY(maxDiff(full->modelAtStep(h->size() - 1, X)->score(X), full->score(X)) <= 1e-12);
    }

    void acdtMergeStepEqualsAFitWithThatManyClusters()
    {
        // acdt's steps are merges of the dendrogram: after m merges of n points there are n − m
        // clusters, the model an independent fit with L = n − m gives (patch scores follow the flats).
        const Eigen::MatrixXd X = generate("seam", 150, 2).X;
        auto full = make("acdt", {{"L", "3"}, {"score_rule", "patch"}}, true);
        full->fit(X);
        const auto h = full->history();
        QVERIFY(h);
        QCOMPARE(QString::fromStdString(h->unit), QString("merge"));
        QCOMPARE(h->steps.front().step, 150 - 3 - 60); // the last 60 merges, one by one
        QCOMPARE(h->steps.back().step, 150 - 3);
        QCOMPARE(h->size(), 61);
        const int index = h->size() - 5; // 7 clusters
        const int clusters = 150 - h->steps[static_cast<std::size_t>(index)].step;
        QCOMPARE(clusters, 7);
        auto stopped = make("acdt", {{"L", std::to_string(clusters)}, {"score_rule", "patch"}}, false);
        stopped->fit(X);
        const auto atK = full->modelAtStep(index, X);
        QVERIFY(maxDiff(atK->trainingScores(), stopped->trainingScores()) <= 1e-12);
        QVERIFY(maxDiff(atK->score(X), stopped->score(X)) <= 1e-12);
        QCOMPARE(atK->geometry().flats.size(), std::size_t(7));
        QVERIFY(maxDiff(full->modelAtStep(h->size() - 1, X)->trainingScores(), full->trainingScores()) <= 1e-12);
    }

    void mcdStepsAreTheWinningStartsCSteps()
    {
        // mcd has no iteration limit to stop at; the reference is the C-step itself (FastMCD sec. 3),
        // computed here from the previous recorded raw estimate: the h rows of smallest d² give the
        // next raw T and S, det S never rises (theorem 1), and a step's model is the raw estimate
        // made consistent and reweighted (sec. 6), written out below.
        Rng rng(11);
        Eigen::MatrixXd X(230, 3);
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            for (Eigen::Index j = 0; j < X.cols(); ++j)
                X(i, j) = rng.normal() * (j + 1.0) + (i >= 200 ? 9.0 : 0.0); // 30 shifted rows
        auto full = make("mcd", {{"seed", "3"}}, true);
        full->fit(X);
        const auto h = full->history();
        QVERIFY(h);
        QCOMPARE(QString::fromStdString(h->unit), QString("C-step"));
        QVERIFY(h->size() >= 3);
        auto vec = [](const nlohmann::json& j, const char* key) {
            const auto v = j.at(key).get<std::vector<double>>();
            return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size())).eval();
        };
        const nlohmann::json& last = h->steps.back().state;
        const Eigen::VectorXd offset = vec(last, "offset"), scale = vec(last, "scale");
        const Eigen::MatrixXd Z = (X.rowwise() - offset.transpose()).array().rowwise() / scale.transpose().array();
        const int hRows = last.at("h").get<int>();
        QCOMPARE(hRows, (230 + 3 + 2) / 2); // ⌈(n + p + 1)/2⌉
        auto d2 = [&Z](const Eigen::VectorXd& loc, Eigen::MatrixXd cov) {
            const Eigen::MatrixXd C = Z.rowwise() - loc.transpose();
            return (C * cov.inverse()).cwiseProduct(C).rowwise().sum().eval();
        };
        auto meanCovOf = [&Z](const std::vector<int>& rows, Eigen::VectorXd& mean, Eigen::MatrixXd& cov) {
            Eigen::MatrixXd S(static_cast<Eigen::Index>(rows.size()), Z.cols());
            for (std::size_t i = 0; i < rows.size(); ++i)
                S.row(static_cast<Eigen::Index>(i)) = Z.row(rows[i]);
            mean = S.colwise().mean().transpose();
            const Eigen::MatrixXd C = S.rowwise() - mean.transpose();
            cov = C.transpose() * C / static_cast<double>(rows.size());
        };
        for (int i = 1; i < h->size(); ++i) {
            const auto& before = h->steps[static_cast<std::size_t>(i - 1)];
            const auto& at = h->steps[static_cast<std::size_t>(i)];
            QCOMPARE(at.step, before.step + 1); // a short path: every step kept
            QVERIFY(at.loss <= before.loss + 1e-12); // theorem 1
            Eigen::MatrixXd prevCov = vec(before.state, "raw_covariance_scaled");
            prevCov.resize(3, 3);
            const Eigen::VectorXd d = d2(vec(before.state, "raw_location_scaled"), prevCov);
            std::vector<int> order(static_cast<std::size_t>(d.size()));
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&d](int a, int b) { return d(a) < d(b); });
            order.resize(static_cast<std::size_t>(hRows));
            Eigen::VectorXd mean;
            Eigen::MatrixXd cov;
            meanCovOf(order, mean, cov);
            QVERIFY(maxDiff(mean, vec(at.state, "raw_location_scaled")) <= 1e-12);
            QVERIFY(maxDiff(Eigen::Map<const Eigen::VectorXd>(cov.data(), 9), vec(at.state, "raw_covariance_scaled"))
                    <= 1e-12);
        }
        // Step 1's model: consistency d² · χ²_3(0.5) / median d², keep d² < χ²_3(0.975), mean/cov of those.
        const auto& s1 = h->steps[1].state;
        Eigen::MatrixXd rawCov = vec(s1, "raw_covariance_scaled");
        rawCov.resize(3, 3);
        Eigen::VectorXd d = d2(vec(s1, "raw_location_scaled"), rawCov);
        Eigen::VectorXd sorted = d;
        std::sort(sorted.data(), sorted.data() + sorted.size());
        const double med = 0.5 * (sorted(114) + sorted(115));
        d *= McdDetector::chi2Isf(0.5, 3) / med;
        std::vector<int> keep;
        for (int i = 0; i < d.size(); ++i)
            if (d(i) < McdDetector::chi2Isf(0.025, 3))
                keep.push_back(i);
        Eigen::VectorXd mean;
        Eigen::MatrixXd cov;
        meanCovOf(keep, mean, cov);
        const Eigen::VectorXd expected = d2(mean, cov);
        QVERIFY(maxDiff(full->modelAtStep(1, X)->score(X), expected) <= 1e-8 * expected.maxCoeff());
        QVERIFY(maxDiff(full->modelAtStep(h->size() - 1, X)->score(X), full->score(X)) <= 1e-12);
    }

    void historySurvivesTheModelJson()
    {
        const Eigen::MatrixXd X = generate("seam", 200, 5).X;
        auto full = make("quadrics", {{"epochs", "15"}}, true);
        full->fit(X);
        QVERIFY(!full->toJson().contains("history")); // saved models stay small unless asked
        const auto back = Registry::instance().load(full->toJson(true));
        QVERIFY(back->history());
        QCOMPARE(back->history()->size(), full->history()->size());
        QVERIFY(maxDiff(back->modelAtStep(2, X)->score(X), full->modelAtStep(2, X)->score(X)) == 0.0);
        nlohmann::json bad = full->toJson(true);
        bad["history"]["steps"][1]["step"] = -5; // not increasing
        QVERIFY_THROWS_EXCEPTION(DataError, Registry::instance().load(bad));
    }

    void nothingIsRecordedUnlessAskedOrWithoutSteps()
    {
        const Eigen::MatrixXd X = generate("seam", 150, 5).X;
        auto off = make("quadrics", {{"epochs", "5"}}, false);
        off->fit(X);
        QVERIFY(!off->history());
        QVERIFY_THROWS_EXCEPTION(ParamError, off->modelAtStep(0, X));
        auto knn = make("knn", {}, true);
        knn->fit(X);
        QVERIFY(!knn->history());
    }

    void resultAtStepCoversEveryRowWhenFittedOnAPart()
    {
        const Eigen::MatrixXd X = generate("seam", 240, 9).X;
        std::vector<int> rows;
        for (int i = 0; i < X.rows(); i += 2)
            rows.push_back(i);
        FitOptions o;
        o.trainingRows = rows;
        o.ranking = true;
        auto r = fitPipeline(make("gods", {{"max_iter", "20"}}, true), Normalizer(Normalization::ZScore), X, o);
        const auto h = r->detector->history();
        QVERIFY(h);
        const auto last = resultAtStep(*r, X, h->size() - 1);
        QCOMPARE(last->scores.size(), X.rows());
        QVERIFY(maxDiff(last->scores, r->scores) <= 1e-12);
        QCOMPARE(last->ranking, r->ranking);
        const auto early = resultAtStep(*r, X, 1);
        QCOMPARE(early->scores.size(), X.rows());
        QVERIFY(maxDiff(early->scores, r->scores) > 1e-6);
        QCOMPARE(early->ranking.size(), static_cast<std::size_t>(X.rows()));
        Eigen::MatrixXd edited = X;
        edited(0, 0) += 1.0;
        QVERIFY_THROWS_EXCEPTION(DataError, resultAtStep(*r, edited, 1));
    }
};

QTEST_APPLESS_MAIN(TestTrainingHistory)
#include "TestTrainingHistory.moc"
