#include "dialogs/PanelSettingsDialog.h"

#include "dialogs/ParamForm.h"
#include "registry/Registry.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace olens {

PanelSettingsDialog::PanelSettingsDialog(const std::string& id, const ParamAssignments& params,
                                         Normalization normalization, int panel, QWidget* parent)
    : QDialog(parent), m_id(id), m_form(new ParamForm), m_norm(new QComboBox), m_message(new QLabel),
      m_params(params), m_normalization(normalization)
{
    const DetectorInfo& info = Registry::instance().info(id);
    setWindowTitle(tr("%1 — panel %2").arg(QString::fromStdString(info.title)).arg(panel + 1));
    m_form->setSchema(info.params);
    for (const char* n : {"none", "zscore", "l2", "minmax"})
        m_norm->addItem(n);
    m_norm->setCurrentText(QString::fromStdString(toString(normalization)));
    m_norm->setToolTip(tr("Normalisation fitted on the training data (the paper's: %1)")
                           .arg(QString::fromStdString(info.normalization)));
    m_message->setStyleSheet("color: #b00020;");
    m_message->setWordWrap(true);
    try {
        m_form->setValues(params);
    } catch (const std::exception& e) {
        m_message->setText(QString::fromUtf8(e.what()));
    }
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* layout = new QVBoxLayout(this);
    auto* top = new QFormLayout;
    top->addRow(tr("Normalise"), m_norm);
    layout->addLayout(top);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &PanelSettingsDialog::tryAccept);
    resize(420, 480);
}

void PanelSettingsDialog::tryAccept()
{
    try {
        // Only the values that differ from the defaults are kept (shorter panel titles).
        const ParamSet defaults = Registry::instance().defaultParams(m_id);
        ParamAssignments values;
        for (const auto& [name, value] : m_form->values()) {
            ParamSet probe = defaults;
            probe.set(name, value);
            if (probe.text(name) != defaults.text(name))
                values.emplace_back(name, value);
        }
        const Normalization normalization = parseNormalization(m_norm->currentText().toStdString());
        m_params = values;
        m_normalization = normalization;
        accept();
    } catch (const std::exception& e) {
        m_message->setText(QString::fromUtf8(e.what()));
    }
}

} // namespace olens
