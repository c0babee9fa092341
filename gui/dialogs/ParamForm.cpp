#include "dialogs/ParamForm.h"

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
    if (!s.autoRule.empty())
        t += QStringLiteral("<br><b>auto</b>: %1").arg(QString::fromStdString(s.autoRule).toHtmlEscaped());
    if (!s.paperValue.empty())
        t += QStringLiteral("<br>paper: %1").arg(QString::fromStdString(s.paperValue).toHtmlEscaped());
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
    m_labels.clear();
    m_schema = schema;
    for (const auto& s : m_schema) {
        QWidget* w = nullptr;
        switch (s.type) {
        case ParamType::Int: {
            auto* spin = new QSpinBox;
            const bool autoable = !s.autoRule.empty() && !std::isinf(s.minValue);
            // `auto` is the value one below the range, shown as text (Qt's special-value idiom).
            spin->setRange(std::isinf(s.minValue) ? std::numeric_limits<int>::min() : int(s.minValue) - (autoable ? 1 : 0),
                           std::isinf(s.maxValue) ? std::numeric_limits<int>::max() : int(std::min(s.maxValue, 2e9)));
            if (autoable)
                spin->setSpecialValueText(QStringLiteral("auto"));
            spin->setValue(s.defaultValue == "auto" ? spin->minimum() : std::stoi(s.defaultValue));
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
            if (!s.autoRule.empty())
                combo->addItem(QStringLiteral("auto"));
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
        m_labels.push_back(label);
        // A value edited after a fit no longer shows the fit's resolution.
        connect(this, &ParamForm::changed, label, [label, s] { label->setText(QString::fromStdString(s.name)); });
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
            spin->setValue(text == "auto" ? spin->minimum() : std::stoi(text));
        else if (auto* box = qobject_cast<QCheckBox*>(w))
            box->setChecked(text == "true");
        else if (auto* combo = qobject_cast<QComboBox*>(w))
            combo->setCurrentText(QString::fromStdString(text));
        else if (auto* edit = qobject_cast<QLineEdit*>(w))
            edit->setText(QString::fromStdString(text));
    }
}

void ParamForm::resetToDefaults()
{
    ParamAssignments defaults;
    for (const auto& s : m_schema)
        defaults.emplace_back(s.name, s.defaultValue);
    setValues(defaults);
}

void ParamForm::resetToPaperDefaults()
{
    ParamAssignments paper;
    for (const auto& s : m_schema)
        paper.emplace_back(s.name, paperSetting(s));
    setValues(paper);
}

void ParamForm::showResolved(const ParamSet* fitted)
{
    for (std::size_t i = 0; i < m_schema.size(); ++i) {
        const QString name = QString::fromStdString(m_schema[i].name);
        QString text = name;
        if (fitted && fitted->has(m_schema[i].name) && fitted->isAuto(m_schema[i].name)) {
            const std::string r = fitted->resolvedText(m_schema[i].name);
            QString shown = QString::fromStdString(r);
            if (m_schema[i].type == ParamType::Real && !r.empty())
                shown = QString::number(fitted->getReal(m_schema[i].name), 'g', 4); // the full value is in the model
            if (!r.empty())
                text = QStringLiteral("%1  (auto → %2)").arg(name, shown);
        }
        m_labels[i]->setText(text);
    }
}

QString ParamForm::labelText(const QString& name) const
{
    for (std::size_t i = 0; i < m_schema.size(); ++i)
        if (QString::fromStdString(m_schema[i].name) == name)
            return m_labels[i]->text();
    return {};
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
            text = !spin->specialValueText().isEmpty() && spin->value() == spin->minimum() ? std::string("auto")
                                                                                            : std::to_string(spin->value());
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
