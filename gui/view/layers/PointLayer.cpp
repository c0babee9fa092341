#include "view/layers/PointLayer.h"

#include "display/PointSizing.h"

#include "document/DataDocument.h"
#include "display/Grid.h"
#include "metrics/Thresholds.h"
#include "view/layers/PointColouring.h"
#include "render/ScenePicker.h"
#include "render/SpriteShader.h"
#include "render/VtkSupport.h"

#include <vtkActor.h>
#include <vtkFloatArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>
#include <vtkShaderProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace olens {

namespace {

/// A quiet point's colour channel: mixed with kQuietGrey by kQuietFade.
unsigned char quietChannel(unsigned char v)
{
    return static_cast<unsigned char>(
        std::lround((1.0 - PointLayer::kQuietFade) * v + PointLayer::kQuietFade * PointLayer::kQuietGrey));
}

/// The sprite size drawn: negative for a flagged point (drawn in front), shrunk for a quiet one.
float drawnSize(float size, bool flagged, bool quiet)
{
    return flagged ? -size : quiet ? PointLayer::kQuietSize * size : size;
}

/// A sprite actor on the layer's points: direct RGBA colours per point, round anti-aliased
/// sprites with an outline sized per point (shaders/points.*.glsl), its own mapper and uniforms.
void setUpSpriteActor(vtkActor* actor, vtkPolyData* poly, SpriteUniforms* uniforms)
{
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(poly);
    mapper->SetScalarModeToUsePointData();
    mapper->SetColorModeToDirectScalars();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetRepresentationToPoints();
    actor->GetProperty()->SetPointSize(9);
    actor->GetProperty()->LightingOff();
    installSpriteVertexShader(actor, mapper, uniforms);
    actor->GetShaderProperty()->AddFragmentShaderReplacement("//VTK::Light::Impl", true,
                                                            spriteShaderText("points.frag.impl.glsl"), false);
}

} // namespace

PointLayer::PointLayer(std::shared_ptr<float> sizeScale)
{
    m_uniforms->sizeScale = sizeScale;
    setUpSpriteActor(m_points, m_poly, m_uniforms);
    // The flagged sprites' opaque pass: their own cloud (updateFront), own mapper and uniforms. Not
    // the whole cloud with the others culled in the vertex shader: that shaded every vertex twice,
    // and a software rasteriser shades vertices on the GUI thread (~0.1 s at 1M points).
    m_frontUniforms->sizeScale = sizeScale;
    m_frontUniforms->front = true;
    m_frontUniforms->pass = SpriteUniforms::Pass::FrontOnly;
    setUpSpriteActor(m_front, m_frontPoly, m_frontUniforms);
    m_front->PickableOff();
    m_front->VisibilityOff();

    vtkNew<vtkPolyDataMapper> selMapper;
    selMapper->SetInputData(m_selPoly);
    selMapper->ScalarVisibilityOff();
    m_selection->SetMapper(selMapper);
    m_selection->GetProperty()->SetRepresentationToPoints();
    m_selection->GetProperty()->RenderPointsAsSpheresOn();
    m_selection->GetProperty()->SetPointSize(17);
    m_selection->GetProperty()->SetColor(1.0, 0.75, 0.0);
    m_selection->PickableOff();
    m_selection->VisibilityOff();

    // Top-k: a ring glyph around each highlighted point.
    vtkNew<vtkRegularPolygonSource> ring;
    ring->SetNumberOfSides(32);
    ring->GeneratePolygonOff();
    ring->GeneratePolylineOn();
    vtkNew<vtkGlyph3DMapper> ringMapper;
    ringMapper->SetInputData(m_topPoly);
    ringMapper->SetSourceConnection(ring->GetOutputPort());
    ringMapper->ScalingOff();
    ringMapper->ScalarVisibilityOff();
    m_top->SetMapper(ringMapper);
    m_top->GetProperty()->SetColor(0.55, 0.0, 0.0);
    m_top->GetProperty()->SetLineWidth(2.5f);
    m_top->GetProperty()->LightingOff();
    m_top->PickableOff();
    m_top->VisibilityOff();
}

PointLayer::~PointLayer() = default;

void PointLayer::attach(vtkRenderer* scene, vtkRenderer*)
{
    scene->AddActor(m_points);
    scene->AddActor(m_front);
    scene->AddActor(m_top);
    scene->AddActor(m_selection);
}

void PointLayer::setPointSize(float pixels)
{
    m_points->GetProperty()->SetPointSize(pixels);
    m_front->GetProperty()->SetPointSize(pixels);
}

void PointLayer::setOpacity(double alpha)
{
    alpha = std::clamp(alpha, 0.0, 1.0);
    if (alpha == m_opacity)
        return;
    m_opacity = alpha;
    updatePasses();
}

void PointLayer::updatePasses()
{
    // Opaque: one actor, one pass, as before. Translucent: m_points (VTK draws an actor with
    // opacity < 1 in its translucent pass, depth writes off, so the sprites blend whatever their
    // order) keeps the unflagged sprites; m_front draws the flagged ones opaque, in front, in the
    // opaque pass, so their depth hides the translucent sprites behind them in 2-D and 3-D alike.
    const bool translucent = m_opacity < 1.0;
    const bool split = translucent && m_flagged;
    m_points->GetProperty()->SetOpacity(m_opacity);
    m_uniforms->pass = split ? SpriteUniforms::Pass::BackOnly : SpriteUniforms::Pass::All;
    m_uniforms->front = m_front3D && !split;
    m_front->SetVisibility(split);
}

void PointLayer::setLodStride(int k)
{
    m_lodStride = std::max(1, k);
    // The still frame's points only: a drag's stride counts among them.
    const int s = m_subset ? m_stillStride : 1;
    m_uniforms->lodStride = (m_lodStride + s - 1) / s;
}

vtkIdType PointLayer::cloudPoints() const
{
    return m_poly->GetNumberOfPoints();
}

void PointLayer::update(const ViewContext& ctx, unsigned changes)
{
    if (changes & Points) {
        // NDC depth per pixel of sprite size: only in 2-D, where all points share z = 0 (in 3-D
        // the depth of the points themselves must decide).
        m_uniforms->depthBias = ctx.twoD ? 1e-4f : 0.0f;
    }
    if (changes & (Colours | Threshold | Points | Positions)) {
        // Points move (data ↔ reconstruction) keeping their colours; a new threshold or colouring
        // changes which points a still frame draws.
        updateCloud(ctx, changes);
        updateFront();
    }
    if (changes & (Points | Positions))
        m_retired.clear(); // VTK reads the display matrix now, or a copy of its rows
    if (changes & (Positions | TopK))
        updateTopK(ctx);
    if (changes & (Positions | Selection))
        updateSelection(ctx);
}

void PointLayer::classify(const ViewContext& ctx)
{
    // Coloured by score: the points the decision flags (score above the threshold) get a negative
    // size; coloured by label, those labelled outliers (1). In 3-D the sprite shader draws the
    // flagged ones in front of the rest — in a large cloud they would otherwise sit inside it,
    // hidden (2-D has its depth bias by size instead); a translucent cloud (either) draws all of
    // them in their own opaque pass (updatePasses), so a million faint inliers never fade them.
    vtkFloatArray* sizes = ctx.colouring->sizes();
    const FitResult* r = ctx.doc->result().get();
    const Dataset& d = ctx.doc->dataset();
    const Eigen::Index n = sizes ? sizes->GetNumberOfTuples() : 0;
    const bool byScore = ctx.colourBy == ColourBy::Score && r && r->scores.size() == n && n > 0;
    // Label colours: chosen, or what score colouring shows before there is a result.
    const bool byLabel = !byScore && ctx.colourBy != ColourBy::Custom && ctx.colourBy != ColourBy::Cluster
                         && d.hasLabels() && d.labels.size() == n && n > 0;
    m_flagged = byScore || byLabel;
    m_front3D = byScore && !ctx.twoD;
    m_scores = byScore ? &r->scores : nullptr;
    m_labels = byLabel ? &d.labels : nullptr;
    m_cut = byScore ? ctx.doc->threshold() : 0.0;
    // A big cloud (kBigCloudRows) coloured by score: what the threshold does not flag is drawn
    // small and faded, so the flagged few stand out (issue #54: the torus vanished under yellow).
    m_quiet = byScore && isBigCloud(n);
    m_quietCount = 0;
    m_stillStride = olens::stillStride(ctx.display->rows(), m_quiet, ctx.stillQuietBudget, ctx.stillPointBudget);
    updatePasses();
}

void PointLayer::updateCloud(const ViewContext& ctx, unsigned changes)
{
    const auto& P = *ctx.display;
    classify(ctx);
    vtkFloatArray* sizes = ctx.colouring->sizes();
    vtkUnsignedCharArray* colours = ctx.colouring->colours();
    const Eigen::Index n = P.rows();
    const bool whole = m_stillStride <= 1 || !sizes || !colours || sizes->GetNumberOfTuples() != n
                       || colours->GetNumberOfTuples() != n || colours->GetNumberOfComponents() != 3;
    if (whole) {
        // The cloud's points are the view's display matrix itself (sharedVertexCloud): taken again
        // whenever that matrix is assigned (a Points or Positions change follows).
        if (m_subset || (changes & (Points | Positions)))
            m_poly->ShallowCopy(sharedVertexCloud(P));
        m_subset = false;
        vtkFloatArray* drawn = frontSizes(ctx);
        m_poly->GetPointData()->SetScalars(quietColours(colours, drawn));
        m_poly->GetPointData()->AddArray(drawn);
        m_poly->Modified();
        setLodStride(m_lodStride);
        return;
    }
    // The still frame's points alone: every k-th row not flagged, every flagged row. At 20 M rows
    // and k = 20, 1.2 M points instead of 20 M in VTK's cells and buffers and in the rasteriser's
    // copy of them (~2 GB; issue #54). The rows come along for picking.
    const float* z = sizes->GetPointer(0);
    const unsigned char* c = colours->GetPointer(0);
    const int k = m_stillStride;
    std::vector<int> rows;
    rows.reserve(static_cast<std::size_t>(n / k + 1));
    for (Eigen::Index i = 0; i < n; ++i) {
        const bool flagged = flaggedRow(i);
        if (!flagged && m_quiet)
            ++m_quietCount;
        if (flagged || i % k == 0)
            rows.push_back(static_cast<int>(i));
    }
    const auto m = static_cast<Eigen::Index>(rows.size());
    Eigen::MatrixX3d F(m, 3);
    vtkNew<vtkUnsignedCharArray> rgb;
    rgb->SetName(colours->GetName());
    rgb->SetNumberOfComponents(3);
    rgb->SetNumberOfTuples(m);
    vtkNew<vtkFloatArray> size;
    size->SetName(sizes->GetName());
    size->SetNumberOfTuples(m);
    vtkNew<vtkIntArray> row;
    row->SetName(ScenePicker::kRowArray);
    row->SetNumberOfTuples(m);
    unsigned char* out = rgb->GetPointer(0);
    for (Eigen::Index j = 0; j < m; ++j) {
        const int i = rows[static_cast<std::size_t>(j)];
        F.row(j) = P.row(i);
        row->SetValue(j, i);
        const bool flagged = m_flagged && flaggedRow(i);
        const bool quiet = m_quiet && !flagged;
        size->SetValue(j, drawnSize(z[i], flagged, quiet));
        for (int q = 0; q < 3; ++q)
            out[3 * j + q] = quiet ? quietChannel(c[3 * i + q]) : c[3 * i + q];
    }
    rows = {};
    m_poly->ShallowCopy(vertexCloud(F));
    m_poly->GetPointData()->SetScalars(rgb);
    m_poly->GetPointData()->AddArray(size);
    m_poly->GetPointData()->AddArray(row);
    m_poly->Modified();
    m_subset = true;
    m_sizes->Initialize();        // the whole cloud's copies are not needed
    m_quietColours->Initialize();
    setLodStride(m_lodStride);
}

vtkFloatArray* PointLayer::frontSizes(const ViewContext& ctx)
{
    vtkFloatArray* sizes = ctx.colouring->sizes();
    if (!m_flagged)
        return sizes;
    const Eigen::Index n = sizes->GetNumberOfTuples();
    m_sizes->DeepCopy(sizes);
    for (Eigen::Index i = 0; i < n; ++i) {
        const bool flagged = flaggedRow(i);
        m_sizes->SetValue(i, drawnSize(m_sizes->GetValue(i), flagged, m_quiet && !flagged));
        m_quietCount += m_quiet && !flagged;
    }
    m_sizes->Modified(); // VTK's VBO cache keys on the array and its time stamp
    return m_sizes;
}

vtkUnsignedCharArray* PointLayer::quietColours(vtkUnsignedCharArray* colours, vtkFloatArray* sizes)
{
    if (!m_quiet || !colours || !sizes || colours->GetNumberOfTuples() != sizes->GetNumberOfTuples())
        return colours;
    m_quietColours->DeepCopy(colours);
    const vtkIdType n = colours->GetNumberOfTuples();
    unsigned char* c = m_quietColours->GetPointer(0);
    for (vtkIdType i = 0; i < n; ++i)
        if (sizes->GetValue(i) > 0.0f) // unflagged (flagged sizes are negative)
            for (int k = 0; k < 3; ++k)
                c[3 * i + k] = quietChannel(c[3 * i + k]);
    m_quietColours->Modified();
    return m_quietColours;
}

void PointLayer::updateFront()
{
    auto* sizes = vtkFloatArray::SafeDownCast(m_poly->GetPointData()->GetArray("olensPointSize"));
    auto* colours = vtkUnsignedCharArray::SafeDownCast(m_poly->GetPointData()->GetScalars());
    const vtkIdType n = m_poly->GetNumberOfPoints();
    std::vector<vtkIdType> ids;
    if (m_flagged && sizes && colours && sizes->GetNumberOfTuples() == n && colours->GetNumberOfTuples() == n)
        for (vtkIdType i = 0; i < n; ++i)
            if (sizes->GetValue(i) < 0.0f)
                ids.push_back(i);
    const auto m = static_cast<Eigen::Index>(ids.size());
    Eigen::MatrixX3d F(m, 3);
    vtkNew<vtkUnsignedCharArray> c;
    c->SetName(colours ? colours->GetName() : "colours");
    c->SetNumberOfComponents(3);
    c->SetNumberOfTuples(m);
    vtkNew<vtkFloatArray> z;
    z->SetName("olensPointSize");
    z->SetNumberOfTuples(m);
    for (Eigen::Index j = 0; j < m; ++j) {
        const vtkIdType i = ids[static_cast<std::size_t>(j)];
        double x[3];
        m_poly->GetPoint(i, x);
        F.row(j) << x[0], x[1], x[2];
        for (int k = 0; k < 3; ++k)
            c->SetTypedComponent(j, k, colours->GetTypedComponent(i, k));
        z->SetValue(j, sizes->GetValue(i));
    }
    m_frontPoly->ShallowCopy(vertexCloud(F));
    m_frontPoly->GetPointData()->SetScalars(c);
    m_frontPoly->GetPointData()->AddArray(z);
    m_frontPoly->Modified();
}

void PointLayer::updateTopK(const ViewContext& ctx)
{
    const auto& display = *ctx.display;
    const int k = std::min<int>(ctx.doc->topK(), static_cast<int>(ctx.doc->ranking().size()));
    Eigen::MatrixX3d P(k, 3);
    for (int r = 0; r < k; ++r)
        P.row(r) = display.row(ctx.doc->ranking()[static_cast<std::size_t>(r)]);
    m_topPoly->ShallowCopy(vertexCloud(P));
    // Ring radius: a small fraction of the data box.
    const double diag = boxDiagonal(display);
    if (auto* gm = vtkGlyph3DMapper::SafeDownCast(m_top->GetMapper())) {
        gm->SetScaleFactor(1.0);
        m_top->SetScale(1.0);
    }
    m_top->GetProperty()->SetLineWidth(2.5f);
    vtkNew<vtkRegularPolygonSource> ring;
    ring->SetNumberOfSides(32);
    ring->SetRadius(0.025 * diag);
    ring->GeneratePolygonOff();
    ring->GeneratePolylineOn();
    static_cast<vtkGlyph3DMapper*>(m_top->GetMapper())->SetSourceConnection(ring->GetOutputPort());
    m_top->SetVisibility(k > 0);
}

void PointLayer::updateSelection(const ViewContext& ctx)
{
    const int index = ctx.selected;
    if (index < 0 || index >= ctx.display->rows()) {
        m_selection->VisibilityOff();
    } else {
        Eigen::MatrixX3d one = ctx.display->row(index);
        m_selPoly->ShallowCopy(vertexCloud(one));
        m_selection->VisibilityOn();
    }
}

} // namespace olens
