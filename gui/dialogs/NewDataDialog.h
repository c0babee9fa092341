#pragma once
// File → New data: pick one of the core generators (blobs, moons, ring, seam, Swiss roll, ...),
// edit its parameters (form generated from the generator's schema), the number of points and the
// seed; or start from an empty 2D canvas to click points in. Same inputs → same data.
#include "data/Dataset.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QSpinBox;

namespace olens {

class ParamForm;

class NewDataDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewDataDialog(QWidget* parent = nullptr);

    QComboBox* generatorBox() const { return m_generator; }
    QSpinBox* countBox() const { return m_count; }
    QSpinBox* seedBox() const { return m_seed; }
    ParamForm* form() const { return m_form; }

    /// Generates the data for the current choices; throws ParamError/DataError with the reason.
    Dataset makeDataset() const;
    /// Id for "empty canvas" in the generator list.
    static constexpr const char* kEmpty = "empty";

private:
    void onGenerator();

    QComboBox* m_generator;
    QLabel* m_summary;
    ParamForm* m_form;
    QSpinBox* m_count;
    QSpinBox* m_seed;
};

} // namespace olens
