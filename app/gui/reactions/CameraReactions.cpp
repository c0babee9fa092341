#include "reactions/CameraReactions.h"

#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "render/CameraRig.h"

#include <QAction>

namespace olens {

namespace {

const char* objectSuffix(ViewPreset p)
{
    switch (p) {
    case ViewPreset::PlusX: return "PlusX";
    case ViewPreset::MinusX: return "MinusX";
    case ViewPreset::PlusY: return "PlusY";
    case ViewPreset::MinusY: return "MinusY";
    case ViewPreset::PlusZ: return "PlusZ";
    case ViewPreset::MinusZ: return "MinusZ";
    case ViewPreset::Isometric: return "Isometric";
    }
    return "";
}

} // namespace

ThreeDReaction::ThreeDReaction(QAction* action, const ReactionContext& context) : Reaction(action, context)
{
    connect(CameraRig::of(context.view), &CameraRig::modeChanged, this, &ThreeDReaction::updateEnabled);
    trackEnabled();
}

bool ThreeDReaction::isEnabledNow() const
{
    return !m_context.document->isEmpty() && CameraRig::of(m_context.view)->isThreeD();
}

ViewPresetReaction::ViewPresetReaction(QAction* action, const ReactionContext& context, ViewPreset preset)
    : ThreeDReaction(action, context), m_preset(preset)
{
    action->setObjectName(QStringLiteral("actionView") + QLatin1String(objectSuffix(preset)));
    // Ctrl+1 … Ctrl+6: +X −X +Y −Y +Z −Z; Ctrl+7: isometric (Ctrl+0 is the default text size, as in a browser).
    static const char* keys[] = {"Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4", "Ctrl+5", "Ctrl+6", "Ctrl+7"};
    action->setShortcut(QKeySequence(tr(keys[static_cast<int>(preset)])));
    const QString name = QString::fromStdString(viewPresetName(preset));
    action->setToolTip(preset == ViewPreset::Isometric ? tr("Look at the data along (-1, -1, -1), +Z up")
                                                       : tr("Look at the data in the %1 direction").arg(name));
}

void ViewPresetReaction::onTriggered()
{
    CameraRig::of(m_context.view)->viewFrom(m_preset);
}

ProjectionReaction::ProjectionReaction(QAction* action, const ReactionContext& context)
    : ThreeDReaction(action, context)
{
    action->setObjectName("actionOrthographic");
    action->setCheckable(true);
    action->setShortcut(QKeySequence(tr("O")));
    action->setToolTip(tr("Orthographic (parallel) projection instead of perspective in the 3-D view (O)"));
    CameraRig* rig = CameraRig::of(context.view);
    action->setChecked(rig->parallelProjection());
    connect(action, &QAction::toggled, rig, &CameraRig::setParallelProjection);
    connect(rig, &CameraRig::projectionChanged, action, &QAction::setChecked);
}

OrientationTriadReaction::OrientationTriadReaction(QAction* action, const ReactionContext& context)
    : ThreeDReaction(action, context)
{
    action->setObjectName("actionOrientationTriad");
    action->setCheckable(true);
    CameraRig* rig = CameraRig::of(context.view);
    action->setChecked(rig->orientationTriadVisible());
    action->setToolTip(tr("Show the x/y/z orientation triad in the corner of the 3-D view"));
    connect(action, &QAction::toggled, rig, &CameraRig::setOrientationTriadVisible);
}

} // namespace olens
