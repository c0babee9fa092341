// The Ranking dock's filter row (issue #22): flagged only / not flagged follow the document's
// threshold, a label value keeps only its rows, "go to index" selects the point (and shows all
// rows again when the filter hid it); Ctrl+C copies the filtered rows shown.
#include <QColor> // GuiTestSupport.h uses QRgb

#include "document/DataDocument.h"
#include "GuiTestSupport.h"
#include "docks/RankingFilterBar.h"
#include "docks/RankingPanel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QTableView>
#include <QtTest>

#include <set>

using namespace olens;

namespace {

// Scores by sample 0..5; the detector flags 1 and 3 (threshold 1.5); labels: 1 and 4 are 1.
Dataset makeData()
{
    Dataset d;
    d.source = "test";
    d.featureNames = {"x", "y"};
    d.X = Eigen::MatrixXd::Random(6, 2);
    d.labelName = "kind";
    d.labels = Eigen::VectorXd::Zero(6);
    d.labels(1) = 1;
    d.labels(4) = 1;
    return d;
}

std::shared_ptr<FitResult> makeResult()
{
    auto r = std::make_shared<FitResult>();
    r->detectorId = "hand";
    r->scores = (Eigen::VectorXd(6) << 0.5, 2.0, -1.0, 3.5, 1.25, 0.0).finished();
    r->threshold = 1.5;
    r->outlier = (Eigen::VectorXi(6) << 0, 1, 0, 1, 0, 0).finished();
    return r;
}

/// The sample indices the table shows, in its order.
std::vector<int> shown(RankingPanel& p)
{
    std::vector<int> out;
    QAbstractItemModel* m = p.table()->model();
    for (int r = 0; r < m->rowCount(); ++r)
        out.push_back(m->index(r, 1).data().toInt());
    return out;
}

} // namespace

class TestRankingFilter : public QObject {
    Q_OBJECT
private slots:
    void filtersFollowThresholdAndLabels()
    {
        DataDocument doc;
        RankingPanel panel(&doc);
        RankingFilterBar* bar = panel.filterBar();
        QVERIFY(!bar->filterCombo()->isEnabled()); // nothing ranked yet
        doc.setDataset(makeData(), "a.csv");
        doc.setResult(makeResult());
        QVERIFY(bar->filterCombo()->isEnabled());
        QCOMPARE(shown(panel), (std::vector<int>{3, 1, 4, 0, 5, 2}));
        // "all, flagged, not flagged, selection only, kind = 0, kind = 1"
        QCOMPARE(bar->filterCombo()->count(), 6);
        QCOMPARE(bar->filterCombo()->itemText(5), QStringLiteral("kind = 1"));

        bar->setShow(RankingFilterBar::Show::Flagged);
        QCOMPARE(shown(panel), (std::vector<int>{3, 1}));
        // A lower threshold (dragged in the Evaluation dock) flags sample 4 too: the filter follows.
        doc.setThreshold(1.0);
        QCOMPARE(shown(panel), (std::vector<int>{3, 1, 4}));
        bar->setShow(RankingFilterBar::Show::NotFlagged);
        QCOMPARE(shown(panel), (std::vector<int>{0, 5, 2}));
        bar->setShow(RankingFilterBar::Show::Label, 1.0);
        QCOMPARE(shown(panel), (std::vector<int>{1, 4}));

        // Copy rows as CSV takes what is shown.
        panel.table()->selectAll();
        const QStringList lines = panel.selectedRowsCsv().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[1].startsWith("2,1,2,1,1"), qPrintable(lines[1])); // rank 2 overall, index 1, score 2, kind 1, flagged

        // Go to index: 2 is hidden by "kind = 1", so everything is shown again and 2 is selected.
        bar->indexEdit()->setText("2");
        QTest::keyClick(bar->indexEdit(), Qt::Key_Return);
        QCOMPARE(doc.selectedPoint(), 2);
        QCOMPARE(bar->show(), RankingFilterBar::Show::All);
        QCOMPARE(int(shown(panel).size()), 6);
        const QModelIndexList sel = panel.table()->selectionModel()->selectedRows();
        QCOMPARE(sel.size(), qsizetype(1));
        QCOMPARE(sel.first().sibling(sel.first().row(), 1).data().toInt(), 2);
        // Out of range: nothing happens.
        bar->indexEdit()->setText("60");
        QTest::keyClick(bar->indexEdit(), Qt::Key_Return);
        QCOMPARE(doc.selectedPoint(), 2);

        // New data without labels: the label items go, the filter is reset.
        bar->setShow(RankingFilterBar::Show::Flagged);
        Dataset plain = makeData();
        plain.labels.resize(0);
        plain.labelName.clear();
        doc.setDataset(plain, "b.csv");
        QCOMPARE(bar->filterCombo()->count(), 4);
        doc.setResult(makeResult());
        QCOMPARE(bar->show(), RankingFilterBar::Show::Flagged); // kept: the item still exists
        QCOMPARE(shown(panel), (std::vector<int>{3, 1}));
    }

    void trainingFilterForAModelFittedOnAPart()
    {
        // Fit on a part: "training points" / "not trained on" appear and keep exactly those rows;
        // a result fitted on all rows has neither item.
        DataDocument doc;
        RankingPanel panel(&doc);
        RankingFilterBar* bar = panel.filterBar();
        doc.setDataset(makeData(), "a.csv");
        doc.setResult(makeResult());
        QCOMPARE(bar->filterCombo()->count(), 6);
        auto part = makeResult();
        part->trainingRows = {0, 2, 5};
        doc.setResult(part);
        QCOMPARE(bar->filterCombo()->count(), 8);
        bar->setShow(RankingFilterBar::Show::Training);
        QCOMPARE(bar->show(), RankingFilterBar::Show::Training);
        QCOMPARE(shown(panel), (std::vector<int>{0, 5, 2}));
        bar->setShow(RankingFilterBar::Show::HeldOut);
        QCOMPARE(shown(panel), (std::vector<int>{3, 1, 4}));
        doc.setResult(makeResult()); // fitted on all rows again: the items go, all rows are shown
        QCOMPARE(bar->filterCombo()->count(), 6);
        QCOMPARE(bar->show(), RankingFilterBar::Show::All);
        QCOMPARE(int(shown(panel).size()), 6);
    }
};

OLENS_GUI_TEST_MAIN(TestRankingFilter)
#include "TestRankingFilter.moc"
