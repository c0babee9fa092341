#pragma once
// View → Text size: Larger (Ctrl+= or Ctrl++), Smaller (Ctrl+−), Default (Ctrl+0). Scales every
// text the views draw — axes, ticks, legends, colour bars, notes, the compare panels — and the
// plots' text, for a projector or a figure; kept in the settings and in sessions. The scale also
// follows the screen's device pixel ratio (render/VtkSupport::fontPx).
#include <QObject>

class QMenu;
class QWidget;

namespace olens {

class TextSizeReaction : public QObject {
    Q_OBJECT
public:
    static constexpr double kStep = 1.25;
    /// A widget with kScalesWithTextProperty (render/VtkSupport) set to true has its font, and its
    /// children's, scaled too.
    TextSizeReaction(QMenu* view, QWidget* window);
    /// Applies a scale (clamped to [0.5, 4]) to every view and plot of the window; remembered in
    /// the settings unless `remember` is false (a scripted run's --text-size).
    static void apply(QWidget* window, double scale, bool remember = true);
};

} // namespace olens
