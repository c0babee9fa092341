#include "scripted/LayoutReport.h"

#include "window/MainWindow.h"
#include "base/AtomicWriter.h"
#include "docks/RankingPanel.h"
#include "docks/DetectorPanel.h"
#include "docks/LessonCaption.h"
#include "docks/TimelineBar.h"
#include "document/DataDocument.h"
#include "pipeline/FitPipeline.h"
#include "view/CloudView.h"
#include "view/ViewTexts.h"

#include <QFontInfo>
#include <cmath>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>

#include <exception>

namespace olens {

namespace {

QJsonObject rectJson(const QRect& r)
{
    return {{"x", r.x()}, {"y", r.y()}, {"width", r.width()}, {"height", r.height()}};
}

bool isControl(const QWidget* w)
{
    if (qobject_cast<const QScrollBar*>(w))
        return false; // the means of scrolling, not a control reached by it
    return qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QComboBox*>(w)
           || qobject_cast<const QAbstractSlider*>(w) || qobject_cast<const QAbstractSpinBox*>(w)
           || qobject_cast<const QLineEdit*>(w);
}

QString controlName(const QWidget* w)
{
    if (!w->objectName().isEmpty() && !w->objectName().startsWith("qt_"))
        return w->objectName();
    QString text;
    if (const auto* b = qobject_cast<const QAbstractButton*>(w))
        text = b->text();
    else if (const auto* c = qobject_cast<const QComboBox*>(w))
        text = c->currentText();
    if (text.isEmpty())
        text = w->toolTip().left(40);
    return QString::fromLatin1(w->metaObject()->className()) + (text.isEmpty() ? QString() : " '" + text + "'");
}

/// Shown to a person: visible, and not in a dock behind another dock's tab. (visibleRegion() alone
/// is empty for every scroll area: its viewport, an opaque child, covers it.)
bool onScreen(const QWidget* w)
{
    if (!w->isVisible())
        return false;
    for (const QWidget* p = w; p; p = p->parentWidget())
        if (const auto* dock = qobject_cast<const QDockWidget*>(p))
            return !dock->visibleRegion().isEmpty();
    return true;
}

// Rows the shown result's decision flags at the document's threshold.
long long flaggedCount(const MainWindow* window)
{
    const DataDocument* doc = window->document();
    const auto r = doc ? doc->result() : nullptr;
    if (!r)
        return 0;
    return static_cast<long long>((r->scores.array() > doc->threshold()).count());
}

} // namespace

int LayoutReport::rankingVisibleRows(const MainWindow* window)
{
    const QTableView* table = window->rankingPanel() ? window->rankingPanel()->table() : nullptr;
    if (!table || !table->isVisible() || table->visibleRegion().isEmpty() || !table->model())
        return 0;
    const int height = table->viewport()->height();
    int rows = 0;
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->isRowHidden(r))
            continue;
        const int top = table->rowViewportPosition(r);
        if (top >= 0 && top + table->rowHeight(r) <= height)
            ++rows;
        else if (top >= height)
            break;
    }
    return rows;
}

QStringList LayoutReport::clippedControls(const MainWindow* window)
{
    QStringList out;
    for (const QScrollArea* area : window->findChildren<QScrollArea*>()) {
        const QWidget* inner = area->widget();
        if (!inner || !onScreen(area))
            continue;
        const QRect viewport = area->viewport()->rect();
        for (const QWidget* w : inner->findChildren<QWidget*>()) {
            if (!isControl(w) || !w->isVisible() || w->parentWidget() == nullptr)
                continue;
            if (qobject_cast<const QAbstractItemView*>(w->parentWidget()))
                continue; // an item view's own editors scroll by nature
            const QRect r(w->mapTo(area->viewport(), QPoint(0, 0)), w->size());
            if (!viewport.contains(r))
                out << controlName(w);
        }
    }
    out.removeDuplicates();
    return out;
}

QStringList LayoutReport::nestedScrolling(const MainWindow* window)
{
    QStringList out;
    for (const QScrollArea* area : window->findChildren<QScrollArea*>()) {
        if (!area->widget() || !onScreen(area))
            continue;
        for (const QAbstractScrollArea* inner : area->widget()->findChildren<QAbstractScrollArea*>()) {
            // A scroll area or a list/table; a text box scrolling its own text is expected.
            const bool scrolls = qobject_cast<const QScrollArea*>(inner) || qobject_cast<const QAbstractItemView*>(inner);
            if (scrolls && onScreen(inner))
                out << (inner->objectName().isEmpty() ? QString::fromLatin1(inner->metaObject()->className())
                                                      : inner->objectName())
                           + " in " + area->objectName();
        }
    }
    out.removeDuplicates();
    return out;
}

QJsonArray LayoutReport::rankingColumnsCut(const MainWindow* window)
{
    // Columns shown whose right end lies past the table's viewport: a sideways scroll to read them
    // (issue #52: the flag and "flagged by" columns at 1024×600). The last column (the explanation,
    // long text that is also every row's tooltip) counts when it starts past the edge.
    QJsonArray cut;
    const QTableView* table = window->rankingPanel() ? window->rankingPanel()->table() : nullptr;
    if (!table || !table->isVisible() || !table->model())
        return cut;
    const QHeaderView* h = table->horizontalHeader();
    const int room = table->viewport()->width();
    for (int c = 0; c < h->count(); ++c) {
        if (h->isSectionHidden(c))
            continue;
        const bool last = c == h->count() - 1;
        const int right = h->sectionPosition(c) + (last ? 0 : h->sectionSize(c));
        if (right > room + 1)
            cut.append(table->model()->headerData(c, Qt::Horizontal, Qt::UserRole).toString());
    }
    return cut;
}

QJsonObject LayoutReport::report(const MainWindow* window)
{
    QJsonObject docks;
    for (const QDockWidget* d : window->findChildren<QDockWidget*>()) {
        const bool shown = d->isVisible() && !d->visibleRegion().isEmpty();
        QJsonObject o{{"visible", shown}, {"floating", d->isFloating()}};
        if (shown)
            o["rect"] = rectJson(QRect(d->mapTo(window, QPoint(0, 0)), d->size()));
        docks[d->objectName()] = o;
    }
    QJsonArray clipped, nested;
    for (const QString& c : clippedControls(window))
        clipped.append(c);
    for (const QString& c : nestedScrolling(window))
        nested.append(c);
    const QTableView* table = window->rankingPanel() ? window->rankingPanel()->table() : nullptr;
    // Which training step each component shows (issue #52: one shown step everywhere); null for a
    // component that shows none (no scores during a step-by-step training, a caption about the
    // whole lesson, a hidden timeline).
    auto step = [](int s) { return s >= 0 ? QJsonValue(s) : QJsonValue(QJsonValue::Null); };
    const DataDocument* doc = window->document();
    const auto result = doc->result();
    QJsonObject shown{{"view", step(window->view()->drawnStep())},
                      {"scores", step(result ? stepShownBy(*result) : -1)},
                      {"ranking", step(window->rankingPanel()->listedStep())},
                      {"timeline", step(window->timeline()->isVisible() ? window->timeline()->labelledStep() : -1)},
                      {"detector", step(window->detectorPanel()->describedStep())}};
    if (window->lessonCaption()->hasLesson()) {
        shown["caption"] = step(window->lessonCaption()->describedStep());
        shown["caption_matches"] = window->lessonCaption()->describesShown();
    }
    // Texts of the view and of the window a class reads: the smallest font of each kind in device
    // pixels, texts that cover each other or a highlighted point, and where the highlighted points
    // are in an image of the view (--screenshot at the view's size).
    const CloudView& view = *window->view();
    QJsonObject minText;
    auto least = [&minText](const QString& what, int px) {
        if (px > 0 && (!minText.contains(what) || minText.value(what).toInt() > px))
            minText[what] = px;
    };
    for (const ViewText& t : viewTexts(view)) {
        const bool number = t.what.size() <= 12 && !t.what.contains(' ');
        const bool triad = t.what.startsWith(QStringLiteral("triad "));
        least(t.what == "legend" ? t.what
              : triad            ? QStringLiteral("triad")
              : number           ? QStringLiteral("ticks")
                                 : QStringLiteral("labels"),
              t.fontPx);
    }
    const qreal dpr = window->devicePixelRatioF();
    auto widgetPx = [dpr](const QWidget* w) { return int(std::lround(QFontInfo(w->font()).pixelSize() * dpr)); };
    if (window->lessonCaption()->isVisible())
        least(QStringLiteral("caption"), widgetPx(window->lessonCaption()->label()));
    if (window->timeline()->isVisible())
        least(QStringLiteral("timeline"), widgetPx(window->timeline()));
    int smallest = 0;
    for (auto it = minText.begin(); it != minText.end(); ++it)
        smallest = smallest == 0 ? it.value().toInt() : std::min(smallest, it.value().toInt());
    QJsonArray overlaps, points;
    const QPointF selected = selectedPointPx(view);
    for (const QString& o : textOverlaps(view, LayoutReport::kRingPx * dpr))
        overlaps.append(o);
    for (const QPointF& p : highlightedPoints(view))
        points.append(QJsonArray{int(std::lround(p.x())), int(std::lround(p.y()))});
    return {{"shown", shown},
            {"min_text_px", smallest},
            {"text_px", minText},
            {"overlaps", overlaps},
            {"highlighted_point_px", points},
            {"selected_point_px", selected.x() < 0 ? QJsonValue(QJsonValue::Null)
                                                    : QJsonValue(QJsonArray{int(std::lround(selected.x())), int(std::lround(selected.y()))})},
            {"window", QJsonObject{{"width", window->width()}, {"height", window->height()}}},
            {"docks", docks},
            {"controls_clipped", clipped},
            {"nested_scrolling", nested},
            {"ranking_visible_rows", rankingVisibleRows(window)},
            {"ranking_columns_cut", rankingColumnsCut(window)},
            {"ranking_rows", table && table->model() ? table->model()->rowCount() : 0},
            {"threshold_rule", window->rankingPanel() ? window->rankingPanel()->thresholdRule() : QString()},
            {"flagged", flaggedCount(window)},
            {"quiet_points", view.quietPoints()},
            {"quiet_stride", view.quietStride()}};
}

QString LayoutReport::write(const MainWindow* window, const QString& path)
{
    const QByteArray text = QJsonDocument(report(window)).toJson(QJsonDocument::Indented);
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            [&](std::ostream& out) { out.write(text.constData(), text.size()); });
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace olens
