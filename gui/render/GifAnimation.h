#pragma once
// An animated GIF built frame by frame in memory (`--replay-video F.gif`): each frame is reduced
// to its own 256-colour table by giflib's median-cut quantiser (GifQuantizeBuffer) and
// LZW-encoded by giflib; the file loops forever (the NETSCAPE2.0 extension), each frame shown for
// its own delay. Frames of another size than the first are scaled to it.
#include <QByteArray>
#include <QSize>

class QImage;

namespace olens {

class GifAnimation {
public:
    GifAnimation() = default;
    ~GifAnimation();
    GifAnimation(const GifAnimation&) = delete;
    GifAnimation& operator=(const GifAnimation&) = delete;

    /// Shows `frame` for `delayMs` (GIF stores hundredths of a second, at least 2). Throws
    /// std::runtime_error when giflib fails (the message names the reason).
    void addFrame(const QImage& frame, int delayMs);
    /// The complete file; no frame may be added after.
    QByteArray finish();

private:
    static int write(void* gif, const unsigned char* data, int length);
    void fail(const char* what, int code) const;

    void* m_gif = nullptr; // GifFileType
    QByteArray m_bytes;
    QSize m_size;
};

} // namespace olens
