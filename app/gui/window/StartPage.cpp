#include "window/StartPage.h"

#include "reactions/Presets.h"
#include "document/DataDocument.h"
#include "files/RecentFilesMenu.h"
#include "shell/WindowShell.h"
#include "docks/FlowLayout.h"

#include <QAction>
#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace olens {

StartPage::StartPage(const ReactionContext& context, RecentFilesMenu* recent, const PresetsReaction* presets, QWidget* parent)
    : QWidget(parent), m_context(context), m_recentFiles(recent), m_presets(presets), m_recent(new QListWidget)
{
    setObjectName(QStringLiteral("StartPage"));
    setAutoFillBackground(true);
    auto* title = new QLabel(tr("<h2>OutlierLens</h2>Load a point cloud, pick a detector, train it and read the "
                                "outlier ranking, or start from one of the papers' figures below."));
    title->setWordWrap(true);

    // The File menu's own actions: the same enable state, shortcuts and dialogs.
    auto* buttonRow = new QWidget;
    auto* buttons = new FlowLayout(buttonRow, 6, 6); // wraps in a narrow window
    const struct {
        const char* action;
        QString text;
    } entries[] = {{"actionOpen", tr("Open data… (Ctrl+O)")},
                   {"actionImport", tr("Import… (Ctrl+I)")},
                   {"actionNewData", tr("New data…")},
                   {"actionOpenSession", tr("Open session… (Ctrl+Shift+O)")}};
    for (const auto& e : entries)
        if (QAction* a = context.shell->action(QString::fromLatin1(e.action))) {
            auto* b = new QPushButton(a->icon(), e.text);
            b->setObjectName(QStringLiteral("start_") + QString::fromLatin1(e.action));
            b->setToolTip(a->toolTip());
            connect(b, &QPushButton::clicked, a, &QAction::trigger);
            buttons->addWidget(b);
        }

    m_recent->setObjectName(QStringLiteral("StartRecent"));
    m_recent->setMaximumHeight(84);
    m_recent->setToolTip(tr("Double-click (or Enter) to open"));
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QString path = item->data(Qt::UserRole).toString();
        if (!path.isEmpty())
            m_recentFiles->open(path);
    });

    // The presets: a thumbnail of the figure each reproduces, its title, the lesson's first line.
    auto* gallery = new QWidget;
    auto* grid = new FlowLayout(gallery, 8, 8); // as many thumbnails per row as fit
    const auto all = availablePresets();
    for (int i = 0; i < static_cast<int>(all.size()); ++i) {
        const Preset& p = all[static_cast<std::size_t>(i)];
        auto* b = new QToolButton;
        b->setObjectName(QStringLiteral("start_preset_%1").arg(i + 1));
        b->setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
        b->setIcon(QIcon(QStringLiteral(":/presets/preset-%1.png").arg(p.number)));
        b->setIconSize(QSize(176, 132));
        b->setAutoRaise(true);
        QString shortTitle = p.title;
        if (shortTitle.size() > 34)
            shortTitle = shortTitle.left(33) + QStringLiteral("…");
        b->setText(shortTitle);
        b->setToolTip(QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>").arg(p.title.toHtmlEscaped(), p.caption.toHtmlEscaped(),
                                                                        p.figure.toHtmlEscaped()));
        connect(b, &QToolButton::clicked, this, [this, p] { m_presets->apply(p); });
        grid->addWidget(b);
    }

    auto* content = new QWidget;
    auto* col = new QVBoxLayout(content);
    col->setContentsMargins(24, 16, 24, 16);
    col->addWidget(title);
    col->addWidget(buttonRow);
    col->addSpacing(8);
    col->addWidget(new QLabel(tr("<b>Recent files</b>")));
    col->addWidget(m_recent);
    col->addSpacing(8);
    auto* galleryTitle = new QLabel(tr("<b>The papers' figures</b> — one click loads the data, the detector and its "
                                       "settings, and trains; most are lessons you step through with Page Down"));
    galleryTitle->setWordWrap(true);
    col->addWidget(galleryTitle);
    col->addWidget(gallery);
    col->addStretch(1);
    auto* scroll = new QScrollArea; // one scroll area, for a window smaller than the gallery
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the rows wrap instead
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    parent->installEventFilter(this);
    connect(context.document, &DataDocument::datasetChanged, this, &StartPage::updateShown);
    updateShown();
}

bool StartPage::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

void StartPage::updateShown()
{
    // No data at all (New data's empty canvas has its columns: the view is where points are added).
    const Dataset& d = m_context.document->dataset();
    const bool none = d.rows() == 0 && d.featureNames.empty();
    setGeometry(parentWidget()->rect());
    setVisible(none);
    if (none)
        raise();
}

void StartPage::showEvent(QShowEvent* e)
{
    fillRecent();
    QWidget::showEvent(e);
}

void StartPage::fillRecent()
{
    m_recent->clear();
    for (const QString& f : m_recentFiles->files()) {
        auto* item = new QListWidgetItem(QStringLiteral("%1   —   %2").arg(QFileInfo(f).fileName(), QFileInfo(f).absolutePath()));
        item->setData(Qt::UserRole, f);
        item->setToolTip(f);
        m_recent->addItem(item);
    }
    if (m_recent->count() == 0)
        m_recent->addItem(tr("(none yet: the files and sessions you open are listed here)"));
}

} // namespace olens
