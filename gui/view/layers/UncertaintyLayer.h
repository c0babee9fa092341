#pragma once
// Per-point uncertainty (Dataset::sigma): one tensor glyph per point, the scale·σ ellipse (2D,
// translucent fill + outline) or ellipsoid (3D, lit) of N(x_i, diag(σ_i²)) in display coordinates
// (display/DisplayGeometry.h: glyphMatrix), coloured like its point. Built only while shown.
#include "view/layers/ViewLayer.h"

#include <vtkNew.h>
#include <vtkType.h>

class vtkActor;
class vtkPolyData;

namespace olens {

class UncertaintyLayer : public ViewLayer {
public:
    UncertaintyLayer();
    ~UncertaintyLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

    /// The glyphs of all points (empty when not drawn).
    vtkPolyData* glyphs() const { return m_glyphs; }
    /// Cells of one glyph (1 polygon in 2D, the sphere's triangles in 3D).
    vtkIdType cellsPerGlyph() const { return m_sourceCells; }

private:
    void build(const ViewContext& ctx);
    void colour(const ViewContext& ctx);
    void applyVisibility(const ViewContext& ctx);

    vtkNew<vtkPolyData> m_glyphs;
    vtkNew<vtkActor> m_fill;
    vtkNew<vtkActor> m_outline;
    vtkIdType m_sourcePoints = 0, m_sourceCells = 0;
};

} // namespace olens
