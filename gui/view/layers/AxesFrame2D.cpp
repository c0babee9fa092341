#include "view/layers/AxesFrame2D.h"

#include "display/Ticks.h"
#include "render/VtkSupport.h"

#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkCoordinate.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkWindow.h>

#include <algorithm>
#include <cmath>

namespace olens {

namespace {
constexpr int kLabelSize = 11;
constexpr int kTitleSize = 13;
constexpr double kTick = 5.0;     // tick length, outwards
constexpr double kLabelGap = 3.0; // tick end → label
constexpr double kTitleGap = 4.0; // labels → title
} // namespace

AxesFrame2D::AxesFrame2D()
{
    auto* mapper = vtkPolyDataMapper2D::New();
    mapper->SetInputData(m_lines);
    m_frame->SetMapper(mapper);
    mapper->Delete();
    m_frame->GetProperty()->SetColor(0.3, 0.3, 0.3);
    m_frame->PickableOff();
    m_frame->VisibilityOff();
    styleText(m_xTitleActor->GetTextProperty(), kTitleSize);
    m_xTitleActor->GetTextProperty()->SetJustificationToCentered();
    m_xTitleActor->GetTextProperty()->SetVerticalJustificationToTop();
    styleText(m_yTitleActor->GetTextProperty(), kTitleSize);
    m_yTitleActor->GetTextProperty()->SetOrientation(90.0);
    m_yTitleActor->GetTextProperty()->SetJustificationToCentered();
    m_yTitleActor->GetTextProperty()->SetVerticalJustificationToCentered();
    for (vtkTextActor* a : {m_xTitleActor.Get(), m_yTitleActor.Get()}) {
        a->PickableOff();
        a->VisibilityOff();
    }
}

AxesFrame2D::~AxesFrame2D()
{
    if (m_overlay && m_observer)
        m_overlay->RemoveObserver(m_observer);
}

void AxesFrame2D::attach(vtkRenderer* scene, vtkRenderer* overlay)
{
    m_scene = scene;
    m_overlay = overlay;
    overlay->AddActor2D(m_frame);
    overlay->AddActor2D(m_xTitleActor);
    overlay->AddActor2D(m_yTitleActor);
    m_observer = overlay->AddObserver(vtkCommand::StartEvent, this, &AxesFrame2D::onStart);
}

void AxesFrame2D::onStart(vtkObject*, unsigned long, void*)
{
    layout();
}

vtkTextActor* AxesFrame2D::label(std::vector<vtkSmartPointer<vtkTextActor>>& pool, std::size_t k, bool xAxis)
{
    while (pool.size() <= k) {
        auto a = vtkSmartPointer<vtkTextActor>::New();
        styleText(a->GetTextProperty(), kLabelSize);
        if (xAxis) {
            a->GetTextProperty()->SetJustificationToCentered();
            a->GetTextProperty()->SetVerticalJustificationToTop();
        } else {
            a->GetTextProperty()->SetJustificationToRight();
            a->GetTextProperty()->SetVerticalJustificationToCentered();
        }
        a->PickableOff();
        a->VisibilityOff();
        if (m_overlay)
            m_overlay->AddActor2D(a);
        pool.push_back(a);
    }
    pool[k]->GetTextProperty()->SetFontSize(fontPx(kLabelSize)); // View → Text size may have changed
    return pool[k];
}

void AxesFrame2D::setVisible(bool on)
{
    m_visible = on;
    if (!on) {
        m_frame->VisibilityOff();
        m_xTitleActor->VisibilityOff();
        m_yTitleActor->VisibilityOff();
        for (auto& a : m_xLabels)
            a->VisibilityOff();
        for (auto& a : m_yLabels)
            a->VisibilityOff();
        m_xText.clear();
        m_yText.clear();
    }
}

void AxesFrame2D::setAxes(const std::string& xTitle, const std::string& yTitle, const std::array<double, 4>& box,
                          bool keepMargins)
{
    const bool titlesSame = xTitle == m_xTitle && yTitle == m_yTitle;
    m_xTitle = xTitle;
    m_yTitle = yTitle;
    if (keepMargins && titlesSame && m_visible)
        return;
    // Margins for labels like those of the data box (zooming changes them little).
    vtkNew<vtkTextProperty> lp, tp;
    styleText(lp, kLabelSize);
    styleText(tp, kTitleSize);
    double lo = box[2], hi = box[3];
    widenDegenerate(lo, hi);
    const double pad = 0.25 * (hi - lo);
    double step = 0.0;
    double widest = 0.0;
    for (const auto& s : tickLabels(linearTicks(lo - pad, hi + pad, 8, step), false))
        widest = std::max(widest, textSize(lp, s)[0]);
    widest = std::max(widest, textSize(lp, "-0.00")[0]);
    const double labelH = textSize(lp, "0.9")[1];
    const double titleH = textSize(tp, "xy")[1];
    m_margins = {static_cast<int>(std::ceil(kTick + kLabelGap + widest + kTitleGap + (yTitle.empty() ? 0 : titleH) + 6)),
                 static_cast<int>(std::ceil(kTick + kLabelGap + labelH + kTitleGap + (xTitle.empty() ? 0 : titleH) + 6))};
}

void AxesFrame2D::layout()
{
    if (!m_visible || !m_scene || !m_overlay)
        return;
    const int* size = m_overlay->GetSize();
    const double W = size[0], H = size[1];
    double vp[4];
    m_scene->GetViewport(vp);
    const double L = std::round(vp[0] * W), R = std::round(vp[2] * W), B = std::round(vp[1] * H),
                 T = std::round(vp[3] * H);
    if (R - L < 20 || T - B < 20)
        return;
    const int dpi = m_overlay->GetVTKWindow() ? m_overlay->GetVTKWindow()->GetDPI() : 72;
    // The world rectangle the data area shows (parallel projection looking down −z).
    vtkNew<vtkCoordinate> c;
    c->SetCoordinateSystemToDisplay();
    c->SetValue(L, B, 0.0);
    const double* w0 = c->GetComputedWorldValue(m_scene);
    const double x0 = w0[0], y0 = w0[1];
    c->SetValue(R, T, 0.0);
    const double* w1 = c->GetComputedWorldValue(m_scene);
    const double x1 = w1[0], y1 = w1[1];
    if (!(x1 > x0) || !(y1 > y0))
        return;

    vtkTextProperty* lp = label(m_xLabels, 0, true)->GetTextProperty();
    const double labelH = textSize(lp, "0.9", dpi)[1];
    const auto width = [&](const std::string& s) { return textSize(lp, s, dpi)[0]; };
    const auto height = [&](const std::string&) { return labelH; };
    const std::vector<double> xt = fittingTicks(x0, x1, R - L, width, 12.0, std::max(2, int((R - L) / 60)));
    const std::vector<double> yt = fittingTicks(y0, y1, T - B, height, 8.0, std::max(2, int((T - B) / 45)));
    m_xText = tickLabels(xt, false);
    m_yText = tickLabels(yt, false);

    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> lines;
    const vtkIdType box[5] = {pts->InsertNextPoint(L, B, 0), pts->InsertNextPoint(R, B, 0),
                              pts->InsertNextPoint(R, T, 0), pts->InsertNextPoint(L, T, 0), 0};
    const vtkIdType outline[5] = {box[0], box[1], box[2], box[3], box[0]};
    lines->InsertNextCell(5, outline);
    auto tick = [&](double ax, double ay, double bx, double by) {
        const vtkIdType seg[2] = {pts->InsertNextPoint(ax, ay, 0), pts->InsertNextPoint(bx, by, 0)};
        lines->InsertNextCell(2, seg);
    };
    for (std::size_t k = 0; k < xt.size(); ++k) {
        const double px = std::round(L + (xt[k] - x0) / (x1 - x0) * (R - L));
        tick(px, B, px, B - kTick);
        vtkTextActor* a = label(m_xLabels, k, true);
        a->SetInput(m_xText[k].c_str());
        a->SetPosition(px, B - kTick - kLabelGap);
        a->VisibilityOn();
        keepInside(a, m_overlay, W, H);
    }
    for (std::size_t k = xt.size(); k < m_xLabels.size(); ++k)
        m_xLabels[k]->VisibilityOff();
    double widest = 0.0;
    for (std::size_t k = 0; k < yt.size(); ++k) {
        const double py = std::round(B + (yt[k] - y0) / (y1 - y0) * (T - B));
        tick(L, py, L - kTick, py);
        vtkTextActor* a = label(m_yLabels, k, false);
        a->SetInput(m_yText[k].c_str());
        a->SetPosition(L - kTick - kLabelGap, py);
        a->VisibilityOn();
        keepInside(a, m_overlay, W, H);
        widest = std::max(widest, width(m_yText[k]));
    }
    for (std::size_t k = yt.size(); k < m_yLabels.size(); ++k)
        m_yLabels[k]->VisibilityOff();
    m_lines->SetPoints(pts);
    m_lines->SetLines(lines);
    m_lines->Modified();
    m_frame->VisibilityOn();

    m_xTitleActor->GetTextProperty()->SetFontSize(fontPx(kTitleSize));
    m_yTitleActor->GetTextProperty()->SetFontSize(fontPx(kTitleSize));
    m_xTitleActor->SetInput(m_xTitle.c_str());
    m_xTitleActor->SetPosition(std::round(0.5 * (L + R)), B - kTick - kLabelGap - labelH - kTitleGap);
    m_xTitleActor->SetVisibility(!m_xTitle.empty());
    const double titleH = textSize(m_yTitleActor->GetTextProperty(), m_yTitle.empty() ? "y" : m_yTitle, dpi)[1];
    m_yTitleActor->SetInput(m_yTitle.c_str());
    m_yTitleActor->SetPosition(std::round(L - kTick - kLabelGap - widest - kTitleGap - titleH / 2),
                               std::round(0.5 * (B + T)));
    m_yTitleActor->SetVisibility(!m_yTitle.empty());
    for (vtkTextActor* a : {m_xTitleActor.Get(), m_yTitleActor.Get()})
        if (a->GetVisibility())
            keepInside(a, m_overlay, W, H);
}

std::vector<std::array<double, 4>> AxesFrame2D::textBoxes() const
{
    std::vector<std::array<double, 4>> boxes;
    if (!m_visible || !m_overlay)
        return boxes;
    for (const auto* pool : {&m_xLabels, &m_yLabels})
        for (const auto& a : *pool)
            if (a->GetVisibility())
                boxes.push_back(textBox(a, m_overlay));
    for (vtkTextActor* a : {m_xTitleActor.Get(), m_yTitleActor.Get()})
        if (a->GetVisibility())
            boxes.push_back(textBox(a, m_overlay));
    return boxes;
}

} // namespace olens
