#include "render/GifAnimation.h"

#include <QImage>

#include <gif_lib.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace olens {

namespace {
GifFileType* gifOf(void* p) { return static_cast<GifFileType*>(p); }
} // namespace

GifAnimation::~GifAnimation()
{
    if (m_gif) {
        int error = 0;
        EGifCloseFile(gifOf(m_gif), &error);
    }
}

int GifAnimation::write(void* gif, const unsigned char* data, int length)
{
    static_cast<GifAnimation*>(gifOf(gif)->UserData)->m_bytes.append(reinterpret_cast<const char*>(data), length);
    return length;
}

void GifAnimation::fail(const char* what, int code) const
{
    const char* why = GifErrorString(code);
    throw std::runtime_error(std::string("GIF ") + what + ": " + (why ? why : "giflib error"));
}

void GifAnimation::addFrame(const QImage& frame, int delayMs)
{
    if (frame.isNull())
        throw std::runtime_error("GIF frame: empty image");
    if (!m_gif) {
        int error = 0;
        GifFileType* gif = EGifOpen(this, [](GifFileType* g, const GifByteType* d, int n) { return write(g, d, n); },
                                    &error);
        if (!gif)
            fail("open", error);
        m_gif = gif;
        m_size = frame.size();
        EGifSetGifVersion(gif, true);
        if (EGifPutScreenDesc(gif, m_size.width(), m_size.height(), 8, 0, nullptr) == GIF_ERROR)
            fail("screen", gif->Error);
        // Loop forever: the application extension NETSCAPE2.0 with a loop count of 0.
        const GifByteType loop[3] = {1, 0, 0};
        if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR
            || EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR
            || EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
            fail("loop extension", gif->Error);
    }
    GifFileType* gif = gifOf(m_gif);
    const QImage rgb = (frame.size() == m_size ? frame : frame.scaled(m_size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation))
                           .convertToFormat(QImage::Format_RGB888);
    const int w = m_size.width(), h = m_size.height();
    const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    std::vector<GifByteType> r(n), g(n), b(n), index(n);
    for (int y = 0; y < h; ++y) {
        const uchar* line = rgb.constScanLine(y);
        for (int x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
            r[i] = line[3 * x];
            g[i] = line[3 * x + 1];
            b[i] = line[3 * x + 2];
        }
    }
    int colours = 256;
    std::vector<GifColorType> palette(256);
    if (GifQuantizeBuffer(static_cast<unsigned>(w), static_cast<unsigned>(h), &colours, r.data(), g.data(), b.data(),
                          index.data(), palette.data())
        == GIF_ERROR)
        throw std::runtime_error("GIF frame: colour quantisation failed (out of memory?)");
    ColorMapObject* map = GifMakeMapObject(256, palette.data());
    if (!map)
        throw std::runtime_error("GIF frame: out of memory");
    GraphicsControlBlock gcb;
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.UserInputFlag = false;
    gcb.DelayTime = std::max(2, (delayMs + 5) / 10);
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType ext[4];
    const auto extLength = static_cast<int>(EGifGCBToExtension(&gcb, ext));
    const bool ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, extLength, ext) != GIF_ERROR
                    && EGifPutImageDesc(gif, 0, 0, w, h, false, map) != GIF_ERROR;
    GifFreeMapObject(map);
    if (!ok)
        fail("frame", gif->Error);
    for (int y = 0; y < h; ++y)
        if (EGifPutLine(gif, index.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w), w) == GIF_ERROR)
            fail("frame", gif->Error);
}

QByteArray GifAnimation::finish()
{
    if (m_gif) {
        int error = 0;
        const int rc = EGifCloseFile(gifOf(m_gif), &error);
        m_gif = nullptr;
        if (rc == GIF_ERROR)
            fail("close", error);
    }
    return std::move(m_bytes);
}

} // namespace olens
