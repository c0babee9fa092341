#pragma once
// What a 3-D tool offers for a VtkView's camera: views along ±X/±Y/±Z and isometric
// (display/ViewPresets.h), orthographic ↔ perspective projection, and an orientation triad in the
// corner. One rig per view (a child object, CameraRig::of); 3-D only: 2-D views stay parallel,
// looking down -z, without the triad. The projection choice survives new data.
#include "display/ViewPresets.h"

#include <QObject>
#include <vtkSmartPointer.h>

#include <vector>

class vtkAxesActor;
class vtkObject;
class vtkRenderer;
class vtkTextActor;
class vtkOrientationMarkerWidget;

namespace olens {

class CameraHost;

class CameraRig : public QObject {
    Q_OBJECT
public:
    /// The view's rig, created on first use.
    static CameraRig* of(CameraHost* view);
    /// The view's rig if it has one (a compare panel has none: no triad), else null; creates nothing.
    static CameraRig* find(CameraHost* view);
    ~CameraRig() override;

    bool isThreeD() const;
    /// Orthographic (parallel) projection in 3-D; the apparent size is kept when switching.
    void setParallelProjection(bool on);
    bool parallelProjection() const { return m_parallel; }
    /// Looks at the data along a preset direction, fitted as by VtkView::resetCamera (3-D only).
    void viewFrom(ViewPreset preset);
    /// Turns the camera about the view-up axis by `degrees` (3-D; --orbit's step) and asks a frame.
    void turn(double degrees);
    void setOrientationTriadVisible(bool on);
    bool orientationTriadVisible() const { return m_triadWanted; }
    /// True while the triad is drawn (wanted and the view is 3-D).
    bool orientationTriadShown() const;

    /// The triad's letters at View → Text size (CloudView::refreshText calls this).
    void applyTextSize();
    /// The letters' font size as set, device pixels.
    int triadLetterPx() const;
    static constexpr int kTriadLetterPx = 12;
    /// The triad's square, in letters: room for three letters that do not touch.
    static constexpr double kTriadSidePerLetter = 5.0;
    /// Places the triad for the view's size and its letters (on a resize and a text size change).
    void applyLayout();
    /// The letters as drawn, for the layout report: each text actor with the renderer it is in
    /// (empty while the triad is hidden).
    struct TriadLetter {
        vtkTextActor* text;
        vtkRenderer* renderer;
    };
    std::vector<TriadLetter> triadLetters() const;

    /// VtkView::setMode calls this: re-applies the projection and the triad to the new mode.
    void applyMode();

signals:
    void projectionChanged(bool parallel);
    /// The view switched between 2-D and 3-D (or was set up again).
    void modeChanged();

private:
    explicit CameraRig(CameraHost* view);
    /// Before each render of the scene: hides the letter of an axis whose tip is too near another's.
    void separateLetters(vtkObject*, unsigned long, void*);
    unsigned long m_letterObserver = 0;
    CameraHost* m_view;
    vtkSmartPointer<vtkOrientationMarkerWidget> m_triad;
    vtkSmartPointer<vtkAxesActor> m_axes;
    bool m_parallel = false;
    bool m_triadWanted = true;
};

} // namespace olens
