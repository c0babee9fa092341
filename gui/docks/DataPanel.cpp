#include "docks/DataPanel.h"

#include "document/DataDocument.h"

#include <QAbstractTableModel>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <Eigen/Core>

#include <algorithm>
#include <vector>

namespace olens {

// One row per feature: name, min, mean, max (before normalisation), formatted when shown.
class DataPanel::FeatureTable : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    void reset(const Dataset& d)
    {
        beginResetModel();
        m_names.clear();
        for (const auto& name : d.featureNames)
            m_names.push_back(QString::fromStdString(name));
        if (d.rows() > 0) {
            m_min = d.X.colwise().minCoeff();
            m_mean = d.X.colwise().mean();
            m_max = d.X.colwise().maxCoeff();
        } else {
            m_names.clear();
        }
        endResetModel();
    }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(m_names.size()); }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : 4; }

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role != Qt::DisplayRole || !index.isValid())
            return {};
        const int j = index.row();
        switch (index.column()) {
        case 0: return m_names[std::size_t(j)];
        case 1: return QString::number(m_min(j), 'g', 5);
        case 2: return QString::number(m_mean(j), 'g', 5);
        default: return QString::number(m_max(j), 'g', 5);
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
            return {};
        const char* const titles[] = {"feature", "min", "mean", "max"};
        return DataPanel::tr(titles[std::clamp(section, 0, 3)]);
    }

private:
    std::vector<QString> m_names;
    Eigen::RowVectorXd m_min, m_mean, m_max;
};

DataPanel::DataPanel(DataDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document), m_summary(new QLabel(this)), m_model(new FeatureTable(this)),
      m_features(new QTableView(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_features->setModel(m_model);
    m_features->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Sizing to contents reads the first 200 rows, not all of a wide table's features.
    m_features->horizontalHeader()->setResizeContentsPrecision(200);
    m_features->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_features->verticalHeader()->setDefaultSectionSize(m_features->fontMetrics().height() + 6);
    m_features->verticalHeader()->hide();
    m_features->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_features->setToolTip(tr("Per-feature range of the loaded data (before normalisation)"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_features, 1);
    connect(m_doc, &DataDocument::datasetChanged, this, &DataPanel::refresh);
    refresh();
}

void DataPanel::refresh()
{
    const Dataset& d = m_doc->dataset();
    if (d.rows() == 0) {
        m_summary->setText(tr("No data loaded. Use File → Open (Ctrl+O) to load CSV, TSV, TXT, XYZ or PLY."));
        m_model->reset(d);
        return;
    }
    QString text = tr("<b>%1</b><br>n = %2 samples, p = %3 features")
                       .arg(QFileInfo(m_doc->filePath()).fileName().toHtmlEscaped())
                       .arg(d.rows())
                       .arg(d.cols());
    if (d.hasLabels()) {
        text += tr("<br>label column: <i>%1</i>").arg(QString::fromStdString(d.labelName).toHtmlEscaped());
        const long outliers = d.outlierFlags().sum();
        text += tr(" (%1 non-zero)").arg(outliers);
    } else {
        text += tr("<br>no label column");
    }
    if (d.hasSigma())
        text += tr("<br>per-feature uncertainty (sigma_ columns) present");
    m_summary->setText(text);
    m_model->reset(d);
}

} // namespace olens
