#include "view/layers/FieldLayer.h"

#include "document/DataDocument.h"
#include "display/DisplayGeometry.h"
#include "view/layers/PointColouring.h"
#include "render/VtkSupport.h"

#include <vtkActor.h>
#include <vtkDataArray.h>
#include <vtkImageActor.h>
#include <vtkImageData.h>
#include <vtkImageMapToColors.h>
#include <vtkImageMapper3D.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

namespace olens {

FieldLayer::FieldLayer(const PointColouring* colouring)
{
    // A 1-pixel placeholder keeps the image pipeline valid before the first field arrives.
    auto placeholder = vtkSmartPointer<vtkImageData>::New();
    placeholder->SetDimensions(1, 1, 1);
    placeholder->AllocateScalars(VTK_DOUBLE, 1);
    placeholder->GetPointData()->GetScalars()->SetComponent(0, 0, 0.0);
    m_imageColours->SetInputData(placeholder);
    m_imageColours->SetLookupTable(colouring->scoreTable());
    m_imageColours->SetOutputFormatToRGB();
    m_image->SetOpacity(0.4);
    m_image->PickableOff();
    m_image->VisibilityOff();
    m_image->GetMapper()->SetInputConnection(m_imageColours->GetOutputPort());
}

FieldLayer::~FieldLayer() = default;

void FieldLayer::attach(vtkRenderer* scene, vtkRenderer*)
{
    m_scene = scene;
    scene->AddActor(m_image);
}

void FieldLayer::update(const ViewContext& ctx, unsigned changes)
{
    if (changes & Colours)
        m_imageColours->Modified();
    if (changes & Field)
        drawField(ctx);
    else if (changes & Threshold)
        drawThreshold(ctx);
    if (changes & Style && m_threshold && !ctx.twoD)
        m_threshold->GetProperty()->SetOpacity(ctx.isoOpacity);
    if (changes & (Field | Threshold | Visibility))
        applyVisibility(ctx);
}

void FieldLayer::drawField(const ViewContext& ctx)
{
    if (m_contours)
        m_scene->RemoveActor(m_contours);
    if (m_threshold)
        m_scene->RemoveActor(m_threshold);
    m_contours = nullptr;
    m_threshold = nullptr;
    m_thresholdPoly = nullptr;
    m_scoreImage = nullptr;
    m_image->VisibilityOff();

    const auto& f = ctx.field;
    if (!f || f->score.size() != f->grid.count())
        return;
    const GridSpec& g = f->grid;
    const bool flat = g.dims == 2;
    const double below = -2e-3 * (g.hi - g.lo).norm();
    m_scoreImage = makeImage(g, f->score, below);
    if (flat) {
        m_imageColours->SetInputData(m_scoreImage);
        m_imageColours->Update();
        m_image->SetVisibility(ctx.on(LayerSwitch::ScoreImage));
        // Quantile contour levels of the training scores, thin and grey (not in the decision
        // display: two flat regions and the threshold only).
        if (const auto result = ctx.doc->result(); result && !ctx.colouring->panelStyle().decisionOnly) {
            auto poly = contourOf(m_scoreImage, quantileLevels(result->scores, {0.25, 0.5, 0.75, 0.9}), false);
            m_contours = polyActor(poly, QColor(90, 90, 90), 1.0, 0.8);
            m_contours->SetPosition(0, 0, -below * 0.5);
            m_scene->AddActor(m_contours);
        }
    }
    drawThreshold(ctx);
}

void FieldLayer::drawThreshold(const ViewContext& ctx)
{
    if (m_threshold)
        m_scene->RemoveActor(m_threshold);
    m_threshold = nullptr;
    m_thresholdPoly = nullptr;
    if (!m_scoreImage || !ctx.field)
        return;
    const bool flat = ctx.field->grid.dims == 2;
    m_thresholdPoly = contourOf(m_scoreImage, {ctx.doc->threshold()}, !flat);
    if (flat) {
        m_threshold = polyActor(m_thresholdPoly, QColor(15, 15, 15), 3.5, 1.0);
        const double diag = (ctx.field->grid.hi - ctx.field->grid.lo).norm();
        m_threshold->SetPosition(0, 0, 1e-3 * diag);
    } else {
        m_threshold = polyActor(m_thresholdPoly, QColor(120, 140, 170), 1.0, ctx.isoOpacity);
        m_threshold->GetProperty()->SetSpecular(0.2);
    }
    m_scene->AddActor(m_threshold);
}

void FieldLayer::applyVisibility(const ViewContext& ctx)
{
    m_image->SetVisibility(ctx.twoD && m_scoreImage && ctx.on(LayerSwitch::ScoreImage));
    if (m_contours)
        m_contours->SetVisibility(ctx.on(LayerSwitch::Contours));
    if (m_threshold)
        m_threshold->SetVisibility(ctx.twoD ? ctx.on(LayerSwitch::Contours) : ctx.on(LayerSwitch::IsoSurface));
}

vtkIdType FieldLayer::thresholdCells() const
{
    return m_thresholdPoly ? m_thresholdPoly->GetNumberOfCells() : 0;
}

} // namespace olens
