#pragma once
// Click-to-edit data for teaching: in edit mode a click on empty space adds an inlier (shift-click:
// a labelled outlier), dragging a point moves it, Delete removes the selected points (picked, box
// or lasso). Works in 2D and, in 3D, on the plane through the camera's focal point facing the viewer. Every edit is an
// undoable command; the current result is adjusted at once (moved/new points are scored with the
// fitted detector, the others keep their scores) and `edited()` lets the app retrain (debounced).
#include "data/Dataset.h"

#include <QObject>
#include <QPointF>

class QUndoStack;

namespace olens {

class CloudView;
class DataDocument;

class DataEditor : public QObject {
    Q_OBJECT
public:
    DataEditor(DataDocument* document, CloudView* view, QObject* parent = nullptr);

    /// Turns edit mode on/off (left mouse edits instead of moving the camera). Editing needs the
    /// features shown directly (p ≤ 3); returns false with a reason otherwise.
    bool setEnabled(bool on, QString* why = nullptr);
    bool isEnabled() const { return m_enabled; }
    QUndoStack* undoStack() const { return m_undo; }

    /// The edits, also callable directly (feature coordinates; p values).
    void addPoint(const std::vector<double>& x, bool outlier);
    void movePoint(int index, const std::vector<double>& x, bool finalStep = true);
    /// Deletes these rows (one undo step; other rows keep their scores). Undo restores them
    /// selected.
    void removeRows(const std::vector<int>& rows);

public slots:
    /// Deletes the selected points (DataDocument::pointSelection; no-op without selection).
    void removeSelected();

signals:
    /// A finished edit (after a click, at the end of a drag, after delete/undo/redo).
    void edited();

private:
    void onPress(QPointF pos, Qt::KeyboardModifiers mods);
    void onDrag(QPointF pos);
    void onRelease(QPointF pos);
    std::vector<double> featureAt(QPointF pos) const;

    DataDocument* m_doc;
    CloudView* m_view;
    QUndoStack* m_undo;
    bool m_enabled = false;
    int m_dragging = -1;
    bool m_moved = false;
    bool m_clearing = false;
    Dataset m_dragStart; // the data when a drag began (one undo step per drag)
};

} // namespace olens
