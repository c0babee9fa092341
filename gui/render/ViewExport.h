#pragma once
// Figures from a VtkView that are not a plain frame grab (split from VtkView): the alpha matte of a
// transparent background (the same frame rendered on white and on black) — the one transparent
// path of the view and of the compare figure — and the vector export through VTK's GL2PS.
#include <QColor>
#include <QCoreApplication>
#include <QImage>
#include <QString>
#include <functional>

class QOpenGLContext;
class vtkOpenGLRenderWindow;

namespace olens {

class ViewExport {
    Q_DECLARE_TR_FUNCTIONS(ViewExport)
public:
    /// Alpha matte from the same frame on white and on black: a = 1 − (white − black), colour =
    /// black / a (premultiplied: black itself).
    static QImage matte(const QImage& onWhite, const QImage& onBlack);
    /// `grab` once with `setBackdrop(white)` and once with `setBackdrop(black)`, matted; the
    /// backdrop is set back to white (the app's) afterwards.
    static QImage grabMatted(const std::function<void(const QColor&)>& setBackdrop, const std::function<QImage()>& grab);
    /// PDF or EPS (by the suffix of `path`) of the window through vtkGL2PSExporter, which renders
    /// the window itself; `context` (Qt's, which VTK renders in) is made current for it. Returns
    /// an error or "".
    static QString writeVector(vtkOpenGLRenderWindow* window, QOpenGLContext* context, const QString& path);
};

} // namespace olens
