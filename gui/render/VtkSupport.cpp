#include "render/VtkSupport.h"

#include <QVariant>
#include <QWidget>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkContourFilter.h>
#include <vtkCoordinate.h>
#include <vtkDoubleArray.h>
#include <vtkFlyingEdges3D.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSOADataArrayTemplate.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace olens {

namespace {

vtkSmartPointer<vtkCellArray> vertexCells(Eigen::Index n)
{
    // 32-bit offsets and ids while they fit: 8 bytes a point instead of 16 (160 MB at 20 M rows).
    auto verts = vtkSmartPointer<vtkCellArray>::New();
    if (n < std::numeric_limits<int>::max())
        verts->Use32BitStorage();
    verts->AllocateExact(n, n);
    for (vtkIdType i = 0; i < n; ++i)
        verts->InsertNextCell(1, &i);
    return verts;
}

} // namespace

vtkSmartPointer<vtkPoints> sharedPoints(const Eigen::Ref<const Eigen::MatrixX3d>& P)
{
    // VTK only reads them (the mapper's upload, the picker, the bounds); save = 1: not freed by VTK.
    vtkNew<vtkSOADataArrayTemplate<double>> xyz;
    xyz->SetNumberOfComponents(3);
    for (int c = 0; c < 3; ++c)
        xyz->SetArray(c, const_cast<double*>(P.col(c).data()), P.rows(), true, true);
    auto pts = vtkSmartPointer<vtkPoints>::New();
    pts->SetData(xyz);
    return pts;
}

vtkSmartPointer<vtkPolyData> sharedVertexCloud(const Eigen::Ref<const Eigen::MatrixX3d>& P)
{
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->SetPoints(sharedPoints(P));
    poly->SetVerts(vertexCells(P.rows()));
    return poly;
}

vtkSmartPointer<vtkPolyData> vertexCloud(const Eigen::Ref<const Eigen::MatrixX3d>& P)
{
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    vtkNew<vtkPoints> pts;
    pts->SetDataTypeToDouble();
    pts->SetNumberOfPoints(P.rows());
    // Points stay double: VTK then shifts and scales them before its float upload, so clouds far
    // from the origin (map coordinates) keep their detail.
    for (Eigen::Index i = 0; i < P.rows(); ++i)
        pts->SetPoint(i, P(i, 0), P(i, 1), P(i, 2));
    poly->SetPoints(pts);
    poly->SetVerts(vertexCells(P.rows()));
    return poly;
}

namespace {
double g_userScale = 1.0;
double g_pixelRatio = 1.0;
} // namespace

void setTextScale(double userScale, double devicePixelRatio)
{
    g_userScale = std::clamp(userScale, kMinTextScale, kMaxTextScale);
    g_pixelRatio = devicePixelRatio > 0.0 ? devicePixelRatio : 1.0;
}

double textScale() { return g_userScale; }

void rememberWidgetFont(QWidget* w)
{
    if (!w->property("olensBaseFontPt").isValid())
        w->setProperty("olensBaseFontPt", w->font().pointSizeF());
}

void scaleWidgetFont(QWidget* w)
{
    rememberWidgetFont(w);
    QFont f = w->font();
    f.setPointSizeF(w->property("olensBaseFontPt").toDouble() * g_userScale);
    w->setFont(f);
}

int fontPx(int base) { return std::max(6, static_cast<int>(std::lround(base * g_userScale * g_pixelRatio))); }

void styleText(vtkTextProperty* t, int size)
{
    t->SetColor(0.1, 0.1, 0.1);
    t->SetFontSize(fontPx(size));
    t->SetFontFamilyToArial();
    t->ShadowOff();
    t->BoldOff();
    t->ItalicOff();
}

std::array<double, 2> textSize(vtkTextProperty* p, const std::string& s, int dpi)
{
    if (s.empty())
        return {0.0, 0.0};
    vtkNew<vtkTextProperty> q;
    q->ShallowCopy(p);
    q->SetOrientation(0.0);
    int bb[4] = {0, 0, 0, 0};
    vtkTextRenderer* r = vtkTextRenderer::GetInstance();
    if (!r || !r->GetBoundingBox(q, s, bb, dpi))
        return {0.6 * p->GetFontSize() * double(s.size()), 1.2 * p->GetFontSize()};
    return {double(bb[1] - bb[0] + 1), double(bb[3] - bb[2] + 1)};
}

void keepInside(vtkTextActor* a, vtkViewport* vp, double w, double h)
{
    const std::array<double, 4> bb = textBox(a, vp);
    double dx = 0.0, dy = 0.0;
    if (bb[1] > w - 1)
        dx = (w - 1) - bb[1];
    if (bb[0] + dx < 1)
        dx = 1 - bb[0];
    if (bb[3] > h - 1)
        dy = (h - 1) - bb[3];
    if (bb[2] + dy < 1)
        dy = 1 - bb[2];
    if (dx != 0.0 || dy != 0.0) {
        double* pos = a->GetPosition();
        a->SetPosition(std::floor(pos[0] + dx), std::floor(pos[1] + dy));
    }
}

std::array<double, 4> textBox(vtkTextActor* a, vtkViewport* vp)
{
    // GetBoundingBox gives the text's rectangle around the actor's anchor; add where it is.
    std::array<double, 4> b{};
    a->GetBoundingBox(vp, b.data());
    const double* at = a->GetPositionCoordinate()->GetComputedDoubleViewportValue(vp);
    b[0] += at[0];
    b[1] += at[0];
    b[2] += at[1];
    b[3] += at[1];
    return b;
}

vtkSmartPointer<vtkImageData> makeImage(const GridSpec& g, const Eigen::VectorXd& values, double zOffset)
{
    auto img = vtkSmartPointer<vtkImageData>::New();
    img->SetDimensions(g.res[0], g.res[1], g.res[2]);
    img->SetOrigin(g.lo[0], g.lo[1], g.dims == 2 ? zOffset : g.lo[2]);
    img->SetSpacing(g.spacing(0), g.spacing(1), g.dims == 2 ? 1.0 : g.spacing(2));
    vtkNew<vtkDoubleArray> a;
    a->SetName("value");
    a->SetNumberOfTuples(values.size());
    for (Eigen::Index i = 0; i < values.size(); ++i)
        a->SetValue(i, values(i));
    img->GetPointData()->SetScalars(a);
    return img;
}

vtkSmartPointer<vtkPolyData> contourOf(vtkImageData* img, const std::vector<double>& levels, bool surface)
{
    auto out = vtkSmartPointer<vtkPolyData>::New();
    if (surface) {
        vtkNew<vtkFlyingEdges3D> fe;
        fe->SetInputData(img);
        fe->SetNumberOfContours(static_cast<int>(levels.size()));
        for (std::size_t i = 0; i < levels.size(); ++i)
            fe->SetValue(static_cast<int>(i), levels[i]);
        fe->ComputeNormalsOn();
        fe->Update();
        out->DeepCopy(fe->GetOutput());
    } else {
        vtkNew<vtkContourFilter> cf;
        cf->SetInputData(img);
        cf->SetNumberOfContours(static_cast<int>(levels.size()));
        for (std::size_t i = 0; i < levels.size(); ++i)
            cf->SetValue(static_cast<int>(i), levels[i]);
        cf->Update();
        out->DeepCopy(cf->GetOutput());
    }
    return out;
}

vtkSmartPointer<vtkActor> polyActor(vtkPolyData* poly, const QColor& c, double width, double opacity)
{
    vtkNew<vtkPolyDataMapper> m;
    m->SetInputData(poly);
    m->ScalarVisibilityOff();
    auto a = vtkSmartPointer<vtkActor>::New();
    a->SetMapper(m);
    a->GetProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
    a->GetProperty()->SetLineWidth(static_cast<float>(width));
    a->GetProperty()->SetOpacity(opacity);
    a->PickableOff();
    return a;
}

void removeActors(vtkRenderer* renderer, std::vector<vtkSmartPointer<vtkActor>>& actors)
{
    for (auto& a : actors)
        renderer->RemoveActor(a);
    actors.clear();
}

} // namespace olens
