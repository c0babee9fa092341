#pragma once
// Compare mode's one replay control: a slider (with play / pause and Live) that moves every
// panel's recorded training together. Position f shows each panel at the same share f of its own
// recorded states (the index a panel's own timeline would show at that slider position), so
// detectors whose fits take 30 iterations and 100 epochs start, converge and end together; the
// panels' titles say which epoch / iteration each shows. Each panel's hidden TimelineBar builds
// its steps off the GUI thread. Hidden while no panel has a recorded path.
#include <QWidget>

#include <functional>
#include <vector>

class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace olens {

class TimelineBar;

class CompareReplay : public QWidget {
    Q_OBJECT
public:
    using Bars = std::function<std::vector<TimelineBar*>()>;
    static constexpr int kPositions = 1000; ///< slider steps from the start (0) to the trained models
    static constexpr int kPlayFrames = 50;  ///< frames of a play from the start to the end

    explicit CompareReplay(Bars bars, QWidget* parent = nullptr);

    /// The shown share of every panel's recorded path, 0 (the starts) to 1 (the trained models).
    double fraction() const;
    bool isPlaying() const;
    QSlider* slider() const { return m_slider; }

public slots:
    void scrubTo(double fraction);
    void togglePlay();
    void pause();
    /// A panel's recorded path changed (trained again, new data): back to the trained models; the
    /// control shows when any panel has a path of two or more states.
    void refresh();

private:
    void updateLabel();

    Bars m_bars;
    QTimer* m_timer;
    QToolButton* m_play;
    QToolButton* m_live;
    QSlider* m_slider;
    QLabel* m_label;
};

} // namespace olens
