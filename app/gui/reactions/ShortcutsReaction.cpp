#include "reactions/ShortcutsReaction.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace olens {

ShortcutsReaction::ShortcutsReaction(QAction* action, QMainWindow* window) : QObject(action), m_window(window)
{
    action->setObjectName("actionShortcuts");
    action->setShortcut(QKeySequence::HelpContents);
    action->setToolTip(tr("Every keyboard shortcut of the menus (F1)"));
    connect(action, &QAction::triggered, this, [this] { show(m_window); });
}

QDialog* ShortcutsReaction::show(QMainWindow* window)
{
    auto* dialog = new QDialog(window);
    dialog->setObjectName("shortcutsDialog");
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard shortcuts"));
    auto* page = new QTextBrowser(dialog);
    page->setObjectName("shortcutsPage");
    page->setHtml(html(window));
    page->setOpenLinks(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(page);
    layout->addWidget(buttons);
    // 640 px wide (the key column and the action's menu path on one line each), as tall as the
    // table where the screen allows, never beyond 90 % of it: the page scrolls. Over the window.
    const QScreen* screen = window->screen();
    const QRect avail = screen ? screen->availableGeometry() : QRect(0, 0, 1024, 600);
    const int width = std::min(640, avail.width() * 9 / 10);
    page->document()->setTextWidth(width - 60);
    const int height = std::min(static_cast<int>(page->document()->size().height()) + 100, avail.height() * 9 / 10);
    dialog->resize(width, height);
    QRect g(QPoint(0, 0), QSize(width, height));
    g.moveCenter(window->frameGeometry().center());
    g.moveLeft(std::clamp(g.left(), avail.left(), avail.right() - width + 1));
    g.moveTop(std::clamp(g.top(), avail.top(), avail.bottom() - height + 1));
    dialog->move(g.topLeft());
    dialog->show();
    return dialog;
}

QString ShortcutsReaction::html(const QMainWindow* window)
{
    // Generated from the actions themselves, so the page never drifts from the menus.
    QString html = tr("<table cellspacing='6'>");
    for (QAction* menuAction : window->menuBar()->actions()) {
        QMenu* menu = menuAction->menu();
        if (!menu)
            continue;
        for (QAction* a : menu->actions())
            if (!a->shortcut().isEmpty())
                html += QStringLiteral("<tr><td><b>%1</b></td><td>%2 → %3</td></tr>")
                            .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                                 menuAction->text().remove('&'), a->text().remove('&').remove("…"));
    }
    html += tr("<tr><td><b>mouse</b></td><td>left drag rotates (3D), middle drag pans, wheel zooms, click "
                   "selects a point, double-click resets the camera; with Select box / lasso on, left drag selects "
                   "(Shift adds, Ctrl subtracts)</td></tr></table>");
    return html;
}

} // namespace olens
