#include "docks/RankingPanel.h"
#include "metrics/Thresholds.h"
#include "data/CsvCells.h"

#include "document/DataDocument.h"
#include "docks/RankingFilterBar.h"
#include "docks/RankingModel.h"
#include "display/SelectionGeometry.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace olens {

namespace {

QString csvField(const QString& text)
{
    // No cell a spreadsheet runs as a formula (a text label "=…", a header): data/CsvCells.h.
    const QString s = QString::fromStdString(neutraliseCell(text.toStdString()));
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
    QComboBox* rule = nullptr; // label-free threshold rule (metrics/Thresholds), or the detector's own
    bool ruleChosen = false;   // the user picked a rule: no size-based default replaces it
    double ruleThreshold = std::numeric_limits<double>::quiet_NaN(); // the rule's last threshold (the header names it)
    QTableView* table = nullptr;
    RankingModel* model = nullptr; // sorts and filters its rows itself
    RankingFilterBar* filter = nullptr;
    QString summary;      // the header's first line as plain text
    bool syncing = false; // set while one side updates the other: breaks selection loops
    bool syncingBefore = false; // `syncing` outside a re-arrangement of the rows (restored after it)

    /// Fixed widths from the header text and the widest expected cell (measuring 1e5 rows is too slow).
    void sizeColumns()
    {
        const QFontMetrics fm = table->fontMetrics();
        QFont bold = table->font();
        bold.setBold(true);
        const QFontMetrics bm(bold); // top-k rows are bold
        QHeaderView* hh = table->horizontalHeader();
        // Of every ranked row (text() takes a rank), not of the rows a kept filter shows now.
        const int digits = QString::number(std::max(model->rankCount(), 1)).size();
        // Compact (issue #52: at 1024×600 the flag and "flagged by" columns fell off the right edge
        // and a sideways scroll hid index and score): short headers with their tooltips, the score
        // column as wide as the scores shown (the top and the bottom of the ranking), not as wide
        // as any number could be.
        const int indicator = 18; // sort arrow and padding
        const auto width = [&](int column, const QString& widest) {
            const int head = fm.horizontalAdvance(model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
            return std::max(head + indicator, bm.horizontalAdvance(widest) + 10);
        };
        hh->resizeSection(ColRank, width(ColRank, QString(digits, QLatin1Char('0'))));
        hh->resizeSection(ColIndex, width(ColIndex, QString(digits, QLatin1Char('0'))));
        QString widestScore = QStringLiteral("0.0");
        const int rows = model->rankCount();
        for (int r = 0; r < rows; r = r < 100 || r >= rows - 100 ? r + 1 : rows - 100) {
            const QString t = model->text(r, ColScore);
            if (bm.horizontalAdvance(t) > bm.horizontalAdvance(widestScore))
                widestScore = t;
        }
        hh->resizeSection(ColScore, width(ColScore, widestScore));
        QString widestLabel = QStringLiteral("0");
        for (int r = 0; r < std::min(model->rankCount(), 200); ++r) { // label names: a sample is enough
            const QString t = model->text(r, ColLabel);
            if (t.size() > widestLabel.size())
                widestLabel = t;
        }
        hh->resizeSection(ColLabel, std::min(width(ColLabel, widestLabel), fm.averageCharWidth() * 24));
        hh->resizeSection(ColOutlier, width(ColOutlier, QStringLiteral("yes")));
        hh->resizeSection(ColFlaggedBy, width(ColFlaggedBy, tr("%1 of %2").arg(16).arg(16)));
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
                      .arg(model->rankCount())
                      .arg(model->flaggedCount())
                      .arg(QString::number(t, 'g', 6));
        const bool own = t == r->threshold;
        const auto selected = static_cast<qlonglong>(doc->pointSelection().size());
        // A label-free rule (a big cloud's automatic "top 1000" among them) is named as such: the
        // header called it "your threshold", which the user never set.
        const QString byRule = rule && rule->currentIndex() > 0 && t == ruleThreshold ? rule->currentText() : QString();
        const QString detectorOwn = QString::number(r->threshold, 'g', 6);
        header->setText(summary.toHtmlEscaped()
                        + (own               ? QString()
                           : byRule.isEmpty() ? tr(" — your threshold (the detector's: %1)").arg(detectorOwn)
                                              : tr(" — rule: %1 (the detector's: %2)").arg(byRule.toHtmlEscaped(), detectorOwn))
                        + (selected > 1 ? tr(", <b>%1 selected</b>").arg(selected) : QString())
                        + tr("<br><span style='background:%1'>&nbsp;red rows&nbsp;</span> flagged at this "
                             "threshold, <b>bold</b> rows: the top k")
                              .arg(QLatin1String(kFlaggedTintCss)));
    }

    /// The samples of the table rows in a selection (each once).
    std::vector<int> samplesIn(const QItemSelection& selection) const
    {
        std::vector<int> samples;
        for (const QItemSelectionRange& r : selection)
            for (int row = r.top(); row <= r.bottom(); ++row)
                samples.push_back(model->sampleAt(row));
        return combineSelection({}, samples, SelectionOp::Replace);
    }

    /// Selects the rows of the document's selection (runs of adjacent rows as one range) and makes
    /// its current point the current row, scrolled into view (unless `scroll` is false); no signal
    /// back. False when no row is selected.
    bool showDocumentSelection(bool scroll = true)
    {
        std::vector<int> rows;
        for (int sample : doc->pointSelection())
            if (const int row = model->rowOfSample(sample); row >= 0)
                rows.push_back(row);
        std::sort(rows.begin(), rows.end());
        QItemSelection sel;
        for (std::size_t a = 0; a < rows.size();) {
            std::size_t b = a;
            while (b + 1 < rows.size() && rows[b + 1] == rows[b] + 1)
                ++b;
            sel.append(QItemSelectionRange(model->index(rows[a], 0), model->index(rows[b], ColumnCount - 1)));
            a = b + 1;
        }
        syncing = true;
        QItemSelectionModel* selection = table->selectionModel();
        selection->select(sel, QItemSelectionModel::ClearAndSelect);
        const int current = model->rowOfSample(doc->selectedPoint());
        const int shown = current >= 0 ? current : (rows.empty() ? -1 : rows.front());
        if (current >= 0)
            selection->setCurrentIndex(model->index(current, 0), QItemSelectionModel::NoUpdate);
        if (shown >= 0 && scroll)
            table->scrollTo(model->index(shown, 0), QAbstractItemView::PositionAtCenter);
        syncing = false;
        return !rows.empty();
    }
};

RankingPanel::RankingPanel(DataDocument* document, QWidget* parent) : QWidget(parent), d(std::make_shared<Impl>())
{
    d->doc = document;
    d->header = new QLabel(this);
    d->header->setObjectName(QStringLiteral("rankingHeader"));
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
    d->filter = new RankingFilterBar(d->doc, this);
    d->model->setFilter(d->filter);
    // A sort or a filter moves rows: the rows leaving the table stay selected in the document, and
    // the document's selection is shown again in the new order.
    d->model->arranging = [this](bool before, bool scroll) {
        if (before) {
            d->syncingBefore = std::exchange(d->syncing, true);
            return;
        }
        d->syncing = false;
        if (!d->showDocumentSelection(scroll) && scroll)
            d->table->scrollToTop();
        d->syncing = d->syncingBefore;
    };
    connect(d->filter, &RankingFilterBar::filterChanged, this, [this] { d->model->refilter(); });

    d->table = new QTableView(this);
    d->table->setModel(d->model);
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

    // Threshold without guessing the contamination: a rule on the training scores sets the
    // document's threshold (what the table's flags, the view's contour and the metrics use).
    d->rule = new QComboBox(this);
    d->rule->setObjectName("thresholdRule");
    for (const auto& name : thresholdRuleNames()) {
        const ThresholdRule r = parseThresholdRule(name);
        d->rule->addItem(r == ThresholdRule::Detector ? tr("detector's")
                         : r == ThresholdRule::Top    ? tr("top 1000")
                                                      : QString::fromStdString(name).toUpper());
        d->rule->setItemData(d->rule->count() - 1, QString::fromStdString(describe(r)), Qt::ToolTipRole);
    }
    d->rule->setToolTip(tr("Decision threshold: the detector's own (its contamination quantile), or a rule on the "
                           "training scores that needs no guess of the outlier share: MAD (median + 3 × 1.4826 × "
                           "MAD), IQR (Q3 + 1.5 × IQR), Otsu (histogram cut), or the 1000 highest scores (the default from "
                           "200 000 rows, where the rest is drawn small and faded). The header shows how many it flags."));
    auto* ruleLabel = new QLabel(tr("threshold:"), this);
    ruleLabel->setBuddy(d->rule);
    ruleLabel->setToolTip(d->rule->toolTip());
    auto applyRule = [this] {
        const FitResult* r = d->doc->result().get(); // the document's: the table may not have it yet
        if (!r || !r->detector)
            return;
        // The rule flags at most 1 % of the rows: "top 1000" said 1000 where it flags 5 of 500.
        d->rule->setItemText(static_cast<int>(ThresholdRule::Top),
                             tr("top %1").arg(static_cast<qlonglong>(topCount(r->detector->trainingScores().size()))));
        // Big clouds (issue #54): unless the user chose a rule, the threshold is the 1000 highest
        // scores — a 0.1 contamination flags 100 000 points of a million and hides the cloud.
        if (!d->ruleChosen) {
            const bool big = isBigCloud(r->scores.size()); // the cloud's rows, as the view's test
            d->rule->setCurrentIndex(big ? static_cast<int>(ThresholdRule::Top) : 0);
        }
        if (d->rule->currentIndex() <= 0)
            return;
        try {
            d->ruleThreshold = labelFreeThreshold(r->detector->trainingScores(), static_cast<ThresholdRule>(d->rule->currentIndex()));
            d->doc->setThreshold(d->ruleThreshold);
        } catch (const std::exception&) {
            d->rule->setCurrentIndex(0); // non-finite scores: keep the detector's threshold
        }
    };
    connect(d->rule, &QComboBox::activated, this, [this, applyRule](int index) {
        d->ruleChosen = true;
        const FitResult* r = d->model->result();
        if (index == 0 && r)
            d->doc->setThreshold(r->threshold);
        else
            applyRule();
    });
    // A new result keeps the chosen rule — at once, so that nothing (a view, a scripted screenshot)
    // draws the new result at a threshold the rule is about to replace (a 5 M-point cloud's
    // screenshot showed the detector's 500 000 flagged points, issue #54).
    connect(d->doc, &DataDocument::resultChanged, this, applyRule);

    // Two short rows rather than one long one: the dock is ~300 px wide on a 1024-px screen, where
    // one row cut the threshold rule off (issue #35); the rule's combo may shrink (it elides).
    d->rule->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    d->rule->setMinimumContentsLength(10);
    auto* controls = new QGridLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(topKLabel, 0, 0);
    controls->addWidget(d->topK, 0, 1, Qt::AlignLeft);
    controls->addWidget(ruleLabel, 1, 0);
    controls->addWidget(d->rule, 1, 1);
    controls->setColumnStretch(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(d->header);
    layout->addLayout(controls);
    layout->addWidget(d->filter);
    layout->addWidget(d->table, 1);

    // Table → document: the rows the user selects or deselects change the document's selection
    // (rows hidden by the filter keep their state); the current row is its current point.
    connect(d->table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this](const QItemSelection& selected, const QItemSelection& deselected) {
                if (d->syncing)
                    return;
                std::vector<int> sel = combineSelection(d->doc->pointSelection(), d->samplesIn(deselected), SelectionOp::Subtract);
                sel = combineSelection(sel, d->samplesIn(selected), SelectionOp::Add);
                QItemSelectionModel* model = d->table->selectionModel();
                const QModelIndex cur = model->currentIndex();
                const int current = cur.isValid() && model->isRowSelected(cur.row(), {}) ? d->model->sampleAt(cur.row())
                                                                                         : DataDocument::kKeepCurrent;
                d->syncing = true;
                d->doc->setPointSelection(std::move(sel), current);
                d->syncing = false;
            });
    connect(d->table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
        if (d->syncing || !cur.isValid())
            return;
        const int sample = d->model->sampleAt(cur.row());
        if (sample == d->doc->selectedPoint() || !d->doc->isSelected(sample))
            return; // not selected (yet): selectionChanged decides
        d->syncing = true;
        d->doc->setPointSelection(d->doc->pointSelection(), sample);
        d->syncing = false;
    });

    // Document → table (and the "selection only" filter follows the selection).
    auto follow = [this] {
        if (d->model->result())
            d->updateSummary(); // the number selected
        if (d->syncing)
            return; // the table's own change
        if (d->filter->show() == RankingFilterBar::Show::Selection)
            d->model->refilter(); // shows the selection when done
        else
            d->showDocumentSelection();
    };
    connect(d->doc, &DataDocument::selectionChanged, this, follow);
    connect(d->doc, &DataDocument::pointSelectionChanged, this, follow);

    connect(d->topK, &QSpinBox::valueChanged, this, [this](int k) { d->doc->setTopK(k); });
    connect(d->doc, &DataDocument::topKChanged, this, [this](int k) {
        const QSignalBlocker block(d->topK);
        d->topK->setValue(k);
        d->model->setTopK(k);
    });

    connect(d->table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& idx) {
        const int sample = d->model->sampleAt(idx.row());
        if (sample >= 0)
            emit flyToRequested(sample);
    });

    auto rebuild = [this] {
        d->syncing = true;
        d->model->setLabelName(QString::fromStdString(d->doc->dataset().labelName));
        d->model->rebuild(*d->doc);
        d->table->setColumnHidden(ColLabel, !d->model->hasLabels());
        d->table->setColumnHidden(ColExplanation, !d->model->hasExplanations());
        d->table->setColumnHidden(ColFlaggedBy, !d->model->hasAgreement());
        d->table->setColumnHidden(ColScore, d->model->agreementOnly());
        d->table->setColumnHidden(ColOutlier, d->model->agreementOnly());
        d->sizeColumns();
        {
            const QSignalBlocker block(d->topK);
            d->topK->setRange(0, static_cast<int>(d->doc->dataset().rows()));
            d->topK->setValue(d->doc->topK());
            d->topK->setEnabled(!d->doc->isEmpty());
        }
        const FitResult* r = d->model->result();
        if (d->model->agreementOnly()) {
            d->summary = tr("No detector trained here: the points in order of how many of the compare panels' "
                            "%1 detectors flag them (%2); train one for scores")
                             .arg(d->model->agreementOf())
                             .arg(d->model->agreementNames());
            d->header->setText(d->summary.toHtmlEscaped());
        } else if (!r && d->doc->showsTraining()) {
            d->summary = tr("A step-by-step training is under way: its points are ranked when it ends "
                            "(N: one more step, Shift+N: run on, Esc: back to the trained model)");
            d->header->setText(d->summary.toHtmlEscaped());
        } else if (!r) {
            d->summary = tr("Train a detector to rank the points");
            d->header->setText(d->summary.toHtmlEscaped());
        } else {
            d->updateSummary();
        }
        d->syncing = false;
        // Re-show the document's selection in the new rows (no signal back).
        if (!d->showDocumentSelection())
            d->table->scrollToTop();
    };
    connect(d->doc, &DataDocument::thresholdChanged, this, [this](double t) {
        const FitResult* r = d->model->result();
        if (!r)
            return;
        if (r != d->doc->result().get())
            return; // a new result's rule, before the table has the result: rebuild() reads the threshold
        d->syncing = true; // rows a filter hides as the threshold moves stay selected in the document
        const bool arranged = d->model->setThreshold(t);
        d->syncing = false;
        d->updateSummary();
        if (!arranged) // (a re-arrangement has shown it)
            d->showDocumentSelection(false); // the table stays where it is while the threshold is dragged
    });
    connect(d->doc, &DataDocument::datasetChanged, this, rebuild);
    connect(d->doc, &DataDocument::resultChanged, this, rebuild);
    connect(d->doc, &DataDocument::agreementChanged, this, [this, rebuild] {
        if (!d->model->result()) { // the rows are ordered by the agreement: list them again
            rebuild();
            return;
        }
        d->model->setAgreement(*d->doc);
        d->table->setColumnHidden(ColFlaggedBy, !d->model->hasAgreement());
    });
    rebuild();
}

QString RankingPanel::thresholdRule() const
{
    const int i = d->rule->currentIndex();
    return i < 0 ? QString() : QString::fromStdString(thresholdRuleNames()[static_cast<std::size_t>(i)]);
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
    return d->model->rowOfSample(index);
}

int RankingPanel::listedStep() const
{
    const FitResult* r = d->model->result();
    return r ? stepShownBy(*r) : -1;
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
        fields << csvField(d->model->headerData(c, Qt::Horizontal, Qt::UserRole).toString());
    lines << fields.join(QLatin1Char(','));
    for (int r : rows) {
        const int src = d->model->rankAt(r);
        fields.clear();
        for (int c : columns)
            fields << csvField(c == ColOutlier     ? (d->model->sortKey(src, c) != 0 ? QStringLiteral("1") : QStringLiteral("0"))
                               : c == ColFlaggedBy ? QString::number(d->model->sortKey(src, c)) // a count, for a spreadsheet
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
            const int sample = cur.isValid() ? d->model->sampleAt(cur.row()) : -1;
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
