#include "ReplayFrames.h"

#include "MainWindow.h"
#include "Reactions.h"
#include "detectors/TrainingHistory.h"
#include "docks/TimelineBar.h"
#include "document/DataDocument.h"
#include "pipeline/FitPipeline.h"
#include "view/CloudView.h"

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QImage>
#include <QPainter>

#include <cmath>

namespace olens {

ReplayFrames::ReplayFrames(MainWindow* window, QString dir)
    : QObject(window), m_window(window), m_dir(std::move(dir))
{
    connect(window->timeline(), &TimelineBar::stepShown, this, &ReplayFrames::onStepShown);
    connect(window->view(), &CloudView::fieldUpdated, this, [this] {
        if (m_waiting)
            shootWhenSettled();
    });
    connect(window->timeline(), &TimelineBar::failed, this, [this](const QString& m) { finish(m); });
}

void ReplayFrames::start()
{
    TimelineBar* t = m_window->timeline();
    if (t->stepCount() < 2) {
        const auto r = m_window->document()->result();
        finish(tr("--replay-frames: %1 recorded no training steps (the iterative detectors record them: "
                  "quadrics, gods, bods and the other GODS variants)")
                   .arg(r ? QString::fromStdString(r->detectorId) : tr("nothing trained")));
        return;
    }
    const QFileInfo info(m_dir);
    if (info.exists() && !info.isDir()) {
        finish(tr("--replay-frames: '%1' exists and is not a folder").arg(m_dir));
        return;
    }
    if (!QDir().mkpath(m_dir)) {
        finish(tr("--replay-frames: cannot create the folder '%1'").arg(m_dir));
        return;
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
    CloudView* view = m_window->view();
    if (view->isFieldBusy())
        return; // the step's field is still coming: fieldUpdated asks again
    m_waiting = false;
    const int index = m_index;
    view->captureNextFrame([this, index](const QImage& frame) {
        if (m_finished || index != m_index)
            return;
        // The step and loss in the top-left corner, for a reader of the frames alone.
        QImage img = frame.convertToFormat(QImage::Format_ARGB32);
        TimelineBar* t = m_window->timeline();
        const auto r = m_window->document()->trainedResult();
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
        const QString path = QDir(m_dir).filePath(QStringLiteral("frame_%1.png").arg(index, 4, 10, QLatin1Char('0')));
        const QString err = ScreenshotReaction::saveImage(img, path);
        if (!err.isEmpty()) {
            finish(tr("--replay-frames: %1").arg(err));
            return;
        }
        ++m_written;
        if (index + 1 >= t->stepCount()) {
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
    m_window->timeline()->goLive();
    if (m_done)
        m_done(error);
}

} // namespace olens
