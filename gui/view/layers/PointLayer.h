#pragma once
// The points as round sprites (shaders/points.*.glsl) coloured and sized per point, the top-k
// rings and the selection highlight. The sprites are the view's pick target. A dense cloud is drawn
// translucent (display/PointSizing autoPointOpacity): VTK's translucent pass (depth writes off)
// draws the unflagged sprites, and a second actor on the same data draws the flagged ones opaque
// in the opaque pass, in front (their depth written first), so outliers never fade. A big cloud
// coloured by score draws what the threshold does not flag small and faded (issue #54). A cloud
// whose still frame draws only every k-th point gives VTK only the points it draws (the software
// rasteriser keeps its own copy of every point it is given: ~70 B a point).
#include "view/layers/ViewLayer.h"

#include "render/SpriteShader.h"

#include <vtkNew.h>
#include <vector>
#include <vtkUnsignedCharArray.h>

class vtkActor;
class vtkFloatArray;
class vtkPolyData;

namespace olens {

class PointLayer : public ViewLayer {
public:
    /// sizeScale: the view's factor on every sprite size (shared with the selection halos).
    explicit PointLayer(std::shared_ptr<float> sizeScale);
    ~PointLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

    vtkActor* points() const { return m_points; }
    /// What holds the view's display coordinates, about to be replaced: VTK reads the cloud's points
    /// from that buffer (sharedVertexCloud), so it is kept alive here until the next Points or
    /// Positions update takes the new one. Were the replacement or a layer to throw in between,
    /// VTK would otherwise read freed memory.
    void retire(std::shared_ptr<const void> owner) { m_retired.push_back(std::move(owner)); }
    void setPointSize(float pixels);
    /// Level of detail: draw every k-th point (1 = all) until set back; k ≥ stillStride().
    void setLodStride(int k);
    int lodStride() const { return m_lodStride; }
    /// The points VTK is given: all rows, or for a still stride k > 1 the still frame's (every
    /// k-th row not flagged and every flagged row), whose vtk ids map back to rows through the
    /// point array ScenePicker::kRowArray (a pick names a row).
    vtkIdType cloudPoints() const;
    /// Opacity of the unflagged sprites (1: one opaque pass, as for every small cloud).
    void setOpacity(double alpha);
    double opacity() const { return m_opacity; }
    /// The opaque actor of the flagged sprites (visible while the cloud is translucent and some
    /// points are flagged).
    vtkActor* frontPoints() const { return m_front; }
    /// Points drawn quiet (small and faded: a big cloud's unflagged points, issue #54); 0 otherwise.
    Eigen::Index quietPoints() const { return m_quietCount; }
    /// The level of detail of a still frame: every k-th point not flagged (display/PointSizing
    /// stillStride: a million of a big cloud's quiet points, 4 million of any other cloud's); 1 = all.
    int stillStride() const { return m_stillStride; }
    /// Size and colour weight of a quiet point: its sprite × kQuietSize, its colour mixed with
    /// kQuietGrey by kQuietFade (the hue order of the colour map stays readable).
    static constexpr float kQuietSize = 0.45f;
    static constexpr double kQuietFade = 0.6;
    static constexpr int kQuietGrey = 215;

private:
    void updateTopK(const ViewContext& ctx);
    void updateSelection(const ViewContext& ctx);
    void updatePasses();
    /// Which points are flagged, quiet, and the still stride, for the colouring of `ctx`.
    void classify(const ViewContext& ctx);
    /// m_poly: the display matrix itself (stride 1) or the still frame's points, with their colours
    /// and sizes (sizes negated for the flagged, shrunk for the quiet; colours of the quiet faded).
    void updateCloud(const ViewContext& ctx, unsigned changes);
    /// The colouring's sprite sizes, negated for the points to draw in front (3-D outliers).
    vtkFloatArray* frontSizes(const ViewContext& ctx);
    /// The colours to draw: `colours` itself, or for a quiet cloud a copy with the unflagged
    /// (positive `sizes`) faded.
    vtkUnsignedCharArray* quietColours(vtkUnsignedCharArray* colours, vtkFloatArray* sizes);
    /// m_frontPoly: the flagged points of m_poly alone (positions, colours and sizes).
    void updateFront();

    vtkNew<vtkPolyData> m_poly;
    std::vector<std::shared_ptr<const void>> m_retired; // display buffers m_poly may still read (retire)
    vtkNew<vtkActor> m_points;
    vtkNew<vtkPolyData> m_selPoly;
    vtkNew<vtkActor> m_selection;
    vtkNew<vtkPolyData> m_topPoly;
    vtkNew<vtkActor> m_top;
    vtkNew<SpriteUniforms> m_uniforms;
    vtkNew<vtkFloatArray> m_sizes; // frontSizes' copy
    vtkNew<vtkActor> m_front;      // the flagged sprites of a translucent cloud
    vtkNew<vtkPolyData> m_frontPoly; // … as their own small cloud (m_front's input)
    vtkNew<SpriteUniforms> m_frontUniforms;
    double m_opacity = 1.0;
    bool m_flagged = false;        // some sizes are negative (flagged points)
    bool m_front3D = false;        // 3-D: the flagged points drawn in front even when opaque
    bool m_quiet = false;          // a big cloud coloured by score: unflagged points small and faded
    Eigen::Index m_quietCount = 0;
    int m_stillStride = 1;
    int m_lodStride = 1;
    bool m_subset = false;         // m_poly holds the still frame's points, not the display matrix
    /// Flagged: scores above m_cut (or labels equal to 1 with m_labels): the rule of frontSizes.
    const Eigen::VectorXd* m_scores = nullptr;
    const Eigen::VectorXd* m_labels = nullptr;
    double m_cut = 0.0;
    bool flaggedRow(Eigen::Index i) const
    {
        return m_scores ? (*m_scores)(i) > m_cut : m_labels && (*m_labels)(i) == 1.0;
    }
    vtkNew<vtkUnsignedCharArray> m_quietColours; // the colouring's colours, unflagged ones faded
};

} // namespace olens
