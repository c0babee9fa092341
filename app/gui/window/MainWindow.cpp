#include "window/MainWindow.h"

#include "files/BackgroundOpen.h"

#include "reactions/AboutReaction.h"
#include "reactions/ShortcutsReaction.h"
#include "reactions/CameraReactions.h"
#include "view/CloudView.h"
#include "modes/CompareReaction.h"
#include "base/Format.h"
#include "document/DataDocument.h"
#include "view/DataEditor.h"
#include "docks/DataPanel.h"
#include "shell/EditModeIndicator.h"
#include "reactions/EditReactions.h"
#include "reactions/ExportFigureReaction.h"
#include "reactions/ExportPointsReaction.h"
#include "shell/FieldProgressIndicator.h"
#include "dialogs/ImportDialog.h"
#include "reactions/ImportReaction.h"
#include "files/RecentFilesMenu.h"
#include "reactions/SelectionReactions.h"
#include "shell/UnsavedChanges.h"
#include "files/SessionManager.h"
#include "docks/DetectorPanel.h"
#include "docks/EvaluationPanel.h"
#include "docks/LogPanel.h"
#include "docks/RankingPanel.h"
#include "docks/SimilarityPanel.h"
#include "docks/SplomPanel.h"
#include "reactions/Presets.h"
#include "reactions/Reactions.h"
#include "files/SessionReactions.h"
#include "reactions/TrainReactions.h"
#include "reactions/TimelineReactions.h"
#include "docks/TimelineBar.h"
#include "docks/LessonCaption.h"
#include "modes/ClassroomReaction.h"
#include "reactions/LessonReaction.h"
#include "modes/TextSizeReaction.h"
#include "window/StartPage.h"
#include "jobs/TrainingController.h"
#include "docks/ViewControls.h"

#include <QApplication>
#include <QCloseEvent>
#include <QResizeEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QFrame>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QSettings>
#include <QUndoStack>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

// The icons (resources/outlierlens.qrc) live in this static library: register them explicitly.
static void initOutlierLensResources()
{
    Q_INIT_RESOURCE(outlierlens);
}

namespace olens {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_doc(new DataDocument(this)), m_trainer(new TrainingController(m_doc, this)),
      m_log(new LogPanel), m_status(new QLabel)
{
    initOutlierLensResources();
    setWindowTitle(tr("OutlierLens[*]"));
    setWindowIcon(QIcon(":/icons/outlierlens.svg"));
    setObjectName("MainWindow");
    auto* central = new QWidget;
    m_view = new CloudView(m_doc);
    m_controls = new ViewControls(m_doc, m_view);
    auto* viewFrame = new QFrame; // its border shows edit mode
    viewFrame->setObjectName("ViewFrame");
    auto* frameLayout = new QVBoxLayout(viewFrame);
    frameLayout->setContentsMargins(3, 3, 3, 3);
    frameLayout->addWidget(m_view);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // The strip wraps its controls into more rows in a narrow window (FlowLayout): none is ever
    // reachable only through a scroll bar, and it never widens the window.
    m_controls->setObjectName(QStringLiteral("ViewControlsStrip"));
    m_controls->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_controls);
    m_caption = new LessonCaption(m_doc);
    layout->addWidget(m_caption);
    layout->addWidget(viewFrame, 1);
    m_timeline = new TimelineBar(m_doc);
    layout->addWidget(m_timeline);
    connect(m_timeline, &TimelineBar::failed, m_log, [this](const QString& m) {
        m_log->warning(tr("replay: %1").arg(m));
    });
    setCentralWidget(central);
    // Long texts must not widen the window: the label may shrink (Qt clips it).
    m_status->setMinimumWidth(0);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // A normal (not permanent) widget: Qt hides it while a temporary message ("selected point 12",
    // "score field cancelled") is shown and brings it back afterwards. As a permanent widget with
    // stretch it took the whole bar and every temporary message was drawn in zero width.
    m_status->setObjectName(QStringLiteral("statusSummary"));
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(new FieldProgressIndicator(m_view, statusBar()));
    m_editor = new DataEditor(m_doc, m_view, this);
    m_unsaved = new UnsavedChanges(context(), m_editor);
    buildDocks();
    m_sessions = new SessionManager(context(), sessionParts()); // the View menu's modes follow (setModes)
    m_unsaved->setSave([this] { return m_sessions->saveInteractively(); });
    m_backgroundOpen = new BackgroundOpen(context(), m_sessions, m_unsaved);
    buildMenus();
    m_sessions->setModes(m_classroom, m_compare);
    buildToolBar();
    m_editIndicator = new EditModeIndicator(m_editReaction->editModeAction(), viewFrame, statusBar());
    new StartPage(context(), m_recent, m_presets, viewFrame); // over the view until there are data
    // The keyboard starts on the view (as ParaView's render view), not on the first spin box or
    // table of the docks: those keep Page Up / Down for themselves, and a presenter's remote
    // pressed into the Detector dock's first spin box instead of stepping the lesson.
    m_view->setFocus(Qt::OtherFocusReason);
    connect(m_sessions, &SessionManager::sessionOpened, this, [this](const QString& path) {
        m_sessionPath = path;
        m_unsaved->markSaved();
        m_recent->add(path);
        updateStatus();
    });
    connect(m_sessions, &SessionManager::sessionSaved, this, [this](const QString& path) {
        m_sessionPath = path;
        m_unsaved->markSaved();
        m_recent->add(path);
        updateStatus();
    });
    connect(m_unsaved, &UnsavedChanges::modifiedChanged, this, &MainWindow::updateStatus);

    connect(m_doc, &DataDocument::datasetChanged, this, [this] {
        if (!m_doc->changeIsEdit())
            m_sessionPath.clear(); // other data; a session sets it again once applied
        updateStatus();
    });
    connect(m_doc, &DataDocument::resultChanged, this, &MainWindow::updateStatus);
    // The selected point is part of the summary (not a temporary message: one shown while the
    // summary was being replaced was drawn over it, and it outlived the selection).
    connect(m_doc, &DataDocument::selectionChanged, this, &MainWindow::updateStatus);
    connect(m_trainer, &TrainingController::started, this,
            [this](const QString& id) { m_log->info(tr("training %1 …").arg(id)); });
    connect(m_trainer, &TrainingController::finished, this, [this](double s) {
        const auto r = m_doc->result();
        m_log->info(tr("trained %1 in %2 (fit %3); threshold %4")
                        .arg(QString::fromStdString(r ? r->detectorId : "?"),
                             QString::fromStdString(formatDuration(s)),
                             QString::fromStdString(formatDuration(r ? r->fitSeconds : 0.0)))
                        .arg(r ? r->threshold : 0.0, 0, 'g', 4));
        if (r && !r->trainingRows.empty()) // fit on a part, score all (the status line says it too)
            m_log->info(tr("fitted on %1 of %2 points; all scored (training points ringed)")
                            .arg(r->trainingRows.size())
                            .arg(r->scores.size()));
        if (m_doc->thresholdIsUserSet())
            m_log->info(tr("kept your threshold %1 (the detector's own: %2)")
                            .arg(m_doc->threshold(), 0, 'g', 4)
                            .arg(r->threshold, 0, 'g', 4));
        for (const auto& w : r ? r->normalizer.warnings() : std::vector<std::string>{})
            m_log->warning(QString::fromStdString(w));
    });
    connect(m_trainer, &TrainingController::failed, this, [this](const QString& m) { m_log->error(tr("training failed: %1").arg(m)); });
    connect(m_trainer, &TrainingController::cancelled, this, [this] {
        // A restart because the data changed (an edit during training, auto-retrain) is routine.
        if (m_trainer->lastCancelWasRestart())
            m_log->info(tr("training stopped because the data changed (it restarts when auto-retrain is on)"));
        else
            m_log->info(m_doc->result() ? tr("training cancelled; the previous result is kept")
                                        : tr("training cancelled; there is no result yet"));
    });
    connect(m_detector, &DetectorPanel::errorMessage, m_log, &LogPanel::error);
    connect(m_ranking, &RankingPanel::flyToRequested, m_view, &CloudView::flyTo);
    updateStatus();
    // 1400×900, or less on a small screen (a 1366×768 or 1280×720 laptop gets all of it).
    const QRect screenArea = screen() ? screen()->availableGeometry() : QRect(0, 0, 1400, 900);
    resize(std::min(1400, screenArea.width()), std::min(900, screenArea.height()));
}

MainWindow::~MainWindow()
{
    // The undo stack announces its clean state while being destroyed: nobody listens any more.
    m_editor->undoStack()->disconnect(m_unsaved);
    m_unsaved->disconnect(this);
}

QAction* MainWindow::action(const QString& objectName) const
{
    return findChild<QAction*>(objectName);
}

SessionParts MainWindow::sessionParts() const
{
    return SessionParts{m_detector, m_controls, m_caption, m_classroom, m_compare};
}

CompareView* MainWindow::compareView() const { return m_compare ? m_compare->view() : nullptr; }

ReactionContext MainWindow::context() const
{
    auto* self = const_cast<MainWindow*>(this);
    return ReactionContext{m_doc, m_trainer, m_view, m_log, self, self};
}

void MainWindow::resizeEvent(QResizeEvent* e)
{
    QMainWindow::resizeEvent(e);
    // Made shorter than kTallWindow (a laptop, a projector, the user shrinking it): the Ranking and
    // Evaluation stacked in the right column share it as tabs, as at a short start. Once only, so
    // an arrangement the user makes afterwards (or brought from the last session) stays.
    if (m_defaultLayout.isEmpty() || m_columnArranged || height() >= kTallWindow)
        return;
    m_columnArranged = true;
    // In compare or classroom mode the docks are hidden and come back from the state saved on
    // entering: arrange that one (a window shrunk while comparing got its stacked column back).
    arrangeDocks([this] {
        auto* ranking = findChild<QDockWidget*>("RankingDock");
        auto* eval = findChild<QDockWidget*>("EvaluationDock");
        auto* similarity = findChild<QDockWidget*>("SimilarityDock");
        if (!ranking || !eval || !similarity || ranking->isFloating() || eval->isFloating()
            || dockWidgetArea(ranking) != dockWidgetArea(eval) || tabifiedDockWidgets(ranking).contains(eval))
            return;
        tabifyDockWidget(ranking, eval);
        if (!similarity->isFloating() && dockWidgetArea(similarity) == dockWidgetArea(ranking))
            tabifyDockWidget(ranking, similarity);
        ranking->raise();
    });
}

void MainWindow::arrangeDocks(const std::function<void()>& arrange)
{
    // The mode entered first holds the state with the docks. At start a session restores compare
    // mode before classroom mode, so with both on, compare's is the one; classroom alone keeps its own.
    if (m_classroom->isActive() && !m_compare->isActive())
        m_classroom->arrangeDocks(arrange);
    else
        m_compare->arrangeDocks(arrange);
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (!m_unsaved->confirm(tr("quit"))) {
        e->ignore();
        return;
    }
    // Stop training promptly: the worker sees the flag at its next progress report.
    m_trainer->cancel();
    m_classroom->leave(); // the layout to remember is the one with the docks
    if (m_compare->isActive())
        m_compare->setActive(false); // … not compare mode's, where every dock is hidden
    if (m_interactive && !m_defaultLayout.isEmpty())
        QSettings().setValue("layout/state", saveState(kLayoutVersion)); // docks and their sizes, next time
    QMainWindow::closeEvent(e);
}

void MainWindow::buildDocks()
{
    // Laptop screens: a dock smaller than its contents scrolls instead of widening the window —
    // unless the panel has its own scrolling list or table (Ranking, Data, Log, scatter-plot
    // matrix): that one scrolls, and the panel around it must not (two scroll bars for one
    // direction, the inner one's end below the outer fold; --layout-report "nested_scrolling").
    enum class Scroll { Dock, Panel };
    auto addDock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area,
                          Scroll scroll = Scroll::Dock) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        if (scroll == Scroll::Panel || qobject_cast<QAbstractScrollArea*>(w)) {
            dock->setWidget(w);
        } else {
            auto* scroll = new QScrollArea;
            scroll->setObjectName(name + "Scroll");
            scroll->setWidget(w);
            scroll->setWidgetResizable(true);
            scroll->setFrameShape(QFrame::NoFrame);
            dock->setWidget(scroll);
        }
        addDockWidget(area, dock);
        return dock;
    };
    auto* data = addDock(tr("Data"), "DataDock", new DataPanel(m_doc), Qt::LeftDockWidgetArea, Scroll::Panel);
    m_detector = new DetectorPanel(m_doc, m_trainer);
    auto* det = addDock(tr("Detector"), "DetectorDock", m_detector, Qt::LeftDockWidgetArea);
    tabifyDockWidget(data, det);
    det->raise();
    m_ranking = new RankingPanel(m_doc);
    auto* ranking = addDock(tr("Ranking"), "RankingDock", m_ranking, Qt::RightDockWidgetArea, Scroll::Panel);
    m_evaluation = new EvaluationPanel(m_doc);
    auto* eval = addDock(tr("Evaluation"), "EvaluationDock", m_evaluation, Qt::RightDockWidgetArea);
    m_similarity = new SimilarityPanel(m_doc, m_view);
    auto* similarity = addDock(tr("Similarity"), "SimilarityDock", m_similarity, Qt::RightDockWidgetArea);
    tabifyDockWidget(eval, similarity);
    eval->raise();
    auto* log = addDock(tr("Log"), "LogDock", m_log, Qt::BottomDockWidgetArea, Scroll::Panel);
    // The scatter-plot matrix needs room, but a floating window covered the view it is linked to
    // (issue #35): hidden until View → Scatter-plot matrix, then docked as a column of its own
    // beside the Ranking (it can still be floated from its title bar).
    m_splom = new SplomPanel(m_doc, m_view);
    auto* splom = addDock(tr("Scatter-plot matrix"), "SplomDock", m_splom, Qt::RightDockWidgetArea, Scroll::Panel);
    splom->hide();
    QAction* splomAction = splom->toggleViewAction();
    splomAction->setObjectName("actionScatterPlotMatrix");
    splomAction->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    splomAction->setToolTip(tr("Small multiples of feature pairs, linked to the selection (Ctrl+Shift+M)"));
    connect(splomAction, &QAction::toggled, this, [this, splom, det, ranking](bool on) {
        if (!on || splom->isFloating() || splom->property("placed").toBool())
            return;
        splom->setProperty("placed", true);
        const int detWidth = det->width(), rankingWidth = ranking->width();
        const int side = std::clamp(std::min(width() * 2 / 5, height() - 120), 260, 900);
        if (width() - detWidth - rankingWidth - side < width() * 2 / 5 && !ranking->isFloating()) {
            // A laptop: a column of its own would leave the view a strip. A tab beside the
            // Ranking, the column widened to the matrix's width (the view keeps the rest).
            tabifyDockWidget(ranking, splom);
            splom->show();
            splom->raise();
            resizeDocks({det, ranking}, {detWidth, std::max(rankingWidth, side)}, Qt::Horizontal);
            return;
        }
        // A wide screen: a column of its own right of the Ranking's, taken from the view.
        removeDockWidget(splom);
        addDockWidget(Qt::RightDockWidgetArea, splom, Qt::Horizontal);
        splom->show();
        resizeDocks({det, ranking, splom}, {detWidth, rankingWidth, side}, Qt::Horizontal);
    });
    // The view gets the space; side docks are wide enough for their plots, the log stays short.
    // Dock sizes only stick once the window has its geometry: apply them when first shown.
    QTimer::singleShot(0, this, [this, det, ranking, eval, similarity, log] {
        arrangeDocks([&] {
            // The view keeps most of the width: on a laptop the side docks shrink with the window.
            const int w = width();
            resizeDocks({det, ranking}, {std::clamp(w * 23 / 100, 260, 340), std::clamp(w * 27 / 100, 300, 400)}, Qt::Horizontal);
            // The Ranking is the main output. On a laptop or a projector (less than 900 px of height)
            // stacking Evaluation under it left 2 rows at 1280×720 (issue #35): there they share the
            // right column as tabs, the Ranking in front; taller screens show both, the Ranking larger.
            const QScreen* s = screen();
            const int screenHeight = s ? s->availableGeometry().height() : height();
            if (std::min(height(), screenHeight) < kTallWindow) {
                tabifyDockWidget(ranking, eval); // moves eval out of its group with Similarity …
                tabifyDockWidget(ranking, similarity); // … so Similarity follows
                ranking->raise();
                m_columnArranged = true;
            } else {
                resizeDocks({ranking, eval}, {height() * 11 / 20, height() * 7 / 20}, Qt::Vertical);
            }
            resizeDocks({log}, {std::clamp(height() / 9, 60, 110)}, Qt::Vertical);
            m_defaultLayout = saveState(kLayoutVersion);
            if (m_interactive) { // the user's own arrangement from the last session (View → Reset layout undoes it)
                const QByteArray saved = QSettings().value("layout/state").toByteArray();
                if (!saved.isEmpty() && restoreState(saved, kLayoutVersion))
                    m_columnArranged = true;
            }
        });
    });
}

void MainWindow::buildMenus()
{
    // Compare mode first: the File menu's screenshot and figure export show the compare page in it.
    auto* compare = new QAction(tr("&Compare detectors"), this);
    m_compare = new CompareReaction(compare, this, m_doc); // Ctrl+M
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* create = file->addAction(tr("&New data…"));
    create->setObjectName("actionNewData");
    create->setShortcut(QKeySequence::New);
    create->setToolTip(tr("Generate toy data (blobs, moons, ring, seam, Swiss roll, ...) or start an empty canvas"));
    new NewDataReaction(create, context(), m_unsaved);
    QAction* open = file->addAction(tr("&Open data…"));
    open->setObjectName("actionOpen");
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Load CSV, TSV, TXT, XYZ or PLY point data"));
    new OpenDataReaction(open, context(), m_backgroundOpen, m_unsaved);
    m_recent = new RecentFilesMenu(file->addMenu(tr("Open &recent")), m_unsaved, m_backgroundOpen);
    new ImportReaction(file->addAction(tr("&Import data with column roles…")), context(), m_backgroundOpen, m_unsaved); // Ctrl+I
    file->addSeparator();
    new OpenSessionReaction(file->addAction(tr("Open se&ssion…")), context(), m_backgroundOpen, m_unsaved); // Ctrl+Shift+O
    m_sessions->addActions(file);
    new RestoreAutosaveReaction(file->addAction(tr("Restore &autosave")), context(), m_sessions, m_backgroundOpen, m_unsaved);
    file->addSeparator();
    QAction* shot = file->addAction(tr("Save view &screenshot…"));
    shot->setObjectName("actionScreenshot");
    shot->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
    new ScreenshotReaction(shot, context(), m_compare, ScreenshotReaction::Target::View);
    QAction* wshot = file->addAction(tr("Save &window screenshot…"));
    new ScreenshotReaction(wshot, context(), m_compare, ScreenshotReaction::Target::Window);
    new ExportFigureReaction(file->addAction(tr("Export &figure for slides (PNG, SVG, PDF)…")), context(), m_compare);
    QAction* scores = file->addAction(tr("Export s&cores CSV…"));
    scores->setShortcut(QKeySequence(tr("Ctrl+E")));
    new ExportReaction(scores, context(), ExportReaction::What::Scores);
    QAction* model = file->addAction(tr("Export fitted &model JSON…"));
    new ExportReaction(model, context(), ExportReaction::What::Model);
    new ExportPointsReaction(file->addAction(tr("Export inliers (c&leaned cloud)…")), context(),
                             ExportPointsReaction::Which::Inliers);
    new ExportPointsReaction(file->addAction(tr("Export &flagged points…")), context(), ExportPointsReaction::Which::Flagged);
    new ExportPointsReaction(file->addAction(tr("Export selecte&d points…")), context(), ExportPointsReaction::Which::Selected);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    m_editReaction = new EditReaction(edit, context(), m_editor, m_detector);
    QAction* editMode = m_editReaction->editModeAction();
    edit->addSeparator();
    new SelectToolReaction(edit->addAction(tr("Select &box")), context(), VtkView::SelectionTool::Box, editMode);       // B
    new SelectToolReaction(edit->addAction(tr("Select &lasso")), context(), VtkView::SelectionTool::Lasso, editMode);   // L
    using Command = SelectionCommandReaction::Command;
    new SelectionCommandReaction(edit->addAction(tr("Select &all")), context(), Command::All);                // Ctrl+A
    new SelectionCommandReaction(edit->addAction(tr("&Invert selection")), context(), Command::Invert);       // Ctrl+Shift+I
    new SelectionCommandReaction(edit->addAction(tr("&Clear selection")), context(), Command::Clear);         // Ctrl+Shift+A

    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    m_presets = new PresetsReaction(presets, context(), m_detector, m_caption, m_unsaved);

    QMenu* train = menuBar()->addMenu(tr("&Train"));
    new TrainReaction(train->addAction(tr("&Train detector")), context(), m_detector);              // Ctrl+T
    new CancelTrainingReaction(train->addAction(tr("&Cancel training")), context(), m_backgroundOpen);    // Esc, Ctrl+.
    new StepTrainingReaction(train->addAction(tr("&Step training (one epoch / iteration)")),
                             train->addAction(tr("&Run to the end")), context(), m_detector);  // N, Shift+N
    new TimelineReactions(train, m_timeline, this);                                 // P, [, ], {, }

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* reset = view->addAction(tr("&Reset camera"));
    reset->setShortcut(QKeySequence(tr("R")));
    reset->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(reset, &QAction::triggered, m_view, &VtkView::resetCamera);
    QAction* fly = view->addAction(tr("&Fly to selected point"));
    fly->setShortcut(QKeySequence(tr("F")));
    connect(fly, &QAction::triggered, this, [this] { m_view->flyTo(m_doc->selectedPoint()); });
    view->addSeparator();
    // Camera presets of a 3-D tool, in the View menu itself (so the F1 page lists them).
    const struct {
        ViewPreset preset;
        const char* text;
    } cameraPresets[] = {{ViewPreset::PlusX, QT_TR_NOOP("View along &+X")}, {ViewPreset::MinusX, QT_TR_NOOP("View along &-X")},
                         {ViewPreset::PlusY, QT_TR_NOOP("View along +&Y")}, {ViewPreset::MinusY, QT_TR_NOOP("View along -Y")},
                         {ViewPreset::PlusZ, QT_TR_NOOP("View along +&Z")}, {ViewPreset::MinusZ, QT_TR_NOOP("View along -Z")},
                         {ViewPreset::Isometric, QT_TR_NOOP("&Isometric view")}};
    for (const auto& p : cameraPresets)
        new ViewPresetReaction(view->addAction(tr(p.text)), context(), p.preset); // Ctrl+1…7
    new ProjectionReaction(view->addAction(tr("&Orthographic projection")), context()); // O
    new OrientationTriadReaction(view->addAction(tr("Orientation &triad")), context());
    view->addSeparator();
    view->addAction(compare);
    QAction* classroom = view->addAction(tr("C&lassroom (full screen)"));
    m_classroom = new ClassroomReaction(classroom, view->addMenu(tr("&Keep in classroom")), this); // F11
    new LessonReaction(view, context(), m_timeline, m_caption); // Page Down / Page Up: the lesson's steps
    new TextSizeReaction(view, this); // Ctrl+=, Ctrl+-, Ctrl+0
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    QAction* resetLayout = view->addAction(tr("&Reset layout"));
    resetLayout->setObjectName("actionResetLayout");
    resetLayout->setToolTip(tr("Put the docks back where they were at the first start (the arrangement is "
                               "otherwise remembered between sessions)"));
    connect(resetLayout, &QAction::triggered, this, [this] {
        if (!m_defaultLayout.isEmpty())
            restoreState(m_defaultLayout, kLayoutVersion);
        QSettings().remove("layout/state");
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    new ShortcutsReaction(help->addAction(tr("&Keyboard shortcuts")), this); // F1
    new AboutReaction(help->addAction(tr("&About OutlierLens")), this);
}

void MainWindow::buildToolBar()
{
    // The menus' own actions (same shortcuts, same enable state), with icons from resources/.
    QToolBar* bar = addToolBar(tr("Main toolbar"));
    bar->setObjectName("MainToolBar");
    bar->setMovable(false);
    bar->setIconSize(QSize(22, 22));
    bar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    const struct {
        const char* action;
        const char* icon;
    } items[] = {{"actionOpen", "open"},  {"actionNewData", "new-data"}, {nullptr, nullptr},
                 {"actionTrain", "train"}, {"actionCancelTraining", "cancel"}, {nullptr, nullptr},
                 {"actionEditMode", "edit-mode"}, {"actionSelectBox", "select-box"}, {"actionSelectLasso", "select-lasso"},
                 {"actionCompareDetectors", "compare"}, {nullptr, nullptr},
                 {"actionScreenshot", "screenshot"}};
    for (const auto& item : items) {
        if (!item.action) {
            bar->addSeparator();
            continue;
        }
        QAction* a = action(item.action);
        Q_ASSERT(a);
        a->setIcon(QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(item.icon))));
        bar->addAction(a);
    }
}

QString MainWindow::shortcutsHtml() const
{
    return ShortcutsReaction::html(this);
}

bool MainWindow::openFile(const QString& path, QString* error)
{
    try {
        // Column roles chosen in File → Import for this file, else the loader's defaults.
        const auto roles = ImportDialog::remembered(path);
        Dataset d = roles && QFileInfo::exists(path) ? loadDataset(path.toStdString(), *roles) : loadCloudFile(path);
        adoptDataset(std::move(d), path);
        return true;
    } catch (const std::exception& e) {
        const QString msg = QString::fromUtf8(e.what());
        reportOpenFailure(msg);
        if (error)
            *error = msg;
        return false;
    }
}

void MainWindow::adoptDataset(Dataset&& d, const QString& path)
{
    for (const auto& w : d.warnings)
        m_log->warning(QString::fromStdString(w));
    const auto n = d.rows(), p = d.cols();
    m_doc->setDataset(std::move(d), path);
    m_log->info(tr("loaded %1: %2 samples × %3 features").arg(path).arg(n).arg(p));
    m_recent->add(path);
}

void MainWindow::reportOpenFailure(const QString& msg)
{
    m_log->error(msg);
    if (m_interactive) // only mention earlier data when there are some
        QMessageBox::warning(this, tr("Cannot open data"),
                             m_doc->isEmpty() ? msg : msg + tr("\n\nThe previous data are kept."));
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::updateStatus()
{
    const Dataset& d = m_doc->dataset();
    if (d.rows() == 0) {
        m_status->setText(d.cols() > 0 ? tr("empty canvas (p = %1) — click adds a point, shift-click an outlier").arg(d.cols())
                                       : tr("no data — File → Open (Ctrl+O)"));
        setWindowTitle(tr("OutlierLens[*]"));
        return;
    }
    // Where the data come from: their file, else the session file, else the generator.
    QString name = QFileInfo(m_doc->filePath()).fileName();
    if (name.isEmpty() && !m_sessionPath.isEmpty())
        name = QFileInfo(m_sessionPath).fileName();
    if (name.isEmpty())
        name = d.source.empty() ? tr("unsaved data") : QString::fromStdString(d.source);
    QString text = tr("n = %1   p = %2   file: %3").arg(d.rows()).arg(d.cols()).arg(name);
    if (m_unsaved->isModified())
        text += tr(" (modified)");
    if (!m_sessionPath.isEmpty() && name != QFileInfo(m_sessionPath).fileName())
        text += tr("   session: %1").arg(QFileInfo(m_sessionPath).fileName());
    if (const auto r = m_doc->result()) {
        text += tr("   detector: %1").arg(QString::fromStdString(r->detectorId));
        if (!r->trainingRows.empty()) // fit on a part, score all
            text += tr(" (fitted on %1 of %2 points)").arg(r->trainingRows.size()).arg(r->scores.size());
    }
    if (m_doc->selectedPoint() >= 0)
        text += tr("   selected point %1").arg(m_doc->selectedPoint());
    m_status->setText(text);
    m_status->setToolTip(m_doc->filePath().isEmpty() ? m_sessionPath : m_doc->filePath());
    setWindowTitle(tr("%1[*] — OutlierLens").arg(name));
}

} // namespace olens
