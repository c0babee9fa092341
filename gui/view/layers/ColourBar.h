#pragma once
// The colour bar drawn in the overlay: a bar coloured through the score (or custom) lookup table,
// tick labels from core (display/ColourScale), a title set vertically beside the labels, and,
// when values fall outside the range, a triangle on that end with the extreme value
// ("max 0.44"). Laid out in pixels before every render of the overlay, anchored to the right
// edge, so nothing is cut at the window edge whatever its size (compare panels included).
#include "display/ColourScale.h"

#include <array>
#include <string>
#include <vector>
#include <vtkNew.h>
#include <vtkSmartPointer.h>

class vtkActor2D;
class vtkLookupTable;
class vtkObject;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;
class vtkViewport;

namespace olens {

class ColourBar {
public:
    ColourBar();
    ~ColourBar();
    void attach(vtkRenderer* overlay);

    void setVisible(bool on);
    bool visible() const { return m_visible; }
    /// What to draw: the table (its range and log scale are the scale's), the scale and the title.
    void setScale(vtkLookupTable* table, const ColourScale& scale, const std::string& title);

    /// Pixels the bar needs at the right edge of the window (the scene leaves this strip free).
    int stripWidth() const;
    /// Places everything for a viewport of w × h pixels (done before each overlay render).
    void layout(vtkViewport* viewport);

    /// Texts drawn (tick labels, title, end markers) as [xmin, xmax, ymin, ymax] in viewport
    /// pixels, from the text actors themselves; empty while hidden. For tests.
    std::vector<std::array<double, 4>> textBoxes(vtkViewport* viewport) const;
    /// The end-marker strings ("" when that end is not clipped).
    std::string lowMarker() const;
    std::string highMarker() const;

private:
    void onStart(vtkObject* caller, unsigned long, void*);
    vtkTextActor* labelActor(std::size_t k);

    vtkSmartPointer<vtkRenderer> m_overlay;
    unsigned long m_observer = 0;
    bool m_visible = false;
    ColourScale m_scale;
    std::string m_title;
    vtkSmartPointer<vtkLookupTable> m_table;
    vtkNew<vtkPolyData> m_barPoly;   // the bar's quads and the end triangles (cell scalars)
    vtkNew<vtkPolyData> m_framePoly; // outline and tick marks
    vtkNew<vtkActor2D> m_bar;
    vtkNew<vtkActor2D> m_frame;
    vtkNew<vtkTextActor> m_titleActor;
    vtkNew<vtkTextActor> m_lowActor;
    vtkNew<vtkTextActor> m_highActor;
    std::vector<vtkSmartPointer<vtkTextActor>> m_labels;
    std::vector<std::string> m_labelText;
};

} // namespace olens
