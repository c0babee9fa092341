#pragma once
// The Detector dock: pick a registered detector, edit its parameters (form generated from the
// schema), choose the normalisation and the rows to fit on (all, the selection, one label value,
// a seeded random fraction), Train / Cancel with progress, ETA and a live loss plot.
#include "data/FitSubset.h"
#include "data/Normalizer.h"
#include "pipeline/TrainingSetup.h"

#include <QElapsedTimer>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace olens {

class DataDocument;
class ParamForm;
class PlotWidget;
class TrainingController;

class DetectorPanel : public QWidget {
    Q_OBJECT
public:
    DetectorPanel(DataDocument* document, TrainingController* controller, QWidget* parent = nullptr);

    QString currentDetector() const;
    /// Selects a detector by id; returns false when unknown.
    bool setCurrentDetector(const QString& id);
    Normalization normalization() const;
    void setNormalization(Normalization n);
    ParamForm* form() const { return m_form; }
    /// "Fit on": what the next training fits on (Rows without rows = the selection at that time).
    FitSubset fitSubset() const;
    /// Sets the "Fit on" controls (sessions); a label value the data lack is added to the list.
    void setFitSubset(const FitSubset& subset);
    QComboBox* fitOnCombo() const { return m_fitOn; }
    PlotWidget* lossPlot() const { return m_loss; }
    /// The step the loss plot marks (the shown recorded or training step), -1 when none.
    int markedStep() const { return m_markedStep; }
    /// The step the dock speaks of: the marked one, else the trained model's (-1 without steps).
    int describedStep() const;
    /// The progress bar and its time left change at most this often (a new phase is shown at once).
    static constexpr int kBarIntervalMs = 200;

public slots:
    /// Starts training the document's training setup, which the controls edit (errors go to the
    /// controller's failed signal).
    void train();
    /// The same, for automatic retraining (after data edits): a threshold the user set is kept.
    void retrain();
    /// Starts a step-by-step training (TrainingController::trainStepwise): it pauses after each
    /// epoch / iteration until the trainer's step().
    void trainStepwise();

signals:
    void errorMessage(const QString& text);
    /// The detector, a parameter or the normalisation changed (autosave, unsaved state).
    void settingsChanged();

private:
    /// The controls as a setup (throws ParamError on a value the form cannot accept).
    TrainingSetup setupFromControls() const;
    /// The controls → the document's training setup (skipped while a value is invalid).
    void pushSetup();
    /// The document's training setup → the controls (sessions, presets, the command line set it).
    void pullSetup();
    void start(bool keepUserThreshold, bool stepwise = false);
    void onDetectorChanged();
    void updateGuidance();
    void onRunning(bool running);
    void onProgress(double fraction, const QString& message, double eta);
    void onLoss(const QVector<double>& steps, const QVector<double>& values);
    void showTraces();
    void showShownStep();
    void showWarnings();
    /// A fitted result is in the document: the bar full, `status`, its warnings and resolved parameters.
    void showFitted(const QString& status);
    void rebuildLabelValues();
    void updateFitOnControls();

    DataDocument* m_doc;
    TrainingController* m_controller;
    QComboBox* m_detector;
    QLabel* m_summary;
    QComboBox* m_norm;
    QComboBox* m_fitOn;       // all points / selected points / label value / random fraction
    QComboBox* m_fitLabel;    // label values of the data (text labels by name)
    QDoubleSpinBox* m_fraction;
    QSpinBox* m_seed;
    QWidget* m_fitDetails;
    ParamForm* m_form;
    QPushButton* m_train;
    QPushButton* m_cancel;
    QPushButton* m_defaults;
    QPushButton* m_paper; // "Paper": the paper's fixed settings instead of auto
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_warnings; ///< the result's label-free warnings (hidden when none)
    PlotWidget* m_loss;
    QLabel* m_guidance;
    QVector<double> m_lossX, m_lossY;
    int m_lossSeries = -1;
    QElapsedTimer m_barShown; // since the bar last changed (onProgress), invalid before the first report
    bool m_syncing = false;   // pullSetup is setting the controls: they do not push back half-way
    int m_markedStep = -1;
};

} // namespace olens
