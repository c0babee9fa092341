#include "dialogs/GeometryChooserDialog.h"

#include "document/DataDocument.h"
#include "view/layers/PointColouring.h"

#include <QDialogButtonBox>
#include <algorithm>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>

namespace olens {

namespace {
QIcon swatch(const QColor& c)
{
    QPixmap pm(12, 12);
    pm.fill(c);
    return QIcon(pm);
}
} // namespace

GeometryChooserDialog::GeometryChooserDialog(const DataDocument* doc, const GeometryChoice& current, QWidget* parent)
    : QDialog(parent), m_doc(doc), m_list(new QListWidget(this)), m_violated(new QPushButton(this))
{
    setWindowTitle(tr("Choose quadrics and planes"));
    const auto result = doc->result();
    if (result) {
        const Geometry& g = result->geometry;
        m_quadrics = g.quadrics.size();
        m_frames = g.frames.size();
        for (std::size_t k = 0; k < m_quadrics; ++k) {
            auto* item = new QListWidgetItem(swatch(PointColouring::componentColour(int(k))),
                                             g.quadrics[k].name.empty() ? tr("quadric %1 (zero set)").arg(k + 1)
                                                                             : QString::fromStdString(g.quadrics[k].name),
                                             m_list);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(current.quadricShown(k) ? Qt::Checked : Qt::Unchecked);
        }
        for (std::size_t f = 0; f < m_frames; ++f) {
            const QString name = g.frames[f].name.empty() ? tr("frame %1").arg(f + 1) : QString::fromStdString(g.frames[f].name);
            auto* item = new QListWidgetItem(swatch(PointColouring::componentColour(int(f))),
                                             tr("hyperplanes of %1 (%2 planes)").arg(name).arg(g.frames[f].planes.size()), m_list);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(current.frameShown(f) ? Qt::Checked : Qt::Unchecked);
        }
    }
    auto* note = new QLabel(tr("Checked items are drawn while their layer (Quadrics, Hyperplanes) is on; the legend "
                               "lists those that cross the grid."), this);
    note->setWordWrap(true);
    auto* all = new QPushButton(tr("All"), this);
    auto* none = new QPushButton(tr("None"), this);
    m_violated->setText(tr("Most violated by the selected point"));
    m_violated->setToolTip(tr("The 3 quadrics with the largest |f(x)| at the selected point (select one in the view "
                              "or the Ranking dock first)"));
    m_violated->setEnabled(m_quadrics > 0 && doc->selectedPoint() >= 0);
    connect(all, &QPushButton::clicked, this, [this] { setAll(true); });
    connect(none, &QPushButton::clicked, this, [this] { setAll(false); });
    connect(m_violated, &QPushButton::clicked, this, [this] { chooseMostViolated(); });
    auto* row = new QHBoxLayout;
    row->addWidget(all);
    row->addWidget(none);
    row->addWidget(m_violated);
    row->addStretch(1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(m_list, 1);
    layout->addLayout(row);
    layout->addWidget(buttons);
    resize(470, 420);
}

void GeometryChooserDialog::setAll(bool on)
{
    for (int i = 0; i < m_list->count(); ++i)
        m_list->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

bool GeometryChooserDialog::chooseMostViolated(std::size_t k)
{
    const auto result = m_doc->result();
    const int sel = m_doc->selectedPoint();
    const Dataset& d = m_doc->dataset();
    if (!result || m_quadrics == 0 || sel < 0 || sel >= d.rows())
        return false;
    const Eigen::VectorXd x = result->normalizer.transform(d.X.row(sel)).row(0).transpose();
    const auto top = mostViolatedQuadrics(result->geometry.quadrics, x, k);
    for (std::size_t q = 0; q < m_quadrics; ++q)
        m_list->item(int(q))->setCheckState(std::find(top.begin(), top.end(), q) != top.end() ? Qt::Checked : Qt::Unchecked);
    return true;
}

GeometryChoice GeometryChooserDialog::choice() const
{
    GeometryChoice c;
    for (std::size_t q = 0; q < m_quadrics; ++q)
        c.quadrics.push_back(m_list->item(int(q))->checkState() == Qt::Checked);
    for (std::size_t f = 0; f < m_frames; ++f)
        c.frames.push_back(m_list->item(int(m_quadrics + f))->checkState() == Qt::Checked);
    return c;
}

} // namespace olens
