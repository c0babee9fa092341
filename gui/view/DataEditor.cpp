#include "view/DataEditor.h"

#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "data/PointExport.h"
#include "display/SelectionGeometry.h"

#include <QUndoCommand>
#include <QUndoStack>

#include <numeric>

namespace olens {

namespace {

std::vector<int> identityMap(Eigen::Index n)
{
    std::vector<int> m(static_cast<std::size_t>(n));
    std::iota(m.begin(), m.end(), 0);
    return m;
}

/// Replaces the document's data by `before`/`after`; the maps say which rows keep their scores
/// (new row → old row, -1 = rescore).
class EditCommand : public QUndoCommand {
public:
    EditCommand(DataDocument* doc, const QString& text, Dataset before, Dataset after, std::vector<int> forward,
                 std::vector<int> backward, bool alreadyApplied)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after)),
          m_forward(std::move(forward)), m_backward(std::move(backward)), m_skipFirstRedo(alreadyApplied)
    {
    }
    /// The selection each side shows (an edit that renumbers rows: after a delete nothing is
    /// selected, its undo selects the restored points again).
    void setSelections(std::vector<int> before, std::vector<int> after)
    {
        m_selBefore = std::move(before);
        m_selAfter = std::move(after);
        m_hasSelections = true;
    }
    void redo() override
    {
        if (m_skipFirstRedo) {
            m_skipFirstRedo = false;
            return;
        }
        apply(m_after, m_forward, m_selAfter);
    }
    void undo() override { apply(m_before, m_backward, m_selBefore); }

private:
    void apply(const Dataset& d, const std::vector<int>& map, const std::vector<int>& selection)
    {
        const auto r = m_doc->trainedResult();
        if (m_hasSelections)
            m_doc->setPointSelection({}); // the old row numbers mean other points in `d`
        m_doc->editDataset(d, r ? adjustResult(*r, d, map) : nullptr);
        if (m_hasSelections)
            m_doc->setPointSelection(selection);
    }
    DataDocument* m_doc;
    Dataset m_before, m_after;
    std::vector<int> m_forward, m_backward;
    bool m_skipFirstRedo;
    std::vector<int> m_selBefore, m_selAfter;
    bool m_hasSelections = false;
};

} // namespace

DataEditor::DataEditor(DataDocument* document, CloudView* view, QObject* parent)
    : QObject(parent), m_doc(document), m_view(view), m_undo(new QUndoStack(this))
{
    connect(view, &VtkView::editPressed, this, &DataEditor::onPress);
    connect(view, &VtkView::editDragged, this, &DataEditor::onDrag);
    connect(view, &VtkView::editReleased, this, &DataEditor::onRelease);
    // Undo/redo are edits too (the app retrains after them); a new data set starts a new history.
    connect(m_undo, &QUndoStack::indexChanged, this, [this] {
        if (!m_clearing)
            emit edited();
    });
    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        if (!m_doc->changeIsEdit()) {
            m_clearing = true;
            m_undo->clear();
            m_clearing = false;
            if (m_enabled && !m_view->projection().identity)
                setEnabled(false);
        }
    });
}

bool DataEditor::setEnabled(bool on, QString* why)
{
    if (on && m_doc->dataset().cols() > 3) {
        if (why)
            *why = tr("editing needs data with at most 3 features (this data set has %1; the view shows a projection)")
                       .arg(m_doc->dataset().cols());
        on = false;
        m_enabled = false;
        m_view->setEditMode(false);
        return false;
    }
    m_enabled = on;
    m_view->setEditMode(on);
    return true;
}

std::vector<double> DataEditor::featureAt(QPointF pos) const
{
    const auto w = m_view->widgetToWorld(pos);
    const Eigen::Index p = m_doc->dataset().cols() > 0 ? m_doc->dataset().cols() : 2; // no data yet: a 2D canvas
    std::vector<double> x(static_cast<std::size_t>(p));
    for (Eigen::Index j = 0; j < p && j < 3; ++j)
        x[static_cast<std::size_t>(j)] = w[static_cast<std::size_t>(j)];
    return x;
}

void DataEditor::addPoint(const std::vector<double>& x, bool outlier)
{
    const Dataset& before = m_doc->dataset();
    Dataset after = before;
    Eigen::Index n = before.rows();
    Eigen::Index p = before.cols();
    if (n == 0 && p == 0) { // an empty canvas: start a 2D data set
        p = static_cast<Eigen::Index>(x.size());
        after.featureNames.clear();
        for (Eigen::Index j = 0; j < p; ++j)
            after.featureNames.push_back(std::string(1, char('x' + j)));
        after.X.resize(0, p);
        after.source = "edited in OutlierLens";
    }
    if (static_cast<Eigen::Index>(x.size()) != p)
        return;
    after.X.conservativeResize(n + 1, p);
    for (Eigen::Index j = 0; j < p; ++j)
        after.X(n, j) = x[static_cast<std::size_t>(j)];
    if (before.hasLabels() || outlier) {
        if (!before.hasLabels()) {
            after.labels = Eigen::VectorXd::Zero(n);
            after.labelName = "label";
        }
        after.labels.conservativeResize(n + 1);
        after.labels(n) = outlier ? 1.0 : 0.0;
    }
    if (before.hasSigma()) {
        after.sigma.conservativeResize(n + 1, p);
        after.sigma.row(n).setZero();
    }
    for (CarriedColumn& c : after.carried) // ignored columns: an added point has no value there
        c.cells.emplace_back();
    std::vector<int> forward = identityMap(n);
    forward.push_back(-1);
    m_undo->push(new EditCommand(m_doc, outlier ? tr("add outlier") : tr("add point"), before, after, forward,
                                 identityMap(n), false));
    m_doc->setSelectedPoint(static_cast<int>(n));
}

void DataEditor::movePoint(int index, const std::vector<double>& x, bool finalStep)
{
    const Dataset& cur = m_doc->dataset();
    if (index < 0 || index >= cur.rows() || static_cast<Eigen::Index>(x.size()) != cur.cols())
        return;
    Dataset after = cur;
    for (Eigen::Index j = 0; j < cur.cols(); ++j)
        after.X(index, j) = x[static_cast<std::size_t>(j)];
    std::vector<int> map = identityMap(cur.rows());
    map[static_cast<std::size_t>(index)] = -1;
    if (!finalStep) { // live while dragging; the whole drag becomes one undo step on release
        const auto r = m_doc->trainedResult();
        m_doc->editDataset(after, r ? adjustResult(*r, after, map) : nullptr);
        return;
    }
    m_undo->push(new EditCommand(m_doc, tr("move point %1").arg(index), cur, after, map, map, false));
}

void DataEditor::removeRows(const std::vector<int>& rows)
{
    const Dataset& before = m_doc->dataset();
    const int n = static_cast<int>(before.rows());
    const std::vector<int> gone = normalizedSelection(rows, n);
    if (gone.empty())
        return;
    // forward: new row → old row; backward: old row → new row (-1: deleted, scored again on undo).
    std::vector<int> forward, backward(static_cast<std::size_t>(n), -1);
    std::vector<Eigen::Index> keep;
    std::size_t g = 0;
    for (int i = 0; i < n; ++i) {
        if (g < gone.size() && gone[g] == i) {
            ++g;
            continue;
        }
        backward[static_cast<std::size_t>(i)] = static_cast<int>(forward.size());
        forward.push_back(i);
        keep.push_back(i);
    }
    Dataset after = selectRows(before, keep);
    after.source = before.source;
    after.warnings = before.warnings;
    const QString text = gone.size() == 1 ? tr("delete point %1").arg(gone.front()) : tr("delete %1 points").arg(gone.size());
    auto* command = new EditCommand(m_doc, text, before, std::move(after), forward, backward, false);
    command->setSelections(gone, {}); // undo brings the deleted points back selected
    m_undo->push(command);
}

void DataEditor::removeSelected()
{
    removeRows(m_doc->pointSelection());
}

void DataEditor::onPress(QPointF pos, Qt::KeyboardModifiers mods)
{
    if (!m_enabled)
        return;
    const int hit = m_view->pickPoint(pos.toPoint());
    if (hit >= 0 && !(mods & Qt::ShiftModifier)) {
        m_dragging = hit;
        m_moved = false;
        m_dragStart = m_doc->dataset();
        m_doc->setSelectedPoint(hit);
        return;
    }
    m_dragging = -1;
    addPoint(featureAt(pos), mods & Qt::ShiftModifier);
}

void DataEditor::onDrag(QPointF pos)
{
    if (m_dragging < 0)
        return;
    m_moved = true;
    movePoint(m_dragging, featureAt(pos), false);
}

void DataEditor::onRelease(QPointF pos)
{
    if (m_dragging < 0)
        return;
    const int index = m_dragging;
    m_dragging = -1;
    if (!m_moved)
        return; // a plain click on a point selects it
    movePoint(index, featureAt(pos), false);
    std::vector<int> map = identityMap(m_dragStart.rows());
    map[static_cast<std::size_t>(index)] = -1;
    m_undo->push(new EditCommand(m_doc, tr("move point %1").arg(index), m_dragStart, m_doc->dataset(), map, map, true));
    m_dragStart = Dataset();
}

} // namespace olens
