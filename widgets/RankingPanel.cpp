#include "RankingPanel.h"

#include "DataDocument.h"
#include "RankingFilterBar.h"

#include <QAbstractTableModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace olens {

namespace {

enum Column { ColRank, ColIndex, ColScore, ColLabel, ColOutlier, ColExplanation, ColumnCount };

const QColor kFlaggedTint(255, 205, 205);
const char* kFlaggedTintCss = "#ffcdcd";

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
        m_labels.resize(0);
        m_labelNames.clear();
        m_flags.resize(0);
        m_flagged = 0;
        if (m_result) {
            m_order = doc.ranking();
            m_rowOfSample.assign(m_order.size(), -1);
            for (std::size_t r = 0; r < m_order.size(); ++r)
                m_rowOfSample[static_cast<std::size_t>(m_order[r])] = static_cast<int>(r);
            const Dataset& data = doc.dataset();
            if (data.hasLabels() && data.labels.size() == static_cast<Eigen::Index>(m_order.size())) {
                m_labels = data.labels;
                for (const std::string& s : data.labelNames)
                    m_labelNames << QString::fromStdString(s);
            }
            computeFlags(doc.threshold());
        }
        m_topK = doc.topK();
        endResetModel();
    }

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

    bool hasResult() const { return m_result != nullptr; }
    bool hasLabels() const { return m_labels.size() > 0; }
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
            const double s = m_result->scores(i);
            return std::isnan(s) ? -std::numeric_limits<double>::infinity() : s;
        }
        case ColLabel: return hasLabels() ? m_labels(i) : 0.0;
        case ColOutlier: return m_flags(i) != 0 ? 1.0 : 0.0;
        default: return 0.0;
        }
    }
    bool textLabels() const { return !m_labelNames.isEmpty(); }

    QString labelText(int i) const
    {
        const double v = m_labels(i);
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
        case ColScore: return QString::number(m_result->scores(i), 'g', 6);
        case ColLabel: return hasLabels() ? labelText(i) : QString();
        case ColOutlier: return m_flags(i) != 0 ? QStringLiteral("yes") : QString();
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
        static const char* names[] = {"rank", "index", "score", "label", "outlier", "explanation"};
        static const char* tips[] = {
            "1 = highest outlier score",
            "Row of the sample in the loaded data (0-based)",
            "Outlier score (higher = more outlying)",
            "Value of the data's label column",
            "Decision at the current threshold (score above it); flagged rows are tinted red",
            "Why the detector scored the point as it did"};
        if (section < 0 || section >= ColumnCount)
            return {};
        if (role == Qt::DisplayRole)
            return section == ColLabel && !m_labelName.isEmpty() ? m_labelName : tr(names[section]);
        if (role == Qt::ToolTipRole)
            return tr(tips[section]);
        return {};
    }

    void setLabelName(const QString& name) { m_labelName = name; }

private:
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
    Eigen::VectorXd m_labels;
    QStringList m_labelNames;
    QString m_labelName;
    Eigen::VectorXi m_flags;
    long m_flagged = 0;
    int m_topK = 0;
};

/// Header sorting straight on the numbers (no QVariant per comparison: fast for 1e5 rows).
class RankingProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    RankingModel* ranking() const { return static_cast<RankingModel*>(sourceModel()); }
    const RankingFilterBar* filter = nullptr;
    void refilter() { invalidateFilter(); }

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

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

} // namespace

struct RankingPanel::Impl {
    DataDocument* doc = nullptr;
    QLabel* header = nullptr;
    QSpinBox* topK = nullptr;
    QTableView* table = nullptr;
    RankingModel* model = nullptr;
    RankingProxy* proxy = nullptr;
    RankingFilterBar* filter = nullptr;
    QString summary;      // the header's first line as plain text
    bool syncing = false; // set while one side updates the other: breaks selection loops

    /// Fixed widths from the header text and the widest expected cell (measuring 1e5 rows is too slow).
    void sizeColumns()
    {
        const QFontMetrics fm = table->fontMetrics();
        QFont bold = table->font();
        bold.setBold(true);
        const QFontMetrics bm(bold); // top-k rows are bold
        QHeaderView* hh = table->horizontalHeader();
        const int digits = QString::number(std::max(model->rowCount(), 1)).size();
        const int indicator = 24; // sort arrow and padding
        const auto width = [&](int column, const QString& widest) {
            const int head = fm.horizontalAdvance(model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
            return std::max(head + indicator, bm.horizontalAdvance(widest) + 12);
        };
        hh->resizeSection(ColRank, width(ColRank, QString(digits, QLatin1Char('0'))));
        hh->resizeSection(ColIndex, width(ColIndex, QString(digits, QLatin1Char('0'))));
        hh->resizeSection(ColScore, width(ColScore, QStringLiteral("-0.000000e-00")));
        QString widestLabel = QStringLiteral("0");
        for (int r = 0; r < std::min(model->rowCount(), 200); ++r) { // label names: a sample is enough
            const QString t = model->text(r, ColLabel);
            if (t.size() > widestLabel.size())
                widestLabel = t;
        }
        hh->resizeSection(ColLabel, std::min(width(ColLabel, widestLabel), fm.averageCharWidth() * 24));
        hh->resizeSection(ColOutlier, width(ColOutlier, QStringLiteral("yes")));
    }

    /// "knn: 300 points, 30 flagged (threshold 1.2)" at the document's current threshold.
    void updateSummary()
    {
        const FitResult* r = model->result();
        if (!r)
            return;
        QString id = QString::fromStdString(r->detectorId);
        if (id.isEmpty())
            id = r->detector ? QString::fromStdString(r->detector->id()) : tr("detector");
        const double t = doc->threshold();
        summary = tr("%1: %2 points, %3 flagged (threshold %4)")
                      .arg(id)
                      .arg(model->rowCount())
                      .arg(model->flaggedCount())
                      .arg(QString::number(t, 'g', 6));
        const bool own = t == r->threshold;
        header->setText(summary.toHtmlEscaped()
                        + (own ? QString() : tr(" — your threshold (the detector's: %1)").arg(QString::number(r->threshold, 'g', 6)))
                        + tr("<br><span style='background:%1'>&nbsp;red rows&nbsp;</span> flagged at this "
                             "threshold, <b>bold</b> rows: the top k")
                              .arg(QLatin1String(kFlaggedTintCss)));
    }

    int sampleAtProxyRow(int row) const
    {
        const QModelIndex src = proxy->mapToSource(proxy->index(row, 0));
        return src.isValid() ? model->sampleAt(src.row()) : -1;
    }

    int proxyRowOfSample(int sample) const
    {
        const int src = model->rowOfSample(sample);
        if (src < 0)
            return -1;
        return proxy->mapFromSource(model->index(src, 0)).row();
    }
};

RankingPanel::RankingPanel(DataDocument* document, QWidget* parent) : QWidget(parent), d(std::make_shared<Impl>())
{
    d->doc = document;
    d->header = new QLabel(this);
    d->header->setTextFormat(Qt::RichText);
    d->header->setWordWrap(true);
    d->header->setToolTip(tr("Detector, number of points and how many the detector flags as outliers"));

    d->topK = new QSpinBox(this);
    d->topK->setRange(0, 0);
    d->topK->setSpecialValueText(tr("none"));
    d->topK->setToolTip(tr("Highlight the k highest-scoring points in the view (and in bold in this table); "
                           "0 = none"));
    auto* topKLabel = new QLabel(tr("highlight top k:"), this);
    topKLabel->setBuddy(d->topK);
    topKLabel->setToolTip(d->topK->toolTip());

    d->model = new RankingModel(this);
    d->proxy = new RankingProxy(this);
    d->proxy->setSourceModel(d->model);
    d->proxy->setSortRole(RankingModel::SortRole);
    d->filter = new RankingFilterBar(d->doc, this);
    d->proxy->filter = d->filter;
    connect(d->filter, &RankingFilterBar::filterChanged, this, [this] { d->proxy->refilter(); });

    d->table = new QTableView(this);
    d->table->setModel(d->proxy);
    d->table->setSelectionBehavior(QAbstractItemView::SelectRows);
    d->table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    d->table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    d->table->setWordWrap(false);
    d->table->setAlternatingRowColors(false); // the red tint must stay readable
    d->table->setToolTip(tr("Points ranked by outlier score. Click a row to select the point, double-click "
                            "or press Enter to fly to it, Ctrl+C copies the selected rows as CSV."));
    QHeaderView* vh = d->table->verticalHeader();
    vh->hide();
    vh->setSectionResizeMode(QHeaderView::Fixed); // no per-row measuring: fast for 1e5 rows
    vh->setDefaultSectionSize(d->table->fontMetrics().height() + 6);
    QHeaderView* hh = d->table->horizontalHeader();
    hh->setSectionResizeMode(QHeaderView::Interactive);
    hh->setStretchLastSection(true);
    hh->setSortIndicator(ColRank, Qt::AscendingOrder); // = the document's ranking order
    d->table->setSortingEnabled(true);
    hh->setMinimumSectionSize(24);

    auto* copy = new QAction(tr("Copy rows as CSV"), d->table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    d->table->addAction(copy);
    d->table->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(copy, &QAction::triggered, this, [this] {
        const QString csv = selectedRowsCsv();
        if (!csv.isEmpty())
            QApplication::clipboard()->setText(csv);
    });
    d->table->installEventFilter(this);

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(topKLabel);
    controls->addWidget(d->topK);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(d->header);
    layout->addLayout(controls);
    layout->addWidget(d->filter);
    layout->addWidget(d->table, 1);

    // Table → document.
    auto push = [this] {
        if (d->syncing)
            return;
        QItemSelectionModel* sel = d->table->selectionModel();
        const QModelIndex cur = sel->currentIndex();
        int sample = -1;
        if (cur.isValid() && sel->isRowSelected(cur.row(), {})) {
            sample = d->sampleAtProxyRow(cur.row());
        } else {
            const QModelIndexList rows = sel->selectedRows();
            if (!rows.isEmpty())
                sample = d->sampleAtProxyRow(rows.first().row());
        }
        d->syncing = true;
        d->doc->setSelectedPoint(sample);
        d->syncing = false;
    };
    connect(d->table->selectionModel(), &QItemSelectionModel::selectionChanged, this, push);
    connect(d->table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, push);

    // Document → table.
    connect(d->doc, &DataDocument::selectionChanged, this, [this](int index) {
        if (d->syncing)
            return;
        d->syncing = true;
        QItemSelectionModel* sel = d->table->selectionModel();
        const int row = d->proxyRowOfSample(index);
        if (row < 0) {
            sel->clearSelection();
        } else {
            const QModelIndex idx = d->proxy->index(row, 0);
            sel->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            d->table->scrollTo(idx, QAbstractItemView::PositionAtCenter);
        }
        d->syncing = false;
    });

    connect(d->topK, &QSpinBox::valueChanged, this, [this](int k) { d->doc->setTopK(k); });
    connect(d->doc, &DataDocument::topKChanged, this, [this](int k) {
        const QSignalBlocker block(d->topK);
        d->topK->setValue(k);
        d->model->setTopK(k);
    });

    connect(d->table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& idx) {
        const int sample = d->sampleAtProxyRow(idx.row());
        if (sample >= 0)
            emit flyToRequested(sample);
    });

    auto rebuild = [this] {
        d->syncing = true;
        d->model->setLabelName(QString::fromStdString(d->doc->dataset().labelName));
        d->model->rebuild(*d->doc);
        d->table->setColumnHidden(ColLabel, !d->model->hasLabels());
        d->table->setColumnHidden(ColExplanation, !d->model->hasExplanations());
        d->sizeColumns();
        {
            const QSignalBlocker block(d->topK);
            d->topK->setRange(0, static_cast<int>(d->doc->dataset().rows()));
            d->topK->setValue(d->doc->topK());
            d->topK->setEnabled(!d->doc->isEmpty());
        }
        const FitResult* r = d->model->result();
        if (!r) {
            d->summary = tr("Train a detector to rank the points");
            d->header->setText(d->summary.toHtmlEscaped());
        } else {
            d->updateSummary();
        }
        d->syncing = false;
        // Re-show the document's current selection in the new rows (no signal back).
        const int sel = d->doc->selectedPoint();
        const int row = d->proxyRowOfSample(sel);
        if (row >= 0) {
            d->syncing = true;
            const QModelIndex idx = d->proxy->index(row, 0);
            d->table->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            d->table->scrollTo(idx, QAbstractItemView::PositionAtCenter);
            d->syncing = false;
        } else {
            d->table->scrollToTop();
        }
    };
    connect(d->doc, &DataDocument::thresholdChanged, this, [this](double t) {
        const FitResult* r = d->model->result();
        if (!r)
            return;
        d->model->setThreshold(t);
        d->updateSummary();
    });
    connect(d->doc, &DataDocument::datasetChanged, this, rebuild);
    connect(d->doc, &DataDocument::resultChanged, this, rebuild);
    rebuild();
}

QTableView* RankingPanel::table() const
{
    return d->table;
}

QSpinBox* RankingPanel::topKSpin() const
{
    return d->topK;
}

RankingFilterBar* RankingPanel::filterBar() const
{
    return d->filter;
}

int RankingPanel::rowOfSample(int index) const
{
    return d->proxyRowOfSample(index);
}

QString RankingPanel::headerText() const
{
    return d->summary;
}

QString RankingPanel::selectedRowsCsv() const
{
    const QModelIndexList selected = d->table->selectionModel()->selectedRows();
    if (selected.isEmpty())
        return {};
    std::vector<int> rows;
    rows.reserve(static_cast<std::size_t>(selected.size()));
    for (const QModelIndex& i : selected)
        rows.push_back(i.row());
    std::sort(rows.begin(), rows.end()); // in the order shown
    std::vector<int> columns;
    for (int c = 0; c < ColumnCount; ++c)
        if (!d->table->isColumnHidden(c))
            columns.push_back(c);
    QStringList lines;
    QStringList fields;
    for (int c : columns)
        fields << csvField(d->model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    lines << fields.join(QLatin1Char(','));
    for (int r : rows) {
        const int src = d->proxy->mapToSource(d->proxy->index(r, 0)).row();
        fields.clear();
        for (int c : columns)
            fields << csvField(c == ColOutlier ? (d->model->sortKey(src, c) != 0 ? QStringLiteral("1") : QStringLiteral("0"))
                                               : d->model->text(src, c));
        lines << fields.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool RankingPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == d->table && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && key->modifiers() == Qt::NoModifier) {
            const QModelIndex cur = d->table->currentIndex();
            const int sample = cur.isValid() ? d->sampleAtProxyRow(cur.row()) : -1;
            if (sample >= 0)
                emit flyToRequested(sample);
            return true;
        }
        if (key->matches(QKeySequence::Copy)) {
            const QString csv = selectedRowsCsv();
            if (!csv.isEmpty())
                QApplication::clipboard()->setText(csv);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace olens
