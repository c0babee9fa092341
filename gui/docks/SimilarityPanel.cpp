#include "docks/SimilarityPanel.h"

#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "similarity/RobustSimilarity.h"
#include "jobs/Worker.h"
#include "base/Errors.h"
#include "metrics/Metrics.h"
#include "plots/PlotWidget.h"
#include "base/Rng.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <limits>
#include <optional>

namespace olens {

namespace {

const QColor kUaJb(200, 80, 20);     // UA-JB curve
const QColor kJb(40, 100, 170);      // JB curve
const QColor kGated(30, 140, 60);    // with the eq. 17 gate
const QColor kReference(150, 150, 150);

QString methodName(SimilarityPanel::Method m)
{
    return m == SimilarityPanel::Method::UaJb ? QStringLiteral("UA-JB") : QStringLiteral("JB");
}

Dataset subset(const Dataset& d, const std::vector<Eigen::Index>& rows)
{
    Dataset s;
    s.source = d.source;
    s.featureNames = d.featureNames;
    s.labelName = d.labelName;
    s.labelNames = d.labelNames;
    const auto m = static_cast<Eigen::Index>(rows.size());
    s.X.resize(m, d.cols());
    s.labels.resize(m);
    if (d.hasSigma())
        s.sigma.resize(m, d.cols());
    for (Eigen::Index k = 0; k < m; ++k) {
        const Eigen::Index r = rows[static_cast<std::size_t>(k)];
        s.X.row(k) = d.X.row(r);
        s.labels(k) = d.labels(r);
        if (d.hasSigma())
            s.sigma.row(k) = d.sigma.row(r);
    }
    return s;
}

/// DET curve (FPR, FNR) of a verification, thinned to what a plot can show.
void detCurve(const VerificationResult& v, const Eigen::VectorXd& similarity, QVector<double>& x, QVector<double>& y)
{
    const Curve roc = rocCurve(similarity, v.genuine);
    x.clear();
    y.clear();
    for (std::size_t k = 0; k < roc.x.size(); ++k) {
        const double fpr = roc.x[k], fnr = 1.0 - roc.y[k];
        const bool last = k + 1 == roc.x.size();
        if (!x.isEmpty() && !last && std::fabs(fpr - x.back()) < 2e-4 && std::fabs(fnr - y.back()) < 2e-4)
            continue;
        x << fpr;
        y << fnr;
    }
}

QString percent(double v)
{
    return std::isfinite(v) ? QString::number(100.0 * v, 'f', 2) + QStringLiteral(" %") : QStringLiteral("n/a");
}

} // namespace

struct SimilarityPanel::Models {
    JointBayesian uajb, jb;
    std::optional<VerificationResult> vUajb, vJb;
    QString verificationError;
    std::vector<Eigen::Index> trainRows, testRows;
    Eigen::Index rows = 0;
    int classes = 0;
    bool hadSigma = false;
    double seconds = 0.0;
};

SimilarityPanel::SimilarityPanel(DataDocument* document, CloudView* view, QWidget* parent)
    : QWidget(parent), m_doc(document), m_view(view), m_method(new QComboBox), m_dim(new QSpinBox),
      m_train(new QPushButton(tr("Train"))), m_cancel(new QPushButton(tr("Cancel"))), m_progress(new QProgressBar),
      m_status(new QLabel), m_colour(new QCheckBox(tr("Colour points by similarity to the picked point"))),
      m_gate(new QCheckBox(tr("Outlier-aware (quadrics paper eq. 17)"))), m_eer(new QLabel), m_detail(new QLabel),
      m_det(new PlotWidget), m_worker(new Worker(Worker::Policy::Reject, this))
{
    m_method->addItem(tr("UA-JB (uses σ)"));
    m_method->addItem(tr("JB (ignores σ)"));
    m_method->setToolTip(tr("Similarity shown: uncertainty-aware Joint Bayesian (each point is a Gaussian "
                            "N(x, diag(σ²)) from the sigma_ columns; uncertain points get less extreme "
                            "similarities) or plain Joint Bayesian (σ = 0). Both are trained together, so "
                            "switching recolours at once."));
    m_dim->setPrefix(QStringLiteral("K = "));
    m_dim->setToolTip(tr("Latent dimension after the reduction (UA-PPCA for UA-JB, PCA for JB, sec. 5.1); "
                         "K ≥ number of features = no reduction"));
    m_train->setToolTip(tr("Learn S_μ and S_w by EM (eq. 19–27) for JB and UA-JB on the loaded data, using the "
                           "label column as class ids, and run the held-out verification"));
    m_cancel->setToolTip(tr("Stop training; nothing changes"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(10);
    m_progress->setToolTip(tr("Training progress"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setToolTip(tr("What the similarity models were trained on, or why they cannot be"));
    m_colour->setChecked(true);
    m_colour->setToolTip(tr("When a point is picked (click it in the view or the ranking), colour every point by "
                            "the log-likelihood ratio LR(x_i, x_j | S_i, S_j) of eq. 13–16: > 0 = evidence for "
                            "the same class, < 0 = for different classes. The scalar bar spans the 5 % quantile "
                            "to the largest value of the other points."));
    m_gate->setToolTip(tr("Outlier-aware similarity (quadrics paper eq. 17): a pair gets similarity 0 (no "
                          "evidence) when either point's score from the trained detector is at or above the "
                          "decision threshold. Needs a trained detector; follows the threshold."));
    m_eer->setObjectName("eerLabel");
    m_eer->setToolTip(tr("Equal error rate of the selected method: where the false accept rate equals the false "
                         "reject rate on the held-out pairs"));
    QFont big = m_eer->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_eer->setFont(big);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setToolTip(tr("Both methods on the same pairs; FNR at FPR = 0.1 % is the operating point of the "
                            "paper's sec. 5.2"));
    m_det->setObjectName("detPlot");
    m_det->setAxisTitles(tr("false accept rate (FPR)"), tr("false reject rate (FNR)"));
    m_det->setToolTip(tr("DET curve: false reject against false accept rate as the similarity threshold sweeps, on "
                         "pairs of the held-out half (seeded, class-stratified split; both models retrained on "
                         "the other half). Lower-left is better; the dots mark the EER on the dashed FPR = FNR "
                         "line. Axes zoom to about 3 × the larger EER."));

    auto* form = new QFormLayout;
    form->addRow(tr("Method"), m_method);
    form->addRow(tr("Latent dim"), m_dim);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_train);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);

    auto* colouring = new QGroupBox(tr("Colouring"));
    auto* cl = new QVBoxLayout(colouring);
    cl->addWidget(m_colour);
    cl->addWidget(m_gate);

    auto* verification = new QGroupBox(tr("Verification (held-out half)"));
    auto* vl = new QVBoxLayout(verification);
    vl->addWidget(m_eer);
    vl->addWidget(m_detail);
    vl->addWidget(m_det, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(colouring);
    layout->addWidget(verification, 1);

    connect(m_train, &QPushButton::clicked, this, [this] { train(); });
    connect(m_cancel, &QPushButton::clicked, this, &SimilarityPanel::cancel);
    connect(m_method, &QComboBox::currentIndexChanged, this, [this] {
        recolour();
        updateDet();
    });
    connect(m_colour, &QCheckBox::toggled, this, &SimilarityPanel::recolour);
    connect(m_gate, &QCheckBox::toggled, this, [this] {
        recolour();
        updateDet();
    });
    connect(m_doc, &DataDocument::datasetChanged, this, &SimilarityPanel::onDataset);
    connect(m_doc, &DataDocument::selectionChanged, this, &SimilarityPanel::onSelection);
    auto onScores = [this] {
        updateControls();
        if (m_gate->isChecked()) {
            recolour();
            updateDet();
        }
    };
    connect(m_doc, &DataDocument::resultChanged, this, onScores);
    connect(m_doc, &DataDocument::thresholdChanged, this, onScores);
    connect(m_worker, &Worker::progress, this, [this](const ProgressInfo& info) {
        m_progress->setValue(static_cast<int>(1000.0 * std::clamp(info.fraction, 0.0, 1.0)));
        setStatus(QString::fromStdString(info.message));
    });
    connect(m_worker, &Worker::cancelled, this, [this] { onEnded(QString(), true); });
    connect(m_worker, &Worker::failed, this, [this](const QString& message) { onEnded(message, false); });
    onDataset();
}

SimilarityPanel::~SimilarityPanel() = default; // the Worker child cancels and waits

QString SimilarityPanel::statusText() const
{
    return m_status->text();
}

QString SimilarityPanel::eerText() const
{
    return m_eer->text();
}

SimilarityPanel::Method SimilarityPanel::method() const
{
    return m_method->currentIndex() == 1 ? Method::Jb : Method::UaJb;
}

void SimilarityPanel::setMethod(Method m)
{
    m_method->setCurrentIndex(static_cast<int>(m));
}

const JointBayesian* SimilarityPanel::model(Method m) const
{
    if (!m_models)
        return nullptr;
    return m == Method::UaJb ? &m_models->uajb : &m_models->jb;
}

const VerificationResult* SimilarityPanel::verification(Method m) const
{
    if (!m_models)
        return nullptr;
    const auto& v = m == Method::UaJb ? m_models->vUajb : m_models->vJb;
    return v ? &*v : nullptr;
}

QString SimilarityPanel::verificationMessage() const
{
    return m_models ? m_models->verificationError : QString();
}

const std::vector<Eigen::Index>& SimilarityPanel::verificationTrainRows() const
{
    static const std::vector<Eigen::Index> none;
    return m_models ? m_models->trainRows : none;
}

const std::vector<Eigen::Index>& SimilarityPanel::verificationTestRows() const
{
    static const std::vector<Eigen::Index> none;
    return m_models ? m_models->testRows : none;
}

JointBayesianParams SimilarityPanel::paramsFor(Method m, int dim)
{
    JointBayesianParams p;
    p.method = m == Method::UaJb ? JointBayesianParams::Method::UaJb : JointBayesianParams::Method::Jb;
    p.dim = std::max(1, dim);
    return p;
}

void SimilarityPanel::splitRows(const Eigen::VectorXd& classes, std::uint64_t seed, std::vector<Eigen::Index>& train,
                                std::vector<Eigen::Index>& test)
{
    train.clear();
    test.clear();
    std::map<double, std::vector<Eigen::Index>> byClass;
    for (Eigen::Index i = 0; i < classes.size(); ++i)
        byClass[classes(i)].push_back(i);
    Rng rng(seed);
    for (auto& [c, rows] : byClass) {
        // Fisher–Yates with the project's seeded generator.
        for (std::size_t k = rows.size(); k > 1; --k)
            std::swap(rows[k - 1], rows[static_cast<std::size_t>(rng.index(k))]);
        const std::size_t half = (rows.size() + 1) / 2;
        train.insert(train.end(), rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(half));
        test.insert(test.end(), rows.begin() + static_cast<std::ptrdiff_t>(half), rows.end());
    }
    std::sort(train.begin(), train.end());
    std::sort(test.begin(), test.end());
}

bool SimilarityPanel::gateActive() const
{
    const auto r = m_doc->result();
    return m_gate->isChecked() && r && r->scores.size() == m_doc->dataset().rows() && m_doc->dataset().rows() > 0;
}

Eigen::VectorXd SimilarityPanel::similarityTo(int i) const
{
    const JointBayesian* jb = model(method());
    if (!jb || !m_models || i < 0 || i >= m_models->rows || m_models->rows != m_doc->dataset().rows())
        return {};
    Eigen::VectorXd s = jb->similarityToAll(i);
    if (gateActive()) {
        // Quadrics paper eq. 17: s_h(x_i, x_j) = s when max(o(x_i), o(x_j)) < t, else 0.
        const Eigen::VectorXd& o = m_doc->result()->scores;
        s = robustSimilarity(s, Eigen::VectorXd::Constant(s.size(), o(i)), o, m_doc->threshold());
    }
    return s;
}

bool SimilarityPanel::train()
{
    if (m_running) {
        setStatus(tr("Already training; cancel it first."));
        return false;
    }
    const Dataset& d = m_doc->dataset();
    QString problem;
    if (d.rows() == 0)
        problem = tr("No data loaded.");
    else if (!d.hasLabels())
        problem = tr("No class labels: similarity learning needs a class column (label = class id), e.g. "
                     "File → New data → classes, or a CSV with a label/class column.");
    if (!problem.isEmpty()) {
        setStatus(problem);
        emit trainingFailed(problem);
        return false;
    }
    const Dataset data = d; // the worker's own copy
    const int dim = m_dim->value();
    m_running = true;
    m_stale = false;
    m_progress->setValue(0);
    setStatus(tr("training …"));
    updateControls();

    m_worker->run<std::shared_ptr<const Models>>(
        [data, dim](const ProgressCallback& progress) -> std::shared_ptr<const Models> {
            const auto t0 = std::chrono::steady_clock::now();
            const ProgressReporter reporter(progress);
            // Each stage fills its part of the bar and names itself in the message.
            auto stage = [&reporter](double a, double b, std::string what) -> ProgressCallback {
                ProgressCallback sub = reporter.sub(a, b);
                if (!sub)
                    return {};
                return [sub, what](const ProgressInfo& info) {
                    ProgressInfo named = info;
                    named.message = what + (info.message.empty() ? std::string() : ": " + info.message);
                    return sub(named);
                };
            };
            auto models = std::make_shared<Models>();
            models->rows = data.rows();
            models->hadSigma = data.hasSigma();
            std::map<double, int> classes;
            for (Eigen::Index i = 0; i < data.labels.size(); ++i)
                ++classes[data.labels(i)];
            models->classes = static_cast<int>(classes.size());
            models->uajb = JointBayesian(paramsFor(Method::UaJb, dim));
            models->uajb.fit(data.X, data.labels, data.sigma, stage(0.0, 0.3, "UA-JB on all data"));
            models->jb = JointBayesian(paramsFor(Method::Jb, dim));
            models->jb.fit(data.X, data.labels, data.sigma, stage(0.3, 0.45, "JB on all data"));
            splitRows(data.labels, kSplitSeed, models->trainRows, models->testRows);
            try {
                const Dataset trainSet = subset(data, models->trainRows), testSet = subset(data, models->testRows);
                VerificationOptions o;
                o.maxPairs = kMaxPairs;
                o.seed = kSplitSeed;
                o.model = paramsFor(Method::UaJb, dim);
                models->vUajb = runVerification(trainSet, testSet, o, stage(0.45, 0.8, "verification UA-JB"));
                o.model = paramsFor(Method::Jb, dim);
                models->vJb = runVerification(trainSet, testSet, o, stage(0.8, 1.0, "verification JB"));
            } catch (const Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                models->vUajb.reset();
                models->vJb.reset();
                models->verificationError = QString::fromUtf8(e.what());
            }
            reporter.report(1.0, "done", std::nullopt, nullptr, true); // throws Cancelled when asked
            models->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            return models;
        },
        [this](std::shared_ptr<const Models> models) { onTrained(std::move(models)); });
    return true;
}

void SimilarityPanel::cancel()
{
    m_worker->cancel();
}

void SimilarityPanel::onEnded(const QString& error, bool cancelled)
{
    m_running = false;
    m_progress->setValue(0);
    if (cancelled || m_stale) {
        setStatus(m_stale ? tr("The data changed during training; train again.") : tr("Training cancelled."));
        updateControls();
        return;
    }
    setStatus(tr("Training failed: %1").arg(error));
    updateControls();
    emit trainingFailed(error);
}

void SimilarityPanel::onTrained(std::shared_ptr<const Models> models)
{
    m_running = false;
    m_progress->setValue(0);
    if (m_stale) {
        onEnded(QString(), true);
        return;
    }
    m_models = std::move(models);
    const Models& m = *m_models;
    auto describe = [](const JointBayesian& jb) {
        return tr("%1 EM iterations%2").arg(jb.iterations()).arg(jb.converged() ? tr(", converged") : tr(", not converged"));
    };
    QString text = tr("Trained on n = %1, %2 classes, K = %3 in %4. UA-JB: %5; JB: %6.")
                       .arg(m.rows)
                       .arg(m.classes)
                       .arg(m.uajb.latentDim())
                       .arg(m.seconds < 1.0 ? tr("%1 ms").arg(m.seconds * 1000.0, 0, 'f', 0)
                                            : tr("%1 s").arg(m.seconds, 0, 'f', 2))
                       .arg(describe(m.uajb), describe(m.jb));
    if (!m.hadSigma)
        text += tr(" The data have no sigma_ columns: UA-JB equals JB.");
    text += tr(" Pick a point to colour the others by similarity.");
    setStatus(text);
    updateControls();
    updateDet();
    recolour();
    emit trainingFinished();
}

void SimilarityPanel::onDataset()
{
    if (m_running) {
        m_stale = true;
        cancel();
    }
    m_models.reset();
    if (m_colouring) {
        m_view->clearCustomScalars();
        m_colouring = false;
    }
    const Dataset& d = m_doc->dataset();
    const int p = static_cast<int>(std::max<Eigen::Index>(1, d.cols()));
    {
        QSignalBlocker block(m_dim);
        m_dim->setRange(1, p);
        m_dim->setValue(std::min(10, p));
    }
    if (!m_running) {
        if (d.rows() == 0)
            setStatus(tr("Load labelled data (class ids in the label column, optional sigma_ columns)."));
        else if (!d.hasLabels())
            setStatus(tr("No class labels: similarity learning needs a class column (label = class id)."));
        else
            setStatus(tr("Train to learn the similarity (%1).")
                          .arg(d.hasSigma() ? tr("with per-point σ") : tr("no sigma_ columns: UA-JB = JB")));
    }
    updateControls();
    updateDet();
}

void SimilarityPanel::onSelection(int)
{
    recolour();
}

void SimilarityPanel::recolour()
{
    const int i = m_doc->selectedPoint();
    const Eigen::VectorXd s = m_colour->isChecked() ? similarityTo(i) : Eigen::VectorXd();
    if (s.size() == 0) {
        if (m_colouring)
            m_view->clearCustomScalars();
        m_colouring = false;
        return;
    }
    // Colour range: the 5 % quantile to the largest similarity among the other points (the picked
    // point's self-similarity would otherwise squeeze everything else).
    std::vector<double> v;
    v.reserve(static_cast<std::size_t>(s.size()));
    double hi = -std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < s.size(); ++j)
        if (std::isfinite(s(j))) {
            v.push_back(s(j));
            if (j != i)
                hi = std::max(hi, s(j));
        }
    double lo = std::numeric_limits<double>::quiet_NaN();
    if (!v.empty()) {
        std::sort(v.begin(), v.end());
        lo = v[static_cast<std::size_t>(0.05 * double(v.size() - 1))];
    }
    if (!(std::isfinite(hi) && hi > lo))
        hi = std::numeric_limits<double>::quiet_NaN();
    // Two short lines: the scalar bar's title has a narrow strip.
    QString title = tr("LR similarity\nto #%1 (%2%3)").arg(i).arg(methodName(method()), gateActive() ? tr(", eq. 17") : QString());
    m_colouring = true;
    m_view->setCustomScalars(s, title, lo, hi);
}

void SimilarityPanel::updateDet()
{
    m_det->clear();
    m_det->setTitle(QString());
    const VerificationResult* cur = verification(method());
    const VerificationResult* other = verification(method() == Method::UaJb ? Method::Jb : Method::UaJb);
    if (!cur || !other) {
        m_eer->setText(QString());
        m_detail->setText(!m_models ? tr("Train to see the verification curve.")
                                    : tr("No verification: %1").arg(verificationMessage()));
        m_det->setXRange(0.0, 1.0);
        m_det->setYRange(0.0, 1.0);
        return;
    }
    const Method otherMethod = method() == Method::UaJb ? Method::Jb : Method::UaJb;
    QVector<double> x, y;
    double maxEer = std::max(cur->eer, other->eer);
    // The other method thin and dashed underneath, the selected one on top.
    detCurve(*other, other->similarity, x, y);
    m_det->addLine({0.0, 1.0}, {0.0, 1.0}, kReference, tr("FPR = FNR"), 1.0, Qt::DashLine);
    m_det->addLine(x, y, method() == Method::UaJb ? kJb : kUaJb, methodName(otherMethod), 1.3, Qt::DashLine);
    m_det->addPoints({other->eer}, {other->eer}, method() == Method::UaJb ? kJb : kUaJb, QString(), 3.5);
    detCurve(*cur, cur->similarity, x, y);
    const QColor curColour = method() == Method::UaJb ? kUaJb : kJb;
    m_det->addLine(x, y, curColour, methodName(method()), 2.2);
    QString gated;
    if (gateActive()) {
        // Eq. 17 on the same pairs, with the detector's scores of the pairs' rows in the full data.
        const Eigen::VectorXd& o = m_doc->result()->scores;
        const auto& rows = m_models->testRows;
        const auto m = static_cast<Eigen::Index>(cur->pairs.size());
        Eigen::VectorXd oa(m), ob(m);
        for (Eigen::Index k = 0; k < m; ++k) {
            oa(k) = o(rows[static_cast<std::size_t>(cur->pairs[static_cast<std::size_t>(k)].first)]);
            ob(k) = o(rows[static_cast<std::size_t>(cur->pairs[static_cast<std::size_t>(k)].second)]);
        }
        const Eigen::VectorXd sh = robustSimilarity(cur->similarity, oa, ob, m_doc->threshold());
        const double eerGated = equalErrorRate(sh, cur->genuine);
        maxEer = std::max(maxEer, eerGated);
        detCurve(*cur, sh, x, y);
        m_det->addLine(x, y, kGated, tr("%1 + eq. 17").arg(methodName(method())), 1.6);
        m_det->addPoints({eerGated}, {eerGated}, kGated, QString(), 4.0);
        gated = tr("   %1 + eq. 17: %2").arg(methodName(method()), percent(eerGated));
    }
    m_det->addPoints({cur->eer}, {cur->eer}, QColor(20, 20, 20), tr("EER"), 5.0);
    const double r = std::clamp(3.0 * maxEer, 0.02, 1.0);
    m_det->setXRange(0.0, r);
    m_det->setYRange(0.0, r);
    m_det->setTitle(tr("DET  %1 vs %2").arg(methodName(method()), methodName(otherMethod)));
    m_eer->setText(tr("EER = %1").arg(percent(cur->eer)));
    m_detail->setText(tr("%1 %2   %3 %4%5\nFNR at FPR = 0.1 %: %6 (%1), %7 (%3)\n%8 pairs (%9 genuine)%10, K = %11")
                          .arg(methodName(method()), percent(cur->eer), methodName(otherMethod), percent(other->eer), gated)
                          .arg(percent(cur->fnrAtFpr001), percent(other->fnrAtFpr001))
                          .arg(cur->pairs.size())
                          .arg(cur->genuinePairs)
                          .arg(cur->sampled ? tr(" sampled of %1").arg(cur->totalPairs) : QString())
                          .arg(cur->dim));
}

void SimilarityPanel::updateControls()
{
    const bool data = !m_doc->isEmpty();
    m_train->setEnabled(!m_running && data);
    m_cancel->setEnabled(m_running);
    m_dim->setEnabled(!m_running);
    m_progress->setVisible(m_running);
    const auto r = m_doc->result();
    m_gate->setEnabled(r && r->scores.size() == m_doc->dataset().rows());
}

void SimilarityPanel::setStatus(const QString& text)
{
    m_status->setText(text);
}

} // namespace olens
