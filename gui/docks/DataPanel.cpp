#include "docks/DataPanel.h"

#include "document/DataDocument.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace olens {

DataPanel::DataPanel(DataDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document), m_summary(new QLabel(this)), m_features(new QTableWidget(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_features->setColumnCount(4);
    m_features->setHorizontalHeaderLabels({tr("feature"), tr("min"), tr("mean"), tr("max")});
    m_features->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
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
        m_features->setRowCount(0);
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
    m_features->setRowCount(static_cast<int>(d.cols()));
    for (int j = 0; j < d.cols(); ++j) {
        const auto col = d.X.col(j);
        m_features->setItem(j, 0, new QTableWidgetItem(QString::fromStdString(d.featureNames[static_cast<std::size_t>(j)])));
        m_features->setItem(j, 1, new QTableWidgetItem(QString::number(col.minCoeff(), 'g', 5)));
        m_features->setItem(j, 2, new QTableWidgetItem(QString::number(col.mean(), 'g', 5)));
        m_features->setItem(j, 3, new QTableWidgetItem(QString::number(col.maxCoeff(), 'g', 5)));
    }
}

} // namespace olens
