#include "docks/RankingFilterBar.h"
#include "pipeline/DecisionsAt.h"

#include "document/DataDocument.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>

#include <algorithm>
#include <set>

namespace olens {

namespace {
constexpr int kMaxLabelItems = 50; // more distinct labels (class ids) are not listed
}

RankingFilterBar::RankingFilterBar(DataDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document), m_combo(new QComboBox(this)), m_index(new QLineEdit(this))
{
    m_combo->setObjectName("rankingFilter");
    m_combo->setToolTip(tr("Which rows the table shows: all points, those flagged at the current threshold, "
                           "the others, the selected points (box, lasso or picked), one label value, or the "
                           "points a model fitted on a part was (not) trained on"));
    m_index->setObjectName("rankingGoToIndex");
    m_index->setPlaceholderText(tr("go to index"));
    m_index->setValidator(new QIntValidator(0, std::numeric_limits<int>::max(), m_index));
    m_index->setToolTip(tr("Type a point's 0-based row and press Enter: selects it in the table and the view"));
    m_index->setMaximumWidth(110);
    m_index->setMinimumWidth(60);
    // Narrow docks (≈ 300 px at 1024×600): the combo elides instead of pushing "go to index" out.
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_combo->setMinimumContentsLength(8);
    auto* label = new QLabel(tr("show:"), this);
    label->setBuddy(m_combo);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label);
    layout->addWidget(m_combo, 1);
    layout->addWidget(m_index);
    connect(m_combo, &QComboBox::currentIndexChanged, this, &RankingFilterBar::filterChanged);
    connect(m_index, &QLineEdit::returnPressed, this, &RankingFilterBar::onIndexEntered);
    connect(m_doc, &DataDocument::datasetChanged, this, &RankingFilterBar::rebuildItems);
    connect(m_doc, &DataDocument::resultChanged, this, &RankingFilterBar::rebuildItems);
    rebuildItems();
}

void RankingFilterBar::rebuildItems()
{
    const QVariant before = m_combo->currentData();
    const QSignalBlocker block(m_combo);
    m_combo->clear();
    m_combo->addItem(tr("all points"), QVariantList{int(Show::All)});
    m_combo->addItem(tr("flagged only"), QVariantList{int(Show::Flagged)});
    m_combo->addItem(tr("not flagged"), QVariantList{int(Show::NotFlagged)});
    m_combo->addItem(tr("selection only"), QVariantList{int(Show::Selection)});
    if (const auto r = m_doc->result(); r && !r->trainingRows.empty()) { // fitted on a part
        m_combo->addItem(tr("training points"), QVariantList{int(Show::Training)});
        m_combo->addItem(tr("not trained on"), QVariantList{int(Show::HeldOut)});
    }
    const Dataset& d = m_doc->dataset();
    if (d.hasLabels()) {
        std::set<double> values(d.labels.data(), d.labels.data() + d.labels.size());
        const QString name = d.labelName.empty() ? tr("label") : QString::fromStdString(d.labelName);
        int count = 0;
        for (double v : values) {
            if (++count > kMaxLabelItems || v != v)
                break;
            const int id = static_cast<int>(v);
            const QString text = id == v && id >= 0 && id < static_cast<int>(d.labelNames.size())
                                     ? QString::fromStdString(d.labelNames[static_cast<std::size_t>(id)])
                                     : QString::number(v, 'g', 6);
            m_combo->addItem(tr("%1 = %2").arg(name, text), QVariantList{int(Show::Label), v});
        }
    }
    const int keep = m_combo->findData(before);
    m_combo->setCurrentIndex(keep >= 0 ? keep : 0);
    m_combo->setEnabled(m_doc->result() != nullptr);
    m_index->setEnabled(!m_doc->isEmpty());
    if (keep < 0 && before.isValid() && before.toList().value(0).toInt() != int(Show::All))
        emit filterChanged(); // the old filter is gone: everything is shown again
}

RankingFilterBar::Show RankingFilterBar::show() const
{
    return static_cast<Show>(m_combo->currentData().toList().value(0).toInt());
}

void RankingFilterBar::setShow(Show show, double label)
{
    const QVariant key = show == Show::Label ? QVariantList{int(show), label} : QVariantList{int(show)};
    const int i = m_combo->findData(key);
    if (i >= 0)
        m_combo->setCurrentIndex(i);
}

bool RankingFilterBar::accepts(int sample) const
{
    const Show s = show();
    if (s == Show::All)
        return true;
    if (s == Show::Selection)
        return m_doc->isSelected(sample);
    const auto r = m_doc->result();
    if (s == Show::Training || s == Show::HeldOut) {
        const bool training = r && std::binary_search(r->trainingRows.begin(), r->trainingRows.end(), sample);
        return training == (s == Show::Training);
    }
    const Dataset& d = m_doc->dataset();
    if (s == Show::Label)
        return d.hasLabels() && sample < d.labels.size() && d.labels(sample) == m_combo->currentData().toList().value(1).toDouble();
    if (!r || sample >= r->scores.size())
        return true;
    // As the Ranking's outlier column.
    return DecisionsAt(*r, m_doc->threshold())(sample) == (s == Show::Flagged);
}

void RankingFilterBar::onIndexEntered()
{
    bool ok = false;
    const int i = m_index->text().toInt(&ok);
    if (!ok || i < 0 || i >= m_doc->dataset().rows())
        return;
    if (!accepts(i)) // hidden by the filter: show every row again
        setShow(Show::All);
    m_doc->setSelectedPoint(i); // the table, the view and the plots follow the document
}

} // namespace olens
