#include "docks/SplomPanel.h"

#include "plots/AttributionChart.h"
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "plots/SplomWidget.h"
#include "display/SplomLayout.h"
#include "pipeline/FitPipeline.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

namespace olens {

SplomPanel::SplomPanel(DataDocument* document, CloudView* view, QWidget* parent)
    : QWidget(parent), m_doc(document), m_view(view), m_list(new QListWidget), m_matrix(new SplomWidget(document)),
      m_chart(new AttributionChart), m_note(new QLabel)
{
    setObjectName("splomPanel");
    m_list->setObjectName("splomFeatures");
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
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        int checked = 0;
        for (int j = 0; j < m_list->count(); ++j)
            checked += m_list->item(j)->checkState() == Qt::Checked;
        // Refuse a feature beyond the limit: a 9×9 matrix has cells too small to read.
        m_limitHit = item->checkState() == Qt::Checked && checked > SplomWidget::kMaxFeatures;
        if (m_limitHit) {
            QSignalBlocker block(m_list);
            item->setCheckState(Qt::Unchecked);
        }
        onFeaturesEdited();
    });
    if (m_view)
        connect(m_view, &CloudView::coloursChanged, this, [this] { m_matrix->setColours(m_view->pointColours()); });
    onDataset();
}

QString SplomPanel::noteText() const
{
    return m_note->text();
}

void SplomPanel::onDataset()
{
    const Dataset& d = m_doc->dataset();
    {
        QSignalBlocker block(m_list);
        m_list->clear();
        for (const auto& n : d.featureNames) {
            auto* item = new QListWidgetItem(QString::fromStdString(n), m_list);
            item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            item->setCheckState(Qt::Unchecked);
        }
    }
    setFeatures(splomDefaultFeatures(int(d.cols())));
    if (m_view)
        m_matrix->setColours(m_view->pointColours());
    updateAttribution();
}

void SplomPanel::setFeatures(const std::vector<int>& features)
{
    {
        QSignalBlocker block(m_list);
        for (int j = 0; j < m_list->count(); ++j)
            m_list->item(j)->setCheckState(Qt::Unchecked);
        int kept = 0;
        for (int f : features)
            if (f >= 0 && f < m_list->count() && kept < SplomWidget::kMaxFeatures) {
                m_list->item(f)->setCheckState(Qt::Checked);
                ++kept;
            }
    }
    m_limitHit = false;
    onFeaturesEdited();
}

void SplomPanel::onFeaturesEdited()
{
    std::vector<int> chosen;
    for (int j = 0; j < m_list->count(); ++j)
        if (m_list->item(j)->checkState() == Qt::Checked)
            chosen.push_back(j);
    m_matrix->setFeatures(chosen);
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
    const Eigen::VectorXd c = featureContributions(*r, d.X, row);
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
