#pragma once
// What explains the picture: axes with numbers and feature names (one x and one y axis in 2D, the
// data box's outer edges in 3D), the colour bar (score or custom values) or a legend of labels /
// clusters and of the drawn layers, the projection note and the grid extent of the field.
#include "view/layers/AxesFrame2D.h"
#include "view/layers/AxesLabels3D.h"
#include "view/layers/ColourBar.h"
#include "view/layers/ViewLayer.h"

#include <vtkNew.h>

#include <string>
#include <vector>

class vtkLegendBoxActor;
class vtkObject;
class vtkTextActor;

namespace olens {

class LegendAxesLayer : public ViewLayer {
public:
    LegendAxesLayer();
    ~LegendAxesLayer() override;
    void attach(vtkRenderer* scene, vtkRenderer* overlay) override;
    void update(const ViewContext& ctx, unsigned changes) override;

    /// The colour bar is shown; the scene then leaves it a strip on the right.
    bool colourBarShown() const { return m_colourBar; }
    /// The colour bar (its texts' boxes, labels and end markers, for tests).
    const ColourBar& colourBar() const { return m_bar; }
    /// Pixels the colour bar needs at the right edge (0 while hidden).
    int colourBarStrip() const { return m_colourBar ? m_bar.stripWidth() : 0; }
    /// The legend's entries as shown, top to bottom (for tests and the compare page).
    const std::vector<std::string>& legendEntries() const { return m_legendTexts; }
    /// The 2-D plot frame (its labels' boxes, for tests).
    const AxesFrame2D& frame2D() const { return m_frame2D; }
    const AxesLabels3D& axes3D() const { return m_axes3D; }
    /// The empty canvas's "click to add a point" is shown.
    bool canvasHintShown() const;
    /// Pixels the scene leaves free on each side {left, bottom, right, top}: the 2-D frame's
    /// labels and titles, the colour bar, the projection note and grid text at the top.
    std::array<int, 4> sceneMargins() const;

private:
    void updateAxes(const ViewContext& ctx);
    void updateLegend(const ViewContext& ctx);
    void updateNote();
    void layoutLegend(vtkObject*, unsigned long, void*);

    AxesLabels3D m_axes3D;
    vtkNew<vtkLegendBoxActor> m_legend;
    ColourBar m_bar;
    vtkNew<vtkTextActor> m_noteActor;
    vtkNew<vtkTextActor> m_hintActor; // "click to add a point" on an empty canvas
    AxesFrame2D m_frame2D;
    std::string m_note, m_gridText; // shown together at the top left
    bool m_gridShown = false;
    bool m_bare = false; // ViewContext::bareOverlay: no colour bar, legend, note or grid text
    bool m_colourBar = false;
    vtkRenderer* m_scene = nullptr;
    unsigned long m_legendObserver = 0;
    int m_legendLines = 0;
    std::vector<std::string> m_legendTexts;
    double m_legendWidest = 0.0;
};

} // namespace olens
