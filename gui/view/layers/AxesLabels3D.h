#pragma once
// The 3-D view's axes: for each axis one outer edge of the data box (the parallel edge whose
// projection lies farthest from the box's projected centre), drawn as a line with ticks and
// numbers in the overlay. Per frame the tick density follows the edge's projected length and the
// labels' extent along it (display/Ticks.h fittingTicks), and a label that would touch one already
// placed (another axis near a shared corner) is left out — labels never merge ("0.20.40.6").
#include <array>
#include <string>
#include <vector>
#include <vtkNew.h>
#include <vtkSmartPointer.h>

class vtkActor2D;
class vtkObject;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace olens {

class AxesLabels3D {
public:
    AxesLabels3D();
    ~AxesLabels3D();
    void attach(vtkRenderer* scene, vtkRenderer* overlay);

    void setVisible(bool on);
    /// The data box (xmin, xmax, ymin, ymax, zmin, zmax) and the axis titles.
    void setAxes(const std::array<double, 6>& bounds, const std::array<std::string, 3>& titles);

    /// Places lines, ticks, labels and titles for the scene's current camera.
    void layout();
    /// Boxes [xmin, xmax, ymin, ymax] (viewport pixels) of the texts drawn; for tests.
    std::vector<std::array<double, 4>> textBoxes() const;

private:
    void onStart(vtkObject*, unsigned long, void*);
    vtkTextActor* text(std::size_t k);

    vtkSmartPointer<vtkRenderer> m_scene, m_overlay;
    unsigned long m_observer = 0;
    bool m_visible = false;
    std::array<double, 6> m_bounds{0, 1, 0, 1, 0, 1};
    std::array<std::string, 3> m_titles;
    vtkNew<vtkPolyData> m_lines;
    vtkNew<vtkActor2D> m_lineActor;
    std::vector<vtkSmartPointer<vtkTextActor>> m_texts; // tick labels and titles, pooled
};

} // namespace olens
