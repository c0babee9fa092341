// DataDocument loads are transactional (issue #20): when an observer fails while building its view
// of new data (bad_alloc in a projection, …), the document returns to the previous data, result,
// threshold and selection, observers see that data again, and the error reaches the caller.
#include "DataDocument.h"
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
