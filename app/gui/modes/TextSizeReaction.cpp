#include "modes/TextSizeReaction.h"

#include "plots/PlotWidget.h"
#include "render/VtkSupport.h"
#include "view/CloudView.h"

#include <QAction>
#include <QFont>
#include <QApplication>
#include <QMenu>
#include <QSettings>

#include <vector>

namespace olens {

namespace {
const char* kKey = "view/text_scale";
}

TextSizeReaction::TextSizeReaction(QMenu* view, QWidget* window) : QObject(window)
{
    QMenu* menu = view->addMenu(tr("&Text size"));
    menu->setToolTipsVisible(true);
    QAction* larger = menu->addAction(tr("&Larger"));
    larger->setShortcuts({QKeySequence(tr("Ctrl+=")), QKeySequence(tr("Ctrl++"))});
    larger->setToolTip(tr("Larger text in the view, the colour bar, the legend and the plots (Ctrl+=), for a projector"));
    QAction* smaller = menu->addAction(tr("&Smaller"));
    smaller->setShortcut(QKeySequence(tr("Ctrl+-")));
    smaller->setToolTip(tr("Smaller text in the view and the plots (Ctrl+−)"));
    QAction* reset = menu->addAction(tr("&Default"));
    reset->setShortcut(QKeySequence(tr("Ctrl+0")));
    reset->setToolTip(tr("The default text size (Ctrl+0)"));
    for (QAction* a : {larger, smaller, reset}) {
        a->setShortcutContext(Qt::WindowShortcut);
        window->addAction(a); // in classroom mode too, with the menu bar hidden
    }
    connect(larger, &QAction::triggered, this, [window] { apply(window, textScale() * kStep); });
    connect(smaller, &QAction::triggered, this, [window] { apply(window, textScale() / kStep); });
    connect(reset, &QAction::triggered, this, [window] { apply(window, 1.0); });
    apply(window, QSettings().value(kKey, 1.0).toDouble());
}

void TextSizeReaction::apply(QWidget* window, double scale, bool remember)
{
    setTextScale(scale, qApp->devicePixelRatio());
    if (remember)
        QSettings().setValue(kKey, textScale());
    for (CloudView* v : window->findChildren<CloudView*>())
        v->refreshText();
    for (PlotWidget* p : window->findChildren<PlotWidget*>())
        p->setTextScale(textScale());
    // The widgets a class reads from the back row (the lesson caption, the timeline's counter) mark
    // themselves with kScalesWithTextProperty: their font, and their children's, follows the text size too.
    // It did not: 13 px capitals in the caption at the projector setting, beside 20 px ticks.
    // Each widget is set itself: a style sheet on the caption stops the font's propagation.
    // Every first font is recorded before any is changed (a child inherits its parent's scaled
    // font: recorded after, it was scaled twice — a window started at a saved 1.56 showed the
    // timeline at 2.4×).
    std::vector<QWidget*> scaled;
    for (QWidget* w : window->findChildren<QWidget*>()) {
        if (!w->property(kScalesWithTextProperty).toBool())
            continue;
        scaled.push_back(w);
        for (QWidget* child : w->findChildren<QWidget*>())
            scaled.push_back(child);
    }
    for (QWidget* w : scaled)
        rememberWidgetFont(w);
    for (QWidget* w : scaled)
        scaleWidgetFont(w);
}

} // namespace olens
