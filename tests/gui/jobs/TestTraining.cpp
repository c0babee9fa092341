// Training in the background: results arrive through signals, cancel is honoured quickly and keeps
// the previous result, failures keep it too, and the GUI event loop keeps responding meanwhile.
#include "document/DataDocument.h"
#include "data/Generators.h"
#include "GuiTestSupport.h"
#include "jobs/TrainingController.h"
#include "jobs/Worker.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <thread>

using namespace olens;

namespace {
// Large enough that knn's fit (kd-tree + scoring every point) takes a few seconds on 2 cores
// (300 000 points in 3D: about 2.5 s with k=10).
Dataset bigCloud(int n)
{
    return generate("blobs", n, 7, {{"dim", "3"}, {"outliers", "0.01"}});
}

// Waits until the worker reports at least `fraction` (i.e. it is scoring, past the kd-tree build).
bool waitForFraction(QSignalSpy& progress, double fraction)
{
    for (int i = 0; i < 400; ++i) {
        for (const auto& args : progress)
            if (args.at(0).toDouble() >= fraction)
                return true;
        progress.wait(100);
    }
    return false;
}
} // namespace

class TestTraining : public QObject {
    Q_OBJECT

private slots:
    void quitWaitsForCancellableJobsButNotForAStuckOne()
    {
        // What the app does on quit (main.cpp): cancel every Worker, wait a grace period, and exit
        // without joining a job stuck in a phase that has no cancellation point.
        Worker polite(Worker::Policy::Reject);
        QVERIFY(polite.run<int>([](const ProgressCallback& progress) {
            while (!progress(ProgressInfo{}))
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            throw Cancelled();
            return 0;
        }, [](int) {}));
        QTRY_COMPARE(Worker::runningJobs(), 1);
        QVERIFY(Worker::cancelAllAndWait(10000));
        QCOMPARE(Worker::runningJobs(), 0);

        Worker stuck(Worker::Policy::Reject);
        std::atomic<bool> release{false};
        QVERIFY(stuck.run<int>([&release](const ProgressCallback&) {
            while (!release) // ignores cancellation, like a library eigen-decomposition
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 1;
        }, [](int) {}));
        QTRY_COMPARE(Worker::runningJobs(), 1);
        QVERIFY(!Worker::cancelAllAndWait(50));
        QCOMPARE(Worker::runningJobs(), 1);
        release = true;
        QVERIFY(Worker::cancelAllAndWait(10000));
        QCOMPARE(Worker::runningJobs(), 0);
        QSignalSpy cancelled(&stuck, &Worker::cancelled);
        QTRY_COMPARE(cancelled.count(), 1); // the outcome of a cancelled job is dropped
    }

    void trainsInTheBackgroundAndInstallsTheResult()
    {
        DataDocument doc;
        doc.setDataset(generate("moons", 300, 1, {{"outliers", "0.05"}}), "moons");
        TrainingController trainer(&doc);
        QSignalSpy finished(&trainer, &TrainingController::finished);
        QSignalSpy running(&trainer, &TrainingController::runningChanged);
        QSignalSpy resultSpy(&doc, &DataDocument::resultChanged);
        QVERIFY(trainer.train({"knn", {{"k", "5"}}, Normalization::ZScore, {}}));
        QVERIFY(trainer.isRunning());
        QVERIFY(!doc.result()); // not yet: the worker runs
        QVERIFY(finished.wait(20000));
        QVERIFY(!trainer.isRunning());
        QCOMPARE(running.count(), 2);
        QCOMPARE(resultSpy.count(), 1);
        const auto r = doc.result();
        QVERIFY(r);
        QCOMPARE(r->scores.size(), Eigen::Index(300));
        QCOMPARE(QString::fromStdString(r->detectorId), QString("knn"));
        QVERIFY(r->normalizer.kind() == Normalization::ZScore);
        QCOMPARE(doc.threshold(), r->threshold);
        // The document ranks by decreasing score.
        QVERIFY(r->scores(doc.ranking().front()) >= r->scores(doc.ranking().back()));
    }

    void cancelIsQuickAndKeepsThePreviousResult()
    {
        DataDocument doc;
        doc.setDataset(bigCloud(300000), "big");
        TrainingController trainer(&doc);
        QSignalSpy finished(&trainer, &TrainingController::finished);
        QSignalSpy cancelled(&trainer, &TrainingController::cancelled);
        QSignalSpy progress(&trainer, &TrainingController::progress);

        // A first, small result to keep.
        auto previous = std::make_shared<FitResult>();
        previous->detectorId = "previous";
        previous->scores = Eigen::VectorXd::Zero(doc.dataset().rows());
        previous->outlier = Eigen::VectorXi::Zero(doc.dataset().rows());
        doc.setResult(previous);

        QVERIFY(trainer.train({"knn", {{"k", "10"}}, Normalization::None, {}}));
        QVERIFY(waitForFraction(progress, 0.55)); // scoring is under way
        QElapsedTimer t;
        t.start();
        trainer.cancel();
        QVERIFY(cancelled.wait(5000));
        const qint64 ms = t.elapsed();
        // Behaviour here (the cancel is honoured, nothing installed); how fast is a figure that
        // scripts/responsiveness.sh reports from this line, not an assertion.
        qInfo("RESPONSIVENESS cancel honoured after %lld ms", ms);
        QCOMPARE(finished.count(), 0);
        QCOMPARE(doc.result().get(), previous.get());
    }

    void failureIsReportedAndKeepsThePreviousResult()
    {
        DataDocument doc;
        doc.setDataset(generate("moons", 20, 1), "moons");
        TrainingController trainer(&doc);
        QSignalSpy finished(&trainer, &TrainingController::finished);
        QVERIFY(trainer.train({"knn", {{"k", "3"}}, Normalization::None, {}}));
        QVERIFY(finished.wait(20000));
        const auto good = doc.result();
        QSignalSpy failed(&trainer, &TrainingController::failed);
        // pca with k >= p fails inside fit (in the worker).
        QVERIFY(trainer.train({"pca", {{"k", "2"}}, Normalization::None, {}}));
        QVERIFY(failed.wait(20000));
        QVERIFY(failed.first().at(0).toString().contains("must be smaller than the number of features"));
        QCOMPARE(doc.result().get(), good.get());
        // Invalid parameters are refused before any thread starts.
        QVERIFY(!trainer.train({"knn", {{"k", "0"}}, Normalization::None, {}}));
        QCOMPARE(failed.count(), 2);
        QVERIFY(!trainer.isRunning());
    }

    void newDataCancelsAndDropsTheRun()
    {
        DataDocument doc;
        doc.setDataset(bigCloud(300000), "big");
        TrainingController trainer(&doc);
        QSignalSpy cancelled(&trainer, &TrainingController::cancelled);
        QSignalSpy progress(&trainer, &TrainingController::progress);
        QVERIFY(trainer.train({"knn", {{"k", "10"}}, Normalization::None, {}}));
        QVERIFY(waitForFraction(progress, 0.55));
        doc.setDataset(generate("moons", 50, 2), "moons");
        QVERIFY(cancelled.wait(5000));
        QVERIFY(!doc.result());
    }

    void eventLoopKeepsRespondingWhileTraining()
    {
#ifdef OLENS_SANITIZED
        QSKIP("GUI jitter is not measurable under a sanitizer (5-20x slowdown)");
#endif
        DataDocument doc;
        doc.setDataset(bigCloud(300000), "big");
        TrainingController trainer(&doc);
        QSignalSpy finished(&trainer, &TrainingController::finished);
        // A 10 ms timer on the GUI thread: the worst gap between its ticks during training.
        olens::test::GuiGapMeter meter;
        QVERIFY(trainer.train({"knn", {{"k", "10"}}, Normalization::ZScore, {}}));
        meter.start();
        QVERIFY(finished.wait(120000));
        meter.stop();
        const double seconds = meter.elapsedMs() / 1000.0;
        const int ticks = meter.ticks();
        const qint64 worst = meter.worstGapMs();
        qInfo("RESPONSIVENESS training took %.2f s; %d ticks; worst GUI gap %lld ms", seconds, ticks, worst);
        // Behaviour: the GUI thread's event loop keeps running while the worker trains (a blocked
        // loop delivers no timer ticks). The worst gap is a figure for scripts/responsiveness.sh.
        // A blocked loop delivers at most one tick however long it is blocked (timer events
        // coalesce), so at least a quarter of the 10 ms ticks that fit in the training time, and at
        // least two, prove the loop ran during it — on a slow machine and on a fast one alike.
        const int fitting = static_cast<int>(seconds * 1000.0 / 10.0);
        QVERIFY2(ticks >= std::max(2, fitting / 4),
                 qPrintable(QString("only %1 GUI ticks in %2 s of training").arg(ticks).arg(seconds)));
    }
};

OLENS_GUI_TEST_MAIN(TestTraining)
#include "TestTraining.moc"
