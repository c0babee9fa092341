#pragma once
// The 2-D view's plot frame, drawn like a scientific figure: a box around the scene's viewport
// (the data area), ticks pointing out of it, tick labels and axis titles outside it — so nothing
// is drawn over the field or the points. Ticks follow the camera (pan and zoom) and are chosen
// per frame so that neighbouring labels never touch (display/Ticks.h fittingTicks).
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

class AxesFrame2D {
public:
    AxesFrame2D();
    ~AxesFrame2D();
    void attach(vtkRenderer* scene, vtkRenderer* overlay);

    void setVisible(bool on);
    bool visible() const { return m_visible; }
    /// Axis titles and the data box the labels will show (for the margins).
    /// `keepMargins` (an edit under the same camera): the margins stay, so the data area does not
    /// shift under the cursor between two clicks (the labels follow the camera, not the data).
    void setAxes(const std::string& xTitle, const std::string& yTitle, const std::array<double, 4>& dataBox,
                 bool keepMargins = false);
    /// Pixels needed left of and below the data area for labels and titles: {left, bottom}.
    std::array<int, 2> margins() const { return m_margins; }

    /// Places ticks, labels and titles for the scene's current camera and viewport.
    void layout();
    /// Tick labels drawn, in order x then y, and the boxes of every text (labels, then titles) in
    /// viewport pixels; for tests.
    std::vector<std::string> xLabels() const { return m_xText; }
    std::vector<std::string> yLabels() const { return m_yText; }
    std::vector<std::array<double, 4>> textBoxes() const;

private:
    void onStart(vtkObject*, unsigned long, void*);
    vtkTextActor* label(std::vector<vtkSmartPointer<vtkTextActor>>& pool, std::size_t k, bool xAxis);

    vtkSmartPointer<vtkRenderer> m_scene, m_overlay;
    unsigned long m_observer = 0;
    bool m_visible = false;
    std::string m_xTitle, m_yTitle;
    std::array<int, 2> m_margins{64, 44};
    vtkNew<vtkPolyData> m_lines;
    vtkNew<vtkActor2D> m_frame;
    vtkNew<vtkTextActor> m_xTitleActor, m_yTitleActor;
    std::vector<vtkSmartPointer<vtkTextActor>> m_xLabels, m_yLabels;
    std::vector<std::string> m_xText, m_yText;
};

} // namespace olens
