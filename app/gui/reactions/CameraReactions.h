#pragma once
// View → Camera: the presets of a 3-D tool (views along ±X/±Y/±Z, isometric), the orthographic
// projection toggle and the orientation triad. Each action is enabled while the central view
// shows 3-D data (2-D views are always parallel and look down -z).
#include "shell/Reaction.h"
#include "display/ViewPresets.h"

#include <QObject>

class QAction;

namespace olens {

/// A camera action: enabled while the view shows (non-empty) 3-D data.
class ThreeDReaction : public Reaction {
    Q_OBJECT
public:
    ThreeDReaction(QAction* action, const ReactionContext& context);

protected:
    bool isEnabledNow() const override;
};

/// Looks at the data along one preset direction (object name actionView<+X|…|Isometric>).
class ViewPresetReaction : public ThreeDReaction {
    Q_OBJECT
public:
    ViewPresetReaction(QAction* action, const ReactionContext& context, ViewPreset preset);

private:
    void onTriggered() override;
    ViewPreset m_preset;
};

/// Checkable: orthographic (parallel) ↔ perspective projection of the 3-D view (O).
class ProjectionReaction : public ThreeDReaction {
    Q_OBJECT
public:
    ProjectionReaction(QAction* action, const ReactionContext& context);
};

/// Checkable: shows the x/y/z orientation triad in the 3-D view's corner.
class OrientationTriadReaction : public ThreeDReaction {
    Q_OBJECT
public:
    OrientationTriadReaction(QAction* action, const ReactionContext& context);
};

} // namespace olens
