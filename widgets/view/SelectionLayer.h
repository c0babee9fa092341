#pragma once
// The selected set (DataDocument::pointSelection: box, lasso, Ranking rows) as a magenta halo
// behind each selected point's sprite: a larger plain disc (the points' sprite shader without its
// dark rim), drawn before the points so the point itself stays visible on top in its own colour.
// Not pickable.
#include "view/SpriteShader.h"
#include "view/ViewLayer.h"

#include <vtkNew.h>

class vtkActor;
class vtkPolyData;

namespace olens {

class SelectionLayer : public ViewLayer {
public:
    /// sizeScale: the view's factor on every sprite size (shared with the points).
    explicit SelectionLayer(std::shared_ptr<float> sizeScale);
    ~SelectionLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

    /// Number of halos drawn (for tests).
    long haloCount() const;
    vtkActor* actor() const { return m_actor; }
    /// The halo's colour (RGB 0…255).
    static constexpr unsigned char kColour[3] = {235, 0, 170};
    /// A halo's diameter relative to its point's sprite (sizes already include the pixel ratio).
    static constexpr float kScale = 1.8f;

private:
    vtkNew<vtkPolyData> m_poly;
    vtkNew<vtkActor> m_actor;
    vtkNew<SpriteUniforms> m_uniforms;
};

} // namespace olens
