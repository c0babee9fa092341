#pragma once
// Edit mode (E) is visible in the window, not only as a menu check mark: an orange frame around
// the view and a badge in the status bar saying what the mouse does now.
#include <QObject>

class QAction;
class QFrame;
class QLabel;
class QStatusBar;

namespace olens {

class EditModeIndicator : public QObject {
    Q_OBJECT
public:
    /// viewFrame: the frame around the central view (its border turns orange in edit mode).
    EditModeIndicator(QAction* editMode, QFrame* viewFrame, QStatusBar* statusBar);
    QLabel* badge() const { return m_badge; }
    static constexpr const char* kColour = "#e07b00";

private:
    void show(bool on);
    QFrame* m_frame;
    QLabel* m_badge;
};

} // namespace olens
