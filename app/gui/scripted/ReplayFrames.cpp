#include "scripted/ReplayFrames.h"

#include "reactions/Reactions.h"
#include "detectors/TrainingHistory.h"
#include "docks/TimelineBar.h"
#include "document/DataDocument.h"
#include "base/AtomicWriter.h"
#include "pipeline/FitPipeline.h"
#include "render/GifAnimation.h"
#include "view/CloudView.h"

#include <QMainWindow>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QFileInfo>
#include <QFont>
#include <QImage>
#include <QPainter>

#include <cmath>
#include <ostream>

namespace olens {

namespace {
constexpr int kFrameMs = 200;  // 5 recorded steps per second, the timeline's default speed
constexpr int kLastFrameMs = 2000; // the trained model stays a moment before the loop starts again
} // namespace

ReplayFrames::~ReplayFrames() = default;

QString ReplayFrames::folderProblem(const QString& dir, QStringList* oldFrames)
{
    const QFileInfo info(dir);
    if (!info.exists())
        return {};
    if (!info.isDir())
        return tr("--replay-frames: '%1' exists and is not a folder").arg(dir);
    // frame_0000.png … as start() names them; anything else is somebody's file.
    static const QRegularExpression frameName(QStringLiteral("^frame_\\d{4,}\\.png$"));
    const QFileInfoList entries =
        QDir(dir).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    QStringList frames;
    for (const QFileInfo& e : entries) {
        if (!e.isFile() || e.isSymLink() || !frameName.match(e.fileName()).hasMatch())
            return tr("--replay-frames: the folder '%1' holds files OutlierLens did not write (e.g. '%2'); give a new "
                      "or empty folder")
                .arg(dir, e.fileName());
        frames << e.absoluteFilePath();
    }
    if (oldFrames)
        *oldFrames = frames;
    return {};
}

ReplayFrames::ReplayFrames(const ReactionContext& context, TimelineBar* timeline, QString dir, QString video)
    : QObject(context.window), m_context(context), m_timeline(timeline), m_dir(std::move(dir)), m_video(std::move(video))
{
    connect(timeline, &TimelineBar::stepShown, this, &ReplayFrames::onStepShown);
    connect(context.view, &CloudView::fieldUpdated, this, [this] {
        if (m_waiting)
            shootWhenSettled();
    });
    connect(timeline, &TimelineBar::failed, this, [this](const QString& m) { finish(m); });
}

void ReplayFrames::start()
{
    TimelineBar* t = m_timeline;
    if (t->stepCount() < 2) {
        const auto r = m_context.document->result();
        finish(tr("%1: %2 recorded no training steps (the iterative detectors record them: quadrics, the GODS "
                  "family, kods, acdt, mcd)")
                   .arg(m_dir.isEmpty() ? QStringLiteral("--replay-video") : QStringLiteral("--replay-frames"))
                   .arg(r ? QString::fromStdString(r->detectorId) : tr("nothing trained")));
        return;
    }
    if (!m_video.isEmpty()) {
        if (QFileInfo(m_video).suffix().compare(QStringLiteral("gif"), Qt::CaseInsensitive) != 0) {
            finish(tr("--replay-video: '%1' is not a .gif file; an animated GIF is what OutlierLens writes (for WebM "
                      "or MP4, write PNG frames with --replay-frames DIR and run e.g. ffmpeg -i DIR/frame_%04d.png "
                      "out.webm)")
                       .arg(m_video));
            return;
        }
        try {
            checkOutputPath(m_video.toStdString(), {}, "--replay-video");
        } catch (const std::exception& e) {
            finish(QString::fromUtf8(e.what()));
            return;
        }
        m_gif = std::make_unique<GifAnimation>();
    }
    if (!m_dir.isEmpty()) {
        QStringList old;
        if (const QString problem = folderProblem(m_dir, &old); !problem.isEmpty()) {
            finish(problem);
            return;
        }
        // The frames of an earlier run only (checked above): a shorter replay must not leave
        // the old run's last frames after its own.
        for (const QString& f : old) {
            if (!QFile::remove(f)) {
                finish(tr("--replay-frames: cannot remove the old frame '%1'").arg(f));
                return;
            }
            ++m_removed;
        }
        if (!QDir().mkpath(m_dir)) {
            finish(tr("--replay-frames: cannot create the folder '%1'").arg(m_dir));
            return;
        }
    }
    m_index = 0;
    t->showIndex(0);
}

void ReplayFrames::onStepShown(int index)
{
    if (m_finished || index != m_index)
        return;
    m_waiting = true;
    shootWhenSettled();
}

void ReplayFrames::shootWhenSettled()
{
    CloudView* view = m_context.view;
    if (view->isFieldBusy())
        return; // the step's field is still coming: fieldUpdated asks again
    m_waiting = false;
    const int index = m_index;
    view->captureNextFrame([this, index](const QImage& frame) {
        if (m_finished || index != m_index)
            return;
        // The step and loss in the top-left corner, for a reader of the frames alone.
        QImage img = frame.convertToFormat(QImage::Format_ARGB32);
        TimelineBar* t = m_timeline;
        const auto r = m_context.document->trainedResult();
        const auto h = r && r->detector ? r->detector->history() : nullptr;
        if (h && index < h->size()) {
            const HistoryStep& s = h->steps[std::size_t(index)];
            QString text = QStringLiteral("%1 · %2 %3 / %4").arg(QString::fromStdString(r->detectorId),
                                                                 QString::fromStdString(h->unit))
                               .arg(s.step)
                               .arg(h->steps.back().step);
            if (std::isfinite(s.loss))
                text += QStringLiteral(" · loss %1").arg(s.loss, 0, 'g', 4);
            QPainter p(&img);
            QFont f = p.font();
            f.setPixelSize(std::max(12, img.height() / 32));
            p.setFont(f);
            const QRect box = p.fontMetrics().boundingRect(text).adjusted(-6, -3, 6, 3);
            const QRect at = box.translated(10 - box.left(), img.height() - 10 - box.bottom());
            p.fillRect(at, QColor(255, 255, 255, 210));
            p.setPen(Qt::black);
            p.drawText(at, Qt::AlignCenter, text);
        }
        const bool last = index + 1 >= t->stepCount();
        if (!m_dir.isEmpty()) {
            const QString path = QDir(m_dir).filePath(QStringLiteral("frame_%1.png").arg(index, 4, 10, QLatin1Char('0')));
            const QString err = ScreenshotReaction::saveImage(img, path);
            if (!err.isEmpty()) {
                finish(tr("--replay-frames: %1").arg(err));
                return;
            }
        }
        if (m_gif) {
            try {
                m_gif->addFrame(img, last ? kLastFrameMs : kFrameMs);
            } catch (const std::exception& e) {
                finish(tr("--replay-video: %1").arg(QString::fromUtf8(e.what())));
                return;
            }
        }
        ++m_written;
        if (last) {
            finish({});
            return;
        }
        m_index = index + 1;
        t->showIndex(m_index);
    });
}

void ReplayFrames::finish(const QString& error)
{
    if (std::exchange(m_finished, true))
        return;
    m_timeline->goLive();
    QString why = error;
    if (why.isEmpty() && m_gif) {
        try { // the whole animation, or nothing: an existing file is replaced only when this one is complete
            const QByteArray bytes = m_gif->finish();
            AtomicWriter writer;
            writer.add(m_video.toStdString(), [&bytes](std::ostream& out) { out.write(bytes.constData(), bytes.size()); });
            writer.commit();
        } catch (const std::exception& e) {
            why = tr("--replay-video: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    if (m_done)
        m_done(why);
}

} // namespace olens
