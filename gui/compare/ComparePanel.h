#pragma once
// One panel of compare mode: its own document (a copy of the source's data), training controller
// and CloudView under a one-line title (two in narrow columns) (detector, normalisation, parameters, fit time, then the
// state or AUROC / AUPRC). CompareView owns the panels, wires their signals and keeps them in step.
#include "compare/CompareEntry.h"

#include <QCoreApplication>
#include <QString>
#include <limits>

class QFrame;
class QLabel;
class QToolButton;

namespace olens {

class CloudView;
class DataDocument;
class TimelineBar;
class TrainingController;

struct ComparePanel {
    Q_DECLARE_TR_FUNCTIONS(ComparePanel)
public:
    enum class State { Idle, Training, Done, Failed, Cancelled };

    /// Builds the document, the trainer (both parented to `owner`, training on `pool`) and the widgets.
    ComparePanel(const CompareEntry& entry, QObject* owner);
    /// Worker first (it holds the document's data copy), then the view, then its document. The
    /// owner disconnects its own connections before.
    ~ComparePanel();
    ComparePanel(const ComparePanel&) = delete;
    ComparePanel& operator=(const ComparePanel&) = delete;

    /// AUROC / AUPRC of the training scores against the labels (NaN without a result, labels, or
    /// both classes).
    void updateMetrics();
    /// The title from the entry, the state and the result.
    void updateTitle();
    /// The title as plain text (lines separated by '\n').
    QString plainTitle() const;

    CompareEntry entry;
    DataDocument* doc = nullptr;
    TrainingController* trainer = nullptr;
    QFrame* frame = nullptr;
    QLabel* title = nullptr;
    QToolButton* edit = nullptr;
    CloudView* view = nullptr;
    TimelineBar* timeline = nullptr; // hidden: builds the recorded steps CompareView's replay slider asks for
    State state = State::Idle;
    double fraction = 0.0;
    QString error;
    double auroc = std::numeric_limits<double>::quiet_NaN();
    double auprc = std::numeric_limits<double>::quiet_NaN();
    bool restart = false; // train again as soon as the running worker has stopped
    bool pending = false; // data changed under a trained panel: retrain (debounced, when visible)
};

} // namespace olens
