#include "dialogs/NewDataDialog.h"

#include "base/Errors.h"
#include "data/Generators.h"
#include "dialogs/ParamForm.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace olens {

NewDataDialog::NewDataDialog(QWidget* parent)
    : QDialog(parent), m_generator(new QComboBox), m_summary(new QLabel), m_form(new ParamForm),
      m_count(new QSpinBox), m_seed(new QSpinBox)
{
    setWindowTitle(tr("New data"));
    for (const auto& g : generators())
        m_generator->addItem(QString::fromStdString(g.id), QString::fromStdString(g.id));
    m_generator->addItem(tr("empty canvas (click to add points)"), QString(kEmpty));
    m_generator->setToolTip(tr("A seeded toy data set from the papers' figures, or an empty 2D canvas"));
    m_summary->setWordWrap(true);
    m_count->setRange(2, 2000000);
    m_count->setValue(300);
    m_count->setToolTip(tr("Total number of points, background outliers included"));
    m_seed->setRange(0, 1 << 30);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("Random seed: the same generator, parameters and seed give the same data"));

    auto* top = new QFormLayout;
    top->addRow(tr("&Generator"), m_generator);
    top->addRow(m_summary);
    top->addRow(tr("&Points"), m_count);
    top->addRow(tr("&Seed"), m_seed);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_form);
    layout->addStretch(1);
    layout->addWidget(buttons);
    connect(m_generator, &QComboBox::currentIndexChanged, this, &NewDataDialog::onGenerator);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        try {
            (void)makeDataset(); // validate before closing: errors stay in the dialog
            accept();
        } catch (const std::exception& e) {
            QMessageBox::warning(this, tr("Cannot generate"), QString::fromUtf8(e.what()));
        }
    });
    m_generator->setCurrentIndex(std::max(0, m_generator->findData(QString("moons"))));
    onGenerator();
}

void NewDataDialog::onGenerator()
{
    const QString id = m_generator->currentData().toString();
    const bool empty = id == kEmpty;
    m_count->setEnabled(!empty);
    m_seed->setEnabled(!empty);
    if (empty) {
        m_summary->setText(tr("An empty 2D canvas: switch on Edit → Edit points and click to add inliers, "
                              "shift-click to add outliers."));
        m_form->setSchema({});
        return;
    }
    const GeneratorInfo& g = generatorInfo(id.toStdString());
    m_summary->setText(QString::fromStdString(g.summary));
    m_form->setSchema(g.params);
}

Dataset NewDataDialog::makeDataset() const
{
    const QString id = m_generator->currentData().toString();
    if (id == kEmpty) {
        Dataset d;
        d.source = "empty canvas";
        d.featureNames = {"x", "y"};
        d.X.resize(0, 2);
        return d;
    }
    Dataset d = generate(id.toStdString(), m_count->value(), static_cast<std::uint64_t>(m_seed->value()), m_form->values());
    d.source = QStringLiteral("%1 (n = %2, seed %3)").arg(id).arg(m_count->value()).arg(m_seed->value()).toStdString();
    return d;
}

} // namespace olens
