#pragma once
// What explains the picture: axes with numbers and feature names (one x and one y axis in 2D, the
// data box's outer edges in 3D), the colour bar (score or custom values) or a legend of labels /
// clusters and of the drawn layers, the projection note and the grid extent of the field.
#include "view/layers/AxesFrame2D.h"
#include "view/layers/AxesLabels3D.h"
#include "view/layers/ColourBar.h"
#include "view/layers/ViewLayer.h"

#include <vtkNew.h>

#include <functional>
#include <string>
#include <vector>

class vtkLegendBoxActor;
class vtkObject;
class vtkTextActor;

namespace olens {

class LegendAxesLayer : public ViewLayer {
public:
    /// The legend entries' text size before View → Text size (fontPx).
    static constexpr int kLegendFontBase = 11;
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
    /// The legend's box as last laid out [xmin, xmax, ymin, ymax] in scene viewport pixels, and
    /// whether it is shown.
    std::array<double, 4> legendBox() const { return m_legendBox; }
    bool legendShown() const;
    /// Scene viewport pixels (x right, y up) of the selected and top-ranked points at the camera now.
    std::vector<std::array<double, 2>> importantPointsPx() const;
    /// True when importantPointsPx() starts with the selected (current) point.
    bool hasSelectedPoint() const { return m_hasSelected; }
    /// The note and grid text at the top left (its actor, for the layout report).
    vtkTextActor* noteActor() const { return m_noteActor.Get(); }
    vtkRenderer* sceneRenderer() const { return m_scene; }
    /// Called when sceneMargins() changed at a render (the legend took or left its band above the
    /// scene): the host applies the margins and renders again (not from inside the render).
    void setMarginsChanged(std::function<void()> f) { m_marginsChanged = std::move(f); }
    /// The legend is in its band above the scene (no corner of the scene was free).
    bool legendInBand() const { return m_band; }

private:
    static constexpr Eigen::Index kAvoidSample = 4000;
    std::vector<std::array<double, 3>> projectAvoided() const;
    void fitNote();
    /// Where the legend goes: the scene corner (scene viewport pixels) that covers least, and
    /// what it covers (1 per point, kCoversSomething or more for a highlighted point or a text).
    struct Placement {
        double x = 0, y = 0, w = 0, h = 0, cost = 0;
    };
    static constexpr double kCoversSomething = 200.0;
    Placement bestCorner() const;
    /// Puts the legend in a band above the scene when every corner covers something; true when
    /// it did just now (sceneMargins() changed).
    bool chooseBand();
    bool chooseBand(const Placement& corner); // with the placement already computed
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
    std::array<double, 4> m_legendBox{};
    Eigen::MatrixX3d m_avoid;     // a sample of the points' display coordinates
    Eigen::MatrixX3d m_important; // the selected and top-ranked points'
    bool m_twoD = true;
    bool m_hasSelected = false; // m_important's first row is the selected point
    bool m_band = false;
    int m_bandHeight = 0;
    std::function<void()> m_marginsChanged;
    vtkRenderer* m_overlay = nullptr;
    std::string m_noteFull; // the note before fitNote shortened a line
};

} // namespace olens
