#include "docks/SplomPanel.h"

#include "plots/AttributionChart.h"
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "plots/SplomWidget.h"
#include "display/SplomLayout.h"
#include "pipeline/FitPipeline.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QAbstractListModel>
#include <QListView>
#include <QPointer>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <string>

namespace olens {

// Feature names with a check box each; ticking one past the limit is refused (onRefused).
class SplomPanel::FeatureChecklist : public QAbstractListModel {
public:
    using QAbstractListModel::QAbstractListModel;
    std::function<void()> onEdited;  ///< after a user's tick or untick
    std::function<void()> onRefused; ///< a tick beyond SplomWidget::kMaxFeatures

    void reset(const std::vector<std::string>& names)
    {
        beginResetModel();
        m_names.clear();
        m_names.reserve(names.size());
        for (const auto& n : names)
            m_names.push_back(QString::fromStdString(n));
        m_checked.assign(names.size(), 0);
        endResetModel();
    }
    void setChecked(const std::vector<int>& features)
    {
        std::fill(m_checked.begin(), m_checked.end(), 0);
        int kept = 0;
        for (int f : features)
            if (f >= 0 && f < int(m_checked.size()) && kept < SplomWidget::kMaxFeatures && !m_checked[std::size_t(f)]) {
                m_checked[std::size_t(f)] = 1;
                ++kept;
            }
        if (!m_checked.empty())
            emit dataChanged(index(0), index(int(m_checked.size()) - 1), {Qt::CheckStateRole});
    }
    std::vector<int> checked() const
    {
        std::vector<int> out;
        for (std::size_t j = 0; j < m_checked.size(); ++j)
            if (m_checked[j])
                out.push_back(int(j));
        return out;
    }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(m_names.size()); }
    Qt::ItemFlags flags(const QModelIndex&) const override
    {
        return Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    }
    QVariant data(const QModelIndex& index, int role) const override
    {
        if (!index.isValid() || index.row() >= rowCount())
            return {};
        if (role == Qt::DisplayRole)
            return m_names[std::size_t(index.row())];
        if (role == Qt::CheckStateRole)
            return m_checked[std::size_t(index.row())] ? Qt::Checked : Qt::Unchecked;
        return {};
    }
    bool setData(const QModelIndex& index, const QVariant& value, int role) override
    {
        if (role != Qt::CheckStateRole || !index.isValid() || index.row() >= rowCount())
            return false;
        const bool on = value.toInt() == Qt::Checked;
        if (on && !m_checked[std::size_t(index.row())]
            && std::count(m_checked.begin(), m_checked.end(), 1) >= SplomWidget::kMaxFeatures) {
            // A 9×9 matrix has cells too small to read.
            if (onRefused)
                onRefused();
            return false;
        }
        m_checked[std::size_t(index.row())] = on ? 1 : 0;
        emit dataChanged(index, index, {Qt::CheckStateRole});
        if (onEdited)
            onEdited();
        return true;
    }

private:
    std::vector<QString> m_names;
    std::vector<char> m_checked;
};

SplomPanel::SplomPanel(DataDocument* document, CloudView* view, QWidget* parent)
    : QWidget(parent), m_doc(document), m_view(view), m_checklist(new FeatureChecklist(this)), m_list(new QListView),
      m_matrix(new SplomWidget(document)),
      m_chart(new AttributionChart), m_note(new QLabel)
{
    setObjectName("splomPanel");
    m_list->setObjectName("splomFeatures");
    m_list->setModel(m_checklist);
    m_list->setUniformItemSizes(true);
    m_list->setToolTip(tr("Features shown in the matrix (up to %1)").arg(SplomWidget::kMaxFeatures));
    m_list->setMaximumWidth(170);
    m_note->setWordWrap(true);
    m_note->setObjectName("splomNote");

    // The matrix takes the panel's whole width (a column for the feature list beside it left
    // 35-pixel cells at 1280×720, every name cut to "m…"); the list and the attribution chart
    // share the strip under it.
    auto* bottom = new QWidget;
    auto* lists = new QVBoxLayout;
    lists->setContentsMargins(0, 0, 0, 0);
    lists->addWidget(new QLabel(tr("Features")));
    lists->addWidget(m_list, 1);
    auto* strip = new QHBoxLayout(bottom);
    strip->setContentsMargins(0, 0, 0, 0);
    strip->addLayout(lists);
    strip->addWidget(m_chart, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_matrix);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* top = new QVBoxLayout(this);
    top->setContentsMargins(4, 4, 4, 4);
    top->addWidget(split, 1);
    top->addWidget(m_note);

    connect(m_doc, &DataDocument::datasetChanged, this, &SplomPanel::onDataset);
    connect(m_doc, &DataDocument::resultChanged, this, &SplomPanel::updateAttribution);
    connect(m_doc, &DataDocument::selectionChanged, this, &SplomPanel::updateAttribution);
    connect(m_doc, &DataDocument::pointSelectionChanged, this, &SplomPanel::updateNote);
    m_checklist->onEdited = [this] {
        m_limitHit = false;
        onFeaturesEdited();
    };
    m_checklist->onRefused = [this] {
        m_limitHit = true;
        updateNote();
    };
    if (m_view) {
        m_matrix->setColourSource([view = QPointer<CloudView>(m_view), doc = m_doc](int row, QRgb fallback) {
            return view ? view->pointColour(row, doc->dataset().rows(), fallback) : fallback;
        });
        connect(m_view, &CloudView::coloursChanged, m_matrix, &SplomWidget::coloursChanged);
    }
    onDataset();
}

QString SplomPanel::noteText() const
{
    return m_note->text();
}

void SplomPanel::onDataset()
{
    const Dataset& d = m_doc->dataset();
    m_checklist->reset(d.featureNames);
    setFeatures(splomDefaultFeatures(int(d.cols())));
    updateAttribution();
}

void SplomPanel::setFeatures(const std::vector<int>& features)
{
    m_checklist->setChecked(features);
    m_limitHit = false;
    onFeaturesEdited();
}

void SplomPanel::onFeaturesEdited()
{
    m_matrix->setFeatures(m_checklist->checked());
    updateNote();
}

void SplomPanel::updateNote()
{
    const Dataset& d = m_doc->dataset();
    QStringList parts;
    if (m_matrix->isDecimated())
        parts << tr("%1 of %2 points drawn (one row in %3, plus the selection); a box counts all of them")
                     .arg(splomDecimation(int(d.rows()), SplomWidget::kMaxPoints, m_doc->pointSelection()).size())
                     .arg(d.rows())
                     .arg((d.rows() + SplomWidget::kMaxPoints - 1) / SplomWidget::kMaxPoints);
    if (m_limitHit)
        parts << tr("At most %1 features at once").arg(SplomWidget::kMaxFeatures);
    if (d.cols() > SplomWidget::kMaxFeatures)
        parts << tr("%1 of %2 features shown; tick others in the list").arg(m_matrix->features().size()).arg(d.cols());
    m_note->setText(parts.join(QStringLiteral(" · ")));
    m_note->setVisible(!parts.isEmpty());
}

void SplomPanel::updateAttribution()
{
    updateNote();
    const auto r = m_doc->result();
    const int row = m_doc->selectedPoint();
    const Dataset& d = m_doc->dataset();
    if (!r || r->scores.size() != d.rows()) {
        m_chart->showMessage(tr("Train a detector, then select a point to see the features that drive its score"));
        return;
    }
    if (!r->detector->featureAttribution()) {
        m_chart->showMessage(tr("%1 cannot split its score by feature").arg(QString::fromStdString(r->detectorId)));
        return;
    }
    if (row < 0) {
        m_chart->showMessage(tr("Select a point to see the features that drive its score"));
        return;
    }
    // "Fitted on these rows?" streams every row: asked once per result and data, not per click.
    const auto data = m_doc->sharedDataset();
    if (m_fittedOn.result.lock() != r || m_fittedOn.data.lock() != data)
        m_fittedOn = {r, data, fittedOnRows(*r, d.X)};
    const Eigen::VectorXd c = featureContributions(*r, d.X, row, m_fittedOn.answer);
    if (c.size() != d.cols()) {
        m_chart->showMessage(tr("No attribution for point %1").arg(row));
        return;
    }
    const QString total = QString::fromStdString(r->detector->featureAttribution()->attributionTotal());
    m_chart->setContributions(c, d.featureNames,
                              tr("Point %1 (score %2): contributions to %3 = %4, by feature")
                                  .arg(row)
                                  .arg(r->scores(row), 0, 'g', 4)
                                  .arg(total)
                                  .arg(c.sum(), 0, 'g', 4));
}

} // namespace olens
