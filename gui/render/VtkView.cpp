// vtk_glew.h must come before any Qt OpenGL header (which pulls in gl.h).
#include <vtk_glew.h>

#include "render/VtkView.h"

#include "base/Memory.h"
#include "render/CameraRig.h"
#include "render/ScenePicker.h"
#include "render/SelectionOverlay.h"
#include "render/ViewExport.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QKeyEvent>
#include <QPolygonF>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <utility>

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleImage.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLState.h>
#include <vtkPointPicker.h>
#include <vtkProp3D.h>
#include <vtkPropCollection.h>
#include <vtkRenderer.h>
#include <cmath>

namespace olens {

VtkView::VtkView(QWidget* parent) : QOpenGLWidget(parent), m_picking(std::make_unique<ScenePicker>())
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(160, 120);

    // The window renders into its own framebuffers inside Qt's context; we blit the result into
    // the widget's FBO in paintGL.
    m_window->SetOwnContext(false);
    m_window->SetFrameBlitModeToNoBlit();
    m_window->SetForceMaximumHardwareLineWidth(1);
    m_window->SetReadyForRendering(false);
    m_window->SetMultiSamples(0);
    m_window->SetNumberOfLayers(2);
    // A full-window background renderer clears what the scene's (possibly smaller) viewport
    // does not cover; it must come before the scene renderer in the same layer.
    m_background->SetBackground(1.0, 1.0, 1.0);
    m_background->InteractiveOff();
    m_window->AddRenderer(m_background);
    m_window->AddRenderer(m_renderer);
    m_renderer->SetBackground(1.0, 1.0, 1.0);
    // Legends, colour bars and notes live on a full-window overlay layer, so the scene's
    // viewport can leave room for them.
    m_overlay->SetLayer(1);
    m_overlay->InteractiveOff();
    m_window->AddRenderer(m_overlay);

    m_interactor->SetRenderWindow(m_window);
    // Interaction must not render outside paintGL: it asks for a repaint instead.
    m_interactor->EnableRenderOff();
    m_interactor->AddObserver(vtkCommand::RenderEvent, this, &VtkView::onRenderRequest);

    m_window->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &VtkView::onMakeCurrent);
    m_window->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &VtkView::onIsCurrent);
    m_window->AddObserver(vtkCommand::WindowFrameEvent, this, &VtkView::onFrame);

    m_hold = new QTimer(this);
    m_hold->setSingleShot(true);
    connect(m_hold, &QTimer::timeout, this, [this] { update(); });

    m_style2d = vtkSmartPointer<vtkInteractorStyleImage>::New();
    m_style3d = vtkSmartPointer<vtkInteractorStyleTrackballCamera>::New();
    for (vtkInteractorStyle* s : {static_cast<vtkInteractorStyle*>(m_style2d), static_cast<vtkInteractorStyle*>(m_style3d)}) {
        s->AddObserver(vtkCommand::StartInteractionEvent, this, &VtkView::onInteraction);
        s->AddObserver(vtkCommand::EndInteractionEvent, this, &VtkView::onInteraction);
    }
    m_interactor->SetPicker(m_picking->picker());
    setMode(Mode::View3D);

}

VtkView::~VtkView()
{
    // Release VTK's GL resources while Qt's context still exists, then stop listening to the
    // context: ~QOpenGLWidget destroys it after this object is no longer a VtkView (UBSan caught
    // the aboutToBeDestroyed call reaching cleanupGL on the half-destroyed widget).
    // The rig's triad observes the interactor, a member that dies before Qt deletes the children.
    delete findChild<CameraRig*>(QString(), Qt::FindDirectChildrenOnly);
    cleanupGL();
    if (context())
        disconnect(context(), nullptr, this, nullptr);
    m_interactor->RemoveAllObservers();
    m_window->RemoveAllObservers();
}

void VtkView::cleanupGL()
{
    if (!m_glReady)
        return;
    if (context() && context()->isValid()) {
        makeCurrent();
        m_window->Finalize();
        doneCurrent();
    }
    m_window->SetReadyForRendering(false);
    m_glReady = false;
}

vtkRenderer* VtkView::renderer() const { return m_renderer; }
vtkRenderer* VtkView::overlayRenderer() const { return m_overlay; }

void VtkView::setSceneViewport(double x0, double y0, double x1, double y1)
{
    double vp[4];
    m_renderer->GetViewport(vp);
    if (vp[0] == x0 && vp[1] == y0 && vp[2] == x1 && vp[3] == y1)
        return;
    m_renderer->SetViewport(x0, y0, x1, y1);
    if (m_cameraAuto)
        resetCamera();
    requestRepaint();
}
vtkGenericOpenGLRenderWindow* VtkView::renderWindow() const { return m_window; }

vtkRenderWindowInteractor* VtkView::cameraInteractor() const { return m_window->GetInteractor(); }

void VtkView::setMode(Mode mode)
{
    m_mode = mode;
    vtkCamera* cam = m_renderer->GetActiveCamera();
    if (mode == Mode::View2D) {
        m_interactor->SetInteractorStyle(m_style2d);
        cam->ParallelProjectionOn();
        cam->SetViewUp(0, 1, 0);
        cam->SetPosition(0, 0, 1);
        cam->SetFocalPoint(0, 0, 0);
    } else {
        m_interactor->SetInteractorStyle(m_style3d);
        cam->ParallelProjectionOff();
    }
    // The camera rig (presets, orthographic 3-D, triad) re-applies its choices to the new mode.
    if (auto* rig = findChild<CameraRig*>(QString(), Qt::FindDirectChildrenOnly))
        rig->applyMode();
    scheduleRender();
}

void VtkView::resetCamera()
{
    vtkCamera* cam = m_renderer->GetActiveCamera();
    if (m_mode == Mode::View2D) {
        cam->SetViewUp(0, 1, 0);
        cam->SetFocalPoint(0, 0, 0);
        cam->SetPosition(0, 0, 1);
    }
    // Nothing visible (an empty canvas): fit the box a caller set, so clicks land on sensible
    // coordinates and the axes have a range (VTK alone would keep whatever camera it had).
    double b[6];
    m_renderer->ComputeVisiblePropBounds(b);
    if (!(b[0] <= b[1]))
        std::copy(kEmptyBounds.begin(), kEmptyBounds.end(), b);
    m_renderer->ResetCamera(b);
    if (m_mode == Mode::View2D) {
        // Fit the visible props' box to the viewport's aspect (VTK fits a bounding sphere in the
        // height only), with a margin so points on the border stay fully visible.
        double vp[4];
        m_renderer->GetViewport(vp);
        const int* size = m_window->GetSize();
        const double w = std::max(1.0, (vp[2] - vp[0]) * size[0]);
        const double h = std::max(1.0, (vp[3] - vp[1]) * size[1]);
        if (b[0] <= b[1]) {
            const double halfH = 0.5 * (b[3] - b[2]);
            const double halfW = 0.5 * (b[1] - b[0]);
            const double scale = std::max(halfH, halfW * h / w);
            if (scale > 0)
                cam->SetParallelScale(scale * 1.2);
        }
    }
    m_renderer->ResetCameraClippingRange();
    m_cameraAuto = true;
    requestRepaint();
    emit cameraChanged();
}

VtkView::CameraState VtkView::cameraState() const
{
    vtkCamera* cam = m_renderer->GetActiveCamera();
    CameraState c;
    cam->GetPosition(c.position.data());
    cam->GetFocalPoint(c.focalPoint.data());
    cam->GetViewUp(c.viewUp.data());
    c.parallelScale = cam->GetParallelScale();
    c.viewAngle = cam->GetViewAngle();
    return c;
}

void VtkView::setCameraState(const CameraState& c)
{
    vtkCamera* cam = m_renderer->GetActiveCamera();
    cam->SetPosition(c.position.data());
    cam->SetFocalPoint(c.focalPoint.data());
    cam->SetViewUp(c.viewUp.data());
    cam->SetParallelScale(c.parallelScale);
    cam->SetViewAngle(c.viewAngle);
    m_renderer->ResetCameraClippingRange();
    m_cameraAuto = false;
    scheduleRender();
}

std::array<double, 3> VtkView::widgetToWorld(const QPointF& pos)
{
    // Depth of the focal plane in display coordinates, then back to world at that depth.
    double fp[3];
    m_renderer->GetActiveCamera()->GetFocalPoint(fp);
    m_renderer->SetWorldPoint(fp[0], fp[1], fp[2], 1.0);
    m_renderer->WorldToDisplay();
    double dfp[3];
    m_renderer->GetDisplayPoint(dfp);
    const QPoint d = toDevice(pos);
    const int* size = m_window->GetSize();
    m_renderer->SetDisplayPoint(d.x(), size[1] - 1 - d.y(), dfp[2]);
    m_renderer->DisplayToWorld();
    double w[4];
    m_renderer->GetWorldPoint(w);
    std::array<double, 3> out{w[0], w[1], w[2]};
    if (w[3] != 0.0)
        for (double& v : out) v /= w[3];
    if (m_mode == Mode::View2D)
        out[2] = 0.0;
    return out;
}

void VtkView::initializeGL()
{
    // Called again when the widget moves to another top-level window: start clean.
    if (m_glReady) {
        m_window->Finalize();
        m_glReady = false;
    }
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &VtkView::cleanupGL, Qt::UniqueConnection);
    m_window->SetReadyForRendering(true);
    m_window->SetIsCurrent(true);
    auto* state = m_window->GetState();
    state->Reset();
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL);
    m_window->OpenGLInitContext();
    state->Pop();
    m_glReady = true;
    m_haveFrame = false;
    const qreal dpr = devicePixelRatioF();
    m_window->SetSize(std::max(1, int(std::lround(width() * dpr))), std::max(1, int(std::lround(height() * dpr))));
}

void VtkView::resizeGL(int w, int h)
{
    const qreal dpr = devicePixelRatioF();
    const int dw = std::max(1, int(std::lround(w * dpr)));
    const int dh = std::max(1, int(std::lround(h * dpr)));
    m_window->SetSize(dw, dh);
    m_resized = true;
    m_interactor->SetSize(dw, dh);
    m_interactor->ConfigureEvent();
    // Until the user moves the camera, keep the data fitted to the (new) widget shape.
    if (m_cameraAuto)
        resetCamera();
}

void VtkView::paintGL()
{
    if (!m_glReady)
        return;
    m_inPaint = true;
    QElapsedTimer clock;
    clock.start();

    auto* state = m_window->GetState();
    state->Reset();
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL);
    // Vertex shaders may set gl_PointSize (per-point sprite sizes); VTK's state cache does not
    // track this capability, so enabling it directly is safe.
    glEnable(GL_PROGRAM_POINT_SIZE);
    // Qt also repaints this widget when an ancestor or an overlapping widget repaints (a dock
    // resized, a tooltip): if the scene has not changed since the last render, or its new state is
    // held (holdRepaint), VTK's framebuffer still holds the frame and is only blitted again. A
    // full render of a large cloud costs most of a second under a software rasteriser.
    const bool render = !m_haveFrame || m_resized || (m_sceneDirty && !m_hold->isActive());
    if (render) {
        m_window->Render();
        m_haveFrame = true;
        m_resized = false;
        m_sceneDirty = false;
        ++m_framesDrawn;
    }

    // Blit VTK's display framebuffer into the widget's FBO.
    const int w = m_window->GetSize()[0];
    const int h = m_window->GetSize()[1];
    state->PushDrawFramebufferBinding();
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    m_window->BlitDisplayFramebuffer(0, 0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    // Qt composes with alpha: force it to 1 so translucent VTK pixels do not show through.
    state->vtkglColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    state->vtkglClearColor(0.0, 0.0, 0.0, 1.0);
    state->vtkglClear(GL_COLOR_BUFFER_BIT);
    state->vtkglColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    state->PopDrawFramebufferBinding();
    state->Pop();
    // The render plus the blit, which waits for it (a software rasteriser draws at the flush; a GPU
    // runs ahead, and then this is only the submission: fast frames are what it should say there).
    if (render)
        m_lastFrameMs = double(clock.nsecsElapsed()) * 1e-6;
    if (render)
        emit frameRendered();
    if (render && std::exchange(m_releaseAfterFrame, false))
        QTimer::singleShot(0, this, [] { releaseFreedMemory(); });
    if (m_capture && !m_sceneDirty) {
        // Inside paintGL QOpenGLWidget reads its framebuffer as drawn instead of rendering again.
        auto done = std::exchange(m_capture, {});
        QTimer::singleShot(0, this, [done = std::move(done), img = grabFramebuffer()] { done(img); });
    }
    m_inPaint = false;
}

void VtkView::captureNextFrame(std::function<void(const QImage&)> done)
{
    m_capture = std::move(done);
    requestRepaint();
}

void VtkView::holdRepaint(int ms)
{
    m_hold->start(ms);
}

void VtkView::releaseRepaint()
{
    if (!m_hold->isActive())
        return;
    m_hold->stop();
    update();
}

bool VtkView::repaintHeld() const
{
    return m_hold->isActive();
}

void VtkView::requestRepaint()
{
    m_sceneDirty = true;
    if (!m_hold->isActive())
        update();
}

void VtkView::scheduleRender()
{
    requestRepaint();
}

void VtkView::onMakeCurrent(vtkObject*, unsigned long, void*)
{
    // Not QOpenGLWidget::makeCurrent(): that rebinds Qt's FBO behind VTK's state cache.
    if (context())
        context()->makeCurrent(context()->surface());
}

void VtkView::onIsCurrent(vtkObject*, unsigned long, void* callData)
{
    auto* result = static_cast<bool*>(callData);
    *result = context() && QOpenGLContext::currentContext() == context();
}

void VtkView::onFrame(vtkObject*, unsigned long, void*)
{
    // Picking renders (double buffered, no swap) must not trigger a repaint.
    if (m_inPaint)
        return;
    if (m_window->GetDoubleBuffer() && !m_window->GetSwapBuffers())
        return;
    requestRepaint();
}

void VtkView::onInteraction(vtkObject*, unsigned long event, void*)
{
    // The styles also start and end an "interaction" around every wheel step; only a drag (a
    // button held) is a movement worth a level of detail.
    if (event == vtkCommand::StartInteractionEvent && !m_buttonDown)
        return;
    const bool dragging = event == vtkCommand::StartInteractionEvent;
    if (dragging == m_dragging)
        return;
    m_dragging = dragging;
    emit cameraDragging(dragging);
}

void VtkView::onRenderRequest(vtkObject*, unsigned long, void*)
{
    scheduleRender();
}

QPoint VtkView::toDevice(const QPointF& pos) const
{
    const qreal dpr = devicePixelRatioF();
    return QPoint(int(std::lround(pos.x() * dpr)), int(std::lround(pos.y() * dpr)));
}

void VtkView::setEventPosition(const QPointF& pos, QInputEvent* e)
{
    const QPoint d = toDevice(pos);
    const auto mods = e->modifiers();
    m_interactor->SetEventInformationFlipY(d.x(), d.y(), (mods & Qt::ControlModifier) ? 1 : 0,
                                           (mods & Qt::ShiftModifier) ? 1 : 0);
    m_interactor->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
}

void VtkView::setSelectionTool(SelectionTool tool)
{
    const bool changed = tool != m_tool;
    m_tool = tool;
    if (changed)
        emit selectionToolChanged(tool);
    if (tool == SelectionTool::None && m_band && m_band->active()) {
        m_band->cancel();
        m_selecting = false;
    }
    if (tool == SelectionTool::None)
        unsetCursor();
    else
        setCursor(Qt::CrossCursor);
}

void VtkView::mousePressEvent(QMouseEvent* e)
{
    releaseRepaint(); // the user acts on what is shown: show the current state
    if (m_tool != SelectionTool::None && e->button() == Qt::LeftButton) {
        if (!m_band)
            m_band = new SelectionOverlay(this);
        m_selecting = true;
        m_dragged = false;
        m_pressPos = e->position().toPoint();
        m_bandModifiers = e->modifiers();
        m_band->begin(m_tool == SelectionTool::Box ? SelectionOverlay::Shape::Box : SelectionOverlay::Shape::Lasso,
                      e->position());
        e->accept();
        return;
    }
    if (m_editMode && e->button() == Qt::LeftButton) {
        m_editing = true;
        emit editPressed(e->position(), e->modifiers());
        e->accept();
        return;
    }
    m_cameraAuto = false;
    m_pressPos = e->position().toPoint();
    m_dragged = false;
    setEventPosition(e->position(), e);
    const int repeat = 0;
    m_interactor->SetRepeatCount(repeat);
    m_buttonDown = true;
    switch (e->button()) {
    case Qt::LeftButton: m_interactor->InvokeEvent(vtkCommand::LeftButtonPressEvent); break;
    case Qt::MiddleButton: m_interactor->InvokeEvent(vtkCommand::MiddleButtonPressEvent); break;
    case Qt::RightButton: m_interactor->InvokeEvent(vtkCommand::RightButtonPressEvent); break;
    default: break;
    }
    e->accept();
}

void VtkView::mouseMoveEvent(QMouseEvent* e)
{
    if (m_selecting) {
        if ((e->position().toPoint() - m_pressPos).manhattanLength() > 3)
            m_dragged = true;
        if (m_band)
            m_band->extend(e->position());
        e->accept();
        return;
    }
    if (m_editing) {
        emit editDragged(e->position());
        e->accept();
        return;
    }
    if (e->buttons() != Qt::NoButton && (e->position().toPoint() - m_pressPos).manhattanLength() > 3)
        m_dragged = true;
    setEventPosition(e->position(), e);
    m_interactor->InvokeEvent(vtkCommand::MouseMoveEvent);
    if (e->buttons() != Qt::NoButton)
        emit cameraChanged();
    if (e->buttons() == Qt::NoButton && m_picking->target()) {
        const int idx = pickPoint(e->position().toPoint());
        if (idx != m_hovered) {
            m_hovered = idx;
            emit pointHovered(idx, e->globalPosition().toPoint());
        }
    }
    e->accept();
}

void VtkView::mouseReleaseEvent(QMouseEvent* e)
{
    if (m_selecting && e->button() == Qt::LeftButton) {
        m_selecting = false;
        if (!m_band || !m_band->active()) { // abandoned with Esc
            e->accept();
            return;
        }
        m_band->extend(e->position());
        const QPolygonF region = m_band->finish();
        const int hit = m_dragged ? -1 : pickPoint(e->position().toPoint());
        if (m_dragged)
            emit regionSelected(region, m_bandModifiers);
        else if (hit >= 0 && (m_bandModifiers & (Qt::ShiftModifier | Qt::ControlModifier)))
            emit pointClickedWithModifiers(hit, m_bandModifiers);
        else
            emit pointPicked(hit); // a click still picks
        e->accept();
        return;
    }
    if (m_editing && e->button() == Qt::LeftButton) {
        m_editing = false;
        emit editReleased(e->position());
        e->accept();
        return;
    }
    setEventPosition(e->position(), e);
    m_buttonDown = false;
    switch (e->button()) {
    case Qt::LeftButton: m_interactor->InvokeEvent(vtkCommand::LeftButtonReleaseEvent); break;
    case Qt::MiddleButton: m_interactor->InvokeEvent(vtkCommand::MiddleButtonReleaseEvent); break;
    case Qt::RightButton: m_interactor->InvokeEvent(vtkCommand::RightButtonReleaseEvent); break;
    default: break;
    }
    if (e->button() == Qt::LeftButton && !m_dragged)
        emit pointPicked(pickPoint(e->position().toPoint()));
    e->accept();
}

void VtkView::mouseDoubleClickEvent(QMouseEvent* e)
{
    // Double-click resets the camera (a common expectation in point-cloud viewers).
    if (e->button() == Qt::LeftButton)
        resetCamera();
    e->accept();
}

void VtkView::wheelEvent(QWheelEvent* e)
{
    releaseRepaint(); // the user acts on what is shown: show the current state
    m_cameraAuto = false;
    setEventPosition(e->position(), e);
    const int dy = e->angleDelta().y();
    if (dy > 0)
        m_interactor->InvokeEvent(vtkCommand::MouseWheelForwardEvent);
    else if (dy < 0)
        m_interactor->InvokeEvent(vtkCommand::MouseWheelBackwardEvent);
    emit cameraChanged();
    e->accept();
}

void VtkView::keyPressEvent(QKeyEvent* e)
{
    releaseRepaint(); // the user acts on what is shown: show the current state
    // Only camera keys reach VTK; VTK's default keys (e.g. 'e'/'q' quit, 'w' wireframe, '3' stereo)
    // would surprise users of a desktop app.
    if (e->key() == Qt::Key_Escape && m_band && m_band->active()) {
        m_band->cancel(); // the release that follows selects nothing
        e->accept();
        return;
    }
    if (e->key() == Qt::Key_R && e->modifiers() == Qt::NoModifier) {
        resetCamera();
        e->accept();
        return;
    }
    QOpenGLWidget::keyPressEvent(e);
}

void VtkView::keyReleaseEvent(QKeyEvent* e)
{
    QOpenGLWidget::keyReleaseEvent(e);
}

void VtkView::enterEvent(QEnterEvent* e)
{
    m_interactor->InvokeEvent(vtkCommand::EnterEvent);
    QOpenGLWidget::enterEvent(e);
}

void VtkView::leaveEvent(QEvent* e)
{
    m_interactor->InvokeEvent(vtkCommand::LeaveEvent);
    if (m_hovered != -1) {
        m_hovered = -1;
        emit pointHovered(-1, QPoint());
    }
    QOpenGLWidget::leaveEvent(e);
}

void VtkView::setPickTarget(vtkProp3D* prop)
{
    m_picking->setTarget(prop);
}

int VtkView::pickPoint(const QPoint& pos)
{
    if (width() <= 0 || height() <= 0)
        return -1;
    const QPoint d = toDevice(pos);
    const int* size = m_window->GetSize();
    return m_picking->pick(m_renderer, size[0], size[1], d.x(), d.y(), m_pickRadius * devicePixelRatioF());
}

QPointF VtkView::worldToWidget(double x, double y, double z)
{
    m_renderer->SetWorldPoint(x, y, z, 1.0);
    m_renderer->WorldToDisplay();
    double dp[3];
    m_renderer->GetDisplayPoint(dp);
    const int* size = m_window->GetSize();
    const qreal dpr = devicePixelRatioF();
    return QPointF(dp[0] / dpr, (size[1] - 1 - dp[1]) / dpr);
}

QImage VtkView::grabImage()
{
    // An explicit request for the state as it is now (held or not, changed through VTK directly or not).
    m_hold->stop();
    m_sceneDirty = true;
    return grabFramebuffer();
}

QImage VtkView::renderImage(QSize size, bool transparent)
{
    m_hold->stop(); // as grabImage: the state as it is now
    m_sceneDirty = true;
    const QSize old = this->size();
    if (size.isValid() && !size.isEmpty())
        size = size.boundedTo(QSize(kMaxExportSide, kMaxExportSide));
    const bool resized = size.isValid() && !size.isEmpty() && size != old;
    if (resized)
        resize(size); // visible: resizeEvent → resizeGL at once (the FBO and VTK's window size)
    const QImage img = transparent ? ViewExport::grabMatted([this](const QColor& c) { setBackdrop(c); },
                                                            [this] { return grabFramebuffer(); })
                                   : grabFramebuffer();
    if (resized) {
        resize(old);
        scheduleRender();
    }
    return img;
}

QString VtkView::exportVector(const QString& path, QSize size)
{
    if (!m_glReady)
        return tr("the view is not ready (no OpenGL context yet)");
    // At the size asked, as renderImage: the page is the view's size (a 1920 × 1080 request wrote
    // 617 × 483 pt with the note cut and the axis titles missing, issue #52).
    const QSize old = this->size();
    if (size.isValid() && !size.isEmpty())
        size = size.boundedTo(QSize(kMaxExportSide, kMaxExportSide));
    const bool resized = size.isValid() && !size.isEmpty() && size != old;
    if (resized) {
        resize(size);
        grabFramebuffer(); // one frame at the new size: the layers lay their text out for it
    }
    const QString error = ViewExport::writeVector(m_window, context(), path);
    if (resized)
        resize(old);
    scheduleRender(); // the vector export drew into VTK's framebuffers
    return error;
}

void VtkView::setBackdrop(const QColor& c)
{
    m_background->SetBackground(c.redF(), c.greenF(), c.blueF());
    m_renderer->SetBackground(c.redF(), c.greenF(), c.blueF());
    scheduleRender();
}

bool VtkView::saveScreenshot(const QString& path, QString* error)
{
    const QImage img = grabImage();
    if (img.isNull()) {
        if (error)
            *error = tr("the view could not be rendered");
        return false;
    }
    if (!img.save(path, "PNG")) {
        if (error)
            *error = tr("cannot write PNG file '%1'").arg(path);
        return false;
    }
    return true;
}

} // namespace olens
