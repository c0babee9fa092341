// CompareView's figure: the grid of panels (column count from the available size), the one key
// (CompareKey) for every panel, the toolbar strip's state, the shared camera and selection, and
// the figure as an image. Split from CompareView.cpp (panels and training).
#include "metrics/Thresholds.h"
#include "compare/CompareView.h"

#include "view/CloudView.h"
#include "compare/CompareKey.h"
#include "compare/ComparePanel.h"
#include "document/DataDocument.h"
#include "jobs/TrainingController.h"
#include "render/ViewExport.h"

#include <QCheckBox>
#include <QFontMetrics>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace olens {

// ---------------------------------------------------------------------------------------------
// Presentation


void CompareView::updateStrip()
{
    // The panels share the data and so the projection: its note once, under the figure.
    const QString note = m_panels.empty() ? QString() : m_panels.front()->view->projectionNote();
    m_caption->setText(note);
    m_caption->setVisible(!note.isEmpty());
    m_key->setThreeD(!m_panels.empty() && m_panels.front()->view->projection().displayDims() == 3);
    // A big cloud's panels draw no threshold surface, as the main view starts (ViewControls).
    const bool surface = !isBigCloud(m_source->dataset().rows());
    m_key->setSurfaceShown(surface);
    for (const auto& p : m_panels)
        p->view->setIsoOpacity(surface ? CloudView::kDefaultIsoOpacity : 0.0);

    int running = 0;
    for (const auto& p : m_panels)
        running += p->trainer->isRunning() ? 1 : 0;
    m_cancelAll->setEnabled(running > 0);
    m_trainAll->setEnabled(!m_source->isEmpty() && !m_panels.empty());
    if (m_source->isEmpty())
        setStatus(tr("Load or generate data to compare detectors."));
    else if (running > 0)
        setStatus(tr("%1 of %2 panels training").arg(running).arg(panelCount()));
    else
        setStatus(tr("%1 panels · shared camera, selection and quantile").arg(panelCount()));
}

double CompareView::dataAspect() const
{
    // Width / height of the data as the 2-D panels show it (equal axes); 1 for 3-D (any rotation).
    if (m_panels.empty())
        return 1.0;
    const CloudView* v = m_panels.front()->view;
    const auto& d = v->displayPoints();
    if (d.rows() < 2 || v->projection().displayDims() != 2)
        return 1.0;
    const double w = d.col(0).maxCoeff() - d.col(0).minCoeff();
    const double h = d.col(1).maxCoeff() - d.col(1).minCoeff();
    return (w > 0.0 && h > 0.0) ? std::clamp(w / h, 0.25, 4.0) : 1.0;
}

int CompareView::headerWidth() const
{
    // The widest one-line header (bold metrics: an upper bound for the bold id) and its "…" button.
    int widest = 0;
    for (const auto& p : m_panels) {
        QFont bold = p->title->font();
        bold.setBold(true);
        widest = std::max(widest, QFontMetrics(bold).horizontalAdvance(p->plainTitle()) + p->edit->sizeHint().width() + 12);
    }
    return widest;
}

int CompareView::headerHeight(int columnWidth) const
{
    const int lines = headerWidth() > columnWidth ? 2 : 1; // a narrow column wraps the header once
    return lines * fontMetrics().lineSpacing() + 6;
}

int CompareView::bestColumns(int n) const
{
    // The column count that shows the data largest (ties: fewer empty cells): in each cell, the
    // data's height on screen once the header and the 2-D axes' labels are taken off, the data
    // keeping its aspect (2-D panels draw equal axes), so wide data prefers wide cells.
    const double W = std::max(1, m_grid->width() > 50 ? m_grid->width() : 1200);
    const double H = std::max(1, (m_grid->height() > 50 ? m_grid->height() : 800));
    const double aspect = dataAspect();
    constexpr double frameW = 50.0, frameH = 40.0; // AxesFrame2D's tick labels and titles, about
    int best = 1;
    double bestSide = -1.0;
    int bestEmpty = 0;
    for (int c = 1; c <= std::max(1, n); ++c) {
        const int rows = (n + c - 1) / c;
        const double cellW = W / c;
        const double cellH = H / rows - headerHeight(int(cellW));
        const double side = std::min((cellW - frameW) / aspect, cellH - frameH);
        const int empty = rows * c - n;
        if (side > bestSide + 1.0 || (std::abs(side - bestSide) <= 1.0 && empty < bestEmpty)) {
            best = c;
            bestSide = side;
            bestEmpty = empty;
        }
    }
    return best;
}

void CompareView::updateHeaders()
{
    // Every header one line, or every header two when the widest does not fit its column: the
    // plots of a row stay aligned and no AUROC is cut.
    if (m_columns <= 0)
        return;
    const int height = headerHeight(m_grid->width() / m_columns);
    const bool wrap = height > fontMetrics().lineSpacing() + 6;
    for (auto& p : m_panels) {
        p->title->setWordWrap(wrap);
        p->title->setFixedHeight(height - 2);
    }
}

void CompareView::relayout(bool force)
{
    const int n = panelCount();
    const int c = bestColumns(n);
    if (force || c != m_columns) {
        m_columns = c;
        for (auto& p : m_panels)
            m_gridLayout->removeWidget(p->frame);
        for (int k = 0; k < n; ++k)
            m_gridLayout->addWidget(m_panels[static_cast<std::size_t>(k)]->frame, k / c, k % c);
        const int rows = n > 0 ? (n + c - 1) / c : 0;
        for (int i = 0; i < kMaxPanels; ++i) {
            m_gridLayout->setColumnStretch(i, i < c ? 1 : 0);
            m_gridLayout->setRowStretch(i, i < rows ? 1 : 0);
        }
    }
    updateHeaders();
}

void CompareView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    relayout(false);
}

void CompareView::syncCamera(CloudView* from)
{
    if (m_syncing)
        return;
    if (from->cameraIsAuto()) {
        // A fit to the data (new data, reset, resize): one fit for all panels.
        m_userCamera = false;
        uniformFit();
        return;
    }
    // A user move: the same camera everywhere.
    m_userCamera = true;
    m_syncing = true;
    const VtkView::CameraState c = from->cameraState();
    for (auto& p : m_panels)
        if (p->view != from && p->view->mode() == from->mode())
            p->view->setCameraState(c);
    m_syncing = false;
}

void CompareView::uniformFit()
{
    // The panel whose scene viewport is the narrowest (a colour bar takes a strip on the right)
    // fits the data; the others take its camera, so every panel shows the same region at the same
    // scale and none clips it.
    if (m_panels.empty() || m_syncing)
        return;
    m_syncing = true;
    CloudView* narrowest = nullptr;
    double best = std::numeric_limits<double>::infinity();
    for (auto& p : m_panels) {
        double vp[4];
        p->view->renderer()->GetViewport(vp);
        const double aspect = (vp[2] - vp[0]) * std::max(1, p->view->width()) /
                              ((vp[3] - vp[1]) * std::max(1, p->view->height()));
        if (aspect < best) {
            best = aspect;
            narrowest = p->view;
        }
    }
    narrowest->resetCamera();
    const VtkView::CameraState c = narrowest->cameraState();
    for (auto& p : m_panels)
        if (p->view != narrowest && p->view->mode() == narrowest->mode())
            p->view->setCameraState(c);
    m_syncing = false;
}

void CompareView::syncSelection(Panel* from, int index)
{
    for (auto& p : m_panels)
        if (p.get() != from)
            p->doc->setSelectedPoint(index); // no signal when unchanged: no loop
}

PanelStyle CompareView::panelStyle() const
{
    // Scores of different detectors are on different scales (a kNN distance, a KIC energy, a
    // GODS margin), so one colour bar for the figure needs a common scale. Colour = percentile
    // of the panel's own training scores (display/ColourScale percentileRanks) rather than a
    // per-panel normalisation to the threshold: the rank is invariant to any increasing transform
    // of a detector's score, the threshold contour sits at the same place on the bar in every
    // panel (percentile 100·q), and two panels with the same colour at a point rank it the same.
    PanelStyle style;
    style.rankColours = true;
    style.decisionOnly = m_decisionOnly;
    style.bareOverlay = true; // one key for the figure (m_key), none per panel
    return style;
}

void CompareView::setDecisionOnly(bool on)
{
    if (m_decisionBox->isChecked() != on) {
        m_decisionBox->setChecked(on); // re-enters through toggled
        return;
    }
    if (on == m_decisionOnly)
        return;
    m_decisionOnly = on;
    m_key->setDecisionOnly(on);
    for (auto& p : m_panels)
        p->view->setPanelStyle(panelStyle());
}

QImage CompareView::figureImage(bool transparent)
{
    // The panels and the key, without the toolbar strip: the figure as it reads on a slide.
    for (auto& p : m_panels)
        p->view->releaseRepaint(); // a result held for its field: the figure shows it now
    const auto grab = [this] { return m_figure->grab().toImage(); };
    if (!transparent)
        return grab();
    return ViewExport::grabMatted([this](const QColor& c) { setFigureBackdrop(c); }, grab);
}

void CompareView::setFigureBackdrop(const QColor& colour)
{
    for (QWidget* w : {m_figure, static_cast<QWidget*>(m_key)}) {
        QPalette p = w->palette();
        p.setColor(QPalette::Window, colour);
        w->setPalette(p);
    }
    m_caption->setStyleSheet(QStringLiteral("color: #555; background: %1;").arg(colour.name()));
    for (auto& p : m_panels)
        p->view->setBackdrop(colour);
}

QSize CompareView::figureSize() const
{
    return m_figure->size();
}

} // namespace olens
