#include "compare/CompareReplay.h"

#include "docks/TimelineBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace olens {

CompareReplay::CompareReplay(Bars bars, QWidget* parent)
    : QWidget(parent), m_bars(std::move(bars)), m_timer(new QTimer(this)), m_play(new QToolButton(this)),
      m_live(new QToolButton(this)), m_slider(new QSlider(Qt::Horizontal, this)), m_label(new QLabel(this))
{
    setObjectName(QStringLiteral("CompareReplay"));
    auto* title = new QLabel(tr("Replay"), this);
    title->setToolTip(tr("Every panel's recorded training, together"));
    TimelineBar::showPlaying(m_play, false, tr("Play every panel's training from the start"), tr("Pause"));
    m_play->setAutoRaise(true);
    m_live->setText(tr("Live"));
    m_live->setAutoRaise(true);
    m_live->setToolTip(tr("Back to every panel's trained model"));
    m_slider->setObjectName(QStringLiteral("CompareReplaySlider"));
    m_slider->setRange(0, kPositions);
    m_slider->setPageStep(kPositions / 20);
    m_slider->setValue(kPositions);
    m_slider->setToolTip(tr("Scrub every panel's recorded training together: at 40 % each panel shows the state "
                            "40 % along its own recorded path (its title says which epoch or iteration); "
                            "panels without a path (knn, pca, …) keep their model"));
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_label->setMinimumWidth(0);
    m_label->setStyleSheet(QStringLiteral("color: #555;"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 0, 6, 2);
    row->setSpacing(4);
    row->addWidget(title);
    row->addWidget(m_play);
    row->addWidget(m_slider, 2);
    row->addWidget(m_label, 1);
    row->addWidget(m_live);

    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, [this] {
        const int next = std::min(kPositions, m_slider->value() + kPositions / kPlayFrames);
        m_slider->setValue(next);
        if (next >= kPositions)
            pause();
    });
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { scrubTo(double(v) / kPositions); });
    connect(m_play, &QToolButton::clicked, this, &CompareReplay::togglePlay);
    connect(m_live, &QToolButton::clicked, this, [this] {
        pause();
        m_slider->setValue(kPositions);
    });
    setVisible(false);
    updateLabel();
}

double CompareReplay::fraction() const { return double(m_slider->value()) / kPositions; }

bool CompareReplay::isPlaying() const { return m_timer->isActive(); }

void CompareReplay::scrubTo(double fraction)
{
    fraction = std::clamp(fraction, 0.0, 1.0);
    const int position = static_cast<int>(std::lround(fraction * kPositions));
    if (m_slider->value() != position) {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(position);
    }
    for (TimelineBar* bar : m_bars())
        if (const int n = bar->stepCount(); n > 1)
            bar->showIndex(static_cast<int>(std::lround(fraction * (n - 1))));
    updateLabel();
}

void CompareReplay::togglePlay()
{
    if (isPlaying()) {
        pause();
        return;
    }
    if (m_slider->value() >= kPositions)
        scrubTo(0.0); // from the start, as a video player does at the end
    TimelineBar::showPlaying(m_play, true, tr("Play every panel's training from the start"), tr("Pause"));
    m_timer->start();
}

void CompareReplay::pause()
{
    m_timer->stop();
    TimelineBar::showPlaying(m_play, false, tr("Play every panel's training from the start"), tr("Pause"));
}

void CompareReplay::refresh()
{
    pause();
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(kPositions);
    }
    const auto bars = m_bars();
    for (TimelineBar* b : bars) // the control says "trained models": every panel shows its own
        if (b->stepCount() > 1)
            b->goLive();
    setVisible(std::any_of(bars.begin(), bars.end(), [](TimelineBar* b) { return b->stepCount() > 1; }));
    updateLabel();
}

void CompareReplay::updateLabel()
{
    const int v = m_slider->value();
    m_label->setText(v >= kPositions ? tr("trained models")
                                     : tr("%1 % along each panel's recorded training").arg(v / (kPositions / 100)));
    m_live->setEnabled(v < kPositions);
}

} // namespace olens
