#pragma once
// The Ranking dock's table model: the document's ranking order, flags at the current threshold,
// labels, explanations, everything computed on demand in data(). It sorts and filters its rows
// itself (RankingFilterBar decides which are shown): a QSortFilterProxyModel kept two more ints a
// row even when it neither sorted nor filtered (160 MB at 20 M rows, issue #54).
#include <QAbstractTableModel>
#include <QColor>
#include <QStringList>

#include "pipeline/DecisionsAt.h"

#include <Eigen/Core>

#include <functional>
#include <memory>
#include <vector>

namespace olens {

class DataDocument;
class RankingFilterBar;
struct Dataset;
struct FitResult;

/// The table's columns.
enum RankingColumn { ColRank, ColIndex, ColScore, ColLabel, ColOutlier, ColFlaggedBy, ColExplanation, ColumnCount };
/// The tint of flagged rows (and its CSS for the dock's legend).
inline const QColor kFlaggedTint(255, 205, 205);
inline const char* const kFlaggedTintCss = "#ffcdcd";

/// The ranked rows. Rank r (0-based) is sample order[r] (the document's ranking()). Table row t
/// shows rank t itself unless the rows are sorted by another column or filtered: then a list of the
/// ranks shown, and its inverse, exist until the table is back in rank order.
class RankingModel : public QAbstractTableModel {
public:
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit RankingModel(QObject* parent = nullptr);
    ~RankingModel() override;

    /// The document's result (or the compare panels' agreement) changed: every row again.
    void rebuild(const DataDocument& doc);
    /// The compare panels' agreement changed (DataDocument::agreement): the "flagged by" column.
    void setAgreement(const DataDocument& doc);
    bool hasAgreement() const { return m_agreementOf > 0; }
    /// Rows listed by the compare panels' agreement alone (no result in the main window).
    bool agreementOnly() const { return !m_result && ranks() > 0; }
    int agreementOf() const { return m_agreementOf; }
    QString agreementNames() const { return m_agreementNames; }
    /// The document's threshold moved (e.g. dragged in the Evaluation histogram): new decisions.
    /// True when the rows were re-arranged (a filter or sort on the flags; `arranging` was called).
    bool setThreshold(double t);
    void setTopK(int k);
    void setLabelName(const QString& name) { m_labelName = name; }

    /// Which rows are shown (null: all), and called around every re-arrangement of the rows (a
    /// sort, a filter): `arranging(true, scroll)` before, `arranging(false, scroll)` after; `scroll`:
    /// whether the table should bring the selection (or the top) into view (a sort, a filter) or
    /// stay where it is (a threshold drag, new agreement counts).
    void setFilter(const RankingFilterBar* filter) { m_filter = filter; }
    std::function<void(bool before, bool scroll)> arranging;
    /// Applies the filter again (its choice, the selection or the threshold it reads changed).
    void refilter() { arrange(true); }
    /// The table's header sort (QTableView::setSortingEnabled): rank ascending is the ranking itself.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    bool hasLabels() const { return m_labelled != nullptr; }
    bool hasExplanations() const;
    bool textLabels() const { return !m_labelNames.isEmpty(); }
    const FitResult* result() const { return m_result.get(); }
    long flaggedCount() const { return m_flagged; }
    /// Every ranked row, shown or filtered out (rowCount() counts the shown ones).
    int rankCount() const { return ranks(); }

    /// The rank (0-based) a table row shows, -1 outside the table.
    int rankAt(int row) const;
    /// The sample a table row shows, -1 outside the table.
    int sampleAt(int row) const;
    /// The table row showing a sample, -1 when it is not listed or filtered out.
    int rowOfSample(int sample) const;

    /// The number a column sorts by, for the row of rank `rank` (text labels sort by name).
    double sortKey(int rank, int column) const;
    /// A cell's text, for the row of rank `rank`.
    QString text(int rank, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    int ranks() const { return static_cast<int>(m_order->size()); }
    int sampleOfRank(int rank) const { return (*m_order)[static_cast<std::size_t>(rank)]; }
    QString labelText(int sample) const;
    QString explanation(int sample) const;
    void takeAgreement(const DataDocument& doc);
    /// Whether a sample is flagged (DecisionsAt): read from the result, not stored per row (80 MB
    /// at 20 M rows).
    bool flagged(int sample) const { return m_decisions(sample); }
    void setFlagRule(double threshold);
    /// The ranks shown under the filter and sort (none listed: all, in rank order).
    void computeShown();
    /// computeShown() as a layout change: persistent indexes (the table's selection and current
    /// row) follow their samples, or become invalid when filtered out.
    void arrange(bool scroll);
    /// Whether the rows shown depend on the flags (filter on them, sort by them).
    bool arrangedByFlags() const;

    std::shared_ptr<const FitResult> m_result;
    std::vector<int> m_ownOrder;                   // the order when it is not the result's ranking
    const std::vector<int>* m_order = &m_ownOrder; // the result's ranking (kept alive by m_result) or m_ownOrder
    std::vector<int> m_rankOfSample;
    std::vector<int> m_shown;       // ranks in table order when sorted or filtered (m_listed)
    std::vector<int> m_rowOfRank;   // its inverse (-1: filtered out)
    bool m_listed = false;
    int m_sortColumn = ColRank;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    const RankingFilterBar* m_filter = nullptr;
    std::shared_ptr<const Dataset> m_labelled; // the data, when their labels are shown
    QStringList m_labelNames;
    QString m_labelName;
    DecisionsAt m_decisions; // the flag rule (none without a result)
    long m_flagged = 0;
    int m_topK = 0;
    Eigen::VectorXi m_flaggedBy; // per sample, of m_agreementOf detectors (empty: no agreement)
    int m_agreementOf = 0;
    QString m_agreementNames;
    double m_agreementQuantile = 0.0;
};

} // namespace olens
