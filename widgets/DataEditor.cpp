#include "DataEditor.h"

#include "CloudView.h"
#include "DataDocument.h"

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
    void redo() override
    {
        if (m_skipFirstRedo) {
            m_skipFirstRedo = false;
            return;
        }
        apply(m_after, m_forward);
    }
    void undo() override { apply(m_before, m_backward); }

private:
    void apply(const Dataset& d, const std::vector<int>& map)
    {
        const auto r = m_doc->result();
        m_doc->editDataset(d, r ? adjustResult(*r, d, map) : nullptr);
    }
    DataDocument* m_doc;
    Dataset m_before, m_after;
    std::vector<int> m_forward, m_backward;
    bool m_skipFirstRedo;
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
        const auto r = m_doc->result();
        m_doc->editDataset(after, r ? adjustResult(*r, after, map) : nullptr);
        return;
    }
    m_undo->push(new EditCommand(m_doc, tr("move point %1").arg(index), cur, after, map, map, false));
}

void DataEditor::removePoint(int index)
{
    const Dataset& before = m_doc->dataset();
    const Eigen::Index n = before.rows();
    if (index < 0 || index >= n)
        return;
    Dataset after = before;
    auto dropRow = [index](Eigen::MatrixXd& M) {
        if (M.rows() == 0)
            return;
        Eigen::MatrixXd R(M.rows() - 1, M.cols());
        R << M.topRows(index), M.bottomRows(M.rows() - index - 1);
        M = std::move(R);
    };
    dropRow(after.X);
    dropRow(after.sigma);
    if (before.hasLabels()) {
        Eigen::VectorXd l(n - 1);
        l << before.labels.head(index), before.labels.tail(n - index - 1);
        after.labels = l;
    }
    std::vector<int> forward, backward;
    for (Eigen::Index i = 0; i < n; ++i) {
        if (i != index)
            forward.push_back(static_cast<int>(i));
        backward.push_back(i < index ? static_cast<int>(i) : (i == index ? -1 : static_cast<int>(i - 1)));
    }
    m_doc->setSelectedPoint(-1);
    m_undo->push(new EditCommand(m_doc, tr("delete point %1").arg(index), before, after, forward, backward, false));
}

void DataEditor::removeSelected()
{
    if (m_doc->selectedPoint() >= 0)
        removePoint(m_doc->selectedPoint());
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
