#pragma once
// `--replay-frames DIR`: after training, one PNG per recorded step of the fit (the timeline's
// positions, first to last), each the view as it showed that step — geometry, score field,
// threshold — with the step and loss written in a corner: frame_0000.png, frame_0001.png, …
// Each frame waits for its step's score field, as a plain --screenshot does. `--replay-video F.gif`
// puts the same frames into one looping animated GIF (render/GifAnimation), 5 steps per second
// with the trained model held for 2 s, written only when complete.
#include "shell/ReactionContext.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace olens {

class GifAnimation;
class TimelineBar;

class ReplayFrames : public QObject {
    Q_OBJECT
public:
    /// `dir`: the folder of PNG frames, or empty; `video`: the animated GIF, or empty.
    ReplayFrames(const ReactionContext& context, TimelineBar* timeline, QString dir, QString video = {});
    ~ReplayFrames() override;
    /// `done(error)` is called once, with an empty error when every frame was written.
    void setDone(std::function<void(const QString&)> done) { m_done = std::move(done); }
    /// Starts with the first recorded step (call after training has finished).
    void start();
    int framesWritten() const { return m_written; }
    /// Why `dir` cannot take frames (empty when it can): a folder holding anything but frames
    /// named as this class names them is refused, so that a run never mixes its frames with a
    /// user's files (#51). `oldFrames` gets the frames of an earlier run, which start() removes.
    static QString folderProblem(const QString& dir, QStringList* oldFrames = nullptr);
    /// Old frames removed by start() (reported by the caller).
    int oldFramesRemoved() const { return m_removed; }

private:
    void onStepShown(int index);
    void shootWhenSettled();
    void finish(const QString& error);

    ReactionContext m_context;
    TimelineBar* m_timeline;
    QString m_dir;
    QString m_video;
    std::unique_ptr<GifAnimation> m_gif;
    std::function<void(const QString&)> m_done;
    int m_index = -1;   // the step being shot
    int m_written = 0;
    int m_removed = 0;
    bool m_waiting = false; // a step was shown and awaits its frame
    bool m_finished = false;
};

} // namespace olens
