#include "docks/DetectorPanel.h"
#include "detectors/TrainingHistory.h"

#include "document/DataDocument.h"
#include "dialogs/ParamForm.h"
#include "plots/PlotWidget.h"
#include "display/TraceAxis.h"
#include "registry/Registry.h"
#include "jobs/TrainingController.h"

#include <QComboBox>
#include <QScopedValueRollback>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace olens {

DetectorPanel::DetectorPanel(DataDocument* document, TrainingController* controller, QWidget* parent)
    : QWidget(parent), m_doc(document), m_controller(controller), m_detector(new QComboBox),
      m_summary(new QLabel), m_norm(new QComboBox), m_fitOn(new QComboBox), m_fitLabel(new QComboBox),
      m_fraction(new QDoubleSpinBox), m_seed(new QSpinBox), m_fitDetails(new QWidget), m_form(new ParamForm), m_train(new QPushButton(tr("Train"))),
      m_cancel(new QPushButton(tr("Cancel"))), m_defaults(new QPushButton(tr("Defaults"))),
      m_paper(new QPushButton(tr("Paper"))),
      m_progress(new QProgressBar), m_status(new QLabel), m_warnings(new QLabel), m_loss(new PlotWidget), m_guidance(new QLabel)
{
    for (const auto& d : Registry::instance().detectors())
        m_detector->addItem(QString::fromStdString(d.id + " — " + d.title), QString::fromStdString(d.id));
    m_detector->setToolTip(tr("Detector to train (all registered detectors)"));
    // Long "id — title" entries must not widen the dock (and with it the window).
    m_detector->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_detector->setMinimumContentsLength(12);
    m_summary->setWordWrap(true);
    m_summary->setStyleSheet("color: #444;");
    for (const char* n : {"none", "zscore", "l2", "minmax"})
        m_norm->addItem(n);
    m_norm->setToolTip(tr("Normalisation fitted on the training data: zscore (KIC paper), l2 rows (GODS, "
                          "quadrics papers), minmax, or none. Preselected from the detector's paper."));
    // Fit on a part, score all: every point is scored, the training points are ringed in the view.
    m_fitOn->setObjectName(QStringLiteral("fitOn"));
    m_fitOn->addItem(tr("all points"), int(FitSubset::Kind::All));
    m_fitOn->addItem(tr("selected points"), int(FitSubset::Kind::Rows));
    m_fitOn->addItem(tr("label value"), int(FitSubset::Kind::Label));
    m_fitOn->addItem(tr("random fraction"), int(FitSubset::Kind::Fraction));
    m_fitOn->setToolTip(tr("The points the detector (and the normalisation) is fitted on; every point is scored, "
                           "the others as new data. Label value 0 = only the inliers (GODS paper's one-class "
                           "protocol). Training points get a dark ring."));
    m_fitLabel->setObjectName(QStringLiteral("fitOnLabel"));
    m_fitLabel->setToolTip(tr("Fit on the points with this label value"));
    m_fraction->setObjectName(QStringLiteral("fitOnFraction"));
    m_fraction->setRange(0.01, 1.0);
    m_fraction->setSingleStep(0.05);
    m_fraction->setDecimals(2);
    m_fraction->setValue(0.5);
    m_fraction->setToolTip(tr("Fraction of the points drawn at random (the same points for the same seed)"));
    m_seed->setObjectName(QStringLiteral("fitOnSeed"));
    m_seed->setRange(0, 1000000);
    m_seed->setPrefix(tr("seed "));
    m_seed->setToolTip(tr("Seed of the random draw"));
    auto* details = new QHBoxLayout(m_fitDetails);
    details->setContentsMargins(0, 0, 0, 0);
    details->addWidget(m_fitLabel, 1);
    details->addWidget(m_fraction);
    details->addWidget(m_seed);
    // No shortcuts on the buttons: Ctrl+T and Esc belong to the Train menu's actions (one owner
    // per key, otherwise Qt reports an ambiguous shortcut and does nothing).
    m_train->setToolTip(tr("Train on the loaded data in the background (Ctrl+T)"));
    m_cancel->setToolTip(tr("Stop training; the previous result, if any, is kept (Esc)"));
    m_cancel->setEnabled(false);
    m_defaults->setToolTip(tr("Reset the parameters to OutlierLens' defaults (auto: chosen from the data at fit time)"));
    m_paper->setObjectName(QStringLiteral("paperDefaults"));
    m_paper->setToolTip(tr("Set the parameters to the paper's fixed settings (what the presets use)"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setFormat("%p%");
    m_status->setWordWrap(true);
    m_status->setObjectName("trainingStatus");
    // Label-free warnings of the last fit (FitDiagnostics): hidden when there are none.
    m_warnings->setObjectName("FitWarnings");
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(QStringLiteral("QLabel { color: #8a4600; background: #fff3e0; border: 1px solid #f0b060; "
                                             "border-radius: 3px; padding: 3px; }"));
    m_warnings->setToolTip(tr("Checks of the fit that need no labels: a ranking that puts the rows most isolated "
                              "from their 40th neighbour no higher than chance, feature scales that differ, many "
                              "repeated rows, a near-singular fit, an optimiser stopped early, consensus members "
                              "left out"));
    m_warnings->hide();
    m_loss->setTitle(tr("training loss"));
    m_loss->setAxisTitles(tr("report"), tr("loss"));
    m_loss->setMinimumHeight(140);
    m_loss->setVisible(false); // shown once there is a trace to draw

    auto* top = new QFormLayout;
    top->addRow(tr("Detector"), m_detector);
    top->addRow(m_summary);
    top->addRow(tr("Normalise"), m_norm);
    top->addRow(tr("Fit on"), m_fitOn);
    top->addRow(m_fitDetails);
    m_guidance->setWordWrap(true);
    m_guidance->setStyleSheet("color: #1d4f7a;");
    m_guidance->hide();
    top->addRow(m_guidance);
    // The parameters take the height they need: the dock scrolls as a whole (a scroll area here
    // scrolled inside the scrolling dock, issue #35).
    // Train / Cancel and what the training did come before the parameters (ParaView's Apply sits
    // at the top too): with a dozen parameters on a 600-px screen they stay above the fold.
    // Defaults / Paper reset the parameters: they close the Parameters box.
    auto* params = new QGroupBox(tr("Parameters"));
    auto* pl = new QVBoxLayout(params);
    pl->addWidget(m_form);
    auto* presets = new QHBoxLayout;
    presets->addWidget(m_defaults);
    presets->addWidget(m_paper);
    pl->addLayout(presets);
    auto* run = new QHBoxLayout;
    run->addWidget(m_train);
    run->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addLayout(run);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_warnings);
    layout->addWidget(m_loss, 1);
    layout->addWidget(params);
    layout->addStretch(0); // keeps the controls at the top while the loss plot is hidden

    connect(m_detector, &QComboBox::currentIndexChanged, this, &DetectorPanel::onDetectorChanged);
    connect(m_train, &QPushButton::clicked, this, &DetectorPanel::train);
    connect(m_cancel, &QPushButton::clicked, m_controller, &TrainingController::cancel);
    connect(m_form, &ParamForm::changed, this, &DetectorPanel::settingsChanged);
    connect(m_norm, &QComboBox::currentTextChanged, this, &DetectorPanel::settingsChanged);
    connect(m_defaults, &QPushButton::clicked, m_form, &ParamForm::resetToDefaults);
    connect(m_paper, &QPushButton::clicked, m_form, &ParamForm::resetToPaperDefaults);
    connect(m_controller, &TrainingController::runningChanged, this, &DetectorPanel::onRunning);
    connect(m_controller, &TrainingController::progress, this, &DetectorPanel::onProgress);
    connect(m_controller, &TrainingController::lossValues, this, &DetectorPanel::onLoss);
    connect(m_controller, &TrainingController::finished, this, [this](double s) {
        QString text = tr("trained in %1 s").arg(s, 0, 'f', 2);
        if (const auto r = m_doc->result(); r && !r->trainingRows.empty())
            text += tr(" on %1 of %2 points").arg(r->trainingRows.size()).arg(r->scores.size());
        if (const auto r = m_doc->result(); r && r->detector)
            for (const auto& [name, value] : r->detector->figures())
                text += QStringLiteral("; %1 %2").arg(QString::fromStdString(name)).arg(value, 0, 'g', 4);
        showFitted(text);
        showTraces();
    });
    connect(m_doc, &DataDocument::shownStepChanged, this, &DetectorPanel::showShownStep);
    connect(m_controller, &TrainingController::cancelled, this, [this] {
        m_progress->setValue(0);
        if (m_controller->lastCancelWasRestart())
            m_status->setText(tr("stopped: the data changed"));
        else
            m_status->setText(m_doc->result() ? tr("cancelled — previous result kept") : tr("cancelled — no result yet"));
    });
    connect(m_controller, &TrainingController::failed, this, [this](const QString& msg) {
        m_progress->setValue(0);
        showWarnings();
        m_status->setText(tr("failed: %1").arg(msg));
    });
    connect(m_doc, &DataDocument::resultChanged, this, [this] {
        // A fitted model no training here produced: a session's (resultForRows measures no fit
        // time). The status said "not trained on these data yet" above the restored ranking.
        const auto r = m_doc->result();
        if (!r || r->fitSeconds > 0.0 || m_controller->isRunning())
            return;
        showFitted(tr("fitted model restored from the session (not retrained)"));
    });
    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        m_train->setEnabled(!m_doc->isEmpty() && !m_controller->isRunning());
        // Other data: "100 % trained in 0.04 s" described the previous data (an edit keeps the
        // result, adjusted, and retrains).
        if (!m_doc->changeIsEdit() && !m_controller->isRunning() && !m_doc->result()) {
            m_progress->setValue(0);
            m_status->setText(m_doc->isEmpty() ? QString() : tr("not trained on these data yet — Train (Ctrl+T)"));
        }
        showWarnings();
        updateGuidance();
        rebuildLabelValues();
    });
    connect(m_fitOn, &QComboBox::currentIndexChanged, this, &DetectorPanel::updateFitOnControls);
    // Two-way: what the controls show is the document's training setup.
    connect(this, &DetectorPanel::settingsChanged, this, &DetectorPanel::pushSetup);
    connect(m_detector, &QComboBox::currentIndexChanged, this, &DetectorPanel::pushSetup);
    connect(m_fitOn, &QComboBox::currentIndexChanged, this, &DetectorPanel::pushSetup);
    connect(m_fitLabel, &QComboBox::currentIndexChanged, this, &DetectorPanel::pushSetup);
    connect(m_fraction, &QDoubleSpinBox::valueChanged, this, &DetectorPanel::pushSetup);
    connect(m_seed, &QSpinBox::valueChanged, this, &DetectorPanel::pushSetup);
    connect(m_doc, &DataDocument::trainingSetupChanged, this, &DetectorPanel::pullSetup);
    rebuildLabelValues();
    updateFitOnControls();
    onDetectorChanged();
    m_train->setEnabled(!m_doc->isEmpty());
    if (m_doc->trainingSetup().detectorId.empty())
        pushSetup();
    else
        pullSetup();
}

TrainingSetup DetectorPanel::setupFromControls() const
{
    TrainingSetup s;
    s.detectorId = currentDetector().toStdString();
    s.params = m_form->values();
    s.normalization = normalization();
    s.fitOn = fitSubset();
    return s;
}

void DetectorPanel::pushSetup()
{
    if (m_syncing || currentDetector().isEmpty())
        return;
    try {
        m_doc->setTrainingSetup(setupFromControls());
    } catch (const std::exception&) {
        // A half-typed value: the document keeps the last valid setup; Train reports the error.
    }
}

void DetectorPanel::pullSetup()
{
    if (m_syncing)
        return;
    const TrainingSetup s = m_doc->trainingSetup();
    {
        const QScopedValueRollback<bool> guard(m_syncing, true);
        if (s.detectorId != currentDetector().toStdString())
            setCurrentDetector(QString::fromStdString(s.detectorId)); // the schema's defaults first
        setNormalization(s.normalization);
        try {
            m_form->setValues(s.params);
        } catch (const std::exception& e) {
            m_status->setText(QString::fromUtf8(e.what()));
            emit errorMessage(QString::fromUtf8(e.what()));
        }
        setFitSubset(s.fitOn);
    }
    pushSetup(); // what the controls now show (complete, validated) becomes the setup
}

QString DetectorPanel::currentDetector() const
{
    return m_detector->currentData().toString();
}

bool DetectorPanel::setCurrentDetector(const QString& id)
{
    const int i = m_detector->findData(id);
    if (i < 0)
        return false;
    m_detector->setCurrentIndex(i);
    return true;
}

Normalization DetectorPanel::normalization() const
{
    return parseNormalization(m_norm->currentText().toStdString());
}

void DetectorPanel::setNormalization(Normalization n)
{
    m_norm->setCurrentText(QString::fromStdString(toString(n)));
}

void DetectorPanel::updateGuidance()
{
    // Parameter guidance is the detector's own (DetectorInfo::guidance, e.g. quadrics App. B.4).
    const std::string id = currentDetector().toStdString();
    const Dataset& d = m_doc->dataset();
    std::string text;
    if (!id.empty() && d.rows() >= 2)
        if (const auto& guide = Registry::instance().info(id).guidance)
            text = guide(d.X);
    m_guidance->setVisible(!text.empty());
    m_guidance->setText(QString::fromStdString(text));
}

void DetectorPanel::onDetectorChanged()
{
    const std::string id = currentDetector().toStdString();
    if (id.empty())
        return;
    updateGuidance();
    const DetectorInfo& info = Registry::instance().info(id);
    m_summary->setText(QString::fromStdString(info.summary) + "<br><i>" +
                       QString::fromStdString(info.reference).toHtmlEscaped() + "</i>");
    m_form->setSchema(info.params);
    m_norm->setCurrentText(QString::fromStdString(info.normalization));
}

void DetectorPanel::train()
{
    start(false);
}

void DetectorPanel::retrain()
{
    start(true);
}

void DetectorPanel::trainStepwise()
{
    start(false, true);
}

void DetectorPanel::start(bool keepUserThreshold, bool stepwise)
{
    try {
        m_form->values(); // a value the form cannot accept is reported, not trained past
    } catch (const std::exception& e) {
        m_status->setText(QString::fromUtf8(e.what()));
        emit errorMessage(QString::fromUtf8(e.what()));
        return;
    }
    TrainingSetup setup = m_doc->trainingSetup();
    m_lossX.clear();
    m_lossY.clear();
    m_loss->clear();
    m_loss->setLogY(false);
    m_loss->setTitle(tr("training loss"));
    m_loss->setAxisTitles(tr("report"), tr("loss"));
    m_loss->setVisible(false);
    m_lossSeries = -1;
    FitSubset& fitOn = setup.fitOn;
    if (fitOn.kind == FitSubset::Kind::Rows && fitOn.rows.empty()) {
        // A retrain after an edit fits on the same points as before (their rows after the edit),
        // not on whatever the edit left selected (often just the point added or moved).
        const auto previous = m_doc->result();
        fitOn.rows = keepUserThreshold && previous && !previous->trainingRows.empty() ? previous->trainingRows
                                                                                       : m_doc->pointSelection();
        if (fitOn.rows.empty()) {
            const QString why = tr("fit on selected points: nothing is selected (select with B + drag, or "
                                   "L + drag for a lasso), or fit on all points");
            m_status->setText(why);
            emit errorMessage(why);
            return;
        }
    }
    m_progress->setValue(0);
    m_status->setText(tr("starting…"));
    m_barShown.invalidate(); // the first report is shown at once
    if (stepwise)
        m_controller->trainStepwise(setup);
    else
        m_controller->train(setup, keepUserThreshold);
}

FitSubset DetectorPanel::fitSubset() const
{
    FitSubset s;
    s.kind = static_cast<FitSubset::Kind>(m_fitOn->currentData().toInt());
    if (s.kind == FitSubset::Kind::Label)
        s.label = m_fitLabel->currentData().toString().toStdString();
    if (s.kind == FitSubset::Kind::Fraction) {
        s.fraction = m_fraction->value();
        s.seed = static_cast<std::uint64_t>(m_seed->value());
    }
    return s;
}

void DetectorPanel::setFitSubset(const FitSubset& s)
{
    // Given rows (not the selection) are not a choice of this dock: the selection is what it fits on.
    m_fitOn->setCurrentIndex(std::max(0, m_fitOn->findData(int(s.kind))));
    if (s.kind == FitSubset::Kind::Label) {
        const QString v = QString::fromStdString(s.label);
        if (m_fitLabel->findData(v) < 0)
            m_fitLabel->addItem(v, v);
        m_fitLabel->setCurrentIndex(m_fitLabel->findData(v));
    }
    if (s.kind == FitSubset::Kind::Fraction) {
        m_fraction->setValue(s.fraction);
        m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, 1000000)));
    }
    updateFitOnControls();
}

void DetectorPanel::rebuildLabelValues()
{
    // The data's label values; text labels by name (FitSubset resolves either). Inliers (0) first.
    const QString before = m_fitLabel->currentData().toString();
    const QSignalBlocker block(m_fitLabel);
    m_fitLabel->clear();
    const Dataset& d = m_doc->dataset();
    if (d.hasLabels()) {
        const std::set<double> values(d.labels.data(), d.labels.data() + d.labels.size());
        int count = 0;
        for (double v : values) {
            if (++count > 50 || v != v)
                break;
            const int id = static_cast<int>(v);
            const bool named = id == v && id >= 0 && id < static_cast<int>(d.labelNames.size());
            const QString value = named ? QString::fromStdString(d.labelNames[static_cast<std::size_t>(id)])
                                        : QString::number(v, 'g', 17);
            const QString name = d.labelName.empty() ? tr("label") : QString::fromStdString(d.labelName);
            m_fitLabel->addItem(!named && v == 0.0 ? tr("%1 = 0 (inliers)").arg(name) : tr("%1 = %2").arg(name, value),
                                value);
        }
    }
    const int keep = m_fitLabel->findData(before);
    m_fitLabel->setCurrentIndex(keep >= 0 ? keep : 0);
    updateFitOnControls();
}

void DetectorPanel::updateFitOnControls()
{
    const auto kind = static_cast<FitSubset::Kind>(m_fitOn->currentData().toInt());
    m_fitLabel->setVisible(kind == FitSubset::Kind::Label);
    m_fitLabel->setEnabled(m_fitLabel->count() > 0);
    m_fraction->setVisible(kind == FitSubset::Kind::Fraction);
    m_seed->setVisible(kind == FitSubset::Kind::Fraction);
    m_fitDetails->setVisible(kind == FitSubset::Kind::Label || kind == FitSubset::Kind::Fraction);
}

void DetectorPanel::onRunning(bool running)
{
    if (!running)
        m_progress->setFormat(QStringLiteral("%p%")); // no time left once it has ended
    m_train->setEnabled(!running && !m_doc->isEmpty());
    m_cancel->setEnabled(running);
    m_detector->setEnabled(!running);
    m_form->setEnabled(!running);
    m_norm->setEnabled(!running);
    m_fitOn->setEnabled(!running);
    m_fitDetails->setEnabled(!running);
}

void DetectorPanel::onProgress(double fraction, const QString& message, double eta)
{
    // The time left changes with every report: it is drawn in the bar, whose size does not depend
    // on its text. In the word-wrapped status label it re-laid the dock out at every report, a
    // second repaint each time (and with a GL view in the window every repaint composes the whole
    // window: under software GL ~20 ms of CPU taken from the training, half of them for this).
    // Format first: QProgressBar::setValue repaints at once (repaint(), not update()) when its text
    // changes, so that repaint already shows the new time left.
    // Five times a second is enough for a bar: every repaint in a window with a GL view is a
    // composition of the whole window, ~20 ms of CPU under software GL, taken from the training.
    if (m_barShown.isValid() && m_barShown.elapsed() < kBarIntervalMs && m_status->text() == message)
        return;
    m_barShown.start();
    if (m_controller->isPaused()) // step by step: no time left to promise, the next key to press
        m_progress->setFormat(tr("paused after step %1: N next, Shift+N run on").arg(m_controller->pausedStep()));
    else
        m_progress->setFormat(eta >= 0 ? tr("%p% — about %1 s left").arg(eta, 0, 'f', eta < 10 ? 1 : 0) : QStringLiteral("%p%"));
    m_progress->setValue(int(fraction * 1000));
    if (m_status->text() != message)
        m_status->setText(message);
}

void DetectorPanel::showTraces()
{
    // Methods with an iterative optimiser report per-iteration traces (objective, gradient norm):
    // plotted against the iteration on a log axis, which shows linear/superlinear convergence.
    // Values below zero (objectives) are drawn as their distance to the minimum, on a log axis.
    // The trained model's, also while the timeline shows one of its steps (a step has no traces).
    const auto r = m_doc->trainedResult();
    if (!r || !r->detector) {
        m_loss->setVisible(m_lossX.size() >= 2);
        return;
    }
    const auto traces = r->detector->traces();
    const auto history = r->detector->history();
    if (traces.empty() && history && history->size() >= 2) {
        // No per-iteration trace (quadrics): the recorded steps' losses, on the timeline's axis.
        QVector<double> x, y;
        for (const HistoryStep& h : history->steps)
            if (std::isfinite(h.loss)) {
                x << double(h.step);
                y << h.loss;
            }
        if (x.size() >= 2) {
            m_loss->clear();
            m_lossSeries = -1;
            m_loss->setLogY(false);
            m_loss->setTitle(tr("training loss"));
            m_loss->setAxisTitles(QString::fromStdString(history->unit), tr("loss"));
            m_loss->addLine(x, y, QColor(30, 90, 160), tr("loss per %1").arg(QString::fromStdString(history->unit)));
            m_loss->setAutoRange();
            m_loss->setVisible(true);
            showShownStep();
            return;
        }
    }
    if (traces.empty()) {
        m_loss->setVisible(m_lossX.size() >= 2); // the live loss, if there was one
        return;
    }
    static const QColor colours[] = {QColor(30, 90, 160), QColor(200, 80, 30), QColor(40, 150, 70), QColor(120, 60, 160)};
    m_loss->clear();
    m_lossSeries = -1;
    std::vector<TracePlot> plots;
    bool log = false, aboveMin = false;
    for (const auto& t : traces) {
        plots.push_back(convergencePlot(t.values));
        log = log || plots.back().logY;
        aboveMin = aboveMin || plots.back().aboveMinimum;
    }
    // One y axis for all traces: log only when every trace can be drawn on it.
    for (const auto& p : plots)
        log = log && std::all_of(p.y.begin(), p.y.end(), [](double v) { return !(v <= 0.0); });
    m_loss->setLogY(log);
    m_loss->setTitle(tr("convergence"));
    // The legend says which traces are drawn above their minimum; the axis title when all are.
    const bool allAboveMin = std::all_of(plots.begin(), plots.end(), [](const TracePlot& p) { return p.aboveMinimum; });
    const QString y = aboveMin && allAboveMin ? tr("value − minimum") : tr("value");
    m_loss->setAxisTitles(tr("iteration"), log ? tr("%1 (log)").arg(y) : y);
    int c = 0;
    bool any = false;
    for (std::size_t k = 0; k < traces.size(); ++k) {
        QVector<double> x, yv;
        for (std::size_t i = 0; i < plots[k].y.size(); ++i) {
            x << double(i);
            yv << plots[k].y[i];
        }
        any = any || x.size() >= 2;
        m_loss->addLine(x, yv, colours[c++ % 4],
                        QString::fromStdString(traces[k].name) + (plots[k].aboveMinimum ? tr(" − min") : QString()));
    }
    m_loss->setAutoRange();
    m_loss->setVisible(any);
    showShownStep();
}

int DetectorPanel::describedStep() const
{
    if (m_markedStep >= 0)
        return m_markedStep;
    const auto r = m_doc->trainedResult();
    return r ? stepShownBy(*r) : -1;
}

void DetectorPanel::showShownStep()
{
    // The shown step (DataDocument::shown) on the convergence plot: a recorded step of the trained
    // model, or the step a step-by-step training is at (its live loss is plotted); none for the
    // trained model itself. The x axis counts the same steps.
    const DataDocument::Shown shown = m_doc->shown();
    using Kind = DataDocument::Shown::Kind;
    if ((shown.kind != Kind::Recorded && shown.kind != Kind::Training) || shown.step < 0) {
        m_loss->setMarker(0.0, false);
        m_markedStep = -1;
        return;
    }
    m_loss->setMarkerLabel(shown.unit);
    m_loss->setMarker(double(shown.step), true);
    m_markedStep = shown.step;
}

void DetectorPanel::onLoss(const QVector<double>& steps, const QVector<double>& values)
{
    m_lossX += steps;
    m_lossY += values;
    // Axes named after what the detector reports, log when the loss spans decades; the plot
    // appears with the second value (one dot is not a trace).
    const QString axis = m_controller->lossAxis();
    m_loss->setAxisTitles(axis.isEmpty() ? tr("loss report") : axis, tr("loss"));
    m_loss->setLogY(spansDecades(std::vector<double>(m_lossY.begin(), m_lossY.end()), 1.0));
    m_loss->setVisible(m_lossX.size() >= 2);
    if (m_lossSeries < 0)
        m_lossSeries = m_loss->addLine(m_lossX, m_lossY, QColor(30, 90, 160), tr("loss"));
    else
        m_loss->setLineData(m_lossSeries, m_lossX, m_lossY);
}

void DetectorPanel::showFitted(const QString& status)
{
    m_progress->setValue(1000);
    m_status->setText(status);
    showWarnings();
    const auto r = m_doc->result();
    m_form->showResolved(r && r->detector ? &r->detector->params() : nullptr);
}

void DetectorPanel::showWarnings()
{
    const auto r = m_doc->result();
    QStringList lines;
    if (r)
        for (const auto& w : r->warnings)
            lines << QStringLiteral("⚠ ") + QString::fromStdString(w.message);
    m_warnings->setText(lines.join(QStringLiteral("\n")));
    m_warnings->setVisible(!lines.isEmpty());
}

} // namespace olens
