#pragma once
// Helpers for tests that drive the whole main window (olens_app).
#include "window/MainWindow.h"
#include "docks/DetectorPanel.h"
#include "jobs/TrainingController.h"
#include "reactions/Presets.h"

#include <QSignalSpy>
#include <QtTest>

namespace olens::test {

/// Trains the window's detector (the Detector dock's Train) and waits for the result; false when
/// it did not finish within `timeoutMs`.
inline bool trainAndWait(MainWindow& w, int timeoutMs = 30000)
{
    QSignalSpy done(w.trainer(), &TrainingController::finished);
    w.detectorPanel()->train();
    return done.wait(timeoutMs);
}

/// Shows the window at `size` and waits (up to 60 s) until it is exposed.
inline bool showAt(MainWindow& w, QSize size)
{
    w.setInteractive(false);
    w.resize(size);
    w.show();
    return QTest::qWaitForWindowExposed(&w, 60000);
}

/// Applies preset 1 (the quadrics lesson on the seam curve) with `epochs` epochs and waits for its
/// training; false when it did not finish within a minute.
inline bool applyLessonPreset(MainWindow& w, int epochs)
{
    Preset preset = availablePresets().front();
    preset.detectorParams = {{"epochs", std::to_string(epochs)}};
    QSignalSpy finished(w.trainer(), &TrainingController::finished);
    return w.presets()->apply(preset) && finished.wait(60000);
}

} // namespace olens::test
