#include "render/CameraRig.h"

#include "render/CameraHost.h"

#include "render/VtkSupport.h"

#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCaptionActor2D.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkObjectFactory.h>
#include <vtkOrientationMarkerWidget.h>
#include <vtkRenderWindowInteractor.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace olens {

namespace {

// The widget keeps its renderer protected; the layout report reads the letters' boxes in it.
class TriadWidget : public vtkOrientationMarkerWidget {
public:
    static TriadWidget* New();
    vtkTypeMacro(TriadWidget, vtkOrientationMarkerWidget);
    vtkRenderer* triadRenderer() const { return Renderer; }
};
vtkStandardNewMacro(TriadWidget);

} // namespace

CameraRig* CameraRig::of(CameraHost* view)
{
    if (auto* rig = find(view))
        return rig;
    return new CameraRig(view);
}

CameraRig* CameraRig::find(CameraHost* view)
{
    return view->cameraOwner()->findChild<CameraRig*>(QString(), Qt::FindDirectChildrenOnly);
}

CameraRig::CameraRig(CameraHost* view) : QObject(view->cameraOwner()), m_view(view)
{
    // A small renderer in the scene's bottom-left corner that follows the camera's orientation;
    // not interactive, so it never takes the mouse from the camera.
    vtkNew<vtkAxesActor> axes;
    axes->SetShaftTypeToCylinder();
    axes->SetCylinderRadius(0.03);
    axes->SetConeRadius(0.25);
    m_triad = vtkSmartPointer<TriadWidget>::New();
    m_axes = axes;
    m_triad->SetOrientationMarker(axes);
    m_triad->SetInteractor(view->cameraInteractor());
    m_triad->SetDefaultRenderer(view->renderer());
    m_triad->SetZoom(1.45); // larger: tips nearer the corners, letters apart; more: the letters beyond the tips are cut
    // After the widget has turned its camera to the scene's (its observer has priority 1).
    m_letterObserver = view->renderer()->AddObserver(vtkCommand::StartEvent, this, &CameraRig::separateLetters, -1.0f);
    applyTextSize();
    applyMode();
}

CameraRig::~CameraRig()
{
    if (vtkRenderer* r = m_view->renderer())
        r->RemoveObserver(m_letterObserver);
    if (m_triad->GetEnabled())
        m_triad->SetEnabled(0);
    m_triad->SetInteractor(nullptr);
}

bool CameraRig::isThreeD() const
{
    return m_view->isThreeD();
}

void CameraRig::applyMode()
{
    const bool threeD = isThreeD();
    if (threeD)
        m_view->renderer()->GetActiveCamera()->SetParallelProjection(m_parallel);
    const bool triad = m_triadWanted && threeD;
    if (bool(m_triad->GetEnabled()) != triad) {
        m_triad->SetEnabled(triad ? 1 : 0);
        if (triad)
            m_triad->InteractiveOff();
    }
    m_view->scheduleRender();
    emit modeChanged();
}

void CameraRig::setParallelProjection(bool on)
{
    if (m_parallel == on)
        return;
    m_parallel = on;
    if (isThreeD()) {
        vtkCamera* cam = m_view->renderer()->GetActiveCamera();
        // Same apparent size: the parallel scale is the half height of the perspective frustum at
        // the focal point.
        if (on)
            cam->SetParallelScale(std::max(1e-12, cam->GetDistance() * std::tan(cam->GetViewAngle() * M_PI / 360.0)));
        cam->SetParallelProjection(on);
        m_view->renderer()->ResetCameraClippingRange();
        m_view->scheduleRender();
    }
    emit projectionChanged(on);
}

void CameraRig::viewFrom(ViewPreset preset)
{
    if (!isThreeD())
        return;
    vtkRenderer* ren = m_view->renderer();
    vtkCamera* cam = ren->GetActiveCamera();
    std::array<double, 3> focus;
    double b[6];
    ren->ComputeVisiblePropBounds(b);
    if (b[0] <= b[1])
        focus = {0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), 0.5 * (b[4] + b[5])};
    else
        cam->GetFocalPoint(focus.data());
    const ViewOrientation o = viewOrientation(preset);
    const std::array<double, 3> pos = presetPosition(preset, focus, std::max(1e-9, cam->GetDistance()));
    cam->SetFocalPoint(focus.data());
    cam->SetPosition(pos.data());
    cam->SetViewUp(o.viewUp.data());
    m_view->resetCamera(); // fits the data along the new direction, emits cameraChanged
}

void CameraRig::turn(double degrees)
{
    if (!isThreeD())
        return;
    m_view->renderer()->GetActiveCamera()->Azimuth(degrees);
    m_view->renderer()->ResetCameraClippingRange();
    m_view->scheduleRender();
}

void CameraRig::setOrientationTriadVisible(bool on)
{
    m_triadWanted = on;
    applyMode();
}

void CameraRig::applyTextSize()
{
    // VTK fits each letter to a box that is a fraction of the triad's small viewport (7 px letters
    // on a projector, issue #52). The letters are set in pixels instead, at View → Text size like
    // every other text of the view.
    // VTK's default letters are white with a shadow: on the white background only the shadow showed.
    // Dark shades of the shafts' red, green and blue read on white and on a projector.
    vtkCaptionActor2D* captions[] = {m_axes->GetXAxisCaptionActor2D(), m_axes->GetYAxisCaptionActor2D(),
                                     m_axes->GetZAxisCaptionActor2D()};
    const double colours[3][3] = {{0.7, 0.1, 0.1}, {0.1, 0.5, 0.1}, {0.1, 0.1, 0.7}};
    for (int i = 0; i < 3; ++i) {
        vtkCaptionActor2D* c = captions[i];
        c->GetTextActor()->SetTextScaleModeToNone();
        vtkTextProperty* t = c->GetCaptionTextProperty();
        t->SetColor(colours[i][0], colours[i][1], colours[i][2]);
        t->SetFontSize(fontPx(kTriadLetterPx));
        t->SetFontFamilyToArial();
        t->BoldOn();
        t->ShadowOff();
        t->ItalicOff();
    }
    applyLayout();
}

void CameraRig::applyLayout()
{
    // A square in the bottom-left corner, above the grid note, that grows with its letters: a
    // fixed 17 % of the view left 26 px letters on top of each other at projector text.
    vtkRenderWindow* win = m_view->renderer()->GetRenderWindow();
    const int* size = win ? win->GetSize() : nullptr;
    const double w = size && size[0] > 0 ? size[0] : 800.0, h = size && size[1] > 0 ? size[1] : 600.0;
    const double wanted = std::max(kTriadSidePerLetter * triadLetterPx(), 0.15 * std::min(w, h));
    const double side = std::min(wanted, 0.4 * std::min(w, h));
    // A view too small for the letters at the chosen text size (large text in a 1280×720 window
    // with its docks) keeps the triad without letters: red, green, blue are x, y, z, as in every
    // 3-D tool, and letters on top of each other say less than none.
    m_axes->SetAxisLabels(side >= 0.999 * wanted);
    const double y0 = 0.05;
    m_triad->SetViewport(0.0, y0, std::min(1.0, side / w), std::min(1.0, y0 + side / h));
    m_view->scheduleRender();
}

void CameraRig::separateLetters(vtkObject*, unsigned long, void*)
{
    // Two axes seen nearly along one direction put their letters on top of each other (X over Y at
    // preset 1's camera once the letters follow the text size). The letter of the axis seen more
    // end-on (its tip nearer the triad's centre) gives way; red, green, blue still say which is which.
    vtkRenderer* r = static_cast<TriadWidget*>(m_triad.Get())->triadRenderer();
    if (!m_triad->GetEnabled() || !m_axes->GetAxisLabels() || !r)
        return;
    auto display = [r](const double* world) {
        r->SetWorldPoint(world[0], world[1], world[2], 1.0);
        r->WorldToDisplay();
        const double* d = r->GetDisplayPoint();
        return std::array<double, 2>{d[0], d[1]};
    };
    const double zero[3] = {0.0, 0.0, 0.0};
    const auto centre = display(zero);
    vtkCaptionActor2D* captions[] = {m_axes->GetXAxisCaptionActor2D(), m_axes->GetYAxisCaptionActor2D(),
                                     m_axes->GetZAxisCaptionActor2D()};
    std::array<std::array<double, 2>, 3> tip;
    std::array<double, 3> reach;
    for (int i = 0; i < 3; ++i) {
        tip[i] = display(captions[i]->GetAttachmentPoint());
        reach[i] = std::hypot(tip[i][0] - centre[0], tip[i][1] - centre[1]);
    }
    std::array<bool, 3> shown{true, true, true};
    const double clear = 1.2 * triadLetterPx();
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (shown[i] && shown[j] && std::hypot(tip[i][0] - tip[j][0], tip[i][1] - tip[j][1]) < clear)
                shown[reach[i] < reach[j] ? i : j] = false;
    const char* names[] = {"X", "Y", "Z"};
    const char* current[] = {m_axes->GetXAxisLabelText(), m_axes->GetYAxisLabelText(), m_axes->GetZAxisLabelText()};
    for (int i = 0; i < 3; ++i) {
        const char* want = shown[i] ? names[i] : "";
        if (!current[i] || std::strcmp(current[i], want) != 0) {
            if (i == 0)
                m_axes->SetXAxisLabelText(want);
            else if (i == 1)
                m_axes->SetYAxisLabelText(want);
            else
                m_axes->SetZAxisLabelText(want);
        }
    }
}

std::vector<CameraRig::TriadLetter> CameraRig::triadLetters() const
{
    std::vector<TriadLetter> out;
    vtkRenderer* r = static_cast<TriadWidget*>(m_triad.Get())->triadRenderer();
    if (!orientationTriadShown() || !r || !m_axes->GetAxisLabels())
        return out;
    for (vtkCaptionActor2D* c : {m_axes->GetXAxisCaptionActor2D(), m_axes->GetYAxisCaptionActor2D(),
                                 m_axes->GetZAxisCaptionActor2D()})
        out.push_back({c->GetTextActor(), r});
    return out;
}

int CameraRig::triadLetterPx() const
{
    return m_axes->GetXAxisCaptionActor2D()->GetCaptionTextProperty()->GetFontSize();
}

bool CameraRig::orientationTriadShown() const
{
    return m_triad->GetEnabled() != 0;
}

} // namespace olens
