#include "view/layers/GeometryLayer.h"

#include "document/DataDocument.h"
#include "display/DisplayGeometry.h"
#include "view/layers/PointColouring.h"
#include "render/VtkSupport.h"

#include <vtkActor.h>
#include <vtkImageData.h>
#include <vtkLineSource.h>
#include <vtkNew.h>
#include <vtkPlaneSource.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>

#include <algorithm>

namespace olens {

GeometryLayer::GeometryLayer() = default;
GeometryLayer::~GeometryLayer() = default;

void GeometryLayer::attach(vtkRenderer* scene, vtkRenderer*)
{
    m_scene = scene; // everything this layer draws depends on the result
}

void GeometryLayer::update(const ViewContext& ctx, unsigned changes)
{
    if (changes & Field)
        drawImplicit(ctx);
    if (changes & Flats)
        drawFlats(ctx);
    if (changes & (Field | Flats | Visibility))
        applyVisibility(ctx);
}

void GeometryLayer::drawImplicit(const ViewContext& ctx)
{
    removeActors(m_scene, m_quadrics);
    removeActors(m_scene, m_planes);
    m_planeFrame.clear();
    const auto& f = ctx.field;
    if (!f)
        return;
    const GridSpec& g = f->grid;
    const bool flat = g.dims == 2;
    // Quadric zero sets (quadrics paper eq. 3): curves in 2D, translucent surfaces in 3D.
    for (std::size_t k = 0; k < f->quadricValues.size(); ++k) {
        auto img = makeImage(g, f->quadricValues[k], 0.0);
        auto poly = contourOf(img, {0.0}, !flat);
        auto a = polyActor(poly, PointColouring::componentColour(static_cast<int>(k)), flat ? 2.5 : 1.0,
                           flat ? 1.0 : 0.45);
        m_scene->AddActor(a);
        m_quadrics.push_back(a);
    }
    // Hyperplanes wᵀx + b = 0, clipped to the grid box by construction, coloured by frame.
    for (std::size_t h = 0; h < f->planeValues.size(); ++h) {
        auto img = makeImage(g, f->planeValues[h], 0.0);
        auto poly = contourOf(img, {0.0}, !flat);
        auto a = polyActor(poly, PointColouring::componentColour(f->planeFrame[h]), flat ? 2.5 : 1.0,
                           flat ? 1.0 : 0.4);
        m_scene->AddActor(a);
        m_planes.push_back(a);
        m_planeFrame.push_back(f->planeFrame[h]);
    }
}

void GeometryLayer::drawFlats(const ViewContext& ctx)
{
    removeActors(m_scene, m_flats);
    const Geometry* geo = ctx.flatGeometry;
    if (!geo || geo->flats.empty() || ctx.doc->isEmpty())
        return;
    const Eigen::VectorXd fill = ctx.doc->dataset().X.colwise().mean().transpose();
    for (const Flat& fl : geo->flats) {
        // Corners of the flat's extent in normalised space → feature space → display.
        const Eigen::MatrixX3d P = flatDisplayCorners(fl, *ctx.flatNormalizer, fill, *ctx.projection);
        if (P.rows() == 0)
            continue;
        const bool segment = P.rows() == 2;
        vtkSmartPointer<vtkPolyData> poly;
        if (segment) {
            vtkNew<vtkLineSource> line;
            line->SetPoint1(P(0, 0), P(0, 1), P(0, 2));
            line->SetPoint2(P(1, 0), P(1, 1), P(1, 2));
            line->Update();
            poly = line->GetOutput();
        } else {
            vtkNew<vtkPlaneSource> plane;
            plane->SetOrigin(P(0, 0), P(0, 1), P(0, 2));
            plane->SetPoint1(P(1, 0), P(1, 1), P(1, 2));
            plane->SetPoint2(P(2, 0), P(2, 1), P(2, 2));
            plane->Update();
            poly = plane->GetOutput();
        }
        auto a = polyActor(poly, PointColouring::componentColour(fl.cluster < 0 ? 0 : fl.cluster), 4.0,
                           segment ? 1.0 : 0.5);
        m_scene->AddActor(a);
        m_flats.push_back(a);
    }
}

void GeometryLayer::applyVisibility(const ViewContext& ctx)
{
    // The layer switch, then the user's choice of quadrics / frames (Layers → Choose…).
    for (std::size_t k = 0; k < m_quadrics.size(); ++k)
        m_quadrics[k]->SetVisibility(ctx.on(LayerSwitch::Quadrics) && ctx.quadricShown(k));
    for (std::size_t h = 0; h < m_planes.size(); ++h)
        m_planes[h]->SetVisibility(ctx.on(LayerSwitch::Hyperplanes) && ctx.frameShown(std::size_t(std::max(0, m_planeFrame[h]))));
    for (auto& a : m_flats)
        a->SetVisibility(ctx.on(LayerSwitch::Flats));
}

} // namespace olens
