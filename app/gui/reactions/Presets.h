#pragma once
// The papers' toy set-ups, one menu entry each: generate the data, pick the detector and its
// parameters, train. A teacher reaches each figure in two clicks.
#include "shell/ReactionContext.h"
#include "base/Params.h"
#include "session/Session.h"

#include <QObject>
#include <QString>
#include <vector>

class QMenu;

namespace olens {

class DetectorPanel;
class LessonCaption;
class UnsavedChanges;

struct Preset {
    QString title;       ///< menu text
    QString figure;      ///< which paper figure it reproduces (tooltip)
    std::string generator;
    int n = 200;
    unsigned seed = 1;
    ParamAssignments generatorParams;
    std::string detector;
    ParamAssignments detectorParams;
    std::string normalization = "none";
    QString caption;     ///< what to look at (the lesson's first step, shown above the view while its data are loaded)
    std::vector<LessonStep> steps; ///< the lesson's further steps (Page Down): a training step, a point to look at
    int number = 0;      ///< 1-based place in the full list (its thumbnail :/presets/preset-N.png), set by availablePresets()
    /// The caption, then the steps.
    Lesson lesson() const;
};

/// Presets whose detector is registered (others are left out until their detector exists).
std::vector<Preset> availablePresets();

/// Fills a menu with the presets; each entry loads its data into the window and trains.
class PresetsReaction : public QObject {
    Q_OBJECT
public:
    /// `detector` trains (the Detector dock's Train: its loss plot follows), `caption` shows the
    /// lesson, `unsaved` asks before the preset's data replace unsaved changes (the menu only).
    PresetsReaction(QMenu* menu, const ReactionContext& context, DetectorPanel* detector, LessonCaption* caption,
                    UnsavedChanges* unsaved);
    /// Applies a preset (the start page's gallery, scripted runs, tests); returns false with the
    /// reason logged on failure.
    bool apply(const Preset& preset, bool train = true) const;

private:
    ReactionContext m_context;
    DetectorPanel* m_detector;
    LessonCaption* m_caption;
    UnsavedChanges* m_unsaved;
};

} // namespace olens
