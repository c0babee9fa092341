#include "view/layers/UncertaintyLayer.h"

#include "document/DataDocument.h"
#include "display/DisplayGeometry.h"
#include "display/Grid.h"
#include "view/layers/PointColouring.h"

#include <vtkActor.h>
#include <vtkDoubleArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTensorGlyph.h>
#include <vtkUnsignedCharArray.h>

namespace olens {

UncertaintyLayer::UncertaintyLayer()
{
    for (vtkActor* a : {m_fill.Get(), m_outline.Get()}) {
        vtkNew<vtkPolyDataMapper> gm;
        gm->SetInputData(m_glyphs);
        gm->SetScalarModeToUsePointData();
        gm->SetColorModeToDirectScalars();
        a->SetMapper(gm);
        a->PickableOff();
        a->VisibilityOff();
    }
    m_outline->GetProperty()->SetRepresentationToWireframe();
    m_outline->GetProperty()->SetLineWidth(1.2f);
    m_outline->GetProperty()->SetOpacity(0.8);
    m_outline->GetProperty()->LightingOff();
}

UncertaintyLayer::~UncertaintyLayer() = default;

void UncertaintyLayer::attach(vtkRenderer* scene, vtkRenderer*)
{
    scene->AddActor(m_fill);
    scene->AddActor(m_outline);
}

void UncertaintyLayer::update(const ViewContext& ctx, unsigned changes)
{
    if (changes & (Points | Positions | Glyphs))
        build(ctx); // colours and visibility included
    else if (changes & Colours)
        colour(ctx);
    if (changes & Visibility)
        applyVisibility(ctx);
}

void UncertaintyLayer::build(const ViewContext& ctx)
{
    m_glyphs->Initialize();
    m_sourcePoints = m_sourceCells = 0;
    if (!ctx.on(LayerSwitch::Uncertainty) || !ctx.canShowUncertainty) {
        applyVisibility(ctx);
        return;
    }
    const Dataset& d = ctx.doc->dataset();
    const auto& display = *ctx.display;
    const Eigen::Index n = d.rows();
    const bool flat = ctx.twoD;
    // Each glyph is the unit disk / sphere mapped by the point's symmetric glyph matrix.
    vtkNew<vtkDoubleArray> tensors;
    tensors->SetNumberOfComponents(9);
    tensors->SetNumberOfTuples(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Matrix3d M = glyphMatrix(d.sigma.row(i).transpose(), *ctx.projection, ctx.sigmaScale);
        tensors->SetTypedTuple(i, M.data()); // column-major, as vtkTensorGlyph reads it
    }
    vtkNew<vtkPolyData> centres;
    vtkNew<vtkPoints> pts;
    pts->SetDataTypeToDouble();
    pts->SetNumberOfPoints(n);
    for (Eigen::Index i = 0; i < n; ++i)
        pts->SetPoint(i, display(i, 0), display(i, 1), display(i, 2));
    centres->SetPoints(pts);
    centres->GetPointData()->SetTensors(tensors);

    vtkSmartPointer<vtkPolyData> source;
    if (flat) {
        vtkNew<vtkRegularPolygonSource> disk;
        disk->SetNumberOfSides(40);
        disk->SetRadius(1.0);
        disk->GeneratePolygonOn();
        disk->GeneratePolylineOff();
        disk->Update();
        source = disk->GetOutput();
    } else {
        vtkNew<vtkSphereSource> sphere;
        sphere->SetRadius(1.0);
        const bool many = n > 2000; // keep large clouds interactive
        sphere->SetThetaResolution(many ? 12 : 20);
        sphere->SetPhiResolution(many ? 8 : 12);
        sphere->Update();
        source = sphere->GetOutput();
    }
    vtkNew<vtkTensorGlyph> glyph;
    glyph->SetInputData(centres);
    glyph->SetSourceData(source);
    glyph->ExtractEigenvaluesOff();
    glyph->ScalingOn();
    glyph->SetScaleFactor(1.0);
    glyph->ClampScalingOff();
    glyph->ColorGlyphsOff();
    glyph->Update();
    m_glyphs->DeepCopy(glyph->GetOutput());
    m_sourcePoints = source->GetNumberOfPoints();
    m_sourceCells = source->GetNumberOfCells();

    // 2D: just under the points (above the score image); 3D: lit translucent ellipsoids.
    const double diag = boxDiagonal(display);
    m_fill->SetPosition(0, 0, flat ? -1e-3 * diag : 0.0);
    m_outline->SetPosition(0, 0, flat ? -0.9e-3 * diag : 0.0);
    m_fill->GetProperty()->SetOpacity(flat ? 0.18 : 0.22);
    if (flat)
        m_fill->GetProperty()->LightingOff();
    else
        m_fill->GetProperty()->LightingOn();
    colour(ctx);
    applyVisibility(ctx);
}

void UncertaintyLayer::colour(const ViewContext& ctx)
{
    vtkUnsignedCharArray* pointColours = ctx.colouring->colours();
    const vtkIdType n = pointColours ? pointColours->GetNumberOfTuples() : 0;
    if (!pointColours || m_sourcePoints == 0 || m_glyphs->GetNumberOfPoints() != n * m_sourcePoints)
        return;
    vtkNew<vtkUnsignedCharArray> colours;
    colours->SetName("colours");
    colours->SetNumberOfComponents(3);
    colours->SetNumberOfTuples(m_glyphs->GetNumberOfPoints());
    for (vtkIdType i = 0; i < n; ++i) {
        unsigned char rgb[3];
        pointColours->GetTypedTuple(i, rgb);
        for (vtkIdType k = 0; k < m_sourcePoints; ++k)
            colours->SetTypedTuple(i * m_sourcePoints + k, rgb);
    }
    m_glyphs->GetPointData()->SetScalars(colours);
    m_glyphs->Modified();
}

void UncertaintyLayer::applyVisibility(const ViewContext& ctx)
{
    const bool shown = ctx.on(LayerSwitch::Uncertainty) && m_glyphs->GetNumberOfPoints() > 0;
    m_fill->SetVisibility(shown);
    m_outline->SetVisibility(shown && ctx.twoD);
}

} // namespace olens
