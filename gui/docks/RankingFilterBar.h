#pragma once
// The Ranking dock's filter row: show all points, the flagged ones (at the document's current
// threshold), the others, the selected ones (box, lasso, picked), one label value, or — for a model
// fitted on a part — the training points or the held-out ones; and "go to index" (selects that point, which the
// table, the view and the plots follow). The table asks accepts() for each row.
#include <QWidget>

class QComboBox;
class QLineEdit;

namespace olens {

class DataDocument;

class RankingFilterBar : public QWidget {
    Q_OBJECT
public:
    enum class Show { All, Flagged, NotFlagged, Label, Selection, Training, HeldOut };

    explicit RankingFilterBar(DataDocument* document, QWidget* parent = nullptr);

    /// Whether the ranking shows sample i under the current filter.
    bool accepts(int sample) const;
    Show show() const;
    /// Show = Label: only samples with this label value.
    void setShow(Show show, double label = 0.0);
    QComboBox* filterCombo() const { return m_combo; }
    QLineEdit* indexEdit() const { return m_index; }

signals:
    void filterChanged();

private:
    void rebuildItems();
    void onIndexEntered();
    DataDocument* m_doc;
    QComboBox* m_combo;
    QLineEdit* m_index;
};

} // namespace olens
