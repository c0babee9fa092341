#include "dialogs/DetectorChooserDialog.h"

#include "registry/Registry.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace olens {

DetectorChooserDialog::DetectorChooserDialog(const std::vector<std::string>& checked, int maxChecked, QWidget* parent)
    : QDialog(parent), m_list(new QListWidget), m_ok(nullptr), m_count(new QLabel), m_maxChecked(maxChecked)
{
    setWindowTitle(tr("Detectors to compare"));
    for (const auto& d : Registry::instance().detectors()) {
        auto* item = new QListWidgetItem(QString::fromStdString(d.id + " — " + d.title), m_list);
        item->setData(Qt::UserRole, QString::fromStdString(d.id));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool on = std::find(checked.begin(), checked.end(), d.id) != checked.end();
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(QString::fromStdString(d.summary) + "\n" + QString::fromStdString(d.reference) +
                         tr("\nnormalisation: %1").arg(QString::fromStdString(d.normalization)));
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Compare"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("One panel per checked detector, trained with the paper's defaults and "
                                    "normalisation (edit a panel with its … button).")));
    layout->addWidget(m_list, 1);
    layout->addWidget(m_count);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::itemChanged, this, &DetectorChooserDialog::updateOk);
    updateOk();
    resize(460, 420);
}

std::vector<std::string> DetectorChooserDialog::checkedIds() const
{
    std::vector<std::string> ids;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            ids.push_back(m_list->item(i)->data(Qt::UserRole).toString().toStdString());
    return ids;
}

void DetectorChooserDialog::setChecked(const std::string& id, bool on)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString().toStdString() == id)
            m_list->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

void DetectorChooserDialog::updateOk()
{
    const int n = static_cast<int>(checkedIds().size());
    const bool ok = n >= 2 && n <= m_maxChecked;
    m_ok->setEnabled(ok);
    m_count->setText(ok ? tr("%1 panels").arg(n)
                        : tr("%1 checked — choose 2 to %2 detectors").arg(n).arg(m_maxChecked));
    m_count->setStyleSheet(ok ? QString() : QStringLiteral("color: #b00020;"));
}

} // namespace olens
