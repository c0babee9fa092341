#include "CompareView.h"

#include "CloudView.h"
#include "DataDocument.h"
#include "base/Errors.h"
#include "metrics/Metrics.h"
#include "ParamForm.h"
#include "registry/Registry.h"
#include "TrainingController.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QTextDocument>
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
constexpr double kMaxQuantile = 0.999;

QString fmt3(double v) { return QString::number(v, 'f', 3); }

bool registered(const std::string& id)
{
    for (const auto& d : Registry::instance().detectors())
        if (d.id == id)
            return true;
    return false;
}
} // namespace

struct CompareView::Panel {
    enum class State { Idle, Training, Done, Failed, Cancelled };
    Entry entry;
    DataDocument* doc = nullptr;
    TrainingController* trainer = nullptr;
    QFrame* frame = nullptr;
    QLabel* title = nullptr;
    QToolButton* edit = nullptr;
    CloudView* view = nullptr;
    State state = State::Idle;
    double fraction = 0.0;
    QString error;
    double auroc = kNaN;
    double auprc = kNaN;
    bool restart = false; // train again as soon as the running worker has stopped
    bool pending = false; // data changed under a trained panel: retrain (debounced, when visible)
};

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
    if (values.size() == 0)
        return kNaN;
    std::vector<double> v(values.data(), values.data() + values.size());
    std::sort(v.begin(), v.end());
    q = std::clamp(q, 0.0, 1.0);
    const double h = double(v.size() - 1) * q;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (h - double(lo)) * (v[hi] - v[lo]);
}

// ---------------------------------------------------------------------------------------------
// Construction

CompareView::CompareView(DataDocument* source, QWidget* parent)
    : QWidget(parent), m_source(source), m_pool(new QThreadPool(this)), m_grid(new QWidget),
      m_gridLayout(new QGridLayout(m_grid)), m_choose(new QPushButton(tr("&Detectors…"))),
      m_quantileBox(new QDoubleSpinBox), m_trainAll(new QPushButton(tr("Train &all"))),
      m_cancelAll(new QPushButton(tr("Cancel"))), m_status(new QLabel), m_retrainTimer(new QTimer(this))
{
    setObjectName("CompareView");
    m_pool->setObjectName("CompareViewPool");
    m_pool->setMaxThreadCount(QThread::idealThreadCount());

    m_choose->setToolTip(tr("Choose the detectors to compare (2–9 panels)"));
    m_quantileBox->setRange(kMinQuantile, kMaxQuantile);
    m_quantileBox->setDecimals(3);
    m_quantileBox->setSingleStep(0.005);
    m_quantileBox->setValue(m_quantile);
    m_quantileBox->setToolTip(tr("Shared threshold quantile q: every panel draws its threshold contour at the "
                                 "q-quantile of its own training scores, so each flags about (1 − q)·n points "
                                 "and the detectors are compared at the same contamination"));
    m_trainAll->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    m_trainAll->setToolTip(tr("Train every panel concurrently in the background (Ctrl+Shift+T)"));
    m_cancelAll->setToolTip(tr("Stop every panel's training; finished panels keep their result"));
    m_cancelAll->setEnabled(false);
    m_status->setStyleSheet("color: #555;");

    auto* strip = new QHBoxLayout;
    strip->setContentsMargins(6, 4, 6, 2);
    strip->addWidget(m_choose);
    auto* qLabel = new QLabel(tr("Threshold quantile"));
    qLabel->setToolTip(m_quantileBox->toolTip());
    qLabel->setBuddy(m_quantileBox);
    strip->addSpacing(12);
    strip->addWidget(qLabel);
    strip->addWidget(m_quantileBox);
    strip->addSpacing(12);
    strip->addWidget(m_trainAll);
    strip->addWidget(m_cancelAll);
    strip->addSpacing(12);
    strip->addWidget(m_status, 1);

    m_gridLayout->setContentsMargins(4, 2, 4, 4);
    m_gridLayout->setSpacing(4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(strip);
    layout->addWidget(m_grid, 1);

    connect(m_choose, &QPushButton::clicked, this, &CompareView::chooseDetectors);
    connect(m_trainAll, &QPushButton::clicked, this, &CompareView::trainAll);
    connect(m_cancelAll, &QPushButton::clicked, this, &CompareView::cancelAll);
    connect(m_quantileBox, &QDoubleSpinBox::valueChanged, this, &CompareView::setQuantile);
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

    std::vector<Entry> entries;
    for (const auto& id : defaultDetectorIds())
        entries.push_back(defaultEntry(id));
    if (!entries.empty())
        setDetectors(entries);
    updateStrip();
}

CompareView::~CompareView()
{
    // Signal every worker first so they wind down together, then wait for each.
    for (auto& p : m_panels)
        p->trainer->cancel();
    while (!m_panels.empty()) {
        std::unique_ptr<Panel> p = std::move(m_panels.back());
        m_panels.pop_back();
        destroyPanel(std::move(p));
    }
    m_pool->waitForDone();
}

CompareView::Panel* CompareView::makePanel(const Entry& entry)
{
    auto panel = std::make_unique<Panel>();
    Panel* p = panel.get();
    p->entry = entry;
    p->doc = new DataDocument(this);
    p->trainer = new TrainingController(p->doc, this);
    p->trainer->setThreadPool(m_pool);

    p->frame = new QFrame;
    p->frame->setFrameShape(QFrame::StyledPanel);
    p->title = new QLabel;
    p->title->setTextFormat(Qt::RichText);
    p->title->setWordWrap(true);
    p->title->setFixedHeight(2 * p->title->fontMetrics().lineSpacing() + 4);
    p->title->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    p->edit = new QToolButton;
    p->edit->setText(QStringLiteral("…"));
    p->edit->setAutoRaise(true);
    p->edit->setToolTip(tr("Parameters and normalisation of this panel's detector"));
    p->view = new CloudView(p->doc);
    p->view->setMinimumSize(160, 120);
    p->view->setGridResolution2D(120); // small panels: a coarser field computes faster
    p->view->setGridResolution3D(32);
    auto* header = new QHBoxLayout;
    header->setContentsMargins(4, 0, 0, 0);
    header->addWidget(p->title, 1);
    header->addWidget(p->edit, 0, Qt::AlignTop);
    auto* fl = new QVBoxLayout(p->frame);
    fl->setContentsMargins(1, 1, 1, 1);
    fl->setSpacing(0);
    fl->addLayout(header);
    fl->addWidget(p->view, 1);

    p->doc->setDataset(m_source->dataset(), m_source->filePath());

    connect(p->edit, &QToolButton::clicked, this, [this, p] {
        for (int i = 0; i < panelCount(); ++i)
            if (m_panels[static_cast<std::size_t>(i)].get() == p)
                editPanel(i);
    });
    connect(p->trainer, &TrainingController::progress, this, [this, p](double fraction, const QString&, double) {
        p->fraction = fraction;
        updateTitle(p);
    });
    connect(p->trainer, &TrainingController::finished, this, [this, p](double) {
        p->state = Panel::State::Done;
        updateTitle(p);
    });
    connect(p->trainer, &TrainingController::failed, this, [this, p](const QString& message) {
        p->state = Panel::State::Failed;
        p->error = message;
        updateTitle(p);
    });
    connect(p->trainer, &TrainingController::cancelled, this, [this, p] {
        // Cancelled for a restart (new data or settings) is not a user cancel.
        p->state = (p->pending || p->restart) ? Panel::State::Idle : Panel::State::Cancelled;
        updateTitle(p);
    });
    connect(p->trainer, &TrainingController::runningChanged, this, [this, p](bool running) {
        if (!running)
            onPanelStopped(p);
    });
    connect(p->doc, &DataDocument::resultChanged, this, [this, p] { onPanelResult(p); });
    connect(p->doc, &DataDocument::selectionChanged, this, [this, p](int index) { syncSelection(p, index); });
    connect(p->view, &VtkView::cameraChanged, this, [this, p] { syncCamera(p->view); });
    updateTitle(p);
    m_panels.push_back(std::move(panel));
    return p;
}

void CompareView::destroyPanel(std::unique_ptr<Panel> p)
{
    // Worker first (it holds the document's data copy), then the view, then its document.
    p->trainer->disconnect(this);
    p->doc->disconnect(this);
    p->view->disconnect(this);
    delete p->trainer;
    delete p->frame;
    delete p->doc;
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
    m_pool->setMaxThreadCount(std::max(static_cast<int>(entries.size()), QThread::idealThreadCount()));
    CloudView* keptView = nullptr;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        if (kept[k]) {
            keptView = keptView ? keptView : kept[k]->view;
            m_panels.push_back(std::move(kept[k]));
        } else {
            makePanel(entries[k]);
        }
    }
    relayout(true);
    if (keptView && m_userCamera)
        syncCamera(keptView); // new panels join the user's camera
    else
        uniformFit();
    onPanelStopped(nullptr);  // replaced panels that were training no longer count
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
    updateTitle(p);
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

QString CompareView::panelTitle(int i) const
{
    if (i < 0 || i >= panelCount())
        return {};
    QTextDocument doc;
    doc.setHtml(m_panels[static_cast<std::size_t>(i)]->title->text());
    return doc.toPlainText().replace(QChar::LineSeparator, '\n');
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
    emit trainingStarted();
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
        updateTitle(p);
        return;
    }
    p->state = Panel::State::Training;
    p->fraction = 0.0;
    p->error.clear();
    updateTitle(p);
    if (p->trainer->train(p->entry.id, p->entry.params, p->entry.normalization))
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

void CompareView::onPanelResult(Panel* p)
{
    p->auroc = p->auprc = kNaN;
    const auto r = p->doc->result();
    const Dataset& d = p->doc->dataset();
    if (r && d.hasLabels() && r->scores.size() == d.rows()) {
        const Eigen::VectorXi flags = d.outlierFlags();
        const long positives = flags.sum();
        if (positives > 0 && positives < flags.size()) {
            try {
                p->auroc = auroc(r->scores, flags);
                p->auprc = averagePrecision(r->scores, flags);
            } catch (const std::exception&) {
                p->auroc = p->auprc = kNaN;
            }
        }
    }
    applyThreshold(p);
    updateTitle(p);
    if (!m_userCamera)
        uniformFit(); // the colour bar may have narrowed this panel's scene
}

void CompareView::setQuantile(double q)
{
    q = std::clamp(q, kMinQuantile, kMaxQuantile);
    if (m_quantileBox->value() != q) {
        const QSignalBlocker block(m_quantileBox);
        m_quantileBox->setValue(q);
    }
    if (q == m_quantile)
        return;
    m_quantile = q;
    for (auto& p : m_panels)
        applyThreshold(p.get());
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
            p->doc->editDataset(m_source->dataset(), nullptr);
        else
            p->doc->setDataset(m_source->dataset(), m_source->filePath());
        p->state = Panel::State::Idle;
        p->pending = wanted && !m_source->isEmpty();
        updateTitle(p.get());
    }
    if (std::any_of(m_panels.begin(), m_panels.end(), [](const auto& p) { return p->pending; }))
        m_retrainTimer->start();
    updateStrip();
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
// Presentation

void CompareView::updateTitle(Panel* p)
{
    QString head = QStringLiteral("<b>%1</b> <span style='color:#777'>%2</span>")
                       .arg(QString::fromStdString(p->entry.id).toHtmlEscaped(),
                            QString::fromStdString(toString(p->entry.normalization)));
    if (!p->entry.params.empty()) {
        QStringList params;
        for (const auto& [name, value] : p->entry.params)
            params << QString::fromStdString(name + "=" + value);
        head += QStringLiteral(" <span style='color:#777'>%1</span>").arg(params.join(' ').toHtmlEscaped());
    }
    QString line;
    switch (p->state) {
    case Panel::State::Idle:
        line = p->doc->isEmpty() ? tr("no data")
               : (p->pending || p->restart) ? tr("data changed — retraining")
                                            : tr("not trained — Train all (Ctrl+Shift+T)");
        break;
    case Panel::State::Training:
        line = tr("training %1 %").arg(int(std::lround(p->fraction * 100.0)));
        break;
    case Panel::State::Cancelled:
        line = tr("cancelled");
        break;
    case Panel::State::Failed:
        line = QStringLiteral("<span style='color:#b00020'>%1</span>").arg(tr("error: %1").arg(p->error).toHtmlEscaped());
        break;
    case Panel::State::Done:
        break;
    }
    // Two lines that fit a small panel: detector + fit time, then the metrics (or the state).
    if (const auto r = p->doc->result(); r && p->state != Panel::State::Training) {
        head += tr(" · fit %1 s").arg(r->fitSeconds, 0, 'f', r->fitSeconds < 10 ? 3 : 1);
        if (!std::isnan(p->auroc))
            line = tr("AUROC %1 · AUPRC %2").arg(fmt3(p->auroc), fmt3(p->auprc));
        else
            line = QStringLiteral("<span style='color:#777'>%1</span>")
                       .arg(tr("AUROC/AUPRC need a label column with inliers and outliers"));
    }
    p->title->setText(head + "<br>" + line);
    QTextDocument plain;
    plain.setHtml(p->title->text());
    p->title->setToolTip(plain.toPlainText()); // the full text when the panel is too narrow
}

void CompareView::updateStrip()
{
    int running = 0;
    for (const auto& p : m_panels)
        running += p->trainer->isRunning() ? 1 : 0;
    m_cancelAll->setEnabled(running > 0);
    m_trainAll->setEnabled(!m_source->isEmpty() && !m_panels.empty());
    if (m_source->isEmpty())
        m_status->setText(tr("Load or generate data to compare detectors."));
    else if (running > 0)
        m_status->setText(tr("%1 of %2 panels training").arg(running).arg(panelCount()));
    else
        m_status->setText(tr("%1 panels · cameras, selection and threshold quantile are shared").arg(panelCount()));
}

int CompareView::bestColumns(int n) const
{
    // The column count that gives the largest square-ish panels (ties: fewer empty cells).
    const double W = std::max(1, m_grid->width() > 50 ? m_grid->width() : 1200);
    const double H = std::max(1, (m_grid->height() > 50 ? m_grid->height() : 800));
    const double titleH = 40.0;
    int best = 1;
    double bestSide = -1.0;
    int bestEmpty = 0;
    for (int c = 1; c <= std::max(1, n); ++c) {
        const int rows = (n + c - 1) / c;
        const double side = std::min(W / c, H / rows - titleH);
        const int empty = rows * c - n;
        if (side > bestSide + 1.0 || (std::abs(side - bestSide) <= 1.0 && empty < bestEmpty)) {
            best = c;
            bestSide = side;
            bestEmpty = empty;
        }
    }
    return best;
}

void CompareView::relayout(bool force)
{
    const int n = panelCount();
    const int c = bestColumns(n);
    if (!force && c == m_columns)
        return;
    m_columns = c;
    for (auto& p : m_panels)
        m_gridLayout->removeWidget(p->frame);
    for (int k = 0; k < n; ++k)
        m_gridLayout->addWidget(m_panels[static_cast<std::size_t>(k)]->frame, k / c, k % c);
    const int rows = n > 0 ? (n + c - 1) / c : 0;
    for (int i = 0; i < kMaxPanels; ++i) {
        m_gridLayout->setColumnStretch(i, i < c ? 1 : 0);
        m_gridLayout->setRowStretch(i, i < rows ? 1 : 0);
    }
}

void CompareView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    relayout(false);
}

void CompareView::syncCamera(CloudView* from)
{
    if (m_syncing)
        return;
    if (from->cameraIsAuto()) {
        // A fit to the data (new data, reset, resize): one fit for all panels.
        m_userCamera = false;
        uniformFit();
        return;
    }
    // A user move: the same camera everywhere.
    m_userCamera = true;
    m_syncing = true;
    const VtkView::CameraState c = from->cameraState();
    for (auto& p : m_panels)
        if (p->view != from && p->view->mode() == from->mode())
            p->view->setCameraState(c);
    m_syncing = false;
}

void CompareView::uniformFit()
{
    // The panel whose scene viewport is the narrowest (a colour bar takes a strip on the right)
    // fits the data; the others take its camera, so every panel shows the same region at the same
    // scale and none clips it.
    if (m_panels.empty() || m_syncing)
        return;
    m_syncing = true;
    CloudView* narrowest = nullptr;
    double best = std::numeric_limits<double>::infinity();
    for (auto& p : m_panels) {
        double vp[4];
        p->view->renderer()->GetViewport(vp);
        const double aspect = (vp[2] - vp[0]) * std::max(1, p->view->width()) /
                              ((vp[3] - vp[1]) * std::max(1, p->view->height()));
        if (aspect < best) {
            best = aspect;
            narrowest = p->view;
        }
    }
    narrowest->resetCamera();
    const VtkView::CameraState c = narrowest->cameraState();
    for (auto& p : m_panels)
        if (p->view != narrowest && p->view->mode() == narrowest->mode())
            p->view->setCameraState(c);
    m_syncing = false;
}

void CompareView::syncSelection(Panel* from, int index)
{
    for (auto& p : m_panels)
        if (p.get() != from)
            p->doc->setSelectedPoint(index); // no signal when unchanged: no loop
}

// ---------------------------------------------------------------------------------------------
// Dialogs

void CompareView::chooseDetectors()
{
    std::vector<std::string> current;
    for (const auto& p : m_panels)
        current.push_back(p->entry.id);
    DetectorChooserDialog dialog(current, this);
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
    const DetectorInfo& info = Registry::instance().info(p->entry.id);
    QDialog dialog(this);
    dialog.setWindowTitle(tr("%1 — panel %2").arg(QString::fromStdString(info.title)).arg(i + 1));
    auto* form = new ParamForm;
    form->setSchema(info.params);
    auto* norm = new QComboBox;
    for (const char* n : {"none", "zscore", "l2", "minmax"})
        norm->addItem(n);
    norm->setCurrentText(QString::fromStdString(toString(p->entry.normalization)));
    norm->setToolTip(tr("Normalisation fitted on the training data (the paper's: %1)")
                         .arg(QString::fromStdString(info.normalization)));
    auto* message = new QLabel;
    message->setStyleSheet("color: #b00020;");
    message->setWordWrap(true);
    try {
        form->setValues(p->entry.params);
    } catch (const std::exception& e) {
        message->setText(QString::fromUtf8(e.what()));
    }
    auto* scroll = new QScrollArea;
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* layout = new QVBoxLayout(&dialog);
    auto* top = new QFormLayout;
    top->addRow(tr("Normalise"), norm);
    layout->addLayout(top);
    layout->addWidget(scroll, 1);
    layout->addWidget(message);
    layout->addWidget(buttons);
    Entry edited = p->entry;
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        try {
            // Only the values that differ from the defaults are kept (shorter panel titles).
            const ParamSet defaults = Registry::instance().defaultParams(info.id);
            ParamAssignments values;
            for (const auto& [name, value] : form->values()) {
                ParamSet probe = defaults;
                probe.set(name, value);
                if (probe.text(name) != defaults.text(name))
                    values.emplace_back(name, value);
            }
            edited.params = values;
            edited.normalization = parseNormalization(norm->currentText().toStdString());
            dialog.accept();
        } catch (const std::exception& e) {
            message->setText(QString::fromUtf8(e.what()));
        }
    });
    dialog.resize(420, 480);
    if (dialog.exec() == QDialog::Accepted && !(edited == p->entry)) {
        const bool hadResult = p->doc->result() || p->trainer->isRunning();
        setEntry(i, edited);
        if (!hadResult && !m_source->isEmpty())
            startPanel(p);
    }
}

// ---------------------------------------------------------------------------------------------

DetectorChooserDialog::DetectorChooserDialog(const std::vector<std::string>& checked, QWidget* parent)
    : QDialog(parent), m_list(new QListWidget), m_ok(nullptr), m_count(new QLabel)
{
    setWindowTitle(tr("Detectors to compare"));
    for (const auto& d : Registry::instance().detectors()) {
        auto* item = new QListWidgetItem(QString::fromStdString(d.id + " — " + d.title), m_list);
        item->setData(Qt::UserRole, QString::fromStdString(d.id));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool on = std::find(checked.begin(), checked.end(), d.id) != checked.end();
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(QString::fromStdString(d.summary) + "\n" + QString::fromStdString(d.reference) +
                         tr("\nnormalisation: %1").arg(QString::fromStdString(d.normalization)));
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Compare"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("One panel per checked detector, trained with the paper's defaults and "
                                    "normalisation (edit a panel with its … button).")));
    layout->addWidget(m_list, 1);
    layout->addWidget(m_count);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::itemChanged, this, &DetectorChooserDialog::updateOk);
    updateOk();
    resize(460, 420);
}

std::vector<std::string> DetectorChooserDialog::checkedIds() const
{
    std::vector<std::string> ids;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            ids.push_back(m_list->item(i)->data(Qt::UserRole).toString().toStdString());
    return ids;
}

void DetectorChooserDialog::setChecked(const std::string& id, bool on)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString().toStdString() == id)
            m_list->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

void DetectorChooserDialog::updateOk()
{
    const int n = static_cast<int>(checkedIds().size());
    const bool ok = n >= 2 && n <= CompareView::kMaxPanels;
    m_ok->setEnabled(ok);
    m_count->setText(ok ? tr("%1 panels").arg(n)
                        : tr("%1 checked — choose 2 to %2 detectors").arg(n).arg(CompareView::kMaxPanels));
    m_count->setStyleSheet(ok ? QString() : QStringLiteral("color: #b00020;"));
}

} // namespace olens
