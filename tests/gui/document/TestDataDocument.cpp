// DataDocument loads are transactional (issue #20): when an observer fails while building its view
// of new data (bad_alloc in a projection, …), the document returns to the previous data, result,
// threshold and selection, observers see that data again, and the error reaches the caller.
#include "document/DataDocument.h"
#include "data/Generators.h"
#include "detectors/TrainingHistory.h"
#include "pipeline/FitPipeline.h"
#include "registry/Registry.h"

#include <QSignalSpy>
#include <QtTest>

#include <new>

using namespace olens;

class TestDataDocument : public QObject {
    Q_OBJECT

private slots:
    void theSelectionIsASetWithACurrentPoint()
    {
        // Issue #22: one selection for the view, the Ranking and the exports.
        DataDocument doc;
        doc.setDataset(generate("moons", 20, 1), "m.csv");
        QSignalSpy set(&doc, &DataDocument::pointSelectionChanged);
        QSignalSpy current(&doc, &DataDocument::selectionChanged);
        doc.setPointSelection({9, 3, 3, -1, 25, 4}); // sorted, distinct, inside the data
        QCOMPARE(doc.pointSelection(), (std::vector<int>{3, 4, 9}));
        QCOMPARE(set.count(), 1);
        QCOMPARE(current.count(), 0); // no current point yet
        QVERIFY(doc.isSelected(4) && !doc.isSelected(5));
        doc.setPointSelection({3, 4, 9}, 4);
        QCOMPARE(set.count(), 1); // same set: no signal
        QCOMPARE(doc.selectedPoint(), 4);
        doc.setPointSelection({3, 9}); // the current point left the selection
        QCOMPARE(doc.selectedPoint(), -1);
        // A pick is a selection of one; -1 clears both.
        doc.setSelectedPoint(7);
        QCOMPARE(doc.pointSelection(), std::vector<int>{7});
        QCOMPARE(doc.selectedPoint(), 7);
        doc.setSelectedPoint(-1);
        QVERIFY(doc.pointSelection().empty());
        // An edit keeps the rows that still exist; new data clear it.
        doc.setPointSelection({2, 18, 19});
        Dataset shorter = doc.dataset();
        shorter.X.conservativeResize(19, Eigen::NoChange);
        shorter.labels.conservativeResize(19);
        doc.editDataset(shorter, nullptr);
        QCOMPARE(doc.pointSelection(), (std::vector<int>{2, 18}));
        doc.setDataset(generate("moons", 20, 2), "n.csv");
        QVERIFY(doc.pointSelection().empty());
    }

    void failedLoadLeavesEverythingAsItWas()
    {
        DataDocument doc;
        const Dataset first = generate("moons", 50, 1);
        doc.setDataset(first, "first.csv");
        auto det = Registry::instance().create("knn", {{"k", "3"}});
        std::shared_ptr<Detector> shared(std::move(det));
        doc.setResult(fitPipeline(shared, Normalizer(Normalization::None), first.X, FitOptions{}));
        QVERIFY(doc.result());
        doc.setThreshold(0.25);
        doc.setSelectedPoint(7);

        // An observer that cannot build a view of 3 × 100000 data (the PCA view in the issue).
        Eigen::Index seenRows = -1;
        connect(&doc, &DataDocument::datasetChanged, this, [&] {
            seenRows = doc.dataset().rows();
            if (doc.dataset().rows() == 100000)
                throw std::bad_alloc();
        });
        Dataset big;
        big.X = Eigen::MatrixXd::Zero(100000, 3);
        big.featureNames = {"a", "b", "c"};
        bool threw = false;
        try {
            doc.setDataset(std::move(big), "big.csv");
        } catch (const std::bad_alloc&) {
            threw = true;
        }
        QVERIFY(threw);
        QCOMPARE(doc.dataset().rows(), Eigen::Index(50));
        QCOMPARE(doc.filePath(), QString("first.csv"));
        QVERIFY(doc.result());
        QCOMPARE(doc.threshold(), 0.25);
        QCOMPARE(doc.selectedPoint(), 7);
        QCOMPARE(seenRows, Eigen::Index(50)); // observers rebuilt from the previous data

        // A load that works still replaces everything.
        doc.setDataset(generate("moons", 20, 2), "second.csv");
        QCOMPARE(doc.dataset().rows(), Eigen::Index(20));
        QVERIFY(!doc.result());
    }

    void oneShownStepForEveryReader()
    {
        // Issue #52 item 1: the document says which step the window shows. A step-by-step training
        // sets the trained scores aside (no colours, no ranking of another model), a replay step
        // takes the view back from it, cancelling brings the trained result back unchanged, and a
        // new result or new data end the training view.
        DataDocument doc;
        const Dataset d = generate("seam", 60, 1);
        doc.setDataset(d, "seam.csv");
        std::shared_ptr<Detector> det(Registry::instance().create("quadrics", {{"epochs", "8"}, {"tol", "0"}}));
        det->setRecordHistory(true);
        FitOptions o;
        o.ranking = true;
        const std::shared_ptr<const FitResult> trained = fitPipeline(det, Normalizer(Normalization::None), d.X, o);
        doc.setResult(trained);
        QCOMPARE(doc.shown().kind, DataDocument::Shown::Kind::Trained);
        QCOMPARE(doc.shown().step, 8);
        QCOMPARE(doc.shown().of, 8);
        QCOMPARE(stepShownBy(*trained), 8);

        QSignalSpy shownChanged(&doc, &DataDocument::shownStepChanged);
        QSignalSpy resultChanged(&doc, &DataDocument::resultChanged);
        doc.showTrainingStep(3, 500, "epoch");
        QVERIFY(doc.showsTraining());
        QCOMPARE(doc.shown().kind, DataDocument::Shown::Kind::Training);
        QCOMPARE(doc.shown().step, 3);
        QCOMPARE(doc.shown().of, 500);
        QVERIFY(!doc.result());                 // no colours of another model over the step
        QVERIFY(doc.ranking().empty());
        QCOMPARE(doc.trainedResult(), trained); // what a session would save
        QCOMPARE(resultChanged.count(), 1);
        QCOMPARE(shownChanged.count(), 1);
        doc.showTrainingStep(4, 500, "epoch"); // the next step: no new result signal
        QCOMPARE(doc.shown().step, 4);
        QCOMPARE(resultChanged.count(), 1);

        // A replay of the trained model's path (the timeline) takes the view back.
        const Geometry g;
        doc.setLiveGeometry(std::make_shared<const Geometry>(g), std::make_shared<const Normalizer>(trained->normalizer));
        const auto atTwo = resultAtStep(*trained, d.X, 2);
        QCOMPARE(atTwo->step, trained->detector->history()->steps[2].step);
        doc.showStep(2, atTwo);
        QVERIFY(!doc.showsTraining());
        QCOMPARE(doc.shown().kind, DataDocument::Shown::Kind::Recorded);
        QCOMPARE(doc.shown().step, atTwo->step);
        QCOMPARE(doc.result(), atTwo);
        QVERIFY(!doc.liveGeometry()); // the replayed step's own geometry is drawn, not the training's
        QCOMPARE(doc.trainedResult(), trained);

        // The training takes it again (N), then is cancelled: the trained model comes back.
        doc.showTrainingStep(5, 500, "epoch");
        QVERIFY(doc.showsTraining());
        QVERIFY(doc.liveGeometry());
        doc.endTrainingView();
        QVERIFY(!doc.showsTraining());
        QCOMPARE(doc.result(), trained);
        QCOMPARE(doc.shown().kind, DataDocument::Shown::Kind::Trained);
        QCOMPARE(int(doc.ranking().size()), int(d.X.rows()));

        // A new result ends the training view at once.
        doc.showTrainingStep(1, 500, "epoch");
        doc.setResult(trained);
        QVERIFY(!doc.showsTraining());
        QCOMPARE(doc.result(), trained);
        // So do new data.
        doc.showTrainingStep(1, 500, "epoch");
        doc.setDataset(generate("moons", 20, 1), "moons.csv");
        QVERIFY(!doc.showsTraining());
        QCOMPARE(doc.shown().kind, DataDocument::Shown::Kind::Nothing);
    }
};

QTEST_GUILESS_MAIN(TestDataDocument)
#include "TestDataDocument.moc"
