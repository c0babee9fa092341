#include "window/MainWindow.h"
#include "base/Format.h"
#include "modes/ClassroomReaction.h"
#include "modes/CompareReaction.h"
#include <QUndoStack>
#include "files/RecentFilesMenu.h"
#include <QStatusBar>

#include "files/BackgroundOpen.h"

#include "reactions/ShortcutsReaction.h"
#include "reactions/CameraReactions.h"
#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "view/DataEditor.h"
#include "docks/DataPanel.h"
#include "shell/EditModeIndicator.h"
#include "reactions/EditReactions.h"
#include "shell/FieldProgressIndicator.h"
#include "dialogs/ImportDialog.h"
#include "reactions/SelectionReactions.h"
#include "shell/UnsavedChanges.h"
#include "files/SessionManager.h"
#include "files/Autosave.h"
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
#include "window/StartPage.h"
#include "jobs/TrainingController.h"
#include "docks/ViewControls.h"

#include <QCloseEvent>
#include <QResizeEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QFrame>
#include <QIcon>
#include <QLabel>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QTimer>
#include <QSettings>
#include <QVBoxLayout>


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
    // N stops a replay: the step-by-step training takes the shown step (issue #52).
    connect(m_trainer, &TrainingController::claimingView, m_timeline, &TimelineBar::pause);
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
    // Its saves start from the event loop, when setModes (below) has been called.
    m_autosave = new Autosave(context(), m_sessions, m_detector);
    m_sessions->setAutosave(m_autosave);
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
    connect(m_sessions, &SessionManager::sessionOpened, this, [this](const QString& path, bool autosaved) {
        m_sessionPath = path;
        if (!autosaved) { // a restored autosave is work not saved anywhere yet, and no recent file
            m_unsaved->markSaved();
            m_recent->add(path);
        }
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
        // A label-free rule of the Ranking (a big cloud's automatic top 1000 among them) is named:
        // the log called it "your threshold", which the user never set.
        const QString rule = m_ranking ? m_ranking->thresholdRule() : QString();
        if (r && !rule.isEmpty() && rule != QLatin1String("detector"))
            m_log->info(tr("threshold %1 by the Ranking's rule '%2' (the detector's own: %3)")
                            .arg(m_doc->threshold(), 0, 'g', 4)
                            .arg(rule)
                            .arg(r->threshold, 0, 'g', 4));
        else if (m_doc->thresholdIsUserSet())
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
    return SessionParts{m_detector, m_controls, m_caption, m_classroom, m_compare, m_timeline};
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
            // A laptop: a column of its own would leave the view a strip, and under the Ranking it
            // left the Ranking 2 rows. A tab in the left column, in front of the Detector dock
            // (one click back), the column widened to the matrix's width: the Ranking it is linked
            // to stays in sight (as a tab beside the Ranking it hid it, issue #52).
            tabifyDockWidget(det, splom);
            splom->show();
            splom->raise();
            resizeDocks({splom, ranking}, {std::max(detWidth, side), rankingWidth}, Qt::Horizontal);
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

QString MainWindow::shortcutsHtml() const
{
    return ShortcutsReaction::html(this);
}

bool MainWindow::openFile(const QString& path, QString* error)
{
    try {
        // Column roles chosen in File → Import for this file, else the loader's defaults.
        const auto roles = ImportDialog::remembered(path);
        std::optional<LoadOptions> chosen = roles;
        if (chosen)
            chosen->maxBytes = inputLimitBytes();
        Dataset d = chosen && QFileInfo::exists(path) ? loadDataset(path.toStdString(), *chosen) : loadCloudFile(path);
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
    if (QFileInfo(path).isFile())
        m_sessions->trustedFolders().addFolderOf(path); // the user's own data folder: sessions read it without asking
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
