#pragma once
// Compare mode's detector chooser.
#include <QDialog>
#include <string>
#include <vector>

class QLabel;
class QListWidget;
class QPushButton;

namespace olens {

/// The "Detectors…" dialog: a checkable list of every registered detector; OK needs 2 to
/// `maxChecked` checked (compare mode passes its panel limit, so the dialog needs no compare code).
class DetectorChooserDialog : public QDialog {
    Q_OBJECT
public:
    DetectorChooserDialog(const std::vector<std::string>& checked, int maxChecked, QWidget* parent = nullptr);
    std::vector<std::string> checkedIds() const;
    void setChecked(const std::string& id, bool on);
    QListWidget* list() const { return m_list; }
    QPushButton* okButton() const { return m_ok; }

private:
    void updateOk();
    QListWidget* m_list;
    QPushButton* m_ok;
    QLabel* m_count;
    int m_maxChecked;
};

} // namespace olens
