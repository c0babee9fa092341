#pragma once
// The shared document: the loaded data set, the current fitted result, the selection and the
// decision threshold. Views and docks observe it, never each other.
#include "data/Dataset.h"
#include "detectors/Detector.h"
#include "detectors/Geometry.h"
#include "data/Normalizer.h"
#include "pipeline/FitPipeline.h"
#include "pipeline/TrainingSetup.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace olens {

class DataDocument : public QObject {
    Q_OBJECT
public:
    explicit DataDocument(QObject* parent = nullptr) : QObject(parent) {}

    const Dataset& dataset() const { return *m_data; }
    /// The same data, shared: a job or a save that reads them on another thread keeps this instead
    /// of a copy (the document never changes a dataset in place, it installs a new one). Issue #54:
    /// training, the timeline and the autosave each copied the rows (120 MB each at 5 M points).
    std::shared_ptr<const Dataset> sharedDataset() const { return m_data; }
    /// The rows of sharedDataset() (an aliasing pointer: it keeps the whole dataset alive).
    std::shared_ptr<const Eigen::MatrixXd> sharedRows() const { return {m_data, &m_data->X}; }
    QString filePath() const { return m_path; }
    bool isEmpty() const { return m_data->rows() == 0; }

    /// Replaces the data; clears the result (it belonged to the previous data).
    void setDataset(Dataset data, const QString& path);
    /// The same with data shared with another document (compare mode's panels show the main
    /// window's rows: a copy each was 32 B a row per panel, issue #54). Never null.
    void setDataset(std::shared_ptr<const Dataset> data, const QString& path);

    /// An edit of the current data (points added, moved or deleted): installs the new data with a
    /// result already adjusted to it (or null), keeps the camera and the selection when still
    /// valid, and marks the document as edited (sessions then embed the data).
    void editDataset(Dataset data, std::shared_ptr<const FitResult> adjusted);
    /// The same with data shared with another document (compare mode's panels follow the window's edits).
    void editDataset(std::shared_ptr<const Dataset> data, std::shared_ptr<const FitResult> adjusted);
    /// True while the datasetChanged() being delivered comes from editDataset (views keep the camera).
    bool changeIsEdit() const { return m_inEdit; }
    /// The data differ from the file they were loaded from (edited, or generated in the app).
    bool isEdited() const { return m_edited; }
    void setEdited(bool on) { m_edited = on; }

    /// The current point (the one picked last: tooltips, fly-to, similarity), or -1. It is always
    /// a member of pointSelection() when set.
    int selectedPoint() const { return m_selected; }
    /// Picks one point: it becomes the current point and the whole selection (a click selects
    /// that point alone); -1 clears both. Emits selectionChanged / pointSelectionChanged.
    void setSelectedPoint(int index);

    /// The selected points (box, lasso, Ranking rows): sorted, distinct row indices.
    const std::vector<int>& pointSelection() const { return m_selection; }
    bool isSelected(int index) const;
    static constexpr int kKeepCurrent = -2;
    /// Replaces the selection (indices outside the data are dropped). The current point becomes
    /// `current` (kKeepCurrent: stays when still selected); a current point outside the selection
    /// is cleared. Emits pointSelectionChanged / selectionChanged for what changed.
    void setPointSelection(std::vector<int> rows, int current = kKeepCurrent);

    /// The result shown, or null: the trained result, or one of its recorded steps while the
    /// timeline shows one (shownStep() ≥ 0).
    std::shared_ptr<const FitResult> result() const { return m_result; }
    /// The trained result (what sessions save and edits adjust), also while a step is shown.
    std::shared_ptr<const FitResult> trainedResult() const
    {
        return m_trained ? m_trained : m_trainingView ? m_setAside : m_result;
    }
    /// The recorded step shown (an index into trainedResult()'s Detector::history()), -1 = the
    /// trained result itself.
    int shownStep() const { return m_step; }
    /// Shows `stepResult` (resultAtStep of trainedResult() at recorded step `index`) in its place,
    /// with that step's own threshold; index < 0 or a null result: back to the trained result and
    /// its threshold. Emits resultChanged, thresholdChanged and shownStepChanged. Any new result,
    /// edit or data set ends the step view.
    void showStep(int index, std::shared_ptr<const FitResult> stepResult);
    /// What the window shows of a training, one answer that every view and dock reads (the view's
    /// geometry and colours, the Ranking, the lesson caption, the timeline, the Detector dock): the
    /// trained model, one of its recorded steps (timeline, replay, lesson), or a step-by-step
    /// training paused at a step (its live geometry, no scores until it ends).
    struct Shown {
        enum class Kind { Nothing, Trained, Recorded, Training };
        Kind kind = Kind::Nothing;
        int step = -1;  ///< the detector's own step number (epoch, iteration, merge); -1 unknown
        int of = -1;    ///< the last step of that training, when known
        QString unit;   ///< "epoch", "iteration", "clusters" … (empty: the method records no steps)
    };
    Shown shown() const;
    /// A step-by-step training is at `step` (of `of`, in `unit`): from now on its live geometry is
    /// what is shown, and the trained result's scores are set aside (result() is null, the Ranking
    /// empty) until it ends: a new result replaces them, endTrainingView() (cancelled, failed)
    /// brings them back. A recorded step shown is left. Emits resultChanged and shownStepChanged.
    void showTrainingStep(int step, int of, const QString& unit);
    void endTrainingView();
    bool showsTraining() const { return m_trainingView; }
    /// What a new result does to the threshold: reset it to the detector's own, or keep one the
    /// user set (auto-retrain after edits must not silently undo a dragged threshold).
    enum class ThresholdPolicy { Detector, KeepUserThreshold };
    /// Installs a new result or clears it (nullptr); the threshold follows `policy`.
    void setResult(std::shared_ptr<const FitResult> result, ThresholdPolicy policy = ThresholdPolicy::Detector);

    /// The decision threshold used for emphasised contours, the ranking's decisions and live
    /// metrics (user-adjustable).
    double threshold() const { return m_threshold; }
    void setThreshold(double t);
    /// The threshold of the trained result (threshold() itself while no step is shown).
    double trainedThreshold() const { return m_step >= 0 ? m_trainedThreshold : m_threshold; }
    /// True when the user (or a session) set the threshold, until a result resets it.
    bool thresholdIsUserSet() const { return m_userThreshold; }

    /// Number of top-ranked points highlighted in the view (0 = none).
    int topK() const { return m_topK; }
    void setTopK(int k);

    /// Geometry streamed while training (normalised coordinates), or null when not training or
    /// while a recorded step is shown (a replay during a paused step training shows that step's
    /// own geometry), with the normaliser of that training.
    std::shared_ptr<const Geometry> liveGeometry() const { return m_step >= 0 ? nullptr : m_live; }
    std::shared_ptr<const Normalizer> liveNormalizer() const { return m_liveNorm; }
    void setLiveGeometry(std::shared_ptr<const Geometry> g, std::shared_ptr<const Normalizer> normalizer = nullptr);

    /// Sample indices sorted by decreasing score (empty without a result): the result's own when
    /// it brought one (ranked on the training worker), else ranked here.
    const std::vector<int>& ranking() const;

    /// What the next training trains (detector, parameters, normalisation, rows to fit on): the
    /// Detector dock edits it; training, sessions, presets, the command line and auto-retrain read it.
    const TrainingSetup& trainingSetup() const { return m_setup; }
    /// Replaces it; emits trainingSetupChanged when it differs.
    void setTrainingSetup(const TrainingSetup& setup);

    /// How many of the compare panels' detectors flag each row at their shared quantile, and which
    /// detectors (CompareView publishes it as panels finish; without labels, a row flagged by most
    /// detectors is a safer bet than one flagged by one). The Ranking's "Flagged by" column and the
    /// view's colour by "agreement" read it.
    struct Agreement {
        Eigen::VectorXi flaggedBy; ///< per row, 0 … detectors.size()
        QStringList detectors;
        double quantile = 0.95;
    };
    /// Valid only while hasAgreement() (the rows it counts are the data's rows).
    const Agreement& agreement() const { return m_agreement; }
    bool hasAgreement() const
    {
        return m_agreement.detectors.size() >= 2 && m_data->rows() > 0 && m_agreement.flaggedBy.size() == m_data->rows();
    }
    /// Replaces it (an empty one clears it); emits agreementChanged.
    void setAgreement(Agreement a);

signals:
    void datasetChanged();
    /// The current point changed (selectedPoint()).
    void selectionChanged(int index);
    /// The selected set changed (pointSelection()).
    void pointSelectionChanged();
    void resultChanged();
    void thresholdChanged(double threshold);
    void topKChanged(int k);
    void liveGeometryChanged();
    void trainingSetupChanged();
    void shownStepChanged(int index);
    void agreementChanged();

private:
    bool leaveStep(); // forgets the step view (no signals); true when one was shown
    bool leaveTraining(); // the training view's set-aside result back in place (no signals)
    bool leaveStepViews(); // both of the above; true when either was shown
    void installResult(std::shared_ptr<const FitResult> result, bool keepThreshold = false); // no signals

    std::shared_ptr<const Dataset> m_data = std::make_shared<const Dataset>(); // never null
    QString m_path;
    int m_selected = -1;
    std::vector<int> m_selection; // sorted, distinct; contains m_selected when that is ≥ 0
    std::shared_ptr<const FitResult> m_result;
    std::shared_ptr<const FitResult> m_trained; // set while a recorded step is shown in m_result
    int m_step = -1;
    bool m_trainingView = false;
    std::shared_ptr<const FitResult> m_setAside; // the trained result while m_trainingView
    Shown m_trainingStep;                        // where that training is
    double m_trainedThreshold = 0.0;
    bool m_trainedUserThreshold = false;
    std::shared_ptr<const Geometry> m_live;
    std::shared_ptr<const Normalizer> m_liveNorm;
    std::vector<int> m_ranking; // only for a result without its own ranking (ranking())
    TrainingSetup m_setup;
    Agreement m_agreement;
    double m_threshold = 0.0;
    int m_topK = 0;
    bool m_inEdit = false;
    bool m_edited = false;
    bool m_userThreshold = false;
};

/// Recomputes the result's per-sample fields (scores, decisions, explanations, ranking order)
/// for new data with the same fitted detector: rows listed in `keep` (new row → old row, -1 for
/// new or moved rows) reuse the training scores, the others are scored. Null when it fails.
std::shared_ptr<const FitResult> adjustResult(const FitResult& r, const Dataset& data, const std::vector<int>& keep);

/// Reads CSV/TSV/TXT/XYZ and PLY through the core loader (loadDataset; labels as outlier flags).
/// Throws olens::DataError with a message naming the file on failure.
Dataset loadCloudFile(const QString& path);

/// The GUI's input limit for data files (LoadOptions::maxBytes; 1 GiB unless --max-input-mb or the
/// user's "open anyway" raised it): a 20 M-point CSV is 1.2 GB (issue #54).
std::uint64_t inputLimitBytes();
void setInputLimitBytes(std::uint64_t bytes);

} // namespace olens
