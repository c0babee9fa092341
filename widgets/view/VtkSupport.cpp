#include "view/VtkSupport.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkContourFilter.h>
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
#include <vtkTextProperty.h>

namespace olens {

vtkSmartPointer<vtkPolyData> vertexCloud(const Eigen::MatrixX3d& P)
{
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    vtkNew<vtkPoints> pts;
    pts->SetDataTypeToDouble();
    pts->SetNumberOfPoints(P.rows());
    vtkNew<vtkCellArray> verts;
    verts->AllocateExact(P.rows(), P.rows());
    for (Eigen::Index i = 0; i < P.rows(); ++i) {
        pts->SetPoint(i, P(i, 0), P(i, 1), P(i, 2));
        const vtkIdType id = i;
        verts->InsertNextCell(1, &id);
    }
    poly->SetPoints(pts);
    poly->SetVerts(verts);
    return poly;
}

void styleText(vtkTextProperty* t, int size)
{
    t->SetColor(0.1, 0.1, 0.1);
    t->SetFontSize(size);
    t->SetFontFamilyToArial();
    t->ShadowOff();
    t->BoldOff();
    t->ItalicOff();
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
