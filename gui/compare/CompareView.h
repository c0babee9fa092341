#pragma once
// Compare mode: small multiples of several detectors on the same data, like scikit-learn's
// anomaly-detection comparison figure but interactive. Each panel has its own document (a copy of
// the source document's data), its own CloudView and its own TrainingController; all panels train
// concurrently on a pool sized for them, show their fit time and (with labels) AUROC / AUPRC,
// share one camera (a user move in one panel is copied to the others), one selected point and one
// threshold quantile: each panel's threshold is the q-quantile of its own training scores. The
// panels form one figure: coloured on one scale (the training-score percentile), with one key
// (CompareKey) instead of a colour bar and legend per panel, optionally showing only the decision
// (inlier / outlier regions); the figure exports as one image.
#include "compare/CompareEntry.h"
#include "metrics/Agreement.h"
#include "view/layers/ViewLayer.h"
#include "data/Normalizer.h"
#include "base/Params.h"

#include <Eigen/Core>
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

class QCheckBox;
class QDoubleSpinBox;
class QImage;
class QGridLayout;
class QLabel;
class QPushButton;
class QThreadPool;
class QTimer;

namespace olens {

class CloudView;
class CompareKey;
class CompareReplay;
struct ComparePanel;
class DataDocument;
class TrainingController;

class CompareView : public QWidget {
    Q_OBJECT
public:
    /// One panel's detector (id, parameters, normalisation).
    using Entry = CompareEntry;
    static constexpr int kMaxPanels = 9;
    static constexpr double kDefaultQuantile = 0.95;
    /// The quantile a cloud of `rows` rows starts at, until the user chooses one: 0.95, and for a
    /// big cloud (isBigCloud) the main window's top 1 000 (0.999 at 1 M rows, 0.99995 at 20 M):
    /// 0.95 flagged 50 000 points of a 1 M-point torus in every panel and hid it (issue #54).
    static double defaultQuantile(Eigen::Index rows);

    /// The default parameters and the paper's normalisation (DetectorInfo::normalization) of a
    /// registered detector; throws ParamError for an unknown id.
    static Entry defaultEntry(const std::string& id);
    /// knn, pca, quadrics, kic, gods, acdt: those that are registered.
    static std::vector<std::string> defaultDetectorIds();
    /// q-quantile of the values with linear interpolation between order statistics
    /// (numpy.quantile's default): x_(⌊h⌋) + (h − ⌊h⌋)(x_(⌊h⌋+1) − x_(⌊h⌋)), h = (n − 1) q.
    static double quantileOf(const Eigen::VectorXd& values, double q);

    /// Starts with the default detectors on a copy of the source's data (not trained yet).
    explicit CompareView(DataDocument* source, QWidget* parent = nullptr);
    /// Cancels every training and waits for the workers.
    ~CompareView() override;

    /// Replaces the panels (1 to kMaxPanels entries; unknown ids are rejected with *error set and
    /// nothing changed). Panels whose entry is unchanged keep their result.
    bool setDetectors(const std::vector<Entry>& entries, QString* error = nullptr);
    std::vector<Entry> entries() const;
    /// Changes one panel's detector settings; its result is dropped (retrained when it had one).
    bool setEntry(int panel, const Entry& entry, QString* error = nullptr);

    int panelCount() const { return static_cast<int>(m_panels.size()); }
    CloudView* panelView(int i) const;
    DataDocument* panelDocument(int i) const;
    TrainingController* panelTrainer(int i) const;
    /// The panel's title text (detector, state, fit time, metrics) as plain text.
    QString panelTitle(int i) const;
    /// Why the panel's last training failed, or empty.
    QString panelError(int i) const;
    /// AUROC / AUPRC of the panel's training scores against the labels; NaN without both.
    double panelAuroc(int i) const;
    double panelAuprc(int i) const;
    /// Number of grid columns the layout currently uses.
    int columns() const { return m_columns; }

    /// The pool the panels train on: the GUI's one executor (jobs/Executor), with room for every panel.
    QThreadPool* threadPool() const;
    bool isTraining() const;

    double quantile() const { return m_quantile; }

    QPushButton* trainButton() const { return m_trainAll; }
    QDoubleSpinBox* quantileBox() const { return m_quantileBox; }
    QCheckBox* decisionBox() const { return m_decisionBox; }
    /// The figure's one key (colour bar "score percentile" and legend) for every panel.
    CompareKey* key() const { return m_key; }
    /// The one replay control of every panel's recorded training (hidden without one).
    CompareReplay* replay() const { return m_replay; }

    /// Every panel shows only its decision: inlier and outlier regions as two flat colours split
    /// at its own threshold (scikit-learn's anomaly-detection comparison figure), points coloured
    /// by whether they are flagged.
    void setDecisionOnly(bool on);
    bool decisionOnly() const { return m_decisionOnly; }
    /// How every panel draws (view/ViewLayer.h): colour by training-score percentile, no colour
    /// bar or legend of its own; the decision display when on.
    PanelStyle panelStyle() const;
    /// The panels and the key as one image (the toolbar strip left out), at the widget's size;
    /// with a transparent background when asked (view/ViewExport::grabMatted, as the main view's export:
    /// the figure grabbed on white and on black, so text, frames and points stay opaque).
    QImage figureImage(bool transparent = false);
    /// The figure's size in logical pixels (what figureImage() shows).
    QSize figureSize() const;

public slots:
    /// Trains every panel (a panel already training is restarted on the current data).
    void trainAll();
    void cancelAll();
    /// Shared threshold quantile q in [0.5, 0.99999]: each panel's threshold is the q-quantile of its
    /// training scores (about (1 − q)·n points flagged per panel). The user's choice: new data
    /// no longer reset it to defaultQuantile().
    void setQuantile(double q);
    /// Opens the detector chooser; on OK the panels are replaced and trained.
    void chooseDetectors();
    /// Opens the parameter / normalisation dialog of one panel.
    void editPanel(int i);
    /// Adds (or replaces) a consensus panel of the other panels' detectors (each with its default
    /// parameters) and trains it. Returns false with the reason in the status when it cannot.
    bool combinePanels();
    /// How the trained panels agree (metrics/Agreement): Spearman of their training scores, the
    /// share of their top ⌈(1 − q)·n⌉ in common and per row how many flag it at the shared
    /// quantile q. `titles` receives the panels' names. Empty (k = 0) with fewer than two results.
    AgreementTable panelAgreement(QStringList* titles = nullptr) const;
    /// The agreement as an HTML table (the Agree dialog's text).
    QString agreementHtml() const;
    /// Opens a dialog with agreementHtml().
    void showAgreement();

signals:
    /// No panel is training any more after a training was started (success, failure or cancel).
    void allFinished();
    /// The strip's "Export PNG…" button: the window's figure export takes it (the compare page).
    void exportRequested();

protected:
    void resizeEvent(QResizeEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* e) override;

private:
    /// setQuantile without marking it the user's choice (the size-based default).
    void applyQuantile(double q);
    using Panel = ComparePanel;
    Panel* makePanel(const Entry& entry);
    void destroyPanel(std::unique_ptr<Panel> panel);
    void relayout(bool force);
    int bestColumns(int n) const;
    double dataAspect() const;
    int headerWidth() const;
    int headerHeight(int columnWidth) const;
    void updateHeaders();
    void startPanel(Panel* p);
    void onSourceDataChanged();
    void onPanelResult(Panel* p);
    /// The panels' per-row "flagged by k of m" into the source document (DataDocument::agreement).
    void publishAgreement();
    void onPanelStopped(Panel* p);
    void applyThreshold(Panel* p);
    void updateStrip();
    /// The strip's status text, elided to the label's width (the whole text then its tooltip).
    void setStatus(const QString& text);
    void showStatus();
    void syncCamera(CloudView* from);
    void uniformFit();
    void syncSelection(Panel* from, int index);
    /// The figure's background (white normally; black for the second grab of a matted export).
    void setFigureBackdrop(const QColor& colour);

    DataDocument* m_source;
    std::vector<std::unique_ptr<Panel>> m_panels;
    QWidget* m_figure; // m_grid and m_key: what figureImage() shows
    QWidget* m_grid;
    CompareKey* m_key;
    CompareReplay* m_replay;
    QLabel* m_caption; // the projection note (p > 3), once for all panels
    QCheckBox* m_decisionBox;
    QPushButton* m_export;
    QGridLayout* m_gridLayout;
    QPushButton* m_choose;
    QDoubleSpinBox* m_quantileBox;
    QPushButton* m_trainAll;
    QPushButton* m_cancelAll;
    QPushButton* m_combine;
    QPushButton* m_agree;
    QLabel* m_status;
    QString m_statusText;
    QTimer* m_retrainTimer;
    double m_quantile = kDefaultQuantile;
    bool m_quantileChosen = false; // set by setQuantile: the data's size no longer picks it
    int m_columns = 0;
    bool m_syncing = false;
    bool m_userCamera = false; // a user camera move is shared until the next fit
    bool m_retrainOnShow = false;
    bool m_wasTraining = false;
    bool m_decisionOnly = false;
};

} // namespace olens
