#pragma once
// A QOpenGLWidget hosting a vtkGenericOpenGLRenderWindow (the design of VTK's
// QVTKOpenGLNativeWidget, which Debian builds for Qt 5 only). Recipe: docs/architecture.md "Rendering with VTK 9.1 inside Qt 6".
#include "render/CameraHost.h"

#include <QColor>
#include <QImage>
#include <array>
#include <functional>
#include <memory>
#include <QOpenGLWidget>
#include <vtkNew.h>
#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkRenderer;
class vtkInteractorStyle;
class vtkProp3D;
class vtkObject;
class QInputEvent;
class QTimer;
class QPolygonF;

namespace olens {

class ScenePicker;
class SelectionOverlay;

class VtkView : public QOpenGLWidget, public CameraHost {
    Q_OBJECT
public:
    enum class Mode { View2D, View3D };

    explicit VtkView(QWidget* parent = nullptr);
    ~VtkView() override;

    vtkRenderer* renderer() const override;
    /// Full-window overlay layer for 2D annotations (legends, colour bars, notes).
    vtkRenderer* overlayRenderer() const;
    /// Part of the window the scene renderer uses (normalised), e.g. to leave room for a colour bar.
    void setSceneViewport(double x0, double y0, double x1, double y1);
    vtkGenericOpenGLRenderWindow* renderWindow() const;

    /// 2D: parallel projection, image-style interaction (pan, zoom, no rotation), camera looking
    /// down -z. 3D: perspective, trackball camera (rotate / pan / zoom).
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    void resetCamera() override;
    // CameraHost
    bool isThreeD() const override { return m_mode == Mode::View3D; }
    vtkRenderWindowInteractor* cameraInteractor() const override;
    QObject* cameraOwner() override { return this; }

    /// The actor whose points can be picked (its mapper input's point ids are the sample indices).
    void setPickTarget(vtkProp3D* prop);
    /// Index of the pickable point under a widget position (logical pixels), or -1.
    int pickPoint(const QPoint& pos);
    /// Widget position (logical pixels) where a world point projects.
    QPointF worldToWidget(double x, double y, double z);
    /// World point under a widget position, on the plane through the camera's focal point facing
    /// the camera (in 2D: the z = 0 data plane).
    std::array<double, 3> widgetToWorld(const QPointF& pos);

    /// The camera, for sessions and for synchronising several views.
    struct CameraState {
        std::array<double, 3> position{0, 0, 1};
        std::array<double, 3> focalPoint{0, 0, 0};
        std::array<double, 3> viewUp{0, 1, 0};
        double parallelScale = 1.0;
        double viewAngle = 30.0;
    };
    CameraState cameraState() const;
    /// Applies a camera (the view stops auto-fitting, as after a user move); no cameraChanged.
    void setCameraState(const CameraState& c);
    /// True while the camera is fitted by resetCamera (not moved by the user or setCameraState since).
    bool cameraIsAuto() const { return m_cameraAuto; }

    /// Edit mode: left-button presses, drags and releases are not camera moves but are reported
    /// through editPressed/editDragged/editReleased (the middle button and wheel still pan/zoom).
    void setEditMode(bool on) { m_editMode = on; }
    bool editMode() const { return m_editMode; }

    /// Box / lasso selection (View → Select box B / Select lasso L): while a tool is active a
    /// left-drag draws a rectangle or a free-hand polygon over the view instead of moving the
    /// camera (or editing), and reports it through regionSelected; a click without a drag still
    /// picks a point (Shift/Ctrl-click: adds / removes it); Esc during the drag abandons it. The middle button and wheel still pan/zoom.
    enum class SelectionTool { None, Box, Lasso };
    void setSelectionTool(SelectionTool tool);
    SelectionTool selectionTool() const { return m_tool; }

    /// Renders and returns the current frame (device pixels).
    QImage grabImage();
    /// Calls `done` (from the event loop, after the paint) with the next frame drawn, read from the
    /// widget's framebuffer inside paintGL: the image costs no render of its own, unlike grabImage()
    /// (a full render of a million sprites under a software rasteriser takes most of a second).
    /// Schedules a repaint; a second request before that frame replaces the first.
    void captureNextFrame(std::function<void(const QImage&)> done);
    /// Wall time of the last frame rendered, in paintGL (ms; 0 before the first).
    double lastFrameMs() const { return m_lastFrameMs; }
    /// Frames rendered so far (paints that only re-showed the last frame do not count), for
    /// --timings and tests.
    int framesDrawn() const { return m_framesDrawn; }
    /// Holds the repaints the scene asks for (requestRepaint) for at most `ms`, e.g. to draw a new
    /// result together with the field that is about to follow; releaseRepaint() ends the hold and
    /// draws. Input over the view (mouse, wheel, keys) ends it too; resizes and exposes still paint.
    void holdRepaint(int ms);
    /// The scene changed: render it at the next paint (update() alone may only re-show the last frame).
    void scheduleRender() override;
    /// Big buffers were replaced (a big cloud's points or colours): once the next frame has let go
    /// of the old ones (VTK and the GL driver free them as they draw), the allocator gives their
    /// pages back to the system (base/Memory.h).
    void releaseMemoryAfterFrame() { m_releaseAfterFrame = true; }
    void releaseRepaint();
    bool repaintHeld() const;
    /// Renders the view for a slide: at `size` (logical pixels; invalid = the widget's size — the
    /// widget is resized for the render and back), and with a transparent background when asked
    /// (rendered on white and on black, view/ViewExport::grabMatted: alpha and colour recovered
    /// per pixel, so antialiased edges and translucent surfaces keep their coverage). At most
    /// kMaxExportSide pixels a side.
    QImage renderImage(QSize size = QSize(), bool transparent = false);
    static constexpr int kMaxExportSide = 8192;
    /// The view as PDF or EPS (vtkGL2PSExporter): text, frame and 2-D annotations are vectors; the
    /// 3-D props (point sprites, field image, surfaces) one embedded raster image. Not SVG: Debian's
    /// GL2PS has no PNG support, so an SVG would hold the text alone (tried). GL2PS's base fonts
    /// are Latin-1: "×" and "∈" of the grid note come out garbled. Returns an error or "".
    QString exportVector(const QString& path, QSize size = QSize());
    /// The colour behind the scene (the background layer and the scene renderer), white normally.
    void setBackdrop(const QColor& colour);
    /// Writes the current frame as PNG; on failure returns false and sets *error.
    bool saveScreenshot(const QString& path, QString* error = nullptr);

signals:
    /// setSelectionTool changed the tool (the reactions keep their checked state with it).
    void selectionToolChanged(olens::VtkView::SelectionTool tool);
    /// A frame was rendered (not a repaint that re-showed the last one): --timings' "first frame".
    void frameRendered();
    /// A mouse drag started (true) or ended (false) moving the camera (rotate, pan, zoom drag).
    void cameraDragging(bool dragging);
    /// A click (press+release without drag) over a point; -1 when clicking empty space.
    void pointPicked(int index);
    /// The point under the hovering cursor changed (-1 = none).
    void pointHovered(int index, QPoint globalPos);
    /// The user moved the camera (drag, wheel, reset); not emitted by setCameraState.
    void cameraChanged();
    void editPressed(QPointF pos, Qt::KeyboardModifiers modifiers);
    void editDragged(QPointF pos);
    void editReleased(QPointF pos);
    /// A finished box or lasso: its vertices in widget (logical pixel) coordinates, and the
    /// modifiers held when the drag began (Shift adds, Ctrl subtracts).
    void regionSelected(const QPolygonF& polygon, Qt::KeyboardModifiers modifiers);
    /// With a selection tool on, a Shift- or Ctrl-click (no drag) on a point: add it / remove it.
    void pointClickedWithModifiers(int index, Qt::KeyboardModifiers modifiers);

protected:
    /// Marks the scene changed and repaints unless repaints are held (then the hold's end draws).
    void requestRepaint();
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void keyReleaseEvent(QKeyEvent* e) override;
    void enterEvent(QEnterEvent* e) override;
    void leaveEvent(QEvent* e) override;

private:
    void onMakeCurrent(vtkObject*, unsigned long, void*);
    void onIsCurrent(vtkObject*, unsigned long, void* callData);
    void onFrame(vtkObject*, unsigned long, void*);
    void onRenderRequest(vtkObject*, unsigned long, void*);
    void onInteraction(vtkObject*, unsigned long event, void*);
    void setEventPosition(const QPointF& pos, QInputEvent* e);
    void cleanupGL();
    QPoint toDevice(const QPointF& pos) const;

    vtkNew<vtkGenericOpenGLRenderWindow> m_window;
    vtkNew<vtkRenderer> m_renderer;
    vtkNew<vtkRenderer> m_overlay;
    vtkNew<vtkRenderer> m_background;
    vtkNew<vtkGenericRenderWindowInteractor> m_interactor;
    vtkSmartPointer<vtkInteractorStyle> m_style2d;
    vtkSmartPointer<vtkInteractorStyle> m_style3d;
    bool m_dragging = false;   // between cameraDragging(true) and (false)
    bool m_buttonDown = false; // a button pressed over the scene (not a wheel step)
    std::unique_ptr<ScenePicker> m_picking;
    Mode m_mode = Mode::View3D;
    bool m_inPaint = false;
    bool m_glReady = false;
    std::function<void(const QImage&)> m_capture; // captureNextFrame's pending request
    QTimer* m_hold = nullptr; // running while repaints are held (holdRepaint)
    double m_lastFrameMs = 0.0;
    int m_framesDrawn = 0;
    bool m_sceneDirty = true; // changed since the last render (scheduleRender, requestRepaint)
    bool m_releaseAfterFrame = false; // releaseMemoryAfterFrame: after the next frame rendered
    bool m_resized = false;   // VTK's window resized since the last render
    bool m_haveFrame = false; // VTK's framebuffer holds a rendered frame (since the GL context)
    double m_pickRadius = 8.0;
    QPoint m_pressPos;
    bool m_dragged = false;
    /// The box resetCamera fits when nothing is visible (x0, x1, y0, y1, z0, z1).
    static constexpr std::array<double, 6> kEmptyBounds{-1, 1, -1, 1, 0, 0};
    bool m_cameraAuto = true; // camera fitted by resetCamera and not moved by the user since
    int m_hovered = -1;
    bool m_editMode = false;
    bool m_editing = false; // a left-button edit gesture is in progress
    SelectionTool m_tool = SelectionTool::None;
    SelectionOverlay* m_band = nullptr;        // the rubber band while a selection drag lasts
    Qt::KeyboardModifiers m_bandModifiers;
    bool m_selecting = false;                  // a left-button selection gesture is in progress
};

} // namespace olens
