#include "view/layers/ColourBar.h"

#include "render/VtkSupport.h"

#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkLookupTable.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>
#include <vtkWindow.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace olens {

namespace {

constexpr int kLabelSize = 11;
constexpr int kTitleSize = 13;
constexpr double kPad = 4.0;    // from the window edge
constexpr double kGap = 5.0;    // between bar, labels and title
constexpr double kBarWidth = 14.0;
constexpr double kTick = 4.0;
constexpr double kTriangle = 10.0; // height of the clipped-end triangle

// Between the tick labels and the title: a fixed 5 px left the projector's 26 px labels touching
// the title's glyphs (issue #52, classroom mode); it grows with the title's size.
double titleGap(int titlePx)
{
    return std::max(kGap, 0.4 * titlePx);
}

std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

} // namespace

ColourBar::ColourBar()
{
    auto* barMapper = vtkPolyDataMapper2D::New();
    barMapper->SetInputData(m_barPoly);
    barMapper->SetScalarModeToUseCellData();
    barMapper->UseLookupTableScalarRangeOn();
    barMapper->ScalarVisibilityOn();
    m_bar->SetMapper(barMapper);
    barMapper->Delete();
    auto* frameMapper = vtkPolyDataMapper2D::New();
    frameMapper->SetInputData(m_framePoly);
    frameMapper->ScalarVisibilityOff();
    m_frame->SetMapper(frameMapper);
    frameMapper->Delete();
    m_frame->GetProperty()->SetColor(0.25, 0.25, 0.25);
    m_frame->GetProperty()->SetLineWidth(1.0);
    for (vtkActor2D* a : {m_bar.Get(), m_frame.Get()}) {
        a->PickableOff();
        a->VisibilityOff();
    }
    styleText(m_titleActor->GetTextProperty(), kTitleSize);
    m_titleActor->GetTextProperty()->SetOrientation(90.0);
    m_titleActor->GetTextProperty()->SetJustificationToCentered();
    m_titleActor->GetTextProperty()->SetVerticalJustificationToCentered();
    for (vtkTextActor* a : {m_lowActor.Get(), m_highActor.Get()}) {
        styleText(a->GetTextProperty(), kLabelSize);
        a->GetTextProperty()->SetColor(0.55, 0.1, 0.05);
    }
    m_highActor->GetTextProperty()->SetVerticalJustificationToBottom();
    m_lowActor->GetTextProperty()->SetVerticalJustificationToTop();
    for (vtkTextActor* a : {m_titleActor.Get(), m_lowActor.Get(), m_highActor.Get()}) {
        a->PickableOff();
        a->VisibilityOff();
    }
}

ColourBar::~ColourBar()
{
    if (m_overlay && m_observer)
        m_overlay->RemoveObserver(m_observer);
}

void ColourBar::attach(vtkRenderer* overlay)
{
    m_overlay = overlay;
    overlay->AddActor2D(m_bar);
    overlay->AddActor2D(m_frame);
    overlay->AddActor2D(m_titleActor);
    overlay->AddActor2D(m_lowActor);
    overlay->AddActor2D(m_highActor);
    m_observer = overlay->AddObserver(vtkCommand::StartEvent, this, &ColourBar::onStart);
}

void ColourBar::onStart(vtkObject*, unsigned long, void*)
{
    if (m_overlay)
        layout(m_overlay);
}

vtkTextActor* ColourBar::labelActor(std::size_t k)
{
    while (m_labels.size() <= k) {
        auto a = vtkSmartPointer<vtkTextActor>::New();
        styleText(a->GetTextProperty(), kLabelSize);
        a->GetTextProperty()->SetJustificationToLeft();
        a->GetTextProperty()->SetVerticalJustificationToCentered();
        a->PickableOff();
        a->VisibilityOff();
        if (m_overlay)
            m_overlay->AddActor2D(a);
        m_labels.push_back(a);
    }
    m_labels[k]->GetTextProperty()->SetFontSize(fontPx(kLabelSize)); // View → Text size may have changed
    return m_labels[k];
}

void ColourBar::setVisible(bool on)
{
    m_visible = on;
    if (!on) {
        for (vtkActor2D* a : {static_cast<vtkActor2D*>(m_bar.Get()), static_cast<vtkActor2D*>(m_frame.Get()),
                              static_cast<vtkActor2D*>(m_titleActor.Get()), static_cast<vtkActor2D*>(m_lowActor.Get()),
                              static_cast<vtkActor2D*>(m_highActor.Get())})
            a->VisibilityOff();
        for (auto& l : m_labels)
            l->VisibilityOff();
    }
}

void ColourBar::setScale(vtkLookupTable* table, const ColourScale& scale, const std::string& title)
{
    m_table = table;
    m_scale = scale;
    m_title = title;
    if (auto* mapper = vtkPolyDataMapper2D::SafeDownCast(m_bar->GetMapper())) {
        mapper->SetLookupTable(table);
        mapper->Modified();
    }
}

std::string ColourBar::lowMarker() const
{
    return m_scale.clippedLow() ? "min " + shortNumber(m_scale.dataMin) : std::string();
}

std::string ColourBar::highMarker() const
{
    return m_scale.clippedHigh() ? "max " + shortNumber(m_scale.dataMax) : std::string();
}

int ColourBar::stripWidth() const
{
    // The widest label of a generous tick set, the title's line height, the bar and the gaps.
    vtkNew<vtkTextProperty> p;
    styleText(p, kLabelSize);
    double widest = 0.0;
    for (const auto& s : olens::tickLabels(colourBarTicks(m_scale, 8), m_scale.log))
        widest = std::max(widest, textSize(p, s, 72)[0]);
    vtkNew<vtkTextProperty> t;
    styleText(t, kTitleSize);
    const double title = m_title.empty() ? 0.0 : textSize(t, m_title, 72)[1] + titleGap(fontPx(kTitleSize));
    return static_cast<int>(std::ceil(kPad + title + widest + kGap + kTick + kBarWidth + 3 * kPad));
}

void ColourBar::layout(vtkViewport* vp)
{
    if (!m_visible || !vp || !m_table)
        return;
    const int* size = vp->GetSize();
    const double W = size[0], H = size[1];
    if (W < 20 || H < 20)
        return;
    const int dpi = vp->GetVTKWindow() ? vp->GetVTKWindow()->GetDPI() : 72;
    vtkTextProperty* lp = labelActor(0)->GetTextProperty();

    // Vertical: the bar over the middle of the height, with room for the end markers.
    const std::string lowText = lowMarker(), highText = highMarker();
    const double markerH = textSize(lp, "max 0.1", dpi)[1];
    const double topRoom = highText.empty() ? 0.0 : kTriangle + 2 + markerH + 2;
    const double lowRoom = lowText.empty() ? 0.0 : kTriangle + 2 + markerH + 2;
    const double barTop = std::min(0.80 * H, H - 8 - topRoom);
    const double barBot = std::max(0.10 * H, 8 + lowRoom + markerH / 2);
    const double span = std::max(10.0, barTop - barBot);

    // Ticks: about one per 45 px of bar.
    const std::vector<double> ticks = colourBarTicks(m_scale, std::max(2, static_cast<int>(span / 45.0)));
    m_labelText = olens::tickLabels(ticks, m_scale.log);
    double widest = 0.0;
    for (const auto& s : m_labelText)
        widest = std::max(widest, textSize(lp, s, dpi)[0]);

    // Title: vertical, at the right edge, centred on the bar; smaller when longer than the bar (it
    // reached into the "max" marker above the bar at projector text sizes, issue #52).
    int titleSize = fontPx(kTitleSize);
    m_titleActor->GetTextProperty()->SetFontSize(titleSize);
    std::array<double, 2> ts = textSize(m_titleActor->GetTextProperty(), m_title, dpi);
    while (!m_title.empty() && ts[0] > span && titleSize > 8) {
        m_titleActor->GetTextProperty()->SetFontSize(--titleSize);
        ts = textSize(m_titleActor->GetTextProperty(), m_title, dpi);
    }
    const double titleCol = m_title.empty() ? 0.0 : ts[1] + titleGap(titleSize);
    const double labelX = W - kPad - titleCol - widest;
    const double x1 = std::floor(labelX - kGap - kTick + 2);
    const double x0 = x1 - kBarWidth;

    // The bar: 64 quads coloured at their middle value, and the clipped ends as triangles.
    constexpr int N = 64;
    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> cells;
    vtkNew<vtkDoubleArray> values;
    for (int k = 0; k <= N; ++k) {
        const double y = barBot + span * k / N;
        pts->InsertNextPoint(x0, y, 0);
        pts->InsertNextPoint(x1, y, 0);
    }
    for (int k = 0; k < N; ++k) {
        const vtkIdType q[4] = {2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2};
        cells->InsertNextCell(4, q);
        values->InsertNextValue(colourValueAt(m_scale, (k + 0.5) / N));
    }
    const double xm = 0.5 * (x0 + x1);
    const double yTop = barBot + span;
    vtkNew<vtkPoints> fpts;
    vtkNew<vtkCellArray> lines;
    std::vector<vtkIdType> outline;
    auto addFrame = [&](double x, double y) { outline.push_back(fpts->InsertNextPoint(x, y, 0)); };
    addFrame(x0, barBot);
    addFrame(x1, barBot);
    if (!highText.empty()) {
        const vtkIdType a = pts->InsertNextPoint(x0, yTop, 0), b = pts->InsertNextPoint(x1, yTop, 0),
                        c = pts->InsertNextPoint(xm, yTop + kTriangle, 0);
        const vtkIdType tri[3] = {a, b, c};
        cells->InsertNextCell(3, tri);
        values->InsertNextValue(m_scale.hi);
        addFrame(x1, yTop);
        addFrame(xm, yTop + kTriangle);
        addFrame(x0, yTop);
    } else {
        addFrame(x1, yTop);
        addFrame(x0, yTop);
    }
    if (!lowText.empty()) {
        const vtkIdType a = pts->InsertNextPoint(x0, barBot, 0), b = pts->InsertNextPoint(x1, barBot, 0),
                        c = pts->InsertNextPoint(xm, barBot - kTriangle, 0);
        const vtkIdType tri[3] = {a, c, b};
        cells->InsertNextCell(3, tri);
        values->InsertNextValue(m_scale.lo);
        addFrame(x0, barBot);
        addFrame(xm, barBot - kTriangle);
        addFrame(x1, barBot);
    }
    outline.push_back(outline.front());
    m_barPoly->SetPoints(pts);
    m_barPoly->SetPolys(cells);
    m_barPoly->GetCellData()->SetScalars(values);
    m_barPoly->Modified();

    lines->InsertNextCell(static_cast<vtkIdType>(outline.size()), outline.data());
    for (std::size_t k = 0; k < ticks.size(); ++k) {
        const double y = std::round(barBot + span * colourPosition(m_scale, ticks[k]));
        const vtkIdType a = fpts->InsertNextPoint(x1, y, 0), b = fpts->InsertNextPoint(x1 + kTick, y, 0);
        const vtkIdType seg[2] = {a, b};
        lines->InsertNextCell(2, seg);
        vtkTextActor* t = labelActor(k);
        t->SetInput(m_labelText[k].c_str());
        t->SetPosition(std::floor(labelX), y);
        t->SetVisibility(true);
        keepInside(t, vp, W, H);
    }
    for (std::size_t k = ticks.size(); k < m_labels.size(); ++k)
        m_labels[k]->VisibilityOff();
    m_framePoly->SetPoints(fpts);
    m_framePoly->SetLines(lines);
    m_framePoly->Modified();
    m_bar->VisibilityOn();
    m_frame->VisibilityOn();

    m_titleActor->SetInput(m_title.c_str());
    m_titleActor->SetPosition(std::floor(W - kPad - ts[1] / 2), std::floor(barBot + span / 2));
    m_titleActor->SetVisibility(!m_title.empty());
    if (!m_title.empty())
        keepInside(m_titleActor, vp, W, H);

    auto placeMarker = [&](vtkTextActor* a, const std::string& text, double y) {
        a->GetTextProperty()->SetFontSize(fontPx(kLabelSize));
        a->SetVisibility(!text.empty());
        if (text.empty())
            return;
        a->SetInput(text.c_str());
        const double w = textSize(a->GetTextProperty(), text, dpi)[0];
        a->SetPosition(std::floor(std::min(x0, W - kPad - w)), std::floor(y));
        keepInside(a, vp, W, H);
    };
    placeMarker(m_highActor, highText, yTop + kTriangle + 2);
    placeMarker(m_lowActor, lowText, barBot - kTriangle - 2);
}

std::vector<std::array<double, 4>> ColourBar::textBoxes(vtkViewport* vp) const
{
    std::vector<std::array<double, 4>> boxes;
    if (!m_visible)
        return boxes;
    auto add = [&](vtkTextActor* a) {
        if (!a->GetVisibility())
            return;
        boxes.push_back(textBox(a, vp));
    };
    for (const auto& l : m_labels)
        add(l);
    add(m_titleActor);
    add(m_lowActor);
    add(m_highActor);
    return boxes;
}

} // namespace olens
