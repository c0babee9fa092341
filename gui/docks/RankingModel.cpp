#include "docks/RankingModel.h"

#include "docks/RankingFilterBar.h"
#include "document/DataDocument.h"

#include <QFont>

#include <algorithm>
#include <cmath>
#include <limits>

namespace olens {

RankingModel::RankingModel(QObject* parent) : QAbstractTableModel(parent) {}

RankingModel::~RankingModel() = default;

void RankingModel::rebuild(const DataDocument& doc)
{
    beginResetModel();
    m_result = doc.result();
    std::vector<int>().swap(m_ownOrder); // its memory too, when the result's ranking is shared
    m_order = &m_ownOrder;
    m_rankOfSample.clear();
    m_labelled.reset();
    m_labelNames.clear();
    m_flagged = 0;
    m_decisions = {};
    const Eigen::Index n = doc.dataset().rows();
    if (m_result) {
        // The result's own ranking is shared, not copied (80 MB at 20 M rows, issue #54).
        if (&doc.ranking() == &m_result->ranking)
            m_order = &m_result->ranking;
        else
            m_ownOrder = doc.ranking();
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
        m_ownOrder.resize(static_cast<std::size_t>(n));
        for (Eigen::Index i = 0; i < n; ++i)
            m_ownOrder[start[static_cast<std::size_t>(m - std::max(0, f(i)))]++] = static_cast<int>(i);
    }
    const std::vector<int>& order = *m_order;
    if (!order.empty()) {
        m_rankOfSample.assign(order.size(), -1);
        for (std::size_t r = 0; r < order.size(); ++r)
            m_rankOfSample[static_cast<std::size_t>(order[r])] = static_cast<int>(r);
        const Dataset& data = doc.dataset();
        if (data.hasLabels() && data.labels.size() == static_cast<Eigen::Index>(order.size())) {
            m_labelled = doc.sharedDataset(); // shared, not a copy (160 MB at 20 M rows)
            for (const std::string& s : data.labelNames)
                m_labelNames << QString::fromStdString(s);
        }
        if (m_result)
            setFlagRule(doc.threshold());
    }
    m_topK = doc.topK();
    takeAgreement(doc);
    computeShown();
    endResetModel();
}

void RankingModel::setAgreement(const DataDocument& doc)
{
    takeAgreement(doc);
    if (m_sortColumn == ColFlaggedBy && m_listed)
        arrange(false);
    else if (rowCount() > 0)
        emit dataChanged(index(0, ColFlaggedBy), index(rowCount() - 1, ColFlaggedBy), {Qt::DisplayRole, SortRole});
    emit headerDataChanged(Qt::Horizontal, ColFlaggedBy, ColFlaggedBy);
}

bool RankingModel::setThreshold(double t)
{
    if (!m_result || ranks() == 0)
        return false;
    const DecisionsAt before = m_decisions;
    setFlagRule(t);
    if (arrangedByFlags()) {
        arrange(false);
        return true;
    }
    // Only the ranks whose decision changed (in score order: usually one short run), so dragging
    // the threshold stays smooth with 1e5 rows.
    int first = -1, last = -1;
    for (int r = 0; r < ranks(); ++r) {
        const int i = sampleOfRank(r);
        if (before(i) != flagged(i)) {
            if (first < 0)
                first = r;
            last = r;
        }
    }
    if (first < 0)
        return false;
    if (m_listed) { // sorted by another column: the changed ranks are anywhere; repaint what is shown
        first = 0;
        last = rowCount() - 1;
    }
    if (last >= first)
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1), {Qt::DisplayRole, Qt::BackgroundRole, SortRole});
    return false;
}

void RankingModel::setTopK(int k)
{
    const int old = m_topK;
    m_topK = k;
    int first = std::min(old, k), last = std::min(std::max(old, k), rowCount()) - 1;
    if (m_listed) {
        first = 0;
        last = rowCount() - 1;
    }
    if (first <= last) // the font only: nothing moves
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1), {Qt::FontRole});
}

void RankingModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount) { // "no sort": the ranking's order
        column = ColRank;
        order = Qt::AscendingOrder;
    }
    if (column == m_sortColumn && order == m_sortOrder)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    // The selection moves with its rows and is brought into view (else the table would show
    // whatever rows now sit at the old scroll offset, driven by hand at 300 000 rows).
    arrange(true);
}

bool RankingModel::hasExplanations() const
{
    return m_result && !m_result->explanations.empty() && m_result->explanations.size() == m_order->size();
}

int RankingModel::rankAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return -1;
    return m_listed ? m_shown[static_cast<std::size_t>(row)] : row;
}

int RankingModel::sampleAt(int row) const
{
    const int rank = rankAt(row);
    return rank < 0 ? -1 : sampleOfRank(rank);
}

int RankingModel::rowOfSample(int sample) const
{
    if (sample < 0 || sample >= static_cast<int>(m_rankOfSample.size()))
        return -1;
    const int rank = m_rankOfSample[static_cast<std::size_t>(sample)];
    return rank < 0 || !m_listed ? rank : m_rowOfRank[static_cast<std::size_t>(rank)];
}

double RankingModel::sortKey(int rank, int column) const
{
    const int i = sampleOfRank(rank);
    switch (column) {
    case ColRank: return rank + 1;
    case ColIndex: return i;
    case ColScore: {
        const double s = m_result ? m_result->scores(i) : 0.0;
        return std::isnan(s) ? -std::numeric_limits<double>::infinity() : s;
    }
    case ColLabel: return hasLabels() ? m_labelled->labels(i) : 0.0;
    case ColOutlier: return flagged(i) ? 1.0 : 0.0;
    case ColFlaggedBy: return hasAgreement() ? m_flaggedBy(i) : 0.0;
    default: return 0.0;
    }
}

QString RankingModel::labelText(int i) const
{
    const double v = m_labelled->labels(i);
    const int id = static_cast<int>(std::lround(v));
    if (!m_labelNames.isEmpty() && id == v && id >= 0 && id < m_labelNames.size())
        return m_labelNames[id];
    return QString::number(v, 'g', 6);
}

QString RankingModel::explanation(int i) const
{
    return hasExplanations() ? QString::fromStdString(m_result->explanations[static_cast<std::size_t>(i)]) : QString();
}

QString RankingModel::text(int rank, int column) const
{
    const int i = sampleOfRank(rank);
    switch (column) {
    case ColRank: return QString::number(rank + 1);
    case ColIndex: return QString::number(i);
    case ColScore: return m_result ? QString::number(m_result->scores(i), 'g', 6) : QString();
    case ColLabel: return hasLabels() ? labelText(i) : QString();
    case ColOutlier: return flagged(i) ? QStringLiteral("yes") : QString();
    case ColFlaggedBy: return hasAgreement() ? tr("%1 of %2").arg(m_flaggedBy(i)).arg(m_agreementOf) : QString();
    case ColExplanation: return explanation(i);
    default: return {};
    }
}

int RankingModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    return m_listed ? static_cast<int>(m_shown.size()) : ranks();
}

QVariant RankingModel::data(const QModelIndex& index, int role) const
{
    const int rank = index.isValid() ? rankAt(index.row()) : -1;
    if (rank < 0)
        return {};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return text(rank, column);
    case SortRole:
        if (column == ColExplanation || (column == ColLabel && textLabels()))
            return text(rank, column);
        return sortKey(rank, column);
    case Qt::TextAlignmentRole:
        if (column == ColExplanation || (column == ColLabel && textLabels()) || column == ColOutlier)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (rank < m_topK) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::BackgroundRole:
        if (flagged(sampleOfRank(rank)))
            return kFlaggedTint;
        return {};
    case Qt::ToolTipRole:
        if (column == ColExplanation)
            return text(rank, column);
        return {};
    default: return {};
    }
}

QVariant RankingModel::headerData(int section, Qt::Orientation orientation, int role) const
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

void RankingModel::takeAgreement(const DataDocument& doc)
{
    const bool valid = doc.hasAgreement() && doc.agreement().flaggedBy.size() == static_cast<Eigen::Index>(m_order->size());
    m_flaggedBy = valid ? doc.agreement().flaggedBy : Eigen::VectorXi();
    m_agreementOf = valid ? static_cast<int>(doc.agreement().detectors.size()) : 0;
    m_agreementNames = valid ? doc.agreement().detectors.join(QStringLiteral(", ")) : QString();
    m_agreementQuantile = valid ? doc.agreement().quantile : 0.0;
}

void RankingModel::setFlagRule(double threshold)
{
    const Eigen::Index n = m_result->scores.size();
    m_decisions = DecisionsAt(*m_result, threshold);
    m_flagged = 0;
    for (Eigen::Index i = 0; i < n; ++i)
        m_flagged += flagged(static_cast<int>(i)) ? 1 : 0;
}

bool RankingModel::arrangedByFlags() const
{
    const auto show = m_filter ? m_filter->show() : RankingFilterBar::Show::All;
    return m_sortColumn == ColOutlier || show == RankingFilterBar::Show::Flagged || show == RankingFilterBar::Show::NotFlagged;
}

void RankingModel::computeShown()
{
    const int n = ranks();
    const bool filtered = m_filter && m_filter->show() != RankingFilterBar::Show::All;
    const bool ranked = m_sortColumn == ColRank && m_sortOrder == Qt::AscendingOrder;
    m_shown.clear();
    m_rowOfRank.clear();
    m_listed = filtered || !ranked;
    if (!m_listed || n == 0) {
        m_listed = false;
        m_shown.shrink_to_fit();
        m_rowOfRank.shrink_to_fit();
        return;
    }
    m_shown.reserve(static_cast<std::size_t>(filtered ? std::min(n, 1024) : n));
    for (int r = 0; r < n; ++r)
        if (!filtered || m_filter->accepts(sampleOfRank(r)))
            m_shown.push_back(r);
    const int c = m_sortColumn;
    if (c == ColExplanation || (c == ColLabel && textLabels())) {
        std::stable_sort(m_shown.begin(), m_shown.end(), [&](int a, int b) {
            return QString::compare(text(a, c), text(b, c), Qt::CaseInsensitive) < 0;
        });
    } else if (c != ColRank) {
        // Straight on the numbers (no QVariant per comparison); ties keep the ranking's order.
        std::stable_sort(m_shown.begin(), m_shown.end(), [&](int a, int b) { return sortKey(a, c) < sortKey(b, c); });
    }
    // Descending is the ascending order reversed (ties too), as QSortFilterProxyModel sorted.
    if (m_sortOrder == Qt::DescendingOrder)
        std::reverse(m_shown.begin(), m_shown.end());
    m_rowOfRank.assign(static_cast<std::size_t>(n), -1);
    for (std::size_t t = 0; t < m_shown.size(); ++t)
        m_rowOfRank[static_cast<std::size_t>(m_shown[t])] = static_cast<int>(t);
}

void RankingModel::arrange(bool scroll)
{
    if (arranging)
        arranging(true, scroll);
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> samples;
    samples.reserve(static_cast<std::size_t>(before.size()));
    for (const QModelIndex& i : before)
        samples.push_back(sampleAt(i.row()));
    computeShown();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype k = 0; k < before.size(); ++k) {
        const int row = rowOfSample(samples[static_cast<std::size_t>(k)]);
        after << (row >= 0 ? index(row, before[k].column()) : QModelIndex());
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    if (arranging)
        arranging(false, scroll);
}

} // namespace olens
