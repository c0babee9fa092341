#pragma once
// The Similarity dock (uncertainty-joint-bayesian.txt sec. 4–5): trains plain Joint Bayesian and
// UA-JB on the document's labelled data in a worker (QtConcurrent; progress, cancel). Both models are
// kept, so switching JB ↔ UA-JB recolours instantly without retraining. Picking a point colours every
// point by its log-likelihood ratio LR(x_i, x_j | S_i, S_j) to the picked one (eq. 13–16), optionally
// through the outlier-aware rule of the quadrics paper (eq. 17: pairs involving a point whose current
// detector score is at or above the decision threshold get similarity 0 = "no evidence"). The
// verification section trains both methods again on a seeded, class-stratified half of the data and
// draws the DET curve (false reject against false accept rate) of all pairs of the other half (a seeded
// sample when there are too many), with the equal error rate marked.
#include "similarity/JointBayesian.h"
#include "similarity/Verification.h"

#include <QString>
#include <QWidget>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace olens {

class Worker;

class CloudView;
class DataDocument;
class PlotWidget;

class SimilarityPanel : public QWidget {
    Q_OBJECT
public:
    enum class Method { UaJb = 0, Jb = 1 };

    SimilarityPanel(DataDocument* document, CloudView* view, QWidget* parent = nullptr);
    /// Cancels a running training and waits for the worker.
    ~SimilarityPanel() override;

    QSpinBox* dimBox() const { return m_dim; }
    QCheckBox* colourBox() const { return m_colour; }
    QCheckBox* outlierGateBox() const { return m_gate; }
    PlotWidget* detPlot() const { return m_det; }
    QString statusText() const;
    /// The verification figure of the current method, e.g. "EER = 3.25 %" (empty without one).
    QString eerText() const;

    Method method() const;
    void setMethod(Method m);
    bool isTrained() const { return m_models != nullptr; }
    /// The model trained on all the data (null before training or after the data changed).
    const JointBayesian* model(Method m) const;
    /// The held-out verification of a method (null when not trained or when it failed).
    const VerificationResult* verification(Method m) const;
    /// Why there is no verification (e.g. too few samples), empty otherwise.
    QString verificationMessage() const;
    /// Rows of the data that trained / tested the verification models (sorted).
    const std::vector<Eigen::Index>& verificationTrainRows() const;
    const std::vector<Eigen::Index>& verificationTestRows() const;

    /// The parameters used for a method with latent dimension `dim` (0 = no reduction when dim ≥ p).
    static JointBayesianParams paramsFor(Method m, int dim);
    /// Seeded class-stratified split: of each class's m rows (shuffled), ⌈m/2⌉ train and ⌊m/2⌋ test.
    static void splitRows(const Eigen::VectorXd& classes, std::uint64_t seed, std::vector<Eigen::Index>& train,
                          std::vector<Eigen::Index>& test);
    static constexpr std::uint64_t kSplitSeed = 1;
    static constexpr long long kMaxPairs = 100000;

    /// LR similarity of every sample to sample i with the current method, through eq. 17 when the
    /// gate is on and a detector result is available; empty when not trained or i is out of range.
    Eigen::VectorXd similarityTo(int i) const;
    /// Eq. 17 applies now (gate checked and the document has a result for these data).
    bool gateActive() const;

public slots:
    /// Starts training (false, with a status message, when there is nothing to train on).
    bool train();
    void cancel();

signals:
    void trainingFinished();
    void trainingFailed(const QString& message);

private:
    struct Models;

    void onDataset();
    void onSelection(int index);
    void onTrained(std::shared_ptr<const Models> models);
    void onEnded(const QString& error, bool cancelled);
    void recolour();
    void updateDet();
    void updateControls();
    void setStatus(const QString& text);

    DataDocument* m_doc;
    CloudView* m_view;
    QComboBox* m_method;
    QSpinBox* m_dim;
    QPushButton* m_train;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QCheckBox* m_colour;
    QCheckBox* m_gate;
    QLabel* m_eer;
    QLabel* m_detail;
    PlotWidget* m_det;
    Worker* m_worker;

    std::shared_ptr<const Models> m_models;
    bool m_running = false;
    bool m_stale = false;
    bool m_colouring = false; // this panel set the view's custom scalars
};

} // namespace olens
