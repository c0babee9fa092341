#pragma once
// `outlierlens … --layout-report FILE.json` (issue #35): what a person would see of the window —
// its size, each dock's visible rectangle, the controls cut off or reachable only by scrolling, and
// how many Ranking rows are visible. GUI tests use it at 1280×720 and 1024×600.
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

namespace olens {

class MainWindow;

struct LayoutReport {
    /// How far from a highlighted point's centre its ring reaches (logical pixels): a text nearer
    /// covers it.
    static constexpr double kRingPx = 8.0;
    /// Rows of the Ranking table entirely visible (0 when its dock is hidden or behind a tab).
    static int rankingVisibleRows(const MainWindow* window);
    /// Input controls (buttons, combos, sliders, spin boxes, line edits) that are shown but lie
    /// partly outside their scroll area's viewport — cut off, or reachable only by scrolling.
    /// Named by objectName, else by class and text.
    static QStringList clippedControls(const MainWindow* window);
    /// Scroll areas and item views shown inside another scroll area (two scroll bars for one
    /// direction: the inner one steals the wheel, its end is below the outer fold), named by
    /// objectName, else class.
    static QStringList nestedScrolling(const MainWindow* window);
    /// Ranking columns shown but past the table's right edge (full names), empty when all fit.
    static QJsonArray rankingColumnsCut(const MainWindow* window);
    static QJsonObject report(const MainWindow* window);
    /// Writes report() as JSON through the guarded writer; returns an error or "".
    static QString write(const MainWindow* window, const QString& path);
};

} // namespace olens
