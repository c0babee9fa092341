#include "view/ViewTexts.h"

#include "render/CameraRig.h"
#include "render/VtkSupport.h"
#include "view/CloudView.h"
#include "view/layers/LegendAxesLayer.h"

#include <QStringList>
#include <vtkActor2DCollection.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

namespace olens {

namespace {

// A renderer's viewport pixels (y up) to the view image's device pixels (y down).
QRectF toImage(vtkRenderer* r, double x0, double x1, double y0, double y1)
{
    const int* origin = r->GetOrigin();
    const int height = r->GetRenderWindow() ? r->GetRenderWindow()->GetSize()[1] : 0;
    return QRectF(QPointF(origin[0] + x0, height - (origin[1] + y1)), QPointF(origin[0] + x1, height - (origin[1] + y0)));
}

} // namespace

std::vector<ViewText> viewTexts(const CloudView& view)
{
    std::vector<ViewText> out;
    for (vtkRenderer* r : {view.overlayRenderer(), view.renderer()}) {
        if (!r || !r->GetRenderWindow())
            continue;
        vtkActor2DCollection* actors = r->GetActors2D();
        actors->InitTraversal();
        while (vtkActor2D* a = actors->GetNextActor2D()) {
            auto* t = vtkTextActor::SafeDownCast(a);
            if (!t || !t->GetVisibility() || !t->GetInput() || !*t->GetInput())
                continue;
            const auto bb = textBox(t, r);
            if (bb[1] <= bb[0] || bb[3] <= bb[2])
                continue;
            const QString text = QString::fromUtf8(t->GetInput()).section('\n', 0, 0).left(40);
            out.push_back({text, toImage(r, bb[0], bb[1], bb[2], bb[3]), t->GetTextProperty()->GetFontSize()});
        }
    }
    // The orientation triad's letters, in the triad's own small renderer.
    const CameraRig* rig = CameraRig::find(const_cast<CloudView*>(&view));
    for (const auto& letter : rig ? rig->triadLetters() : std::vector<CameraRig::TriadLetter>{}) {
        const auto bb = textBox(letter.text, letter.renderer);
        if (bb[1] > bb[0] && bb[3] > bb[2])
            out.push_back({QStringLiteral("triad ") + QString::fromUtf8(letter.text->GetInput()),
                           toImage(letter.renderer, bb[0], bb[1], bb[2], bb[3]),
                           letter.text->GetTextProperty()->GetFontSize()});
    }
    const LegendAxesLayer& legend = view.legendAxesLayer();
    if (legend.legendShown() && legend.sceneRenderer()) {
        const auto b = legend.legendBox();
        out.push_back({QStringLiteral("legend"), toImage(legend.sceneRenderer(), b[0], b[1], b[2], b[3]),
                       fontPx(LegendAxesLayer::kLegendFontBase)});
    }
    return out;
}

std::vector<QPointF> highlightedPoints(const CloudView& view)
{
    std::vector<QPointF> out;
    const LegendAxesLayer& legend = view.legendAxesLayer();
    vtkRenderer* scene = legend.sceneRenderer();
    if (!scene)
        return out;
    for (const auto& p : legend.importantPointsPx()) {
        const QRectF r = toImage(scene, p[0], p[0], p[1], p[1]);
        out.push_back(r.topLeft());
    }
    return out;
}

QPointF selectedPointPx(const CloudView& view)
{
    const auto points = highlightedPoints(view);
    return view.legendAxesLayer().hasSelectedPoint() && !points.empty() ? points.front() : QPointF(-1, -1);
}

QStringList textOverlaps(const CloudView& view, double ring)
{
    QStringList out;
    const auto texts = viewTexts(view);
    const auto points = highlightedPoints(view); // projected once, not per text
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (texts[i].box.isEmpty())
            continue;
        for (std::size_t j = i + 1; j < texts.size(); ++j)
            if (!texts[j].box.isEmpty() && texts[i].box.intersects(texts[j].box))
                out << texts[i].what + QStringLiteral(" / ") + texts[j].what;
        for (const QPointF& p : points)
            if (texts[i].box.adjusted(-ring, -ring, ring, ring).contains(p))
                out << texts[i].what + QStringLiteral(" / highlighted point");
    }
    return out;
}

} // namespace olens
