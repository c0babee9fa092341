#pragma once
// Helpers for tests that drive the whole main window (olens_app).
#include "window/MainWindow.h"
#include "docks/DetectorPanel.h"
#include "jobs/TrainingController.h"

#include <QSignalSpy>

namespace olens::test {

/// Trains the window's detector (the Detector dock's Train) and waits for the result; false when
/// it did not finish within `timeoutMs`.
inline bool trainAndWait(MainWindow& w, int timeoutMs = 30000)
{
    QSignalSpy done(w.trainer(), &TrainingController::finished);
    w.detectorPanel()->train();
    return done.wait(timeoutMs);
}

} // namespace olens::test
