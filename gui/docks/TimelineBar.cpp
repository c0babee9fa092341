#include "docks/TimelineBar.h"
#include "render/VtkSupport.h"

#include <QAbstractButton>

#include "base/Messages.h"
#include "detectors/TrainingHistory.h"
#include "document/DataDocument.h"
#include "jobs/Worker.h"
#include "pipeline/FitPipeline.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QEvent>
#include <QFontMetrics>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace olens {

namespace {

QToolButton* button(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip)
{
    auto* b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

TimelineBar::TimelineBar(DataDocument* document, QWidget* parent)
    : QWidget(parent), m_doc(document), m_worker(new Worker(Worker::Policy::NewestWins, this)), m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("TimelineBar"));
    setProperty(kScalesWithTextProperty, true); // View → Text size reaches it (TextSizeReaction)
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 2, 6, 2);
    row->setSpacing(4);
    m_back = button(this, QStyle::SP_MediaSeekBackward, tr("Step back one recorded step ([)"));
    m_play = button(this, QStyle::SP_MediaPlay, tr("Play the training from the shown step (P)"));
    m_forward = button(this, QStyle::SP_MediaSeekForward, tr("Step forward one recorded step (])"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("TimelineSlider"));
    m_slider->setToolTip(tr("Scrub through the recorded training: the view, the threshold, the Ranking and "
                            "the Evaluation show the model as it was at that step"));
    m_slider->setPageStep(10);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("TimelineLabel"));
    // The counter takes what room there is but never widens the window (a laptop's 1024 px).
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_label->setMinimumWidth(0);
    m_label->installEventFilter(this); // its width or font changed: the counter's longest form that fits
    m_slider->setMinimumWidth(60);
    m_speed = new QComboBox(this);
    m_speed->setToolTip(tr("Playback speed (recorded steps per second)"));
    for (int fps : {2, 5, 10, 20})
        m_speed->addItem(tr("%1/s").arg(fps), fps);
    m_speed->setCurrentIndex(1);
    m_live = new QToolButton(this);
    m_live->setText(tr("Live"));
    m_live->setToolTip(tr("Back to the trained model (})"));
    m_live->setAutoRaise(true);
    row->addWidget(m_back);
    row->addWidget(m_play);
    row->addWidget(m_forward);
    row->addWidget(m_slider, 1); // the counter gets most of the room: it must read at projector text sizes
    row->addWidget(m_label, 3);
    row->addWidget(m_speed);
    row->addWidget(m_live);

    connect(m_back, &QToolButton::clicked, this, &TimelineBar::stepBack);
    connect(m_forward, &QToolButton::clicked, this, &TimelineBar::stepForward);
    connect(m_play, &QToolButton::clicked, this, &TimelineBar::togglePlay);
    connect(m_live, &QToolButton::clicked, this, &TimelineBar::goLive);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (v != m_requested)
            showIndex(v);
    });
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this] {
        if (m_timer->isActive())
            m_timer->start(1000 / speed());
    });
    connect(m_timer, &QTimer::timeout, this, &TimelineBar::tick);
    connect(m_worker, &Worker::failed, this, [this](const QString& m) {
        pause();
        emit failed(m);
    });
    connect(m_doc, &DataDocument::resultChanged, this, &TimelineBar::onResultChanged);
    connect(m_doc, &DataDocument::shownStepChanged, this, &TimelineBar::onShownStepChanged);
    setVisible(false); // until a result with a recorded path arrives
    onResultChanged();
}

bool TimelineBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_label && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange))
        QTimer::singleShot(0, this, [this] { updateLabel(); }); // not inside the label's own event
    return QWidget::eventFilter(watched, event);
}

QString TimelineBar::counterText() const { return m_label->text(); }

void TimelineBar::setAutoShow(bool on)
{
    m_autoShow = on;
    setVisible(on && stepCount() > 1);
}

int TimelineBar::stepCount() const { return m_history ? m_history->size() : 0; }

int TimelineBar::currentIndex() const
{
    return m_doc->shownStep() >= 0 ? m_doc->shownStep() : stepCount() - 1;
}

QSize TimelineBar::minimumSizeHint() const
{
    return {0, QWidget::minimumSizeHint().height()};
}

int TimelineBar::labelledStep() const
{
    const int n = stepCount();
    if (n == 0)
        return -1;
    if (m_doc->showsTraining())
        return m_doc->shown().step;
    return m_history->steps[static_cast<std::size_t>(std::clamp(currentIndex(), 0, n - 1))].step;
}

bool TimelineBar::isPlaying() const { return m_timer->isActive(); }

int TimelineBar::speed() const { return std::max(1, m_speed->currentData().toInt()); }

bool TimelineBar::sliderEnabled() const { return m_slider->isEnabled(); }

void TimelineBar::onResultChanged()
{
    const auto trained = m_doc->trainedResult();
    if (trained == m_trained)
        return; // a step shown, or the same result again
    pause();
    m_trained = trained;
    m_history = trained && trained->detector ? trained->detector->history() : nullptr;
    // Any edit or new data installs a new trained result, so these shared rows stay the result's.
    m_rows = m_history ? m_doc->sharedRows() : nullptr;
    const int n = stepCount();
    setVisible(m_autoShow && n > 1);
    m_requested = n - 1;
    {
        const QSignalBlocker block(m_slider);
        m_slider->setRange(0, std::max(0, n - 1));
        m_slider->setValue(std::max(0, n - 1));
    }
    updateLabel();
    emit historyChanged();
}

void TimelineBar::onShownStepChanged(int index)
{
    if (m_doc->showsTraining()) {
        // A step-by-step training took the view (N): a replay stops, and a step still being built
        // is not shown over it (m_requested no longer matches).
        pause();
        m_worker->cancel();
        m_requested = -1;
        updateLabel();
        return;
    }
    const int shown = index >= 0 ? index : stepCount() - 1;
    if (m_slider->value() != shown && !m_worker->isBusy()) {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(shown);
        m_requested = shown;
    }
    updateLabel();
}

void TimelineBar::updateLabel()
{
    const int n = stepCount();
    // The slider marks a point of the recorded path; a step-by-step training shows none of them.
    m_slider->setEnabled(!m_doc->showsTraining());
    m_slider->setToolTip(m_doc->showsTraining() ? tr("A step-by-step training is shown, not a recorded step: "
                                                     "P replays the recorded path, Esc brings the trained model back")
                                                : QString());
    if (n == 0) {
        m_label->clear();
        return;
    }
    if (m_doc->showsTraining()) {
        const DataDocument::Shown at = m_doc->shown();
        // Short: at projector text sizes a longer counter was cut ("P replays the pre…").
        m_label->setText(tr("new training: %1 %2%3")
                             .arg(at.unit)
                             .arg(at.step)
                             .arg(at.of > 0 ? tr(" / %1").arg(at.of) : QString()));
        m_label->setToolTip(tr("A step-by-step training is shown (N: one more step, Shift+N: run on, Esc: back to "
                               "the trained model). P replays the trained model's recorded path; the training waits."));
        m_back->setEnabled(true);
        m_forward->setEnabled(false);
        m_live->setEnabled(true);
        return;
    }
    m_label->setToolTip(QString()); // the bar's own tooltip (below) explains the recorded path
    const int i = std::clamp(currentIndex(), 0, n - 1);
    const HistoryStep& s = m_history->steps[static_cast<std::size_t>(i)];
    // The longest form that fits: the loss goes first, then "(trained)" (at projector text with the
    // docks open the label cut "loss 0.03900…" and the "(trained)" that says which model is shown).
    const QString counter = tr("%1 %2 / %3").arg(QString::fromStdString(m_history->unit)).arg(s.step).arg(m_history->steps.back().step);
    const QString loss = std::isfinite(s.loss) ? tr(" · loss %1").arg(s.loss, 0, 'g', 5) : QString();
    const QString trained = m_doc->shownStep() < 0 ? tr(" (trained)") : QString();
    const QString full = counter + loss + trained;
    const int room = m_label->contentsRect().width();
    const QFontMetrics fm(m_label->font());
    QString text = full;
    for (const QString& candidate : {full, counter + trained, counter})
        if (text = candidate; room <= 0 || fm.horizontalAdvance(candidate) <= room)
            break;
    m_label->setText(text);
    if (text != full)
        m_label->setToolTip(full);
    setToolTip(tr("%1 recorded states of %2 %3s (%4 in memory); the last is the trained model. "
                  "Keys: [ and ] step, P play/pause, { the start, } the trained model.")
                   .arg(n)
                   .arg(m_history->steps.back().step)
                   .arg(QString::fromStdString(m_history->unit))
                   .arg(QString::fromStdString(formatBytes(m_history->bytes))));
    m_back->setEnabled(i > 0);
    m_forward->setEnabled(i < n - 1);
    m_live->setEnabled(m_doc->shownStep() >= 0 || m_worker->isBusy());
}

void TimelineBar::showIndex(int index)
{
    const int n = stepCount();
    if (n == 0 || !m_trained)
        return;
    index = std::clamp(index, 0, n - 1);
    m_requested = index;
    if (m_slider->value() != index) {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(index);
    }
    if (index == n - 1) { // the last recorded state is the trained model itself
        m_worker->cancel();
        m_doc->showStep(-1, nullptr);
        emit stepShown(index);
        return;
    }
    auto trained = m_trained;
    auto X = m_rows;
    m_worker->run<std::shared_ptr<const FitResult>>(
        [trained, X, index](const ProgressCallback&) -> std::shared_ptr<const FitResult> {
            return resultAtStep(*trained, *X, index);
        },
        [this, trained, index](std::shared_ptr<const FitResult> r) {
            if (trained != m_doc->trainedResult() || index != m_requested)
                return; // the result or the wanted step changed meanwhile
            m_doc->showStep(index, std::move(r));
            emit stepShown(index);
        });
}

void TimelineBar::stepForward() { showIndex(m_requested + 1); }

void TimelineBar::stepBack()
{
    pause();
    showIndex(m_requested - 1);
}

void TimelineBar::goLive()
{
    pause();
    showIndex(stepCount() - 1);
}

void TimelineBar::goFirst()
{
    pause();
    showIndex(0);
}

void TimelineBar::togglePlay()
{
    if (isPlaying()) {
        pause();
        return;
    }
    if (stepCount() < 2)
        return;
    if (m_requested >= stepCount() - 1)
        showIndex(0); // from the start, as a video player does at the end
    showPlaying(m_play, true, tr("Play the training from the shown step (P)"), tr("Pause (P)"));
    m_timer->start(1000 / speed());
}

void TimelineBar::pause()
{
    m_timer->stop();
    showPlaying(m_play, false, tr("Play the training from the shown step (P)"), tr("Pause (P)"));
}

void TimelineBar::showPlaying(QAbstractButton* button, bool playing, const QString& playTip, const QString& pauseTip)
{
    button->setIcon(button->style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    button->setToolTip(playing ? pauseTip : playTip);
}

void TimelineBar::tick()
{
    if (m_worker->isBusy())
        return; // the previous step is still being built: wait rather than pile up requests
    if (m_requested >= stepCount() - 1) {
        pause();
        return;
    }
    stepForward();
}

} // namespace olens
