#pragma once
// A form generated from a parameter schema (core ParamSpec): spin boxes for numbers, check boxes
// for booleans, combo boxes for choices; tooltips carry the help text, range and paper reference.
#include "base/Params.h"

#include <QWidget>

class QFormLayout;
class QLabel;

namespace olens {

class ParamForm : public QWidget {
    Q_OBJECT
public:
    explicit ParamForm(QWidget* parent = nullptr);

    /// Rebuilds the form for a schema, with the schema's defaults.
    void setSchema(const std::vector<ParamSpec>& schema);
    /// Sets values (e.g. from a session); unknown names are ignored, bad values throw ParamError.
    void setValues(const ParamAssignments& values);
    /// Current values as name=value text, validated by the schema (throws ParamError).
    ParamAssignments values() const;
    /// Editor widget of a parameter (for tests), or null.
    QWidget* editor(const QString& name) const;
    void resetToDefaults();
    /// The settings of the paper (ParamSpec::paperValue): fixed values instead of `auto`.
    void resetToPaperDefaults();
    /// Shows what each `auto` parameter became in a fit ("K  auto → 16"); a null set clears it.
    void showResolved(const ParamSet* fitted);
    /// The text a parameter's label shows (for tests).
    QString labelText(const QString& name) const;

signals:
    void changed();

private:
    std::vector<ParamSpec> m_schema;
    std::vector<QWidget*> m_editors;
    std::vector<QLabel*> m_labels;
    QFormLayout* m_layout;
};

} // namespace olens
