#include "view/layers/AxesLabels3D.h"

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

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace olens {

namespace {
constexpr int kLabelSize = 11;
constexpr int kTitleSize = 13;
constexpr double kTick = 5.0;
constexpr double kOffset = 8.0; // axis line distance from the box edge, pixels

using Box = std::array<double, 4>;
bool overlaps(const Box& a, const Box& b)
{
    return a[0] < b[1] + 2 && b[0] < a[1] + 2 && a[2] < b[3] + 2 && b[2] < a[3] + 2;
}
} // namespace

AxesLabels3D::AxesLabels3D()
{
    auto* mapper = vtkPolyDataMapper2D::New();
    mapper->SetInputData(m_lines);
    m_lineActor->SetMapper(mapper);
    mapper->Delete();
    m_lineActor->GetProperty()->SetColor(0.3, 0.3, 0.3);
    m_lineActor->PickableOff();
    m_lineActor->VisibilityOff();
}

AxesLabels3D::~AxesLabels3D()
{
    if (m_overlay && m_observer)
        m_overlay->RemoveObserver(m_observer);
}

void AxesLabels3D::attach(vtkRenderer* scene, vtkRenderer* overlay)
{
    m_scene = scene;
    m_overlay = overlay;
    overlay->AddActor2D(m_lineActor);
    m_observer = overlay->AddObserver(vtkCommand::StartEvent, this, &AxesLabels3D::onStart);
}

void AxesLabels3D::onStart(vtkObject*, unsigned long, void*)
{
    layout();
}

vtkTextActor* AxesLabels3D::text(std::size_t k)
{
    while (m_texts.size() <= k) {
        auto a = vtkSmartPointer<vtkTextActor>::New();
        styleText(a->GetTextProperty(), kLabelSize);
        a->GetTextProperty()->SetJustificationToCentered();
        a->GetTextProperty()->SetVerticalJustificationToCentered();
        a->PickableOff();
        a->VisibilityOff();
        if (m_overlay)
            m_overlay->AddActor2D(a);
        m_texts.push_back(a);
    }
    return m_texts[k];
}

void AxesLabels3D::setVisible(bool on)
{
    m_visible = on;
    if (!on) {
        m_lineActor->VisibilityOff();
        for (auto& t : m_texts)
            t->VisibilityOff();
    }
}

void AxesLabels3D::setAxes(const std::array<double, 6>& bounds, const std::array<std::string, 3>& titles)
{
    m_bounds = bounds;
    m_titles = titles;
}

void AxesLabels3D::layout()
{
    if (!m_visible || !m_scene || !m_overlay)
        return;
    const int* size = m_overlay->GetSize();
    const double W = size[0], H = size[1];
    const int dpi = m_overlay->GetVTKWindow() ? m_overlay->GetVTKWindow()->GetDPI() : 72;
    vtkNew<vtkCoordinate> c;
    c->SetCoordinateSystemToWorld();
    auto project = [&](const Eigen::Vector3d& p) {
        c->SetValue(p.x(), p.y(), p.z());
        const double* d = c->GetComputedDoubleDisplayValue(m_scene);
        return Eigen::Vector2d(d[0], d[1]);
    };
    const Eigen::Vector3d lo(m_bounds[0], m_bounds[2], m_bounds[4]), hi(m_bounds[1], m_bounds[3], m_bounds[5]);
    const Eigen::Vector2d centre = project(0.5 * (lo + hi));

    vtkNew<vtkPoints> pts;
    vtkNew<vtkCellArray> lines;
    auto segment = [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
        const vtkIdType s[2] = {pts->InsertNextPoint(a.x(), a.y(), 0), pts->InsertNextPoint(b.x(), b.y(), 0)};
        lines->InsertNextCell(2, s);
    };
    std::vector<Box> placed;
    std::size_t used = 0;
    // Places a text centred at p unless it would touch one placed before or leave the window.
    auto place = [&](const std::string& s, const Eigen::Vector2d& p, int fontSize) {
        vtkTextActor* a = text(used);
        a->GetTextProperty()->SetFontSize(fontPx(fontSize));
        a->SetInput(s.c_str());
        a->SetPosition(std::round(p.x()), std::round(p.y()));
        const Box b = textBox(a, m_overlay);
        const bool clash = b[0] < 0 || b[1] > W || b[2] < 0 || b[3] > H
            || std::any_of(placed.begin(), placed.end(), [&](const Box& q) { return overlaps(b, q); });
        if (clash)
            return;
        a->VisibilityOn();
        placed.push_back(b);
        ++used;
    };

    vtkNew<vtkTextProperty> lp;
    styleText(lp, kLabelSize);
    const double labelH = textSize(lp, "0.9", dpi)[1];
    for (int axis = 0; axis < 3; ++axis) {
        if (!(hi[axis] > lo[axis]))
            continue;
        // The parallel edge whose projection lies farthest from the centre: an outer edge.
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        Eigen::Vector2d p0, p1;
        double best = -1.0;
        for (int k = 0; k < 4; ++k) {
            Eigen::Vector3d a = lo, b = lo;
            a[u] = b[u] = (k & 1) ? hi[u] : lo[u];
            a[v] = b[v] = (k & 2) ? hi[v] : lo[v];
            b[axis] = hi[axis];
            const Eigen::Vector2d q0 = project(a), q1 = project(b);
            const double dist = (0.5 * (q0 + q1) - centre).norm();
            if (dist > best) {
                best = dist;
                p0 = q0;
                p1 = q1;
            }
        }
        const double len = (p1 - p0).norm();
        if (len < 1.0)
            continue;
        const Eigen::Vector2d dir = (p1 - p0) / len;
        Eigen::Vector2d out(-dir.y(), dir.x());
        if (out.dot(0.5 * (p0 + p1) - centre) < 0)
            out = -out;
        // The axis is drawn a little outside the box edge (an offset spine): points on the box's
        // edges and corners stay uncovered.
        p0 += kOffset * out;
        p1 += kOffset * out;
        segment(p0, p1);
        // A label's extent along the edge and across it.
        auto along = [&](const std::string& s) {
            return std::fabs(textSize(lp, s, dpi)[0] * dir.x()) + std::fabs(labelH * dir.y());
        };
        auto across = [&](const std::string& s) {
            return std::fabs(textSize(lp, s, dpi)[0] * out.x()) + std::fabs(labelH * out.y());
        };
        const std::vector<double> ticks =
            fittingTicks(lo[axis], hi[axis], len, along, 10.0, std::max(1, static_cast<int>(len / 40)));
        const std::vector<std::string> labels = tickLabels(ticks, false);
        double deepest = 0.0;
        for (std::size_t k = 0; k < ticks.size(); ++k) {
            const double t = (ticks[k] - lo[axis]) / (hi[axis] - lo[axis]);
            if (t < -1e-9 || t > 1 + 1e-9)
                continue;
            const Eigen::Vector2d at = p0 + t * (p1 - p0);
            segment(at, at + kTick * out);
            const double depth = across(labels[k]);
            deepest = std::max(deepest, depth);
            place(labels[k], at + (kTick + 3 + 0.5 * depth) * out, kLabelSize);
        }
        if (!m_titles[static_cast<std::size_t>(axis)].empty())
            place(m_titles[static_cast<std::size_t>(axis)], 0.5 * (p0 + p1) + (kTick + 3 + deepest + 12) * out,
                  kTitleSize);
    }
    for (std::size_t k = used; k < m_texts.size(); ++k)
        m_texts[k]->VisibilityOff();
    m_lines->SetPoints(pts);
    m_lines->SetLines(lines);
    m_lines->Modified();
    m_lineActor->VisibilityOn();
}

std::vector<std::array<double, 4>> AxesLabels3D::textBoxes() const
{
    std::vector<std::array<double, 4>> boxes;
    if (!m_visible || !m_overlay)
        return boxes;
    for (const auto& a : m_texts)
        if (a->GetVisibility())
            boxes.push_back(textBox(a, m_overlay));
    return boxes;
}

} // namespace olens
