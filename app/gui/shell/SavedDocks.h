#pragma once
// A dock state saved on entering a mode that hides the docks (compare, classroom) and restored on
// leaving it. The window's first dock layout, or the tabbing of a window made short, must arrange
// that saved state — not the hidden docks of the moment — or leaving the mode brings back an
// unarranged layout (the Ranking a few rows high at 1280×720).
#include <QByteArray>

#include <functional>

class QMainWindow;

namespace olens {

/// Runs `arrange` on the docks of `saved` (then saved again into it), and puts the docks as they
/// are now back afterwards; with `saved` empty (the mode is off) it just runs `arrange`.
void arrangeSavedDocks(QMainWindow* window, QByteArray& saved, const std::function<void()>& arrange);

} // namespace olens
