#include "view/layers/LegendAxesLayer.h"

#include "metrics/Thresholds.h"

#include "document/DataDocument.h"
#include "display/GeometryChoice.h"
#include "view/layers/PointColouring.h"
#include "render/VtkSupport.h"

#include <QCoreApplication>

#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkCoordinate.h>
#include <vtkLegendBoxActor.h>
#include <vtkMatrix4x4.h>
#include <vtkLookupTable.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkProperty2D.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace olens {

namespace {
// The legend's texts belong to the view (one translation context with the rest of CloudView).
QString tr(const char* text)
{
    return QCoreApplication::translate("olens::CloudView", text);
}
constexpr int kLegendSize = LegendAxesLayer::kLegendFontBase;
constexpr std::size_t kListedQuadrics = 6; // more: one line "n of N shown"
constexpr std::size_t kListedFrames = 4;
} // namespace

LegendAxesLayer::LegendAxesLayer()
{
    m_legend->SetNumberOfEntries(0);
    m_legend->BorderOn();
    m_legend->BoxOn();
    m_legend->GetBoxProperty()->SetColor(1, 1, 1);
    m_legend->SetBackgroundColor(1, 1, 1);
    m_legend->SetBackgroundOpacity(0.85);
    m_legend->UseBackgroundOn();
    m_legend->GetEntryTextProperty()->SetColor(0.1, 0.1, 0.1);
    m_legend->GetPositionCoordinate()->SetCoordinateSystemToViewport();
    m_legend->GetPosition2Coordinate()->SetCoordinateSystemToViewport();
    m_legend->PickableOff();

    // The projection note and the grid extent: top left, above the scene (it leaves them a strip).
    styleText(m_noteActor->GetTextProperty(), 11);
    m_noteActor->GetTextProperty()->SetColor(0.3, 0.3, 0.3);
    m_noteActor->GetTextProperty()->SetVerticalJustificationToTop();
    m_noteActor->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_noteActor->GetPositionCoordinate()->SetValue(0.008, 0.995);
    m_noteActor->PickableOff();

    styleText(m_hintActor->GetTextProperty(), 13);
    m_hintActor->GetTextProperty()->SetColor(0.45, 0.45, 0.45);
    m_hintActor->GetTextProperty()->SetJustificationToCentered();
    m_hintActor->GetTextProperty()->SetVerticalJustificationToCentered();
    m_hintActor->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_hintActor->GetPositionCoordinate()->SetValue(0.5, 0.5);
    m_hintActor->SetInput(tr("Empty canvas\nclick to add a point, shift-click to add an outlier\n"
                             "(Edit points: E switches it on and off)").toUtf8().constData());
    m_hintActor->SetVisibility(false);
    m_hintActor->PickableOff();
}

LegendAxesLayer::~LegendAxesLayer()
{
    if (m_scene && m_legendObserver)
        m_scene->RemoveObserver(m_legendObserver);
}

LegendAxesLayer::Placement LegendAxesLayer::bestCorner() const
{
    // Entries of kLegendSize-pixel text: the box is as tall and wide as they need (VTK scales the
    // text to the box), never more than the scene's size.
    const int* size = m_scene->GetSize();
    const double lineH = fontPx(kLegendSize) + 5.0;
    Placement p;
    p.h = std::min(lineH * m_legendLines + 6.0, 0.9 * size[1]);
    // Narrow panels: the legend may span the scene's width rather than shrink its text.
    p.w = std::min(m_legendWidest + lineH + 14.0, size[0] - 16.0);
    const double w = p.w, h = p.h;
    // The corner that covers no point the lesson or the ranking is about (the selected point, the
    // top ranked) and the fewest others (issue #52: at projector text the top-right legend sat on
    // the far outlier). Top right when all are alike; bottom left holds the 3-D triad.
    const std::array<std::array<double, 2>, 4> corners = {{{size[0] - w - 8.0, size[1] - h - 8.0},
                                                           {8.0, size[1] - h - 8.0},
                                                           {size[0] - w - 8.0, 8.0},
                                                           {8.0, 8.0}}};
    const auto projected = projectAvoided();
    const double ring = fontPx(12); // a highlighted point's ring reaches this far from its centre
    // The 3-D axes' numbers and titles (overlay pixels, as laid out for the last frame) in the
    // scene's viewport pixels: the legend covers none of them either.
    std::vector<std::array<double, 4>> texts = m_axes3D.textBoxes();
    const int* origin = m_scene->GetOrigin();
    for (auto& b : texts) {
        b[0] -= origin[0];
        b[1] -= origin[0];
        b[2] -= origin[1];
        b[3] -= origin[1];
    }
    p.cost = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < corners.size(); ++c) {
        const double x0 = std::max(0.0, corners[c][0]), y0 = std::max(0.0, corners[c][1]);
        double cost = c == 3 && !m_twoD ? 50.0 : 0.0;
        cost += 0.01 * double(c); // ties: the usual top right first
        for (const auto& q : projected) {
            const double pad = q[2] > 0 ? ring : 2.0;
            if (q[0] >= x0 - pad && q[0] <= x0 + w + pad && q[1] >= y0 - pad && q[1] <= y0 + h + pad)
                cost += q[2] > 0 ? 1000.0 : 1.0;
        }
        for (const auto& b : texts)
            if (b[1] > x0 && b[0] < x0 + w && b[3] > y0 && b[2] < y0 + h)
                cost += 200.0;
        if (cost < p.cost) {
            p.cost = cost;
            p.x = x0;
            p.y = y0;
        }
    }
    return p;
}

bool LegendAxesLayer::chooseBand()
{
    if (m_band || !m_scene || m_legendLines <= 0 || m_bare)
        return false;
    m_axes3D.layout(); // the axes' labels where this camera puts them (else the last frame's, or none)
    return chooseBand(bestCorner());
}

bool LegendAxesLayer::chooseBand(const Placement& p)
{
    // No corner is free of a highlighted point or of the axes' text: the view gives the legend room,
    // a band above the scene (sceneMargins), kept until the legend's entries change.
    if (m_band || m_legendLines <= 0 || m_bare || p.cost < kCoversSomething)
        return false;
    m_band = true;
    m_bandHeight = int(std::ceil(p.h)) + 8;
    return true;
}

void LegendAxesLayer::layoutLegend(vtkObject*, unsigned long, void*)
{
    if (!m_scene || m_legendLines <= 0)
        return;
    // After a camera move the chosen corner may cover something: the band. This runs at the start
    // of the scene's render, before VTK sets its viewport up: the host's new margins apply to it.
    // The 3-D axes' labels are laid out when the overlay renders, after the scene: placed from
    // those, the legend avoided the labels of the frame before (after Page Down it sat on "y" and
    // "0"). They are laid out for this frame's camera first.
    m_axes3D.layout();
    Placement p = bestCorner(); // one projection of the avoided points per frame
    if (chooseBand(p) && m_marginsChanged) {
        m_marginsChanged();
        m_axes3D.layout(); // the labels for the scene's new size
        p = bestCorner(); // the scene's new size (only on the frame the band is taken)
    }
    const int* window = m_overlay ? m_overlay->GetSize() : nullptr;
    const bool bandFits = window && m_scene->GetOrigin()[1] + m_scene->GetSize()[1] + p.h + 4.0 <= window[1];
    if (m_band && bandFits) {
        // In the band: where the 3-D axes' labels (drawn around the data box, also above the scene)
        // leave room; the left end first (the colour bar's "max" label may reach over the right).
        p.y = double(m_scene->GetSize()[1]) + 4.0;
        const int* origin = m_scene->GetOrigin();
        const double right = std::max(8.0, m_scene->GetSize()[0] - p.w - 8.0);
        int fewest = std::numeric_limits<int>::max();
        for (double x : {8.0, 0.5 * (8.0 + right), right}) {
            int hits = 0;
            for (const auto& b : m_axes3D.textBoxes())
                hits += b[1] - origin[0] > x && b[0] - origin[0] < x + p.w && b[3] - origin[1] > p.y
                        && b[2] - origin[1] < p.y + p.h;
            if (hits < fewest) {
                fewest = hits;
                p.x = x;
            }
        }
    }
    // The legend is drawn by the overlay (window pixels): shifted by the scene's origin.
    const int* origin = m_scene->GetOrigin();
    m_legend->GetPositionCoordinate()->SetValue(origin[0] + p.x, origin[1] + p.y);
    m_legend->GetPosition2Coordinate()->SetValue(p.w, p.h);
    m_legendBox = {p.x, p.x + p.w, p.y, p.y + p.h};
    fitNote();
}

void LegendAxesLayer::fitNote()
{
    // The note and grid text run at most to the colour bar's strip: at projector sizes the grid's
    // extent ran into the bar's "max" label. Lines too long lose their end to "…".
    if (!m_overlay || !m_noteActor->GetVisibility() || m_noteFull.empty())
        return;
    const int* window = m_overlay->GetSize();
    const double room = window[0] - colourBarStrip() - 8.0;
    vtkTextProperty* tp = m_noteActor->GetTextProperty();
    std::string fitted;
    std::size_t start = 0;
    while (start <= m_noteFull.size()) {
        const std::size_t end = std::min(m_noteFull.find('\n', start), m_noteFull.size());
        std::string line = m_noteFull.substr(start, end - start);
        if (textSize(tp, line)[0] > room) {
            QString q = QString::fromStdString(line);
            while (q.size() > 1 && textSize(tp, (q + QStringLiteral("…")).toStdString())[0] > room)
                q.chop(std::max<qsizetype>(1, q.size() / 8));
            line = (q + QStringLiteral("…")).toStdString();
        }
        fitted += (fitted.empty() ? "" : "\n") + line;
        start = end + 1;
    }
    if (fitted != m_noteActor->GetInput())
        m_noteActor->SetInput(fitted.c_str());
}

std::vector<std::array<double, 3>> LegendAxesLayer::projectAvoided() const
{
    // Scene viewport pixels (x right, y up) of the points kept in update(), third value 1 for the
    // points that matter most. The camera's composite matrix: a few thousand products per frame.
    std::vector<std::array<double, 3>> out;
    if (!m_scene || (m_avoid.rows() == 0 && m_important.rows() == 0))
        return out;
    const int* size = m_scene->GetSize();
    vtkMatrix4x4* m = m_scene->GetActiveCamera()->GetCompositeProjectionTransformMatrix(m_scene->GetTiledAspectRatio(), -1, 1);
    auto project = [&](const Eigen::Ref<const Eigen::MatrixX3d>& pts, double weight) {
        for (Eigen::Index i = 0; i < pts.rows(); ++i) {
            const double in[4] = {pts(i, 0), pts(i, 1), pts(i, 2), 1.0};
            double o[4];
            m->MultiplyPoint(in, o);
            if (o[3] == 0.0)
                continue;
            out.push_back({(o[0] / o[3] + 1.0) * 0.5 * size[0], (o[1] / o[3] + 1.0) * 0.5 * size[1], weight});
        }
    };
    project(m_avoid, 0.0);
    project(m_important, 1.0);
    return out;
}

std::vector<std::array<double, 2>> LegendAxesLayer::importantPointsPx() const
{
    std::vector<std::array<double, 2>> out;
    for (const auto& p : projectAvoided())
        if (p[2] > 0)
            out.push_back({p[0], p[1]});
    return out;
}

void LegendAxesLayer::attach(vtkRenderer* scene, vtkRenderer* overlay)
{
    m_axes3D.attach(scene, overlay);
    overlay->AddActor2D(m_legend); // placed over the scene's viewport (layoutLegend), or in a band above it
    scene->AddActor2D(m_hintActor);
    m_scene = scene;
    m_legendObserver = scene->AddObserver(vtkCommand::StartEvent, this, &LegendAxesLayer::layoutLegend);
    m_overlay = overlay;
    m_bar.attach(overlay);
    overlay->AddActor2D(m_noteActor);
    m_frame2D.attach(scene, overlay);
}

std::array<int, 4> LegendAxesLayer::sceneMargins() const
{
    const bool frame = m_frame2D.visible();
    const int lines = (m_note.empty() || m_bare ? 0 : 1) + (m_gridShown && !m_gridText.empty() ? 1 : 0);
    // A line of the note at the text size shown (a fixed 15 px let projector-size notes run over
    // the 2-D frame's top tick and the legend).
    return {frame ? m_frame2D.margins()[0] : 0, frame ? m_frame2D.margins()[1] : 0, colourBarStrip(),
            lines * (fontPx(11) + 5) + (frame ? 8 : 2) + (m_band && m_legendLines > 0 ? m_bandHeight : 0)};
}

bool LegendAxesLayer::legendShown() const
{
    return m_legend->GetVisibility() != 0 && m_legendLines > 0;
}

bool LegendAxesLayer::canvasHintShown() const
{
    return m_hintActor->GetVisibility() != 0;
}

void LegendAxesLayer::updateNote()
{
    std::string text = m_bare ? std::string() : m_note; // a figure's panels: said once, under them
    if (m_gridShown && !m_gridText.empty())
        text += (text.empty() ? "" : "\n") + m_gridText;
    m_noteActor->GetTextProperty()->SetFontSize(fontPx(11)); // View → Text size may have changed
    m_noteFull = text;
    m_noteActor->SetInput(text.c_str());
    m_noteActor->SetVisibility(!text.empty());
}

void LegendAxesLayer::update(const ViewContext& ctx, unsigned changes)
{
    m_twoD = ctx.twoD;
    if (ctx.display && (changes & (Points | Positions | TopK | Selection | Colours))) {
        // What the legend must not cover (layoutLegend): a stride sample of the points, and the
        // selected point with the top-ranked ones (the ring, the lesson's point).
        const auto& d = *ctx.display;
        const Eigen::Index n = d.rows(), stride = std::max<Eigen::Index>(1, n / kAvoidSample);
        m_avoid.resize((n + stride - 1) / stride, 3);
        for (Eigen::Index i = 0, k = 0; i < n; i += stride, ++k)
            m_avoid.row(k) = d.row(i);
        std::vector<int> rows;
        m_hasSelected = ctx.selected >= 0 && ctx.selected < n;
        if (m_hasSelected)
            rows.push_back(ctx.selected);
        const auto& ranking = ctx.doc->ranking();
        const int top = std::max(1, std::min(ctx.doc->topK(), 20));
        for (int r = 0; r < top && r < static_cast<int>(ranking.size()); ++r)
            if (ranking[std::size_t(r)] < n)
                rows.push_back(ranking[std::size_t(r)]);
        m_important.resize(static_cast<Eigen::Index>(rows.size()), 3);
        for (std::size_t k = 0; k < rows.size(); ++k)
            m_important.row(static_cast<Eigen::Index>(k)) = d.row(rows[k]);
    }
    if (m_bare != ctx.bareOverlay) {
        m_bare = ctx.bareOverlay;
        updateNote();
    }
    if (changes & Points)
        updateAxes(ctx);
    if (changes & Field) {
        m_gridText = ctx.gridText.toStdString();
        m_gridShown = ctx.field != nullptr && !ctx.bareOverlay;
        updateNote();
    }
    // Field: which quadrics and planes actually cross the grid (only those are listed).
    if (changes & (Points | Positions | Colours | TopK | Glyphs | Visibility | Field | Style))
        updateLegend(ctx);
    // Decided before the host applies sceneMargins() in the same pass: the first frame drawn
    // already has the legend where it stays (a screenshot of it is the final picture).
    if (changes & (Points | Positions | Colours | TopK | Selection | Field))
        chooseBand();
}

void LegendAxesLayer::updateAxes(const ViewContext& ctx)
{
    const auto& display = *ctx.display;
    const Projection& projection = *ctx.projection;
    const Eigen::Index n = display.rows();
    double bounds[6] = {-1, 1, -1, 1, -1, 1}; // an empty canvas: the box the camera fits (VtkView)
    const bool canvas = n == 0 && projection.displayDims() > 0;
    if (n > 0)
        for (int j = 0; j < 3; ++j) {
            bounds[2 * j] = display.col(j).minCoeff();
            bounds[2 * j + 1] = display.col(j).maxCoeff();
        }
    const bool flat = ctx.twoD;
    std::array<std::string, 3> titles = {"x", "y", "z"};
    for (std::size_t j = 0; j < projection.axisNames.size() && j < 3; ++j)
        titles[j] = projection.axisNames[j];
    // 2D: a plot frame outside the data area (AxesFrame2D); 3D: outer box edges with ticks.
    m_axes3D.setVisible((n > 0 || canvas) && !flat);
    if (!flat)
        m_axes3D.setAxes({bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5]}, titles);
    m_frame2D.setVisible((n > 0 || canvas) && flat);
    if (flat)
        m_frame2D.setAxes(titles[0], projection.displayDims() >= 2 ? titles[1] : std::string(),
                          {bounds[0], bounds[1], bounds[2], bounds[3]}, ctx.sameCamera);

    m_note = projection.note;
    updateNote();
    // The canvas hint sits in the middle of the data area, not in the note strip: the strip's
    // height is part of the scene's margins, and the first point must not shift the canvas.
    m_hintActor->GetTextProperty()->SetFontSize(fontPx(13));
    m_hintActor->SetVisibility(canvas && !m_bare);
}

void LegendAxesLayer::updateLegend(const ViewContext& ctx)
{
    const Dataset& d = ctx.doc->dataset();
    const Eigen::Index n = d.rows();
    const auto result = ctx.doc->result();
    const ColourBy by = ctx.colourBy;
    const bool customMode = by == ColourBy::Custom;
    const bool scoreMode = (by == ColourBy::Score && result) || customMode; // a scalar bar, no label legend
    bool quietEntry = false; // the big cloud's faded points have their entry (with their stride)
    m_bar.setScale(customMode ? ctx.colouring->customTable() : ctx.colouring->scoreTable(),
                   customMode ? ctx.colouring->customScale() : ctx.colouring->scoreScale(),
                   customMode ? ctx.customTitle.toStdString()
                              : (ctx.colouring->scoreScale().log ? std::string("outlier score (log)")
                                                                 : std::string("outlier score")));
    m_bar.setVisible(scoreMode && !ctx.bareOverlay);
    m_colourBar = scoreMode && !ctx.bareOverlay;
    if (ctx.bareOverlay) { // a panel of a figure: its one key explains every panel
        m_legendLines = 0;
        m_legendTexts.clear();
        m_legend->SetNumberOfEntries(0);
        m_legend->SetVisibility(false);
        return;
    }

    vtkNew<vtkRegularPolygonSource> disk;
    disk->SetNumberOfSides(24);
    disk->SetRadius(0.5);
    disk->Update();
    std::vector<std::pair<QString, QColor>> entries;
    if (by == ColourBy::Cluster && result && !result->geometry.clusterOfPoint.empty()) {
        std::map<int, long> counts;
        for (int c : result->geometry.clusterOfPoint)
            ++counts[c];
        for (const auto& [c, cnt] : counts) {
            if (entries.size() >= 12)
                break;
            entries.emplace_back(tr("cluster %1 (%2)").arg(c).arg(cnt), PointColouring::componentColour(c));
        }
        if (counts.size() > 12) // say so rather than stop silently
            entries.emplace_back(tr("… %1 more clusters (12 of %2 listed)").arg(counts.size() - 12).arg(counts.size()),
                                 QColor(255, 255, 255));
    } else if (!scoreMode && d.hasLabels()) {
        std::map<double, long> counts;
        for (Eigen::Index i = 0; i < n; ++i)
            ++counts[d.labels(i)];
        const bool binary = std::all_of(counts.begin(), counts.end(),
                                        [](const auto& kv) { return kv.first == 0.0 || kv.first == 1.0; });
        for (const auto& [lab, cnt] : counts) {
            if (entries.size() >= 12)
                break;
            QString text;
            if (binary)
                text = lab == 1.0 ? tr("outlier (%1)").arg(cnt) : tr("inlier (%1)").arg(cnt);
            else {
                const auto k = static_cast<std::size_t>(lab);
                const QString name = (lab >= 0 && lab == std::floor(lab) && k < d.labelNames.size())
                    ? QString::fromStdString(d.labelNames[k])
                    : QString::number(lab);
                text = QString::fromStdString(d.labelName) + " " + name + QStringLiteral(" (%1)").arg(cnt);
            }
            entries.emplace_back(text, PointColouring::colourFor(lab));
        }
    } else if (!scoreMode && n > 0) {
        entries.emplace_back(tr("points (%1)").arg(n),
                             PointColouring::colourFor(std::numeric_limits<double>::quiet_NaN()));
    }
    // The glyphs are drawn exactly when switched on and possible (UncertaintyLayer).
    if (ctx.on(LayerSwitch::Uncertainty) && ctx.canShowUncertainty)
        entries.emplace_back(tr("uncertainty, %1 sigma (%2)").arg(ctx.sigmaScale, 0, 'g', 3)
                                 .arg(ctx.twoD ? tr("ellipses") : tr("ellipsoids")), QColor(130, 130, 130));
    if (result) {
        const Geometry& g = result->geometry;
        // Quadrics and hyperplane frames: only what is drawn — chosen (Layers → Choose…), layer on,
        // and crossing the grid (a GODS frame whose planes miss the box draws nothing); many of
        // them in one compact line "n of N shown" in the same style as every other entry (ASCII:
        // VTK's legend font has no arrow glyph).
        const QColor summary(95, 95, 95); // readable grey: a note, not a drawn item
        if (ctx.field && ctx.on(LayerSwitch::Quadrics) && !g.quadrics.empty()) {
            std::vector<bool> chosen(g.quadrics.size());
            for (std::size_t k = 0; k < chosen.size(); ++k)
                chosen[k] = ctx.quadricShown(k);
            const LegendGroup q = legendGroup(chosen, zeroSetsOnGrid(ctx.field->quadricValues), kListedQuadrics);
            // Named quadrics (mcd's ellipsoids) by name; an ellipsoid in a projected view of p > 3 is
            // its shadow on the shown axes (ScoreField), which the entry says.
            const bool projected = ctx.projection && !ctx.projection->identity;
            for (std::size_t k : q.listed) {
                const Quadric& qk = g.quadrics[k];
                QString text = qk.name.empty() ? tr("quadric %1 (zero set)").arg(k + 1) : QString::fromStdString(qk.name);
                if (qk.ellipsoid && projected)
                    text += tr(", projected: marginal of the shown axes");
                entries.emplace_back(text, PointColouring::componentColour(int(k)));
            }
            if (q.compact || q.shown < q.total)
                entries.emplace_back(tr("quadrics: %1 of %2 shown (choose: Layers menu)").arg(q.shown).arg(q.total), summary);
        }
        if (ctx.field && ctx.on(LayerSwitch::Hyperplanes) && !g.frames.empty()) {
            std::vector<bool> chosen(g.frames.size());
            for (std::size_t f = 0; f < chosen.size(); ++f)
                chosen[f] = ctx.frameShown(f);
            const LegendGroup fr = legendGroup(chosen, framesOnGrid(*ctx.field, g.frames.size()), kListedFrames);
            for (std::size_t f : fr.listed)
                entries.emplace_back(QString::fromStdString(g.frames[f].name.empty() ? "frame " + std::to_string(f + 1)
                                                                                     : g.frames[f].name),
                                     PointColouring::componentColour(static_cast<int>(f)));
            if (fr.compact)
                entries.emplace_back(tr("hyperplane frames: %1 of %2 shown (choose: Layers menu)").arg(fr.shown).arg(fr.total),
                                     summary);
        }
        if (!g.flats.empty() && by != ColourBy::Cluster)
            entries.emplace_back(tr("flat%1 over the data extent").arg(g.flats.size() > 1 ? "s" : ""),
                                 PointColouring::componentColour(g.flats.front().cluster < 0 ? 0 : g.flats.front().cluster));
        if (ctx.doc->topK() > 0)
            entries.emplace_back(tr("top %1 by score (ring)").arg(ctx.doc->topK()), QColor(140, 0, 0));
        // No entry for a surface drawn at 0 % (a big cloud's default, issue #54).
        if (ctx.twoD || ctx.isoOpacity > 0.0)
            entries.emplace_back(ctx.twoD ? tr("threshold contour") : tr("threshold iso-surface"), QColor(20, 20, 20));
        quietEntry = by == ColourBy::Score && result && result->scores.size() == n && isBigCloud(n);
        if (quietEntry) {
            // The entry's text takes its colour: a darker grey than the faded points, to be read.
            // It says so when a still frame draws only every k-th of them (PointLayer::stillStride).
            const int k = stillStride(n, true, ctx.stillQuietBudget);
            entries.emplace_back(k > 1 ? tr("below the threshold: small, faded, 1 in %1 drawn").arg(k)
                                       : tr("below the threshold: small, faded"),
                                 QColor(130, 130, 130));
        }
    }
    // Any other cloud too big for a still frame (PointLayer::stillStride): say that every k-th
    // point is drawn, the flagged ones all.
    if (const int k = stillStride(n, false, ctx.stillQuietBudget, ctx.stillPointBudget); !quietEntry && k > 1)
        entries.emplace_back(tr("1 in %1 points drawn (all flagged ones)").arg(k), QColor(130, 130, 130));
    m_legend->SetNumberOfEntries(static_cast<int>(entries.size()));
    for (std::size_t e = 0; e < entries.size(); ++e) {
        double rgb[3] = {entries[e].second.redF(), entries[e].second.greenF(), entries[e].second.blueF()};
        m_legend->SetEntry(static_cast<int>(e), disk->GetOutput(), entries[e].first.toUtf8().constData(), rgb);
    }
    // Sized in pixels at each render (layoutLegend): one text size in every view and panel. New
    // entries are placed afresh (a corner first).
    std::vector<std::string> texts;
    for (const auto& e : entries)
        texts.push_back(e.first.toStdString());
    if (texts != m_legendTexts && m_band) {
        m_band = false;
        if (m_marginsChanged)
            m_marginsChanged();
    }
    m_legendLines = static_cast<int>(entries.size());
    m_legendTexts.clear();
    for (const auto& e : entries)
        m_legendTexts.push_back(e.first.toStdString());
    m_legendWidest = 0.0;
    vtkNew<vtkTextProperty> tp;
    styleText(tp, kLegendSize);
    for (const auto& e : entries)
        m_legendWidest = std::max(m_legendWidest, textSize(tp, e.first.toStdString())[0]);
    m_legend->SetVisibility(!entries.empty());
}

} // namespace olens
