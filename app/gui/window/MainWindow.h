#pragma once
// Thin main window: owns the document, the central view and the docks; actions delegate to
// small reaction classes (ParaView style).
#include "shell/ReactionContext.h"
#include "shell/WindowShell.h"

#include <QMainWindow>

#include <functional>

class QAction;
class QLabel;

namespace olens {

class CloudView;
class CompareReaction;
class CompareView;
class DataDocument;
class DataEditor;
class EditReaction;
class SessionManager;
class Autosave;
struct SessionParts;
class DetectorPanel;
class EditModeIndicator;
class RecentFilesMenu;
class UnsavedChanges;
class EvaluationPanel;
class LogPanel;
class RankingPanel;
class SimilarityPanel;
class SplomPanel;
class TrainingController;
class BackgroundOpen;
struct Dataset;
class ClassroomReaction;
class PresetsReaction;
class LessonCaption;
class TimelineBar;
class ViewControls;

class MainWindow : public QMainWindow, public WindowShell {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// What the reactions work on (document, trainer, view, Log, this window as dialog parent).
    ReactionContext context() const;
    DataDocument* document() const { return m_doc; }
    CloudView* view() const { return m_view; }
    ViewControls* viewControls() const { return m_controls; }
    TimelineBar* timeline() const { return m_timeline; }
    LessonCaption* lessonCaption() const { return m_caption; }
    /// View → Classroom (F11) and the docks it keeps.
    ClassroomReaction* classroom() const { return m_classroom; }
    LogPanel* log() const { return m_log; }
    TrainingController* trainer() const { return m_trainer; }
    DetectorPanel* detectorPanel() const { return m_detector; }
    RankingPanel* rankingPanel() const { return m_ranking; }
    EvaluationPanel* evaluationPanel() const { return m_evaluation; }
    /// The scatter-plot matrix window's contents (View → Scatter-plot matrix, Ctrl+Shift+M).
    SplomPanel* splomPanel() const { return m_splom; }
    /// The compare page (View → Compare detectors), or null before it was first opened.
    CompareView* compareView() const;
    CompareReaction* compareReaction() const { return m_compare; }
    /// The Presets menu (the papers' set-ups; the start page's gallery applies them too).
    PresetsReaction* presets() const { return m_presets; }
    SessionManager* sessions() const { return m_sessions; }
    Autosave* autosaves() const { return m_autosave; }
    /// What a session captures of this window besides the context (a second SessionManager in tests).
    SessionParts sessionParts() const;
    DataEditor* dataEditor() const { return m_editor; }
    EditReaction* editReaction() const { return m_editReaction; }
    /// The modified marker and the Save / Discard / Cancel question before changes are lost.
    UnsavedChanges* unsavedChanges() const { return m_unsaved; }
    EditModeIndicator* editModeIndicator() const { return m_editIndicator; }
    RecentFilesMenu* recentFiles() const { return m_recent; }
    /// The status bar's permanent text, e.g. "n = 300   p = 2   file: moons2d.csv".
    QString statusText() const;

    /// A menu/toolbar action by object name (actionOpen, actionNewData, actionTrain,
    /// actionCancelTraining, actionEditMode, actionCompareDetectors, actionScreenshot, …), or null.
    QAction* action(const QString& objectName) const override;

    /// Loads a data file; on failure logs the reason, keeps the previous data and returns false.
    bool openFile(const QString& path, QString* error = nullptr);
    /// The menus' open: reads the file on the executor, the window stays live (BackgroundOpen).
    BackgroundOpen* backgroundOpen() const { return m_backgroundOpen; }
    /// Puts loaded data into the document (warnings to the Log, recent files); both opens end here.
    void adoptDataset(Dataset&& data, const QString& path) override;
    /// A failed open: the Log, and a message box when interactive (the previous data are kept).
    void reportOpenFailure(const QString& message) override;
    /// Interactive use: failures are also shown in a message box.
    void setInteractive(bool on) { m_interactive = on; }
    bool isInteractive() const override { return m_interactive; }
    /// The Help → Keyboard shortcuts page, generated from the menus' actions.
    QString shortcutsHtml() const;

protected:
    void closeEvent(QCloseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void buildDocks();
    void buildMenus();
    void buildToolBar();
    void updateStatus();
    /// Runs a dock arrangement on the docks as they are, or as they come back after compare or
    /// classroom mode when one is on.
    void arrangeDocks(const std::function<void()>& arrange);

    DataDocument* m_doc;
    TrainingController* m_trainer;
    CloudView* m_view;
    ViewControls* m_controls;
    TimelineBar* m_timeline;
    LessonCaption* m_caption;
    ClassroomReaction* m_classroom = nullptr;
    BackgroundOpen* m_backgroundOpen = nullptr;
    LogPanel* m_log;
    DetectorPanel* m_detector = nullptr;
    RankingPanel* m_ranking = nullptr;
    EvaluationPanel* m_evaluation = nullptr;
    SimilarityPanel* m_similarity = nullptr;
    SplomPanel* m_splom = nullptr;
    CompareReaction* m_compare = nullptr;
    PresetsReaction* m_presets = nullptr;
    QLabel* m_status;
    SessionManager* m_sessions = nullptr;
    Autosave* m_autosave = nullptr;
    DataEditor* m_editor = nullptr;
    EditReaction* m_editReaction = nullptr;
    UnsavedChanges* m_unsaved = nullptr;
    EditModeIndicator* m_editIndicator = nullptr;
    RecentFilesMenu* m_recent = nullptr;
    QString m_sessionPath; // the session file the data came from or were saved to
    bool m_interactive = true;
    /// The dock arrangement of the first start (View → Reset layout); QSettings "layout/state" keeps
    /// the user's own. kLayoutVersion changes when the default arrangement does.
    QByteArray m_defaultLayout;
    static constexpr int kLayoutVersion = 2;
    /// Below this height (px) Ranking and Evaluation share the right column as tabs.
    static constexpr int kTallWindow = 900;
    /// The right column was tabbed for a short window, or the user's own layout restored: resizes
    /// leave it alone from then on.
    bool m_columnArranged = false;
};

} // namespace olens
