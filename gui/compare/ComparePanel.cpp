#include "compare/ComparePanel.h"
#include "render/VtkSupport.h"

#include "view/CloudView.h"
#include "detectors/TrainingHistory.h"
#include "docks/TimelineBar.h"
#include "document/DataDocument.h"
#include "metrics/Metrics.h"
#include "pipeline/FitDiagnostics.h"
#include "jobs/TrainingController.h"
#include "base/Format.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace olens {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
QString fmt3(double v) { return QString::number(v, 'f', 3); }
} // namespace

ComparePanel::ComparePanel(const CompareEntry& e, QObject* owner)
    : entry(e), doc(new DataDocument(owner)), trainer(new TrainingController(doc, owner))
{
    frame = new QFrame;
    frame->setFrameShape(QFrame::StyledPanel);
    title = new QLabel;
    title->setTextFormat(Qt::RichText);
    // One line (CompareView wraps every header to two when its columns are too narrow): the panels
    // get the height; the full text is also the tooltip.
    title->setWordWrap(false);
    // Its height follows its font (View → Text size reaches compare headers, issue #52: they kept
    // 13 px beside 20 px ticks); one line, so the size hint is one line high.
    title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    title->setMargin(2);
    title->setProperty(kScalesWithTextProperty, true);
    scaleWidgetFont(title);
    title->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    edit = new QToolButton;
    edit->setText(QStringLiteral("…"));
    edit->setAutoRaise(true);
    edit->setToolTip(tr("Parameters and normalisation of this panel's detector"));
    view = new CloudView(doc);
    view->setMinimumSize(160, 120);
    view->setGridResolution2D(120); // small panels: a coarser field computes faster
    view->setGridResolution3D(32);
    auto* header = new QHBoxLayout;
    header->setContentsMargins(4, 0, 0, 0);
    header->addWidget(title, 1);
    header->addWidget(edit, 0, Qt::AlignTop);
    auto* fl = new QVBoxLayout(frame);
    fl->setContentsMargins(1, 1, 1, 1);
    fl->setSpacing(0);
    fl->addLayout(header);
    fl->addWidget(view, 1);
    timeline = new TimelineBar(doc, frame);
    timeline->setAutoShow(false);

    // The title follows the training; the owner (the context of these connections) wires the rest.
    QObject::connect(trainer, &TrainingController::progress, owner, [this](double done, const QString&, double) {
        fraction = done;
        updateTitle();
    });
    QObject::connect(trainer, &TrainingController::finished, owner, [this](double) {
        state = State::Done;
        updateTitle();
    });
    QObject::connect(trainer, &TrainingController::failed, owner, [this](const QString& message) {
        state = State::Failed;
        error = message;
        updateTitle();
    });
    QObject::connect(trainer, &TrainingController::cancelled, owner, [this] {
        // Cancelled for a restart (new data or settings) is not a user cancel.
        state = (pending || restart) ? State::Idle : State::Cancelled;
        updateTitle();
    });
}

ComparePanel::~ComparePanel()
{
    delete trainer;
    delete frame;
    delete doc;
}

void ComparePanel::updateMetrics()
{
    auroc = auprc = kNaN;
    const auto r = doc->result();
    const Dataset& d = doc->dataset();
    if (r && d.hasLabels() && r->scores.size() == d.rows()) {
        const Eigen::VectorXi flags = d.outlierFlags();
        const long positives = flags.sum();
        if (positives > 0 && positives < flags.size()) {
            try {
                auroc = olens::auroc(r->scores, flags);
                auprc = averagePrecision(r->scores, flags);
            } catch (const std::exception&) {
                auroc = auprc = kNaN;
            }
        }
    }
}

void ComparePanel::updateTitle()
{
    // One compact line: detector, normalisation, fit time (core/base/Format), then AUROC / AUPRC
    // with labels, else the state. Parameters set by hand and explanations go to the tooltip.
    const QString grey = QStringLiteral("<span style='color:#777'>%1</span>");
    QString head = QStringLiteral("<b>%1</b> ").arg(QString::fromStdString(entry.id).toHtmlEscaped())
                   + grey.arg(QString::fromStdString(toString(entry.normalization)));
    QString params;
    if (!entry.params.empty()) {
        QStringList list;
        for (const auto& [name, value] : entry.params)
            list << QString::fromStdString(name + "=" + value);
        params = list.join(' ');
        head += QStringLiteral(" ") + grey.arg(params.toHtmlEscaped());
    }
    QString line, note;
    switch (state) {
    case State::Idle:
        line = doc->isEmpty() ? tr("no data")
               : (pending || restart) ? tr("data changed — retraining")
                                      : tr("not trained — Train all (Ctrl+Shift+T)");
        break;
    case State::Training:
        line = tr("training %1 %").arg(int(std::lround(fraction * 100.0)));
        break;
    case State::Cancelled:
        line = tr("cancelled");
        break;
    case State::Failed:
        line = QStringLiteral("<span style='color:#b00020'>%1</span>").arg(tr("error: %1").arg(error).toHtmlEscaped());
        break;
    case State::Done:
        break;
    }
    if (const auto r = doc->result(); r && state != State::Training) {
        head += QStringLiteral(" · ") + QString::fromStdString(formatDuration(r->fitSeconds));
        if (const auto h = timeline->history(); h && doc->shownStep() >= 0) { // a replayed step
            const HistoryStep& s = h->steps[static_cast<std::size_t>(doc->shownStep())];
            head += QStringLiteral(" · ") + QStringLiteral("<span style='color:#1f5fa8'>%1</span>")
                                                 .arg(tr("%1 %2 / %3")
                                                          .arg(QString::fromStdString(h->unit))
                                                          .arg(s.step)
                                                          .arg(h->steps.back().step));
        }
        if (!std::isnan(auroc))
            line = tr("AUROC %1 · AUPRC %2").arg(fmt3(auroc), fmt3(auprc));
        else
            note = tr("AUROC/AUPRC need a label column with inliers and outliers");
        // Label-free warnings (FitDiagnostics): a badge in the title, the sentences in the tooltip.
        if (!r->warnings.empty()) {
            QStringList codes;
            for (const auto& w : r->warnings) {
                codes << QString::fromStdString(warningLabel(w.code));
                note += (note.isEmpty() ? QString() : QStringLiteral("\n")) + QStringLiteral("⚠ ")
                        + QString::fromStdString(w.message);
            }
            line += (line.isEmpty() ? QString() : QStringLiteral(" "))
                    + QStringLiteral("<span style='color:#b35900'>⚠ %1</span>").arg(codes.join(QStringLiteral(", ")));
        }
    }
    title->setText(line.isEmpty() ? head : head + QStringLiteral(" · ") + line);
    QTextDocument plain;
    plain.setHtml(title->text());
    title->setToolTip(plain.toPlainText() + (note.isEmpty() ? QString() : QStringLiteral("\n") + note)
                      + tr("\nfit time: the detector's fit on the training points (not scoring, not the field)"));
}

QString ComparePanel::plainTitle() const
{
    QTextDocument plain;
    plain.setHtml(title->text());
    return plain.toPlainText().replace(QChar::LineSeparator, '\n');
}

} // namespace olens
