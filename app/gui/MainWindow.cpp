#include "MainWindow.h"

#include "CloudView.h"
#include "DataDocument.h"
#include "DataPanel.h"
#include "LogPanel.h"
#include "Reactions.h"

#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace olens {

namespace {
QLabel* placeholder(const QString& text)
{
    auto* l = new QLabel(text);
    l->setWordWrap(true);
    l->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    l->setMargin(8);
    l->setStyleSheet("color: #555;");
    return l;
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_doc(new DataDocument(this)), m_log(new LogPanel), m_status(new QLabel)
{
    setWindowTitle(tr("OutlierLens"));
    setObjectName("MainWindow");
    m_view = new CloudView(m_doc, this);
    setCentralWidget(m_view);
    statusBar()->addPermanentWidget(m_status, 1);
    buildDocks();
    buildMenus();
    connect(m_doc, &DataDocument::datasetChanged, this, &MainWindow::updateStatus);
    connect(m_doc, &DataDocument::selectionChanged, this, [this](int index) {
        if (index >= 0)
            statusBar()->showMessage(tr("selected point %1").arg(index), 5000);
    });
    updateStatus();
    resize(1280, 820);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks()
{
    auto addDock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(w);
        addDockWidget(area, dock);
        return dock;
    };
    addDock(tr("Data"), "DataDock", new DataPanel(m_doc), Qt::LeftDockWidgetArea);
    addDock(tr("Detector"), "DetectorDock",
            placeholder(tr("Detector: choose a detector, edit its parameters (generated from its schema), "
                           "train in the background with progress, loss plot and Cancel. Coming with the "
                           "exploration workflow; meanwhile use outlierlens-cli score/evaluate.")),
            Qt::LeftDockWidgetArea);
    auto* ranking = addDock(tr("Ranking"), "RankingDock",
                            placeholder(tr("Ranking: points sorted by outlier score, linked with the view. "
                                           "Coming with the exploration workflow.")),
                            Qt::RightDockWidgetArea);
    auto* eval = addDock(tr("Evaluation"), "EvaluationDock",
                         placeholder(tr("Evaluation: ROC and PR curves with AUROC/AUPRC when the data have a "
                                        "label column. Coming with the exploration workflow.")),
                         Qt::RightDockWidgetArea);
    tabifyDockWidget(ranking, eval);
    ranking->raise();
    addDock(tr("Log"), "LogDock", m_log, Qt::BottomDockWidgetArea);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open data…"));
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Load CSV, TSV, TXT, XYZ or PLY point data"));
    new OpenDataReaction(open, this);
    QAction* shot = file->addAction(tr("Save &screenshot…"));
    shot->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
    new ScreenshotReaction(shot, this);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* reset = view->addAction(tr("&Reset camera"));
    reset->setShortcut(QKeySequence(tr("R")));
    reset->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(reset, &QAction::triggered, m_view, &VtkView::resetCamera);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About OutlierLens"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About OutlierLens"),
                           tr("<b>OutlierLens %1</b><p>Explore geometric outlier detectors and manifold "
                              "learners on point clouds.</p><p>Mouse: left drag rotates (3D) or adjusts nothing "
                              "in 2D, middle drag pans, wheel zooms, click picks a point, double-click or R "
                              "resets the camera.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

bool MainWindow::openFile(const QString& path, QString* error)
{
    try {
        Dataset d = loadCloudFile(path);
        for (const auto& w : d.warnings)
            m_log->warning(QString::fromStdString(w));
        const auto n = d.rows(), p = d.cols();
        m_doc->setDataset(std::move(d), path);
        m_log->info(tr("loaded %1: %2 samples × %3 features").arg(path).arg(n).arg(p));
        return true;
    } catch (const std::exception& e) {
        const QString msg = QString::fromUtf8(e.what());
        m_log->error(msg);
        if (error)
            *error = msg;
        if (m_interactive)
            QMessageBox::warning(this, tr("Cannot open data"), msg + tr("\n\nThe previous data are kept."));
        return false;
    }
}

void MainWindow::updateStatus()
{
    const Dataset& d = m_doc->dataset();
    if (d.rows() == 0) {
        m_status->setText(tr("no data — File → Open (Ctrl+O)"));
        setWindowTitle(tr("OutlierLens"));
        return;
    }
    const QString name = QFileInfo(m_doc->filePath()).fileName();
    m_status->setText(tr("n = %1   p = %2   file: %3").arg(d.rows()).arg(d.cols()).arg(name));
    setWindowTitle(tr("%1 — OutlierLens").arg(name));
}

} // namespace olens
