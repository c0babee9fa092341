#include "render/ViewExport.h"

#include <QFile>
#include <QFileInfo>
#include <QOpenGLContext>

#include <vtkGL2PSExporter.h>
#include <vtkNew.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkOpenGLState.h>

#include <algorithm>

namespace olens {

QImage ViewExport::grabMatted(const std::function<void(const QColor&)>& setBackdrop, const std::function<QImage()>& grab)
{
    setBackdrop(Qt::white);
    const QImage onWhite = grab();
    setBackdrop(Qt::black);
    const QImage onBlack = grab();
    setBackdrop(Qt::white);
    return matte(onWhite, onBlack);
}

QImage ViewExport::matte(const QImage& onWhite, const QImage& onBlack)
{
    if (onWhite.isNull() || onWhite.size() != onBlack.size())
        return {};
    const QImage w = onWhite.convertToFormat(QImage::Format_RGB32);
    const QImage b = onBlack.convertToFormat(QImage::Format_RGB32);
    QImage out(w.size(), QImage::Format_ARGB32_Premultiplied);
    out.setDevicePixelRatio(onWhite.devicePixelRatio());
    for (int y = 0; y < w.height(); ++y) {
        const auto* pw = reinterpret_cast<const QRgb*>(w.constScanLine(y));
        const auto* pb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        auto* po = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < w.width(); ++x) {
            // Per channel, white − black = 255 (1 − a); the mean of the three is the most robust.
            const int diff = (qRed(pw[x]) - qRed(pb[x]) + qGreen(pw[x]) - qGreen(pb[x]) + qBlue(pw[x]) - qBlue(pb[x])) / 3;
            const int a = std::clamp(255 - diff, 0, 255);
            po[x] = qRgba(std::min(qRed(pb[x]), a), std::min(qGreen(pb[x]), a), std::min(qBlue(pb[x]), a), a);
        }
    }
    return out;
}

QString ViewExport::writeVector(vtkOpenGLRenderWindow* window, QOpenGLContext* context, const QString& path)
{
    const QFileInfo info(path);
    const QString ext = info.suffix().toLower();
    vtkNew<vtkGL2PSExporter> exporter;
    if (ext == "pdf")
        exporter->SetFileFormatToPDF();
    else if (ext == "eps")
        exporter->SetFileFormatToEPS();
    else
        return tr("the view's vector export needs a .pdf or .eps file name (SVG: the plots only)");
    exporter->SetRenderWindow(window);
    exporter->CompressOff();
    exporter->Write3DPropsAsRasterImageOn(); // custom point-sprite shaders have no vector form
    exporter->SetTitle("OutlierLens");
    // GL2PS appends the extension to the prefix.
    exporter->SetFilePrefix(QFile::encodeName(info.absolutePath() + "/" + info.completeBaseName()).constData());
    // As in paintGL: Qt's context current (not QOpenGLWidget::makeCurrent, see docs/architecture.md "Rendering with VTK 9.1 inside Qt 6") and
    // VTK's state cache reset; the exporter renders the window itself, into VTK's framebuffers.
    context->makeCurrent(context->surface());
    auto* state = window->GetState();
    state->Reset();
    state->Push();
    exporter->Write();
    state->Pop();
    if (!info.exists() && !QFileInfo::exists(path))
        return tr("the vector export wrote nothing to '%1'").arg(path);
    return {};
}

} // namespace olens
