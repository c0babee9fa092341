#include "ParamForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <cmath>
#include <limits>

namespace olens {

namespace {
QString tooltipFor(const ParamSpec& s)
{
    QString t = QStringLiteral("<b>%1</b> (%2, default %3)<br>%4")
                    .arg(QString::fromStdString(s.name), QString::fromStdString(toString(s.type)),
                         QString::fromStdString(s.defaultValue), QString::fromStdString(s.help).toHtmlEscaped());
    if (s.type == ParamType::Int || s.type == ParamType::Real) {
        const QString lo = std::isinf(s.minValue) ? "−∞" : QString::number(s.minValue, 'g', 10);
        const QString hi = std::isinf(s.maxValue) ? "∞" : QString::number(s.maxValue, 'g', 10);
        t += QStringLiteral("<br>range [%1, %2]").arg(lo, hi);
    }
    if (!s.reference.empty())
        t += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(s.reference).toHtmlEscaped());
    return t;
}

// Real values can span many orders of magnitude (learning rates, C=500, ρ): a line edit with
// validation by the schema is friendlier than a spin box with fixed decimals.
class RealEdit : public QLineEdit {
public:
    using QLineEdit::QLineEdit;
};
} // namespace

ParamForm::ParamForm(QWidget* parent) : QWidget(parent), m_layout(new QFormLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void ParamForm::setSchema(const std::vector<ParamSpec>& schema)
{
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    m_editors.clear();
    m_schema = schema;
    for (const auto& s : m_schema) {
        QWidget* w = nullptr;
        switch (s.type) {
        case ParamType::Int: {
            auto* spin = new QSpinBox;
            spin->setRange(std::isinf(s.minValue) ? std::numeric_limits<int>::min() : int(s.minValue),
                           std::isinf(s.maxValue) ? std::numeric_limits<int>::max() : int(std::min(s.maxValue, 2e9)));
            spin->setValue(std::stoi(s.defaultValue));
            connect(spin, &QSpinBox::valueChanged, this, &ParamForm::changed);
            w = spin;
            break;
        }
        case ParamType::Real: {
            auto* edit = new RealEdit(QString::fromStdString(s.defaultValue));
            connect(edit, &QLineEdit::textChanged, this, [this, edit, s] {
                ParamSet probe({s});
                try {
                    probe.set(s.name, edit->text().toStdString());
                    edit->setStyleSheet({});
                } catch (const std::exception&) {
                    edit->setStyleSheet("background: #ffe0e0;");
                }
                emit changed();
            });
            w = edit;
            break;
        }
        case ParamType::Bool: {
            auto* box = new QCheckBox;
            box->setChecked(s.defaultValue == "true");
            connect(box, &QCheckBox::toggled, this, &ParamForm::changed);
            w = box;
            break;
        }
        case ParamType::Choice: {
            auto* combo = new QComboBox;
            for (const auto& c : s.choices)
                combo->addItem(QString::fromStdString(c));
            combo->setCurrentText(QString::fromStdString(s.defaultValue));
            connect(combo, &QComboBox::currentTextChanged, this, &ParamForm::changed);
            w = combo;
            break;
        }
        }
        w->setObjectName(QString::fromStdString(s.name));
        w->setToolTip(tooltipFor(s));
        auto* label = new QLabel(QString::fromStdString(s.name));
        label->setToolTip(w->toolTip());
        m_layout->addRow(label, w);
        m_editors.push_back(w);
    }
    emit changed();
}

QWidget* ParamForm::editor(const QString& name) const
{
    for (std::size_t i = 0; i < m_schema.size(); ++i)
        if (QString::fromStdString(m_schema[i].name) == name)
            return m_editors[i];
    return nullptr;
}

void ParamForm::setValues(const ParamAssignments& values)
{
    ParamSet check(m_schema);
    for (const auto& [name, value] : values) {
        if (!check.has(name))
            continue;
        check.set(name, value); // throws ParamError on a bad value
        const std::string text = check.text(name);
        QWidget* w = editor(QString::fromStdString(name));
        if (auto* spin = qobject_cast<QSpinBox*>(w))
            spin->setValue(std::stoi(text));
        else if (auto* box = qobject_cast<QCheckBox*>(w))
            box->setChecked(text == "true");
        else if (auto* combo = qobject_cast<QComboBox*>(w))
            combo->setCurrentText(QString::fromStdString(text));
        else if (auto* edit = qobject_cast<QLineEdit*>(w))
            edit->setText(QString::fromStdString(text));
    }
}

void ParamForm::checkNames(const ParamAssignments& values) const
{
    const ParamSet check(m_schema);
    for (const auto& assignment : values)
        check.spec(assignment.first); // throws "unknown parameter 'x' (known: …)"
}

void ParamForm::resetToDefaults()
{
    ParamAssignments defaults;
    for (const auto& s : m_schema)
        defaults.emplace_back(s.name, s.defaultValue);
    setValues(defaults);
}

ParamAssignments ParamForm::values() const
{
    ParamAssignments out;
    ParamSet check(m_schema);
    for (std::size_t i = 0; i < m_schema.size(); ++i) {
        const auto& s = m_schema[i];
        QWidget* w = m_editors[i];
        std::string text;
        if (auto* spin = qobject_cast<QSpinBox*>(w))
            text = std::to_string(spin->value());
        else if (auto* box = qobject_cast<QCheckBox*>(w))
            text = box->isChecked() ? "true" : "false";
        else if (auto* combo = qobject_cast<QComboBox*>(w))
            text = combo->currentText().toStdString();
        else if (auto* edit = qobject_cast<QLineEdit*>(w))
            text = edit->text().toStdString();
        check.set(s.name, text); // validates: throws ParamError naming the parameter
        out.emplace_back(s.name, text);
    }
    return out;
}

} // namespace olens
