#pragma once
// The selected set (DataDocument::pointSelection: box, lasso, Ranking rows) as a magenta halo
// behind each selected point's sprite: a larger plain disc (the points' sprite shader without its
// dark rim), drawn before the points so the point itself stays visible on top in its own colour.
// Not pickable. The same layer marks the training points of a model fitted on a part of the data
// (FitResult::trainingRows, "fit on a part, score all") with a dark ring around each point.
#include "render/SpriteShader.h"
#include "view/layers/ViewLayer.h"

#include <vtkNew.h>

class vtkActor;
class vtkPolyData;

namespace olens {

class SelectionLayer : public ViewLayer {
public:
    /// Selection: halos around DataDocument::pointSelection(); Training: rings around the result's
    /// training rows when it was fitted on a part (none when fitted on all rows). sizeScale: the
    /// view's factor on every sprite size (shared with the points).
    enum class Marks { Selection, Training };
    explicit SelectionLayer(std::shared_ptr<float> sizeScale, Marks marks = Marks::Selection);
    ~SelectionLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

    /// Number of halos (rings) drawn (for tests).
    long haloCount() const;
    /// The halo's colour (RGB 0…255).
    static constexpr unsigned char kColour[3] = {235, 0, 170};
    /// A halo's diameter relative to its point's sprite (sizes already include the pixel ratio).
    static constexpr float kScale = 1.8f;
    /// The selection ring's hole (a fraction of its radius): the point's own sprite shows in it.
    static constexpr double kHole = 0.45;
    /// The selection ring's smallest diameter (a base size, VtkSupport fontPx: device pixels at the
    /// view's text size), however small the points are drawn.
    static constexpr int kMinHaloPx = 22;
    /// The training rings' colour and diameter relative to the point's sprite.
    static constexpr unsigned char kTrainingColour[3] = {25, 25, 25};
    static constexpr float kTrainingScale = 1.6f;

private:
    Marks m_marks;
    vtkNew<vtkPolyData> m_poly;
    vtkNew<vtkActor> m_actor;
    vtkNew<SpriteUniforms> m_uniforms;
};

} // namespace olens
