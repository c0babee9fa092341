#include "docks/EvaluationPanel.h"

#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "metrics/Metrics.h"
#include "plots/PlotWidget.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace olens {

namespace {

constexpr int kBins = 40;
const QColor kCurve(110, 60, 160);     // ROC / PR curves
const QColor kReference(150, 150, 150); // chance diagonal, PR baseline
const QColor kOperating(20, 20, 20);    // the current threshold on the curves
const QColor kSelected(235, 0, 170);    // the selection (the view's halo colour)

QString fmt3(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("n/a");
}

QVector<double> toQVector(const std::vector<double>& v)
{
    return QVector<double>(v.begin(), v.end());
}

// A curve as drawn: a vertex per distinct score made 4 × 36 MB of vectors at 5 M rows and a path
// no screen shows apart; 1/4096 of the axis is below a pixel of any plot (metrics/CurveThinner, as rankingCurves walks them).
constexpr double kCurveTolerance = 1.0 / 4096.0;

} // namespace

struct EvaluationPanel::Impl {
    DataDocument* doc = nullptr;
    QLabel* summary = nullptr;
    QLabel* metrics = nullptr;
    QSplitter* splitter = nullptr;
    PlotWidget* roc = nullptr;
    PlotWidget* pr = nullptr;
    PlotWidget* hist = nullptr;

    bool active = false;        ///< labels and a result: plots shown
    Eigen::VectorXi flags;      ///< 0/1 outlier flags of the current data
    int rocPoint = -1;          ///< series id of the operating point on the ROC plot
    int prPoint = -1;
    int histSelection = -1;     ///< the selected points' scores on the histogram
    double histLo = 0.0, histHi = 1.0, histPad = 0.0; ///< score range of the histogram
};

EvaluationPanel::EvaluationPanel(DataDocument* document, QWidget* parent) : QWidget(parent), d(std::make_shared<Impl>())
{
    d->doc = document;
    d->summary = new QLabel(this);
    d->summary->setWordWrap(true);
    d->summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->summary->setToolTip(tr("Ranking quality of the scores against the label column (1 = outlier): area under "
                              "the ROC curve and average precision (area under the precision-recall curve)"));
    d->metrics = new QLabel(this);
    d->metrics->setWordWrap(true);
    d->metrics->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->metrics->setToolTip(tr("Quality of the decision \"score > threshold\" at the current threshold: points "
                              "flagged, precision, recall, F1, F1-bar (F1 of the inliers), true-negative rate "
                              "and negative predictive value"));

    d->roc = new PlotWidget(this);
    d->roc->setObjectName("rocPlot");
    d->roc->setAxisTitles(tr("false positive rate"), tr("true positive rate"));
    d->roc->setToolTip(tr("ROC curve: true- against false-positive rate as the threshold sweeps over the scores. "
                          "The dot is the current threshold; the dashed diagonal is a random ranking."));
    d->pr = new PlotWidget(this);
    d->pr->setObjectName("prPlot");
    d->pr->setAxisTitles(tr("recall"), tr("precision"));
    d->pr->setToolTip(tr("Precision-recall curve. The dot is the current threshold; the dashed line is the "
                         "precision of a random ranking (the fraction of outliers)."));
    d->hist = new PlotWidget(this);
    d->hist->setObjectName("scoreHistogram");
    d->hist->setTitle(tr("Scores by class"));
    d->hist->setAxisTitles(tr("score"), tr("count"));
    d->hist->setMarkerLabel(tr("threshold"));
    d->hist->setMarkerDraggable(true);
    d->hist->setToolTip(tr("Histogram of the outlier scores of inliers and outliers. Drag the dashed threshold "
                           "line (or click in the plot) to change the decision threshold."));

    d->splitter = new QSplitter(Qt::Vertical, this);
    d->splitter->setChildrenCollapsible(false);
    d->splitter->addWidget(d->roc);
    d->splitter->addWidget(d->pr);
    d->splitter->addWidget(d->hist);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(d->summary);
    layout->addWidget(d->splitter, 1);
    layout->addWidget(d->metrics);

    connect(d->doc, &DataDocument::datasetChanged, this, &EvaluationPanel::rebuild);
    connect(d->doc, &DataDocument::resultChanged, this, &EvaluationPanel::rebuild);
    connect(d->doc, &DataDocument::thresholdChanged, this, &EvaluationPanel::updateThreshold);
    connect(d->doc, &DataDocument::pointSelectionChanged, this, &EvaluationPanel::updateSelection);
    connect(d->hist, &PlotWidget::markerMoved, d->doc, &DataDocument::setThreshold);
    rebuild();
}

PlotWidget* EvaluationPanel::rocPlot() const
{
    return d->roc;
}

PlotWidget* EvaluationPanel::prPlot() const
{
    return d->pr;
}

PlotWidget* EvaluationPanel::histogram() const
{
    return d->hist;
}

QString EvaluationPanel::metricsText() const
{
    return d->metrics->text();
}

QString EvaluationPanel::summaryText() const
{
    return d->summary->text();
}

void EvaluationPanel::rebuild()
{
    d->active = false;
    d->rocPoint = d->prPoint = d->histSelection = -1;
    d->roc->clear();
    d->pr->clear();
    d->hist->clear();
    d->hist->setMarker(0.0, false);
    d->metrics->clear();

    const Dataset& data = d->doc->dataset();
    const auto result = d->doc->result();
    auto showMessage = [&](const QString& text) {
        d->summary->setText(text);
        d->summary->setAlignment(Qt::AlignCenter);
        d->splitter->hide();
        d->metrics->hide();
    };

    if (data.rows() == 0) {
        showMessage(tr("Load a data set with a label column and train a detector to see its evaluation."));
        return;
    }
    if (!data.hasLabels()) {
        showMessage(tr("No label column: evaluation needs ground truth (a 'label' column, 1 = outlier)."));
        return;
    }
    d->flags = data.outlierFlags();
    const long outliers = d->flags.sum();
    const long n = static_cast<long>(d->flags.size());
    if (outliers == 0 || outliers == n) {
        showMessage(tr("The label column has only %1: ROC and precision-recall need both inliers (0) and "
                       "outliers (1).")
                        .arg(outliers == 0 ? tr("inliers") : tr("outliers")));
        return;
    }
    if (!result && d->doc->showsTraining()) {
        showMessage(tr("A step-by-step training is under way: its evaluation follows when it ends."));
        return;
    }
    if (!result) {
        showMessage(tr("Train a detector to see its evaluation."));
        return;
    }
    const Eigen::VectorXd& scores = result->scores;

    Curve roc, pr;
    double auc = 0.0, ap = 0.0;
    try {
        // The document's ranking is this result's order by decreasing score: no second sort.
        // Thinned as they are walked: a big cloud's whole curves are never held (issue #54).
        RankingCurves curves = rankingCurves(scores, d->flags, &d->doc->ranking(), kCurveTolerance);
        roc = std::move(curves.roc);
        pr = std::move(curves.pr);
        auc = curves.auroc;
        ap = curves.averagePrecision;
    } catch (const std::exception& e) {
        showMessage(tr("Cannot evaluate these scores: %1").arg(QString::fromStdString(e.what())));
        return;
    }

    d->active = true;
    d->summary->setText(tr("AUROC %1   AUPRC %2").arg(fmt3(auc), fmt3(ap)));
    d->summary->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    d->splitter->show();
    d->metrics->show();

    // ROC
    d->roc->setTitle(tr("ROC   AUROC %1").arg(fmt3(auc)));
    d->roc->setXRange(-0.02, 1.02);
    d->roc->setYRange(-0.02, 1.02);
    d->roc->addLine({0.0, 1.0}, {0.0, 1.0}, kReference, tr("random"), 1.2, Qt::DashLine);
    d->roc->addLine(toQVector(roc.x), toQVector(roc.y), kCurve, tr("ROC"), 2.0);
    d->rocPoint = d->roc->addPoints({}, {}, kOperating, tr("threshold"), 4.5);

    // Precision-recall, baseline at the outlier fraction
    const double baseline = static_cast<double>(outliers) / static_cast<double>(n);
    d->pr->setTitle(tr("Precision-recall   AUPRC %1").arg(fmt3(ap)));
    d->pr->setXRange(-0.02, 1.02);
    d->pr->setYRange(-0.02, 1.02);
    d->pr->addLine({0.0, 1.0}, {baseline, baseline}, kReference, tr("random (%1)").arg(fmt3(baseline)), 1.2,
                   Qt::DashLine);
    d->pr->addLine(toQVector(pr.x), toQVector(pr.y), kCurve, tr("PR"), 2.0);
    d->prPoint = d->pr->addPoints({}, {}, kOperating, tr("threshold"), 4.5);

    // Score histogram by class over the finite scores
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (Eigen::Index i = 0; i < scores.size(); ++i)
        if (std::isfinite(scores(i))) {
            lo = std::min(lo, scores(i));
            hi = std::max(hi, scores(i));
        }
    if (!(lo <= hi)) {
        lo = 0.0;
        hi = 1.0;
    } else if (hi - lo <= 1e-12 * std::max(1.0, std::fabs(lo))) {
        const double half = lo == 0.0 ? 0.5 : std::fabs(lo) * 0.1;
        lo -= half;
        hi += half;
    }
    const double width = (hi - lo) / kBins;
    QVector<double> edges(kBins + 1), inl(kBins, 0.0), outl(kBins, 0.0);
    for (int b = 0; b <= kBins; ++b)
        edges[b] = lo + width * b;
    edges[kBins] = hi;
    for (Eigen::Index i = 0; i < scores.size(); ++i) {
        if (!std::isfinite(scores(i)))
            continue;
        const int b = std::clamp(static_cast<int>((scores(i) - lo) / width), 0, kBins - 1);
        (d->flags(i) ? outl : inl)[b] += 1.0;
    }
    d->histLo = lo;
    d->histHi = hi;
    d->histPad = 0.03 * (hi - lo);
    d->hist->addBars(edges, inl, CloudView::colourFor(0.0), tr("inliers (%1)").arg(n - outliers));
    d->hist->addBars(edges, outl, CloudView::colourFor(1.0), tr("outliers (%1)").arg(outliers));
    d->histSelection = d->hist->addPoints({}, {}, kSelected, QString(), 3.0);

    updateThreshold();
    updateSelection();
}

int EvaluationPanel::selectionSeries() const
{
    return d->histSelection;
}

void EvaluationPanel::updateSelection()
{
    const auto result = d->doc->result();
    if (!d->active || !result || d->histSelection < 0)
        return;
    QVector<double> x, y;
    for (int i : d->doc->pointSelection())
        if (i < result->scores.size() && std::isfinite(result->scores(i))) {
            x << result->scores(i);
            y << 0.0;
        }
    d->hist->setLineData(d->histSelection, x, y);
    d->hist->setSeriesName(d->histSelection, x.isEmpty() ? QString() : tr("selected (%1)").arg(x.size()));
}

void EvaluationPanel::updateThreshold()
{
    if (!d->active)
        return;
    const auto result = d->doc->result();
    if (!result)
        return;
    const double t = d->doc->threshold();
    const Eigen::VectorXd& scores = result->scores;

    // The histogram range always shows the threshold (it only changes when t leaves the padded
    // score range, so dragging inside the plot never moves the axis under the mouse).
    d->hist->setXRange(std::min(d->histLo - d->histPad, t), std::max(d->histHi + d->histPad, t));
    d->hist->setMarker(t, true);

    Eigen::VectorXi predicted(scores.size());
    for (Eigen::Index i = 0; i < scores.size(); ++i)
        predicted(i) = scores(i) > t ? 1 : 0;
    const Confusion c = confusion(predicted, d->flags);
    const long flagged = c.tp + c.fp;
    const double negatives = static_cast<double>(c.fp + c.tn);
    const double fpr = negatives > 0 ? static_cast<double>(c.fp) / negatives : 0.0;
    const double rec = recall(c);
    const double prec = precision(c);
    d->roc->setLineData(d->rocPoint, {fpr}, {rec});
    // With nothing flagged precision is undefined; the curves start at precision 1 there.
    d->pr->setLineData(d->prPoint, {rec}, {flagged > 0 ? prec : 1.0});

    // What the threshold means, where it is shown (issue #17): the user's, or the detector's own rule.
    QString meaning;
    if (d->doc->thresholdIsUserSet()) {
        meaning = tr("set by you; the detector's own is %1").arg(QString::number(result->threshold, 'g', 4));
    } else if (result->detector) {
        const ParamSet& p = result->detector->params();
        if (p.has("decision") && p.getChoice("decision") == "eq23")
            meaning = tr("the paper's rule (eq. 23): outside the margin");
        else if (p.has("contamination"))
            meaning = tr("the detector's rule: %1th percentile of the training scores (contamination %2)")
                          .arg(QString::number(100.0 * (1.0 - p.getReal("contamination")), 'g', 3))
                          .arg(QString::number(p.getReal("contamination"), 'g', 3));
    }
    const double share = scores.size() > 0 ? 100.0 * static_cast<double>(flagged) / static_cast<double>(scores.size()) : 0.0;
    d->metrics->setText(tr("threshold %1   flagged %2 of %3 (%4 %)\n").arg(QString::number(t, 'g', 4)).arg(flagged)
                            .arg(scores.size()).arg(QString::number(share, 'f', 1))
                        + (meaning.isEmpty() ? QString() : meaning + "\n")
                        + tr("precision %1   recall %2   F1 %3\n"
                             "F1-bar %4   TNR %5   NPV %6")
                              .arg(fmt3(prec), fmt3(rec), fmt3(f1(c)), fmt3(f1Bar(c)), fmt3(tnr(c)), fmt3(npv(c))));
}

} // namespace olens
