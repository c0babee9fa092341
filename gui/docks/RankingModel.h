#pragma once
// The Ranking dock's table model (the document's ranking order, flags at the current threshold,
// labels, explanations; everything computed on demand in data(), so 1e5 rows cost only two index
// vectors) and its sort/filter proxy (RankingFilterBar decides which rows are shown).
#include "document/DataDocument.h"
#include "docks/RankingFilterBar.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace olens {

/// The table's columns.
enum RankingColumn { ColRank, ColIndex, ColScore, ColLabel, ColOutlier, ColFlaggedBy, ColExplanation, ColumnCount };
/// The tint of flagged rows (and its CSS for the dock's legend).
inline const QColor kFlaggedTint(255, 205, 205);
inline const char* const kFlaggedTintCss = "#ffcdcd";

/// The ranked rows: source row r shows sample order[r] (the document's ranking()).
/// Everything is computed on demand in data(), so 1e5 rows cost only the two index vectors.
class RankingModel : public QAbstractTableModel {
public:
    static constexpr int SortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    void rebuild(const DataDocument& doc)
    {
        beginResetModel();
        m_result = doc.result();
        m_order.clear();
        m_rowOfSample.clear();
        m_labelled.reset();
        m_labelNames.clear();
        m_flags.resize(0);
        m_flagged = 0;
        const Eigen::Index n = doc.dataset().rows();
        if (m_result) {
            m_order = doc.ranking();
        } else if (doc.hasAgreement() && doc.agreement().flaggedBy.size() == n) {
            // No detector trained in the main window, but the compare panels' are (issue #33): every
            // point, in order of how many of them flag it (ties by row), without score or decision.
            // A counting sort: the counts are 0 … m (m panels), and the list is rebuilt at each step
            // of the quantile spin box.
            const Eigen::VectorXi& f = doc.agreement().flaggedBy;
            const int m = std::max(0, f.size() > 0 ? f.maxCoeff() : 0);
            std::vector<std::size_t> start(static_cast<std::size_t>(m) + 2, 0);
            for (Eigen::Index i = 0; i < n; ++i)
                ++start[static_cast<std::size_t>(m - std::max(0, f(i))) + 1];
            for (std::size_t c = 1; c < start.size(); ++c)
                start[c] += start[c - 1];
            m_order.resize(static_cast<std::size_t>(n));
            for (Eigen::Index i = 0; i < n; ++i)
                m_order[start[static_cast<std::size_t>(m - std::max(0, f(i)))]++] = static_cast<int>(i);
        }
        if (!m_order.empty()) {
            m_rowOfSample.assign(m_order.size(), -1);
            for (std::size_t r = 0; r < m_order.size(); ++r)
                m_rowOfSample[static_cast<std::size_t>(m_order[r])] = static_cast<int>(r);
            const Dataset& data = doc.dataset();
            if (data.hasLabels() && data.labels.size() == static_cast<Eigen::Index>(m_order.size())) {
                m_labelled = doc.sharedDataset(); // shared, not a copy (160 MB at 20 M rows)
                for (const std::string& s : data.labelNames)
                    m_labelNames << QString::fromStdString(s);
            }
            if (m_result)
                computeFlags(doc.threshold());
            else
                m_flags = Eigen::VectorXi::Zero(n);
        }
        m_topK = doc.topK();
        takeAgreement(doc);
        endResetModel();
    }

    /// The compare panels' agreement changed (DataDocument::agreement): the "flagged by" column.
    void setAgreement(const DataDocument& doc)
    {
        takeAgreement(doc);
        if (rowCount() > 0)
            emit dataChanged(index(0, ColFlaggedBy), index(rowCount() - 1, ColFlaggedBy), {Qt::DisplayRole, SortRole});
        emit headerDataChanged(Qt::Horizontal, ColFlaggedBy, ColFlaggedBy);
    }
    bool hasAgreement() const { return m_agreementOf > 0; }
    /// Rows listed by the compare panels' agreement alone (no result in the main window).
    bool agreementOnly() const { return !m_result && rowCount() > 0; }
    int agreementOf() const { return m_agreementOf; }
    QString agreementNames() const { return m_agreementNames; }

    /// The document's threshold moved (e.g. dragged in the Evaluation histogram): new decisions,
    /// same rows and order.
    void setThreshold(double t)
    {
        if (!m_result || rowCount() == 0)
            return;
        const Eigen::VectorXi before = m_flags;
        computeFlags(t);
        // Only the rows whose decision changed (rows are in score order: usually one short run),
        // so dragging the threshold stays smooth with 1e5 rows.
        int first = -1, last = -1;
        for (int r = 0; r < rowCount(); ++r)
            if (before(sampleAt(r)) != m_flags(sampleAt(r))) {
                if (first < 0)
                    first = r;
                last = r;
            }
        if (first >= 0)
            emit dataChanged(index(first, 0), index(last, ColumnCount - 1), {Qt::DisplayRole, Qt::BackgroundRole, SortRole});
    }

    void setTopK(int k)
    {
        const int old = m_topK;
        m_topK = k;
        const int first = std::min(old, k), last = std::min(std::max(old, k), rowCount()) - 1;
        if (first <= last) // font only: the proxy need not re-sort
            emit dataChanged(index(first, 0), index(last, ColumnCount - 1), {Qt::FontRole});
    }

    bool hasLabels() const { return m_labelled != nullptr; }
    bool hasExplanations() const
    {
        return m_result && !m_result->explanations.empty()
            && m_result->explanations.size() == m_order.size();
    }
    const FitResult* result() const { return m_result.get(); }
    long flaggedCount() const { return m_flagged; }
    int sampleAt(int row) const
    {
        return row >= 0 && row < rowCount() ? m_order[static_cast<std::size_t>(row)] : -1;
    }
    int rowOfSample(int sample) const
    {
        return sample >= 0 && sample < static_cast<int>(m_rowOfSample.size())
            ? m_rowOfSample[static_cast<std::size_t>(sample)]
            : -1;
    }

    /// The number the column sorts by (text labels sort by name, see lessThan of the proxy).
    double sortKey(int row, int column) const
    {
        const int i = sampleAt(row);
        switch (column) {
        case ColRank: return row + 1;
        case ColIndex: return i;
        case ColScore: {
            const double s = m_result ? m_result->scores(i) : 0.0;
            return std::isnan(s) ? -std::numeric_limits<double>::infinity() : s;
        }
        case ColLabel: return hasLabels() ? m_labelled->labels(i) : 0.0;
        case ColOutlier: return m_flags(i) != 0 ? 1.0 : 0.0;
        case ColFlaggedBy: return hasAgreement() ? m_flaggedBy(i) : 0.0;
        default: return 0.0;
        }
    }
    bool textLabels() const { return !m_labelNames.isEmpty(); }

    QString labelText(int i) const
    {
        const double v = m_labelled->labels(i);
        const int id = static_cast<int>(std::lround(v));
        if (!m_labelNames.isEmpty() && id == v && id >= 0 && id < m_labelNames.size())
            return m_labelNames[id];
        return QString::number(v, 'g', 6);
    }

    QString explanation(int i) const
    {
        return hasExplanations() ? QString::fromStdString(m_result->explanations[static_cast<std::size_t>(i)]) : QString();
    }

    QString text(int row, int column) const
    {
        const int i = sampleAt(row);
        switch (column) {
        case ColRank: return QString::number(row + 1);
        case ColIndex: return QString::number(i);
        case ColScore: return m_result ? QString::number(m_result->scores(i), 'g', 6) : QString();
        case ColLabel: return hasLabels() ? labelText(i) : QString();
        case ColOutlier: return m_flags(i) != 0 ? QStringLiteral("yes") : QString();
        case ColFlaggedBy: return hasAgreement() ? tr("%1 of %2").arg(m_flaggedBy(i)).arg(m_agreementOf) : QString();
        case ColExplanation: return explanation(i);
        default: return {};
        }
    }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_order.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (!index.isValid() || index.row() >= rowCount())
            return {};
        const int row = index.row(), column = index.column();
        switch (role) {
        case Qt::DisplayRole: return text(row, column);
        case SortRole:
            if (column == ColLabel && textLabels())
                return text(row, column);
            if (column == ColExplanation)
                return text(row, column);
            return sortKey(row, column);
        case Qt::TextAlignmentRole:
            if (column == ColExplanation || (column == ColLabel && textLabels()) || column == ColOutlier)
                return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::FontRole:
            if (row < m_topK) {
                QFont f;
                f.setBold(true);
                return f;
            }
            return {};
        case Qt::BackgroundRole:
            if (m_flags(sampleAt(row)) != 0)
                return kFlaggedTint;
            return {};
        case Qt::ToolTipRole:
            if (column == ColExplanation)
                return text(row, column);
            return {};
        default: return {};
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal)
            return {};
        static const char* names[] = {"#", "row", "score", "label", "flag", "flagged by", "explanation"};
        static const char* tips[] = {
            "Rank: 1 = highest outlier score",
            "Row index of the sample in the loaded data (0-based)",
            "Outlier score (higher = more outlying)",
            "Value of the data's label column",
            "Outlier flag: the score is above the current threshold; flagged rows are tinted red",
            "How many of the compare panels' detectors flag the point at their shared quantile: "
            "a point flagged by most of them is a safer bet than one flagged by one",
            "Why the detector scored the point as it did"};
        if (section < 0 || section >= ColumnCount)
            return {};
        static const char* longNames[] = {"rank", "index", "score", "label", "outlier", "flagged by", "explanation"};
        if (role == Qt::DisplayRole)
            return section == ColLabel && !m_labelName.isEmpty() ? m_labelName : tr(names[section]);
        if (role == Qt::UserRole) // the full name: copied rows' CSV header
            return section == ColLabel && !m_labelName.isEmpty() ? m_labelName : QString::fromLatin1(longNames[section]);
        if (role == Qt::ToolTipRole)
            return section == ColFlaggedBy && hasAgreement()
                       ? tr(tips[section]) + QStringLiteral(" (%1; quantile %2)").arg(m_agreementNames).arg(m_agreementQuantile)
                       : tr(tips[section]);
        return {};
    }

    void setLabelName(const QString& name) { m_labelName = name; }

private:
    void takeAgreement(const DataDocument& doc)
    {
        const bool valid = doc.hasAgreement() && doc.agreement().flaggedBy.size() == static_cast<Eigen::Index>(m_order.size());
        m_flaggedBy = valid ? doc.agreement().flaggedBy : Eigen::VectorXi();
        m_agreementOf = valid ? static_cast<int>(doc.agreement().detectors.size()) : 0;
        m_agreementNames = valid ? doc.agreement().detectors.join(QStringLiteral(", ")) : QString();
        m_agreementQuantile = valid ? doc.agreement().quantile : 0.0;
    }

    /// At the detector's own threshold its own decisions; at a user threshold score > threshold.
    void computeFlags(double threshold)
    {
        const Eigen::Index n = m_result->scores.size();
        if (m_result->outlier.size() == n && threshold == m_result->threshold) {
            m_flags = m_result->outlier;
        } else {
            m_flags.resize(n);
            for (Eigen::Index i = 0; i < n; ++i)
                m_flags(i) = m_result->scores(i) > threshold ? 1 : 0;
        }
        m_flagged = 0;
        for (Eigen::Index i = 0; i < n; ++i)
            m_flagged += m_flags(i) != 0 ? 1 : 0;
    }

    std::shared_ptr<const FitResult> m_result;
    std::vector<int> m_order;
    std::vector<int> m_rowOfSample;
    std::shared_ptr<const Dataset> m_labelled; // the data, when their labels are shown
    QStringList m_labelNames;
    QString m_labelName;
    Eigen::VectorXi m_flags;
    long m_flagged = 0;
    int m_topK = 0;
    Eigen::VectorXi m_flaggedBy; // per sample, of m_agreementOf detectors (empty: no agreement)
    int m_agreementOf = 0;
    QString m_agreementNames;
    double m_agreementQuantile = 0.0;
};

/// Header sorting straight on the numbers (no QVariant per comparison: fast for 1e5 rows).
class RankingProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    RankingModel* ranking() const { return static_cast<RankingModel*>(sourceModel()); }
    const RankingFilterBar* filter = nullptr;
    void refilter() { invalidateFilter(); }

    /// The source rows are already in rank order, so "rank, ascending" (the default) is no sort at
    /// all: the proxy keeps the source order instead of comparing a million rows through the model
    /// after every training (1M points: about a second of GUI-thread work).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override
    {
        if (column == ColRank && order == Qt::AscendingOrder)
            column = -1;
        QSortFilterProxyModel::sort(column, order);
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex&) const override
    {
        return !filter || filter->accepts(ranking()->sampleAt(row));
    }

    bool lessThan(const QModelIndex& a, const QModelIndex& b) const override
    {
        const RankingModel* m = ranking();
        const int c = a.column();
        if (c == ColExplanation || (c == ColLabel && m->textLabels())) {
            const int cmp = QString::compare(m->text(a.row(), c), m->text(b.row(), c), Qt::CaseInsensitive);
            return cmp != 0 ? cmp < 0 : a.row() < b.row();
        }
        const double x = m->sortKey(a.row(), c), y = m->sortKey(b.row(), c);
        return x != y ? x < y : a.row() < b.row(); // ties keep the ranking order
    }
};

} // namespace olens
