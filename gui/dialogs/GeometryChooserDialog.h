#pragma once
// Layers → Choose quadrics and planes…: which of the fitted quadrics and hyperplane frames the view
// draws (issue #19 item 4: 29 quadric surfaces hid all of WBC). A checkable list, All / None, and
// "the 3 the selected point violates most" (largest |f(x)| at the selected point).
#include "display/GeometryChoice.h"

#include <QDialog>

class QListWidget;
class QPushButton;

namespace olens {

class DataDocument;

class GeometryChooserDialog : public QDialog {
    Q_OBJECT
public:
    /// Lists the current result's quadrics and frames with `current` checked.
    GeometryChooserDialog(const DataDocument* doc, const GeometryChoice& current, QWidget* parent = nullptr);

    GeometryChoice choice() const;
    QListWidget* list() const { return m_list; }
    /// Checks exactly the quadrics the selected point violates most (frames unchanged); false
    /// without a selected point or quadrics.
    bool chooseMostViolated(std::size_t k = 3);

private:
    void setAll(bool on);
    const DataDocument* m_doc;
    QListWidget* m_list;
    QPushButton* m_violated;
    std::size_t m_quadrics = 0, m_frames = 0;
};

} // namespace olens
