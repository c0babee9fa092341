// MainWindow's menus and tool bar: each entry is made here and handed to the reaction that carries
// it out (kept apart from MainWindow.cpp, which builds the docks and answers the window's services).
#include "window/MainWindow.h"
#include "document/DataDocument.h"
#include "view/CloudView.h"
#include <QMenuBar>


#include "reactions/AboutReaction.h"
#include "reactions/ShortcutsReaction.h"
#include "reactions/CameraReactions.h"
#include "modes/CompareReaction.h"
#include "reactions/EditReactions.h"
#include "reactions/ExportFigureReaction.h"
#include "reactions/ExportPointsReaction.h"
#include "reactions/ImportReaction.h"
#include "files/RecentFilesMenu.h"
#include "reactions/SelectionReactions.h"
#include "reactions/Presets.h"
#include "reactions/Reactions.h"
#include "files/SessionReactions.h"
#include "reactions/TrainReactions.h"
#include "reactions/TimelineReactions.h"
#include "modes/ClassroomReaction.h"
#include "reactions/LessonReaction.h"
#include "modes/TextSizeReaction.h"

#include <QDockWidget>
#include <QIcon>
#include <QSettings>
#include <QToolBar>


// The icons (resources/outlierlens.qrc) live in this static library: register them explicitly.
static void initOutlierLensResources()
{
    Q_INIT_RESOURCE(outlierlens);
}

namespace olens {

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
    new OpenSessionReaction(file->addAction(tr("Open se&ssion…")), context(), m_backgroundOpen, m_unsaved, m_sessions); // Ctrl+Shift+O
    new OpenSessionReaction(file->addAction(tr("Open session as &presented…")), context(), m_backgroundOpen, m_unsaved,
                            m_sessions, true);
    new SaveSessionReaction(file->addAction(tr("Save sessio&n…")), context(), m_sessions, false); // Ctrl+S
    new SaveSessionReaction(file->addAction(tr("Save session &with data…")), context(), m_sessions, true);
    new RestoreAutosaveReaction(file->addAction(tr("Restore &autosave")), context(), m_autosave, m_backgroundOpen, m_unsaved);
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

} // namespace olens
