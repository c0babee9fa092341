#pragma once
// One compare panel's detector settings: the parameter form generated from the detector's schema
// and the input normalisation. OK keeps only the values that differ from the defaults (shorter
// panel titles); an invalid value keeps the dialog open with the message.
#include "base/Params.h"
#include "data/Normalizer.h"

#include <QDialog>
#include <string>

class QComboBox;
class QLabel;

namespace olens {

class ParamForm;

class PanelSettingsDialog : public QDialog {
    Q_OBJECT
public:
    PanelSettingsDialog(const std::string& id, const ParamAssignments& params, Normalization normalization,
                        int panel, QWidget* parent = nullptr);
    /// The accepted values (the initial ones until OK succeeds).
    const ParamAssignments& params() const { return m_params; }
    Normalization normalization() const { return m_normalization; }

private:
    void tryAccept();

    std::string m_id;
    ParamForm* m_form;
    QComboBox* m_norm;
    QLabel* m_message;
    ParamAssignments m_params;
    Normalization m_normalization;
};

} // namespace olens
