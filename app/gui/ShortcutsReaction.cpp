#include "ShortcutsReaction.h"

#include "MainWindow.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QScreen>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace olens {

ShortcutsReaction::ShortcutsReaction(QAction* action, MainWindow* window) : QObject(action), m_window(window)
{
    action->setObjectName("actionShortcuts");
    action->setShortcut(QKeySequence::HelpContents);
    action->setToolTip(tr("Every keyboard shortcut of the menus (F1)"));
    connect(action, &QAction::triggered, this, [this] { show(m_window); });
}

QDialog* ShortcutsReaction::show(MainWindow* window)
{
    auto* dialog = new QDialog(window);
    dialog->setObjectName("shortcutsDialog");
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard shortcuts"));
    auto* page = new QTextBrowser(dialog);
    page->setObjectName("shortcutsPage");
    page->setHtml(window->shortcutsHtml());
    page->setOpenLinks(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(page);
    layout->addWidget(buttons);
    // As tall as the table where the screen allows, never beyond 90 % of it: the page scrolls.
    const QScreen* screen = window->screen();
    const QRect avail = screen ? screen->availableGeometry() : QRect(0, 0, 1024, 600);
    page->document()->setTextWidth(std::min(560, avail.width() * 8 / 10));
    const QSize content = page->document()->size().toSize() + QSize(40, 80);
    dialog->resize(std::min(content.width(), avail.width() * 9 / 10), std::min(content.height(), avail.height() * 9 / 10));
    dialog->move(avail.center() - QPoint(dialog->width() / 2, dialog->height() / 2));
    dialog->show();
    return dialog;
}

} // namespace olens
