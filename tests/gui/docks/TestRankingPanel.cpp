// The Ranking dock: rows in score order, rank column, linked selection both ways without
// feedback loops, the top-k spin box, fly-to on double-click / Enter, header sorting keeping
// rowOfSample right, clearing on new data, CSV copy.
#include <QColor> // GuiTestSupport.h uses QRgb

#include "document/DataDocument.h"
#include "GuiTestSupport.h"
#include "docks/RankingFilterBar.h"
#include "docks/RankingPanel.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QtTest>

#include <random>

using namespace olens;

namespace {

// Scores by sample:          0     1     2      3     4            5
// Ranking (descending):      3 (3.5), 1 (2.0), 4 (1.23456789), 0 (0.5), 5 (0.0), 2 (-1.0)
const double kScores[6] = {0.5, 2.0, -1.0, 3.5, 1.23456789, 0.0};
const int kRanking[6] = {3, 1, 4, 0, 5, 2};

Dataset makeData(int n, bool textLabels)
{
    Dataset d;
    d.source = "test";
    d.featureNames = {"x", "y"};
    d.X.resize(n, 2);
    std::mt19937 rng(7);
    std::normal_distribution<double> g;
    for (int i = 0; i < n; ++i)
        d.X.row(i) << g(rng), g(rng);
    d.labelName = "kind";
    d.labels = Eigen::VectorXd::Zero(n);
    if (n == 6) {
        d.labels(1) = 1;
        d.labels(3) = 1;
    }
    if (textLabels)
        d.labelNames = {"normal", "anomaly"};
    return d;
}

std::shared_ptr<FitResult> makeResult(bool explanations)
{
    auto r = std::make_shared<FitResult>();
    r->detectorId = "hand";
    r->scores.resize(6);
    for (int i = 0; i < 6; ++i)
        r->scores(i) = kScores[i];
    r->threshold = 1.5;
    r->outlier = Eigen::VectorXi::Zero(6);
    r->outlier(1) = 1;
    r->outlier(3) = 1;
    if (explanations)
        for (int i = 0; i < 6; ++i)
            r->explanations.push_back("why " + std::to_string(i));
    return r;
}

QString cell(QTableView* t, int row, int column)
{
    return t->model()->index(row, column).data().toString();
}

enum { ColRank, ColIndex, ColScore, ColLabel, ColOutlier, ColFlaggedBy, ColExplanation };

} // namespace

class TestRankingPanel : public QObject {
    Q_OBJECT

private slots:
    void emptyWithoutResult()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        QCOMPARE(panel.table()->model()->rowCount(), 0);
        QCOMPARE(panel.headerText(), QString("Train a detector to rank the points"));
        doc.setDataset(makeData(6, false), "a.csv");
        QCOMPARE(panel.table()->model()->rowCount(), 0);
        QCOMPARE(panel.headerText(), QString("Train a detector to rank the points"));
        QCOMPARE(panel.topKSpin()->maximum(), 6);
        QCOMPARE(panel.rowOfSample(0), -1);
    }

    void rowsInScoreOrder()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        doc.setDataset(makeData(6, true), "a.csv");
        doc.setResult(makeResult(true));
        QTableView* t = panel.table();
        QCOMPARE(t->model()->rowCount(), 6);
        for (int r = 0; r < 6; ++r) {
            QCOMPARE(cell(t, r, ColRank), QString::number(r + 1));
            QCOMPARE(cell(t, r, ColIndex), QString::number(kRanking[r]));
            QCOMPARE(panel.rowOfSample(kRanking[r]), r);
        }
        QCOMPARE(cell(t, 0, ColScore), QString("3.5"));
        QCOMPARE(cell(t, 2, ColScore), QString("1.23457")); // 6 significant digits
        QCOMPARE(cell(t, 5, ColScore), QString("-1"));
        // Text labels by name, the label column titled by the data's label column.
        QCOMPARE(cell(t, 0, ColLabel), QString("anomaly"));
        QCOMPARE(cell(t, 2, ColLabel), QString("normal"));
        QCOMPARE(t->model()->headerData(ColLabel, Qt::Horizontal).toString(), QString("kind"));
        // The detector's decision, with a red tint on flagged rows only.
        QCOMPARE(cell(t, 0, ColOutlier), QString("yes"));
        QCOMPARE(cell(t, 1, ColOutlier), QString("yes"));
        QCOMPARE(cell(t, 2, ColOutlier), QString(""));
        const QColor tint = t->model()->index(0, ColScore).data(Qt::BackgroundRole).value<QColor>();
        QVERIFY(tint.isValid());
        QVERIFY(tint.red() > tint.green() + 30);
        QVERIFY(!t->model()->index(2, ColScore).data(Qt::BackgroundRole).isValid());
        QCOMPARE(cell(t, 0, ColExplanation), QString("why 3"));
        QVERIFY(!t->isColumnHidden(ColLabel));
        QVERIFY(!t->isColumnHidden(ColExplanation));
        QCOMPARE(panel.headerText(), QString("hand: 6 points, 2 flagged (threshold 1.5)"));
    }

    void hidesColumnsThatHaveNothing()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        Dataset data = makeData(6, false);
        data.labels.resize(0);
        data.labelName.clear();
        doc.setDataset(data, "a.csv");
        auto r = makeResult(false);
        r->outlier.resize(0); // no decisions: falls back to score > threshold (1.5): samples 1 and 3
        doc.setResult(r);
        QTableView* t = panel.table();
        QVERIFY(t->isColumnHidden(ColLabel));
        QVERIFY(t->isColumnHidden(ColExplanation));
        QCOMPARE(cell(t, 1, ColOutlier), QString("yes"));
        QCOMPARE(cell(t, 2, ColOutlier), QString(""));
        // Numeric labels are shown as numbers.
        doc.setDataset(makeData(6, false), "b.csv");
        doc.setResult(makeResult(false));
        QVERIFY(!t->isColumnHidden(ColLabel));
        QCOMPARE(cell(t, 0, ColLabel), QString("1"));
        QCOMPARE(cell(t, 2, ColLabel), QString("0"));
    }

    void selectionLinkedBothWays()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        doc.setDataset(makeData(6, true), "a.csv");
        doc.setResult(makeResult(true));
        QSignalSpy spy(&doc, &DataDocument::selectionChanged);
        QTableView* t = panel.table();

        t->selectRow(2);
        QCOMPARE(doc.selectedPoint(), 4);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 4);

        // A pick elsewhere (e.g. the 3D view): the row showing sample 0 (rank 4) gets selected.
        spy.clear();
        doc.setSelectedPoint(0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(doc.selectedPoint(), 0);
        const QModelIndexList rows = t->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().row(), 3);
        QCOMPARE(t->currentIndex().row(), 3);

        spy.clear();
        doc.setSelectedPoint(-1);
        QCOMPARE(spy.count(), 1);
        QVERIFY(t->selectionModel()->selectedRows().isEmpty());
        QCOMPARE(doc.selectedPoint(), -1);

        // A new result keeps the document's selection visible without emitting anything.
        doc.setSelectedPoint(2);
        spy.clear();
        doc.setResult(makeResult(false));
        QCOMPARE(spy.count(), 0);
        QCOMPARE(t->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(t->selectionModel()->selectedRows().first().row(), 5);
    }

    void pickScrollsIntoView()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        panel.resize(400, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel, 60000));
        const int n = 2000;
        doc.setDataset(makeData(n, false), "big.csv");
        auto r = std::make_shared<FitResult>();
        r->scores.resize(n);
        for (int i = 0; i < n; ++i)
            r->scores(i) = i; // sample n-1 ranks first, sample 0 last
        r->threshold = n - 10.5;
        doc.setResult(r);
        QCOMPARE(panel.rowOfSample(0), n - 1);
        QTableView* t = panel.table();
        QVERIFY(t->rowAt(t->viewport()->height() / 2) < 100);
        doc.setSelectedPoint(0);
        const int rowInMiddle = t->rowAt(t->viewport()->height() / 2);
        QVERIFY2(std::abs(rowInMiddle - (n - 1)) < 20, qPrintable(QString::number(rowInMiddle)));
        QCOMPARE(panel.headerText(), QString("detector: 2000 points, 10 flagged (threshold 1989.5)"));
    }

    void topKSpinFollowsBothWays()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        doc.setDataset(makeData(6, true), "a.csv");
        doc.setResult(makeResult(true));
        QSpinBox* spin = panel.topKSpin();
        QCOMPARE(spin->minimum(), 0);
        QCOMPARE(spin->maximum(), 6);
        QVERIFY(!spin->toolTip().isEmpty());
        QSignalSpy spy(&doc, &DataDocument::topKChanged);

        spin->setValue(2);
        QCOMPARE(doc.topK(), 2);
        QCOMPARE(spy.count(), 1);
        QTableView* t = panel.table();
        auto bold = [t](int row) { return t->model()->index(row, ColScore).data(Qt::FontRole).value<QFont>().bold(); };
        QVERIFY(bold(0));
        QVERIFY(bold(1));
        QVERIFY(!bold(2));

        doc.setTopK(4);
        QCOMPARE(spin->value(), 4);
        QCOMPARE(spy.count(), 2); // the spin following does not echo back
        QVERIFY(bold(3));
        QVERIFY(!bold(4));
        doc.setTopK(1);
        QCOMPARE(spin->value(), 1);
        QVERIFY(bold(0));
        QVERIFY(!bold(1));
        QVERIFY(!bold(3));
        QCOMPARE(spy.count(), 3);
    }

    void doubleClickAndEnterFly()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        panel.resize(500, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel, 60000));
        doc.setDataset(makeData(6, true), "a.csv");
        doc.setResult(makeResult(true));
        QSignalSpy fly(&panel, &RankingPanel::flyToRequested);
        QTableView* t = panel.table();
        const QRect rect = t->visualRect(t->model()->index(1, ColScore));
        QVERIFY(rect.isValid());
        // A real double click is press, release, double-click event (QTest's mouseDClick alone sends
        // only the last, which item views ignore without the preceding press).
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, rect.center());
        QTest::mouseDClick(t->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(fly.count(), 1);
        QCOMPARE(fly.at(0).at(0).toInt(), 1); // row 1 shows sample 1
        QCOMPARE(doc.selectedPoint(), 1);

        doc.setSelectedPoint(5);
        t->setFocus();
        QTest::keyClick(t, Qt::Key_Return);
        QCOMPARE(fly.count(), 2);
        QCOMPARE(fly.at(1).at(0).toInt(), 5);
    }

    void newDatasetClears()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        doc.setDataset(makeData(6, true), "a.csv");
        doc.setResult(makeResult(true));
        doc.setSelectedPoint(3);
        QCOMPARE(panel.table()->model()->rowCount(), 6);
        doc.setDataset(makeData(9, false), "b.csv");
        QCOMPARE(panel.table()->model()->rowCount(), 0);
        QVERIFY(panel.table()->selectionModel()->selectedRows().isEmpty());
        QCOMPARE(panel.rowOfSample(3), -1);
        QCOMPARE(panel.headerText(), QString("Train a detector to rank the points"));
        QCOMPARE(panel.topKSpin()->maximum(), 9);
        // A result for other data is rejected by the document: still empty.
        doc.setResult(makeResult(true));
        QCOMPARE(panel.table()->model()->rowCount(), 0);
    }

    void headerSortingKeepsRowOfSample()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        panel.resize(500, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel, 60000));
        doc.setDataset(makeData(6, true), "a.csv");
        doc.setResult(makeResult(true));
        QTableView* t = panel.table();
        QHeaderView* header = t->horizontalHeader();

        // Click the "index" header: ascending by sample index.
        const QPoint at(header->sectionViewportPosition(ColIndex) + header->sectionSize(ColIndex) / 2,
                        header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(header->sortIndicatorSection(), int(ColIndex));
        const bool ascending = header->sortIndicatorOrder() == Qt::AscendingOrder;
        for (int i = 0; i < 6; ++i) {
            const int row = ascending ? i : 5 - i;
            QCOMPARE(panel.rowOfSample(i), row);
            QCOMPARE(cell(t, row, ColIndex), QString::number(i));
        }
        // Rank stays attached to the sample.
        QCOMPARE(cell(t, panel.rowOfSample(3), ColRank), QString("1"));
        QCOMPARE(cell(t, panel.rowOfSample(2), ColRank), QString("6"));

        t->sortByColumn(ColIndex, Qt::DescendingOrder);
        for (int i = 0; i < 6; ++i)
            QCOMPARE(panel.rowOfSample(i), 5 - i);
        // Selection through the sorted view.
        t->selectRow(0);
        QCOMPARE(doc.selectedPoint(), 5);
        doc.setSelectedPoint(4);
        QCOMPARE(t->selectionModel()->selectedRows().first().row(), 1);

        // Score sorts numerically (not as text: "-1" < "0" < "0.5" < "1.23457" < "2" < "3.5").
        t->sortByColumn(ColScore, Qt::AscendingOrder);
        const int ascendingSamples[6] = {2, 5, 0, 4, 1, 3};
        for (int r = 0; r < 6; ++r)
            QCOMPARE(cell(t, r, ColIndex), QString::number(ascendingSamples[r]));
        // The selection followed the sort.
        QCOMPARE(t->selectionModel()->selectedRows().first().row(), panel.rowOfSample(4));
        QCOMPARE(doc.selectedPoint(), 4);

        t->sortByColumn(ColRank, Qt::AscendingOrder);
        for (int r = 0; r < 6; ++r)
            QCOMPARE(cell(t, r, ColIndex), QString::number(kRanking[r]));
    }

    // Issue #54: the ranking of a 20 M-row result exists once. The document shows the result's own
    // (it kept a copy), and a table in rank order lists no rows of its own.
    void rankingSharedAndSortsFollowTheThreshold()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        doc.setDataset(makeData(6, false), "a.csv");
        auto r = makeResult(false);
        r->ranking.assign(std::begin(kRanking), std::end(kRanking)); // ranked on the worker
        doc.setResult(r);
        QCOMPARE(&doc.ranking(), &r->ranking);
        QTableView* t = panel.table();
        for (int row = 0; row < 6; ++row)
            QCOMPARE(cell(t, row, ColIndex), QString::number(kRanking[row]));

        // Sorted by the flag column (unflagged first, ties in rank order), the rows follow the
        // threshold as it moves: at 0.7, samples 4 (1.23) and 3, 1 are flagged.
        doc.setSelectedPoint(5);
        t->sortByColumn(ColOutlier, Qt::AscendingOrder);
        const int atOwn[6] = {4, 0, 5, 2, 3, 1};
        for (int row = 0; row < 6; ++row)
            QCOMPARE(cell(t, row, ColIndex), QString::number(atOwn[row]));
        doc.setThreshold(0.7);
        const int atLower[6] = {0, 5, 2, 3, 1, 4};
        for (int row = 0; row < 6; ++row)
            QCOMPARE(cell(t, row, ColIndex), QString::number(atLower[row]));
        QCOMPARE(panel.rowOfSample(5), 1);
        QCOMPARE(t->currentIndex().row(), 1); // the selected point moved with its row
        QCOMPARE(doc.selectedPoint(), 5);

        // Descending is the ascending order reversed; rank ascending is the ranking again.
        t->sortByColumn(ColOutlier, Qt::DescendingOrder);
        for (int row = 0; row < 6; ++row)
            QCOMPARE(cell(t, row, ColIndex), QString::number(atLower[5 - row]));
        t->sortByColumn(ColRank, Qt::AscendingOrder);
        for (int row = 0; row < 6; ++row)
            QCOMPARE(panel.rowOfSample(kRanking[row]), row);

        // A filter shows fewer rows; the header still counts every point (review: it counted the shown).
        panel.filterBar()->setShow(RankingFilterBar::Show::Flagged);
        QCOMPARE(t->model()->rowCount(), 3);
        QVERIFY2(panel.headerText().contains("6 points, 3 flagged"), qPrintable(panel.headerText()));
        panel.filterBar()->setShow(RankingFilterBar::Show::All);
        QCOMPARE(t->model()->rowCount(), 6);
    }

    void copiesSelectedRowsAsCsv()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel, 60000));
        doc.setDataset(makeData(6, true), "a.csv");
        auto r = makeResult(true);
        r->explanations[3] = "far, \"isolated\"";
        doc.setResult(r);
        QTableView* t = panel.table();
        t->selectionModel()->select(QItemSelection(t->model()->index(0, 0), t->model()->index(1, 5)),
                                    QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const QString expected = "rank,index,score,kind,outlier,explanation\n"
                                 "1,3,3.5,anomaly,1,\"far, \"\"isolated\"\"\"\n"
                                 "2,1,2,anomaly,1,why 1\n";
        QCOMPARE(panel.selectedRowsCsv(), expected);
        QApplication::clipboard()->clear();
        t->setFocus();
        QTest::keyClick(t, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), expected);
    }

    void largeTable()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        panel.resize(500, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel, 60000));
        const int n = 100000;
        Dataset data;
        data.featureNames = {"x", "y", "z"};
        data.X = Eigen::MatrixXd::Zero(n, 3);
        doc.setDataset(data, "big.csv");
        auto r = std::make_shared<FitResult>();
        r->scores.resize(n);
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> u;
        for (int i = 0; i < n; ++i)
            r->scores(i) = u(rng);
        Eigen::Index best = 0;
        r->scores.maxCoeff(&best);
        r->threshold = 0.9;
        doc.setResult(r);
        QTableView* t = panel.table();
        QCOMPARE(t->model()->rowCount(), n);
        QCOMPARE(cell(t, 0, ColIndex), QString::number(best));
        t->sortByColumn(ColIndex, Qt::AscendingOrder);
        QCOMPARE(panel.rowOfSample(12345), 12345);
        QCOMPARE(cell(t, n - 1, ColIndex), QString::number(n - 1));
        doc.setSelectedPoint(54321);
        QCOMPARE(t->currentIndex().row(), 54321);
        QVERIFY(!panel.grab().isNull());
        // Each sort brings the selected row into view (driven by hand at 300 000 rows: the second
        // sort showed whatever rows sat at the old scroll offset).
        auto selectedInView = [&] {
            const QRect r = t->visualRect(t->model()->index(panel.rowOfSample(54321), ColRank));
            return r.isValid() && t->viewport()->rect().intersects(r);
        };
        for (const auto& [column, order] : {std::pair{ColScore, Qt::AscendingOrder}, std::pair{ColScore, Qt::DescendingOrder},
                                            std::pair{ColRank, Qt::DescendingOrder}, std::pair{ColRank, Qt::AscendingOrder}}) {
            t->sortByColumn(column, order);
            QVERIFY2(selectedInView(), qPrintable(QString("column %1 order %2: row %3").arg(column).arg(int(order)).arg(panel.rowOfSample(54321))));
        }
        // Without a selection a sort starts at the top.
        doc.setPointSelection({}, -1);
        t->sortByColumn(ColIndex, Qt::DescendingOrder);
        QCOMPARE(t->rowAt(0), 0);
    }
};

OLENS_GUI_TEST_MAIN(TestRankingPanel)
#include "TestRankingPanel.moc"
