#pragma once
// The Ranking dock: points sorted by outlier score (rank, index, score, label, explanation),
// a top-k spin box (highlighted in the view through the document), and selection linked both
// ways with the document; double-click (or Enter) asks the view to fly to the point.
#include <QWidget>
#include <memory>

class QTableView;
class QSpinBox;

namespace olens {

class DataDocument;
class RankingFilterBar;

class RankingPanel : public QWidget {
    Q_OBJECT
public:
    explicit RankingPanel(DataDocument* document, QWidget* parent = nullptr);

    QTableView* table() const;
    /// The threshold rule in use ("detector", "mad", …, "top": metrics/Thresholds' names).
    QString thresholdRule() const;
    QSpinBox* topKSpin() const;
    /// The filter row (all / flagged / not flagged / label value, go to index).
    RankingFilterBar* filterBar() const;
    /// Row of the table showing a sample index, or -1.
    int rowOfSample(int index) const;
    /// The summary above the table as plain text, e.g. "knn: 300 points, 30 flagged (threshold 1.2)".
    QString headerText() const;
    /// The training step of the scores the table lists (stepShownBy), -1 without scores or steps.
    int listedStep() const;
    /// The selected rows in the order shown, as CSV with a header line (what Ctrl+C copies).
    QString selectedRowsCsv() const;

signals:
    void flyToRequested(int index);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Impl;
    std::shared_ptr<Impl> d;
};

} // namespace olens
