// DataDocument loads are transactional (issue #20): when an observer fails while building its view
// of new data (bad_alloc in a projection, …), the document returns to the previous data, result,
// threshold and selection, observers see that data again, and the error reaches the caller.
#include "document/DataDocument.h"
#include "data/Generators.h"
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
};

QTEST_GUILESS_MAIN(TestDataDocument)
#include "TestDataDocument.moc"
