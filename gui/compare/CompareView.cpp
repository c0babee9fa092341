#include "compare/CompareView.h"
#include "metrics/Thresholds.h"

#include "dialogs/DetectorChooserDialog.h"

#include "view/CloudView.h"
#include "compare/CompareKey.h"
#include "compare/ComparePanel.h"
#include "compare/CompareReplay.h"
#include "docks/TimelineBar.h"
#include "document/DataDocument.h"
#include "dialogs/PanelSettingsDialog.h"
#include "registry/Registry.h"
#include "jobs/Executor.h"
#include "jobs/TrainingController.h"
#include "base/Stats.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QMessageBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace olens {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMinQuantile = 0.5;
constexpr double kMaxQuantile = 0.99999; // a big cloud's top 1 000 of 20 M rows is 0.99995

bool registered(const std::string& id)
{
    for (const auto& d : Registry::instance().detectors())
        if (d.id == id)
            return true;
    return false;
}
} // namespace


// ---------------------------------------------------------------------------------------------
// Static helpers

CompareView::Entry CompareView::defaultEntry(const std::string& id)
{
    const DetectorInfo& info = Registry::instance().info(id); // throws ParamError when unknown
    Entry e;
    e.id = id;
    e.normalization = parseNormalization(info.normalization);
    return e; // empty params = the schema's defaults (the papers')
}

std::vector<std::string> CompareView::defaultDetectorIds()
{
    // The default panels are the detectors that give themselves a compare slot (DetectorInfo).
    std::vector<std::pair<int, std::string>> ordered;
    for (const auto& info : Registry::instance().detectors())
        if (info.compareSlot > 0)
            ordered.emplace_back(info.compareSlot, info.id);
    std::sort(ordered.begin(), ordered.end());
    std::vector<std::string> ids;
    for (auto& s : ordered)
        ids.push_back(std::move(s.second));
    return ids;
}

double CompareView::quantileOf(const Eigen::VectorXd& values, double q)
{
    return olens::quantile(values, q); // base/Stats.h: the same interpolation, defined once
}

// ---------------------------------------------------------------------------------------------
// Construction

CompareView::CompareView(DataDocument* source, QWidget* parent)
    : QWidget(parent), m_source(source), m_figure(new QWidget), m_grid(new QWidget),
      m_key(new CompareKey), m_caption(new QLabel), m_decisionBox(new QCheckBox(tr("Decision &only"))),
      m_export(new QPushButton(tr("Export PNG…"))), m_gridLayout(new QGridLayout(m_grid)), m_choose(new QPushButton(tr("&Detectors…"))),
      m_quantileBox(new QDoubleSpinBox), m_trainAll(new QPushButton(tr("Train &all"))),
      m_cancelAll(new QPushButton(tr("Cancel"))), m_combine(new QPushButton(tr("Com&bine"))),
      m_agree(new QPushButton(tr("A&gree…"))), m_status(new QLabel),
      m_retrainTimer(new QTimer(this))
{
    setObjectName("CompareView");

    m_choose->setToolTip(tr("Choose the detectors to compare (2–9 panels)"));
    m_quantileBox->setRange(kMinQuantile, kMaxQuantile);
    m_quantileBox->setDecimals(5);
    m_quantileBox->setSingleStep(0.005);
    m_quantileBox->setValue(m_quantile);
    m_quantileBox->setToolTip(tr("Shared threshold quantile q: every panel draws its threshold contour at the "
                                 "q-quantile of its own training scores, so each flags about (1 − q)·n points "
                                 "and the detectors are compared at the same contamination"));
    m_trainAll->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    m_trainAll->setToolTip(tr("Train every panel concurrently in the background (Ctrl+Shift+T)"));
    m_cancelAll->setToolTip(tr("Stop every panel's training; finished panels keep their result"));
    m_cancelAll->setEnabled(false);
    m_agree->setToolTip(tr("How far the panels agree without labels: rank correlation of their scores, the "
                           "share of their top points in common, and how many panels flag each point"));
    m_combine->setToolTip(tr("Add a consensus panel: the mean of these detectors' score percentiles (each with its "
                             "default parameters), a ranking that no single detector's failure decides"));
    m_status->setObjectName("CompareStatus");
    m_status->setStyleSheet("color: #555;");
    // The status text must not widen the page (a horizontal scroll bar at 1280 × 720); when it
    // does not fit it is elided with "…" and shown whole as the tooltip (setStatus).
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setMinimumWidth(0);
    m_status->installEventFilter(this);
    m_decisionBox->setToolTip(tr("Show only each detector's decision: the inlier and outlier regions split at "
                                 "its own threshold, as two flat colours"));
    m_export->setToolTip(tr("Export the figure (every panel and the key) as a PNG image"));

    auto* strip = new QHBoxLayout;
    strip->setContentsMargins(6, 4, 6, 2);
    strip->addWidget(m_choose);
    // Short labels (tooltips say the rest): the strip fits a 1024-pixel window with its status.
    auto* qLabel = new QLabel(tr("&Quantile"));
    qLabel->setToolTip(m_quantileBox->toolTip());
    qLabel->setBuddy(m_quantileBox);
    strip->addSpacing(12);
    strip->addWidget(qLabel);
    strip->addWidget(m_quantileBox);
    strip->addSpacing(12);
    strip->addWidget(m_trainAll);
    strip->addWidget(m_cancelAll);
    strip->addWidget(m_combine);
    strip->addWidget(m_agree);
    strip->addSpacing(12);
    strip->addWidget(m_decisionBox);
    strip->addWidget(m_export);
    strip->addSpacing(12);
    strip->addWidget(m_status, 1);

    m_gridLayout->setContentsMargins(4, 2, 4, 4);
    m_gridLayout->setSpacing(4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(strip);
    m_replay = new CompareReplay(
        [this] {
            std::vector<TimelineBar*> bars;
            for (const auto& p : m_panels)
                bars.push_back(p->timeline);
            return bars;
        },
        this);
    layout->addWidget(m_replay);
    layout->addWidget(m_figure, 1);
    auto* figure = new QGridLayout(m_figure);
    figure->setContentsMargins(0, 0, 0, 0);
    figure->setSpacing(0);
    figure->addWidget(m_grid, 0, 0);
    figure->addWidget(m_key, 0, 1);
    figure->addWidget(m_caption, 1, 0, 1, 2);
    figure->setRowStretch(0, 1);
    figure->setColumnStretch(0, 1);
    m_caption->setObjectName("CompareCaption");
    m_caption->setWordWrap(true);
    m_caption->setContentsMargins(8, 0, 8, 4);
    m_caption->setStyleSheet("color: #555; background: white;"); // part of the exported figure
    m_caption->hide();
    m_figure->setAutoFillBackground(true);
    QPalette white = m_figure->palette();
    white.setColor(QPalette::Window, Qt::white);
    m_figure->setPalette(white);

    connect(m_choose, &QPushButton::clicked, this, &CompareView::chooseDetectors);
    connect(m_trainAll, &QPushButton::clicked, this, &CompareView::trainAll);
    connect(m_cancelAll, &QPushButton::clicked, this, &CompareView::cancelAll);
    connect(m_combine, &QPushButton::clicked, this, &CompareView::combinePanels);
    connect(m_agree, &QPushButton::clicked, this, &CompareView::showAgreement);
    connect(m_quantileBox, &QDoubleSpinBox::valueChanged, this, &CompareView::setQuantile);
    connect(m_decisionBox, &QCheckBox::toggled, this, &CompareView::setDecisionOnly);
    connect(m_export, &QPushButton::clicked, this, &CompareView::exportRequested);
    connect(m_source, &DataDocument::datasetChanged, this, &CompareView::onSourceDataChanged);
    // Retraining after data changes is debounced: live edits restart the detectors once they pause.
    m_retrainTimer->setSingleShot(true);
    m_retrainTimer->setInterval(300);
    connect(m_retrainTimer, &QTimer::timeout, this, [this] {
        if (!isVisible()) {
            m_retrainOnShow = true;
            return;
        }
        for (auto& p : m_panels)
            if (p->pending)
                startPanel(p.get());
    });

    applyQuantile(defaultQuantile(m_source->dataset().rows()));
    std::vector<Entry> entries;
    for (const auto& id : defaultDetectorIds())
        entries.push_back(defaultEntry(id));
    if (!entries.empty())
        setDetectors(entries);
    updateStrip();
}

bool CompareView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_status && event->type() == QEvent::Resize)
        showStatus();
    return QWidget::eventFilter(watched, event);
}

void CompareView::setStatus(const QString& text)
{
    m_statusText = text;
    showStatus();
}

void CompareView::showStatus()
{
    const QString shown = m_status->fontMetrics().elidedText(m_statusText, Qt::ElideRight, m_status->width());
    m_status->setText(shown);
    m_status->setToolTip(shown == m_statusText ? QString() : m_statusText);
}

CompareView::~CompareView()
{
    // Signal every worker first so they wind down together, then wait for each.
    for (auto& p : m_panels)
        p->trainer->cancel();
    while (!m_panels.empty()) {
        std::unique_ptr<Panel> p = std::move(m_panels.back());
        m_panels.pop_back();
        destroyPanel(std::move(p)); // its Worker cancels and waits for its job
    }
}

QThreadPool* CompareView::threadPool() const
{
    return Executor::pool();
}

CompareView::Panel* CompareView::makePanel(const Entry& entry)
{
    auto panel = std::make_unique<Panel>(entry, this);
    Panel* p = panel.get();
    p->doc->setDataset(m_source->sharedDataset(), m_source->filePath()); // shared, not copied
    p->view->setPanelStyle(panelStyle());
    // Every panel by its score's percentile, the clustering ones (acdt) too: one key reads for all.
    p->view->setColourBy(CloudView::ColourBy::Score);

    connect(p->edit, &QToolButton::clicked, this, [this, p] {
        for (int i = 0; i < panelCount(); ++i)
            if (m_panels[static_cast<std::size_t>(i)].get() == p)
                editPanel(i);
    });
    connect(p->trainer, &TrainingController::runningChanged, this, [this, p](bool running) {
        if (!running)
            onPanelStopped(p);
    });
    connect(p->doc, &DataDocument::resultChanged, this, [this, p] { onPanelResult(p); });
    connect(p->timeline, &TimelineBar::historyChanged, m_replay, &CompareReplay::refresh);
    connect(p->doc, &DataDocument::selectionChanged, this, [this, p](int index) { syncSelection(p, index); });
    connect(p->view, &VtkView::cameraChanged, this, [this, p] { syncCamera(p->view); });
    p->updateTitle();
    m_panels.push_back(std::move(panel));
    return p;
}

void CompareView::destroyPanel(std::unique_ptr<Panel> p)
{
    p->trainer->disconnect(this);
    p->doc->disconnect(this);
    p->view->disconnect(this);
    p->timeline->disconnect(m_replay);
    p.reset(); // ~ComparePanel: worker, then view, then document
    m_replay->refresh();
}

// ---------------------------------------------------------------------------------------------
// Panels

bool CompareView::setDetectors(const std::vector<Entry>& entries, QString* error)
{
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (entries.empty() || static_cast<int>(entries.size()) > kMaxPanels)
        return fail(tr("compare mode shows 1 to %1 detectors, not %2").arg(kMaxPanels).arg(entries.size()));
    for (const Entry& e : entries)
        if (!registered(e.id))
            return fail(tr("unknown detector '%1'").arg(QString::fromStdString(e.id)));

    // Panels whose entry is unchanged are kept (with their result), the others are rebuilt.
    std::vector<std::unique_ptr<Panel>> old = std::move(m_panels);
    m_panels.clear();
    std::vector<std::unique_ptr<Panel>> kept(entries.size());
    for (std::size_t k = 0; k < entries.size(); ++k)
        for (auto& o : old)
            if (o && o->entry == entries[k]) {
                kept[k] = std::move(o);
                break;
            }
    for (auto& o : old)
        if (o)
            o->trainer->cancel();
    for (auto& o : old)
        if (o)
            destroyPanel(std::move(o));
    CloudView* keptView = nullptr;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        if (kept[k]) {
            keptView = keptView ? keptView : kept[k]->view;
            m_panels.push_back(std::move(kept[k]));
        } else {
            makePanel(entries[k]);
        }
    }
    m_replay->refresh(); // the kept panels are back in the list
    // The panels share one still-frame budget: together they draw what one view draws.
    for (auto& p : m_panels)
        p->view->setStillBudgetShare(static_cast<int>(m_panels.size()));
    relayout(true);
    if (keptView && m_userCamera)
        syncCamera(keptView); // new panels join the user's camera
    else
        uniformFit();
    onPanelStopped(nullptr);  // replaced panels that were training no longer count
    publishAgreement();       // removed panels no longer count either
    return true;
}

std::vector<CompareView::Entry> CompareView::entries() const
{
    std::vector<Entry> out;
    for (const auto& p : m_panels)
        out.push_back(p->entry);
    return out;
}

bool CompareView::setEntry(int panel, const Entry& entry, QString* error)
{
    if (panel < 0 || panel >= panelCount() || !registered(entry.id)) {
        if (error)
            *error = tr("unknown panel or detector");
        return false;
    }
    Panel* p = m_panels[static_cast<std::size_t>(panel)].get();
    const bool retrain = p->doc->result() || p->trainer->isRunning();
    p->entry = entry;
    p->doc->setResult(nullptr);
    p->state = Panel::State::Idle;
    p->updateTitle();
    if (retrain)
        startPanel(p);
    return true;
}

CloudView* CompareView::panelView(int i) const
{
    return i >= 0 && i < panelCount() ? m_panels[static_cast<std::size_t>(i)]->view : nullptr;
}

DataDocument* CompareView::panelDocument(int i) const
{
    return i >= 0 && i < panelCount() ? m_panels[static_cast<std::size_t>(i)]->doc : nullptr;
}

TrainingController* CompareView::panelTrainer(int i) const
{
    return i >= 0 && i < panelCount() ? m_panels[static_cast<std::size_t>(i)]->trainer : nullptr;
}

QString CompareView::panelError(int i) const
{
    if (i < 0 || i >= panelCount())
        return {};
    return m_panels[static_cast<std::size_t>(i)]->error;
}

QString CompareView::panelTitle(int i) const
{
    if (i < 0 || i >= panelCount())
        return {};
    return m_panels[static_cast<std::size_t>(i)]->plainTitle();
}

double CompareView::panelAuroc(int i) const
{
    return i >= 0 && i < panelCount() ? m_panels[static_cast<std::size_t>(i)]->auroc : kNaN;
}

double CompareView::panelAuprc(int i) const
{
    return i >= 0 && i < panelCount() ? m_panels[static_cast<std::size_t>(i)]->auprc : kNaN;
}

bool CompareView::isTraining() const
{
    return std::any_of(m_panels.begin(), m_panels.end(), [](const auto& p) { return p->trainer->isRunning(); });
}

// ---------------------------------------------------------------------------------------------
// Training

void CompareView::trainAll()
{
    m_wasTraining = true;
    for (auto& p : m_panels)
        startPanel(p.get());
    onPanelStopped(nullptr); // nothing could start (no data, bad parameters): finished at once
}

void CompareView::cancelAll()
{
    for (auto& p : m_panels) {
        p->restart = false;
        p->pending = false;
        p->trainer->cancel();
    }
    m_retrainTimer->stop();
    m_retrainOnShow = false;
    onPanelStopped(nullptr); // nothing was running: finished now
}

void CompareView::startPanel(Panel* p)
{
    p->pending = false;
    if (p->trainer->isRunning()) {
        // Restart on the current data and settings once the worker has seen the cancel flag.
        p->restart = true;
        p->trainer->cancel();
        return;
    }
    p->restart = false;
    if (p->doc->isEmpty()) {
        p->state = Panel::State::Idle;
        p->updateTitle();
        return;
    }
    p->state = Panel::State::Training;
    p->fraction = 0.0;
    p->error.clear();
    p->updateTitle();
    if (p->trainer->train({p->entry.id, p->entry.params, p->entry.normalization, {}}))
        m_wasTraining = true;
    updateStrip();
}

void CompareView::onPanelStopped(Panel* p)
{
    if (p && p->restart) {
        startPanel(p);
        return;
    }
    updateStrip();
    const bool waiting = std::any_of(m_panels.begin(), m_panels.end(),
                                     [](const auto& q) { return q->restart || q->pending; });
    if (m_wasTraining && !isTraining() && !waiting) {
        m_wasTraining = false;
        emit allFinished();
    }
}

void CompareView::publishAgreement()
{
    // The trained models' decisions, not a replayed step's: nothing is published while a panel
    // shows one (its end publishes again). Each panel's threshold is the shared quantile of its
    // scores (applyThreshold), so this is O(m·n) — the same rule as panelAgreement.
    if (std::any_of(m_panels.begin(), m_panels.end(), [](const auto& p) { return p->doc->shownStep() >= 0; }))
        return;
    DataDocument::Agreement a;
    a.quantile = m_quantile;
    const Eigen::Index n = m_source->dataset().rows();
    for (const auto& p : m_panels) {
        const auto r = p->doc->result();
        if (!r || n == 0 || r->scores.size() != n)
            continue;
        if (a.flaggedBy.size() == 0)
            a.flaggedBy = Eigen::VectorXi::Zero(n);
        a.flaggedBy += (r->scores.array() > p->doc->threshold()).cast<int>().matrix();
        a.detectors << QString::fromStdString(p->entry.id);
    }
    m_source->setAgreement(std::move(a)); // fewer than two: cleared
}

void CompareView::onPanelResult(Panel* p)
{
    p->updateMetrics();
    applyThreshold(p);
    publishAgreement();
    p->updateTitle();
    updateHeaders(); // the metrics may make a header wrap
    if (!m_userCamera && p->doc->shownStep() < 0)
        uniformFit(); // the colour bar may have narrowed this panel's scene (not while replaying: no jumps)
}

double CompareView::defaultQuantile(Eigen::Index rows)
{
    if (!isBigCloud(rows))
        return kDefaultQuantile;
    // The main window's "top 1000" (metrics/Thresholds topCount), on the spin box's 5 decimals.
    const double q = 1.0 - static_cast<double>(topCount(rows)) / static_cast<double>(rows);
    return std::clamp(std::round(q * 1e5) / 1e5, kMinQuantile, kMaxQuantile);
}

void CompareView::setQuantile(double q)
{
    m_quantileChosen = true;
    applyQuantile(q);
}

void CompareView::applyQuantile(double q)
{
    q = std::clamp(q, kMinQuantile, kMaxQuantile);
    if (m_quantileBox->value() != q) {
        const QSignalBlocker block(m_quantileBox);
        m_quantileBox->setValue(q);
    }
    if (q == m_quantile)
        return;
    m_quantile = q;
    m_key->setQuantile(q);
    for (auto& p : m_panels)
        applyThreshold(p.get());
    publishAgreement();
}

void CompareView::applyThreshold(Panel* p)
{
    if (const auto r = p->doc->result(); r && r->scores.size() > 0)
        p->doc->setThreshold(quantileOf(r->scores, m_quantile));
}

void CompareView::onSourceDataChanged()
{
    // The panels follow the source's data; trained (or training) panels retrain on the new data.
    // An edit of the source (points added / moved / deleted) is an edit of the panels' data too,
    // so their views keep the camera.
    const bool edit = m_source->changeIsEdit();
    for (auto& p : m_panels) {
        const bool wanted = p->doc->result() || p->trainer->isRunning() || p->restart || p->pending;
        p->restart = false;
        // A running worker sees datasetChanged, cancels itself and drops its result.
        if (edit)
            p->doc->editDataset(m_source->sharedDataset(), nullptr); // shared, not copied
        else
            p->doc->setDataset(m_source->sharedDataset(), m_source->filePath()); // shared, not copied
        p->view->setPanelStyle(panelStyle());
        // Every panel by its score's percentile, the clustering ones (acdt) too: one key reads for all.
        p->view->setColourBy(CloudView::ColourBy::Score);
        p->state = Panel::State::Idle;
        p->pending = wanted && !m_source->isEmpty();
        p->updateTitle();
    }
    // The size-based default once the panels hold the new data (before, it re-thresholded the old
    // results about to be dropped).
    if (!edit && !m_quantileChosen)
        applyQuantile(defaultQuantile(m_source->dataset().rows()));
    if (std::any_of(m_panels.begin(), m_panels.end(), [](const auto& p) { return p->pending; }))
        m_retrainTimer->start();
    updateStrip();
    relayout(false); // the data's aspect picks the columns
    publishAgreement(); // the panels have no results on these rows yet: cleared
}

void CompareView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    relayout(false);
    if (m_retrainOnShow) {
        m_retrainOnShow = false;
        for (auto& p : m_panels)
            if (p->pending)
                startPanel(p.get());
    }
}

// ---------------------------------------------------------------------------------------------
// Dialogs

void CompareView::chooseDetectors()
{
    std::vector<std::string> current;
    for (const auto& p : m_panels)
        current.push_back(p->entry.id);
    DetectorChooserDialog dialog(current, kMaxPanels, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    std::vector<Entry> next;
    for (const auto& id : dialog.checkedIds()) {
        auto it = std::find_if(m_panels.begin(), m_panels.end(), [&](const auto& p) { return p->entry.id == id; });
        next.push_back(it != m_panels.end() ? (*it)->entry : defaultEntry(id));
    }
    if (setDetectors(next) && !m_source->isEmpty())
        trainAll();
}

void CompareView::editPanel(int i)
{
    if (i < 0 || i >= panelCount())
        return;
    Panel* p = m_panels[static_cast<std::size_t>(i)].get();
    PanelSettingsDialog dialog(p->entry.id, p->entry.params, p->entry.normalization, i, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    Entry edited = p->entry;
    edited.params = dialog.params();
    edited.normalization = dialog.normalization();
    if (!(edited == p->entry)) {
        const bool hadResult = p->doc->result() || p->trainer->isRunning();
        setEntry(i, edited);
        if (!hadResult && !m_source->isEmpty())
            startPanel(p);
    }
}

bool CompareView::combinePanels()
{
    std::vector<std::string> members;
    std::vector<Entry> next;
    for (const auto& p : m_panels) {
        if (Registry::instance().info(p->entry.id).ensemble)
            continue; // replaced by the new one
        next.push_back(p->entry);
        if (std::find(members.begin(), members.end(), p->entry.id) == members.end())
            members.push_back(p->entry.id);
    }
    if (members.size() < 2) {
        setStatus(tr("Combine needs panels of at least two different detectors"));
        return false;
    }
    if (static_cast<int>(next.size()) >= kMaxPanels) {
        setStatus(tr("Combine adds a panel: remove one first (at most %1 panels)").arg(kMaxPanels));
        return false;
    }
    const DetectorInfo* ensemble = Registry::instance().ensemble();
    if (!ensemble) {
        setStatus(tr("Combine needs a detector that combines others, and none is registered"));
        return false;
    }
    Entry combined = defaultEntry(ensemble->id);
    combined.params = ensemble->ensemble->combining(members);
    next.push_back(combined);
    QString error;
    if (!setDetectors(next, &error)) {
        setStatus(error);
        return false;
    }
    if (!m_source->isEmpty())
        startPanel(m_panels.back().get());
    return true;
}

AgreementTable CompareView::panelAgreement(QStringList* titles) const
{
    std::vector<Eigen::VectorXd> scores;
    std::vector<Eigen::VectorXi> flags;
    for (const auto& p : m_panels) {
        const auto r = p->doc->result();
        if (!r || r->scores.size() == 0 || (!scores.empty() && r->scores.size() != scores.front().size()))
            continue;
        scores.push_back(r->scores);
        flags.push_back((r->scores.array() > quantileOf(r->scores, m_quantile)).cast<int>().matrix());
        if (titles)
            titles->append(QString::fromStdString(p->entry.id));
    }
    if (scores.size() < 2)
        return {};
    const auto n = scores.front().size();
    // ⌈(1 − q)·n⌉ without the last bit of 1 − q (0.05 · 300 = 15.000000000000002).
    const auto k = std::max<Eigen::Index>(1, static_cast<Eigen::Index>(std::ceil((1.0 - m_quantile) * n - 1e-9)));
    return agreement(scores, flags, k);
}

QString CompareView::agreementHtml() const
{
    QStringList ids;
    const AgreementTable t = panelAgreement(&ids);
    if (t.k == 0)
        return tr("Train at least two panels to compare their rankings.");
    auto matrix = [&ids](const Eigen::MatrixXd& M, const QString& caption) {
        QString h = QStringLiteral("<p><b>%1</b></p><table cellspacing='0' cellpadding='3' border='1'><tr><th></th>")
                        .arg(caption.toHtmlEscaped());
        for (const auto& id : ids)
            h += QStringLiteral("<th>%1</th>").arg(id.toHtmlEscaped());
        h += QStringLiteral("</tr>");
        for (int i = 0; i < ids.size(); ++i) {
            h += QStringLiteral("<tr><th>%1</th>").arg(ids[i].toHtmlEscaped());
            for (int j = 0; j < ids.size(); ++j)
                h += QStringLiteral("<td align='right'>%1</td>").arg(M(i, j), 0, 'f', 2);
            h += QStringLiteral("</tr>");
        }
        return h + QStringLiteral("</table>");
    };
    QString html = matrix(t.spearman, tr("Spearman rank correlation of the scores"));
    html += matrix(t.topOverlap, tr("Share of the top %1 points in common").arg(t.k));
    html += QStringLiteral("<p><b>%1</b><br>").arg(tr("Points flagged at the shared quantile %1").arg(m_quantile));
    const int m = static_cast<int>(ids.size());
    for (int c = m; c >= 0; --c)
        html += tr("by %1 of %2 panels: %3").arg(c).arg(m).arg((t.flaggedBy.array() == c).count())
                + (c ? QStringLiteral("<br>") : QString());
    html += QStringLiteral("</p><p style='color:#555'>%1</p>")
                .arg(tr("Low correlations mean the detectors see different outliers: read the warnings (⚠) on "
                        "the panels, and consider Combine for a consensus. In the main window the counts are the "
                        "Ranking's \"flagged by\" column (once a detector is trained there) and Colour by → "
                        "agreement. outlierlens-cli agree computes the same for a file."));
    return html;
}

void CompareView::showAgreement()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("Agreement between the panels"));
    box.setTextFormat(Qt::RichText);
    box.setText(agreementHtml());
    box.exec();
}

} // namespace olens
