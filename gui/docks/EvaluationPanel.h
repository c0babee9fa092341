#pragma once
// The Evaluation dock: with a label column and a trained result, ROC and PR curves with
// AUROC/AUPRC, the score histogram by class with a draggable threshold and the selected points'
// scores as a rug along its base, and precision / recall / F1 / F1-bar at that threshold, updated live. Without labels it says why it is empty.
#include <QWidget>

class QLabel;

namespace olens {

class DataDocument;
class PlotWidget;

class EvaluationPanel : public QWidget {
    Q_OBJECT
public:
    explicit EvaluationPanel(DataDocument* document, QWidget* parent = nullptr);

    PlotWidget* rocPlot() const;
    PlotWidget* prPlot() const;
    PlotWidget* histogram() const;
    /// The metrics text currently shown (for tests), e.g. "threshold 0.42  precision 0.80 ...".
    QString metricsText() const;
    QString summaryText() const; ///< e.g. "AUROC 0.931   AUPRC 0.712"
    /// Series id of the selected points' scores, a rug of dots along the histogram's base (-1: none).
    int selectionSeries() const;

private:
    void rebuild();          // on resultChanged / datasetChanged
    void updateThreshold();  // on thresholdChanged
    void updateSelection();  // on pointSelectionChanged

    struct Impl;
    std::shared_ptr<Impl> d;
};

} // namespace olens
