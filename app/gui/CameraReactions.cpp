#include "CameraReactions.h"

#include "view/CloudView.h"
#include "document/DataDocument.h"
#include "render/CameraRig.h"

#include <QAction>

namespace olens {

namespace {

/// Enabled while the view shows (non-empty) 3-D data.
void followThreeD(QAction* action, const ReactionContext& context)
{
    CameraRig* rig = CameraRig::of(context.view);
    DataDocument* doc = context.document;
    auto update = [action, doc, rig] { action->setEnabled(!doc->isEmpty() && rig->isThreeD()); };
    QObject::connect(rig, &CameraRig::modeChanged, action, update);
    QObject::connect(doc, &DataDocument::datasetChanged, action, update);
    update();
}

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

ViewPresetReaction::ViewPresetReaction(QAction* action, const ReactionContext& context, ViewPreset preset) : QObject(action)
{
    action->setObjectName(QStringLiteral("actionView") + QLatin1String(objectSuffix(preset)));
    // Ctrl+1 … Ctrl+6: +X −X +Y −Y +Z −Z; Ctrl+7: isometric (Ctrl+0 is the default text size, as in a browser).
    static const char* keys[] = {"Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4", "Ctrl+5", "Ctrl+6", "Ctrl+7"};
    action->setShortcut(QKeySequence(tr(keys[static_cast<int>(preset)])));
    const QString name = QString::fromStdString(viewPresetName(preset));
    action->setToolTip(preset == ViewPreset::Isometric ? tr("Look at the data along (-1, -1, -1), +Z up")
                                                       : tr("Look at the data in the %1 direction").arg(name));
    CameraRig* rig = CameraRig::of(context.view);
    connect(action, &QAction::triggered, rig, [rig, preset] { rig->viewFrom(preset); });
    followThreeD(action, context);
}

ProjectionReaction::ProjectionReaction(QAction* action, const ReactionContext& context) : QObject(action)
{
    action->setObjectName("actionOrthographic");
    action->setCheckable(true);
    action->setShortcut(QKeySequence(tr("O")));
    action->setToolTip(tr("Orthographic (parallel) projection instead of perspective in the 3-D view (O)"));
    CameraRig* rig = CameraRig::of(context.view);
    action->setChecked(rig->parallelProjection());
    connect(action, &QAction::toggled, rig, &CameraRig::setParallelProjection);
    connect(rig, &CameraRig::projectionChanged, action, &QAction::setChecked);
    followThreeD(action, context);
}

OrientationTriadReaction::OrientationTriadReaction(QAction* action, const ReactionContext& context) : QObject(action)
{
    action->setObjectName("actionOrientationTriad");
    action->setCheckable(true);
    CameraRig* rig = CameraRig::of(context.view);
    action->setChecked(rig->orientationTriadVisible());
    action->setToolTip(tr("Show the x/y/z orientation triad in the corner of the 3-D view"));
    connect(action, &QAction::toggled, rig, &CameraRig::setOrientationTriadVisible);
    followThreeD(action, context);
}

} // namespace olens
