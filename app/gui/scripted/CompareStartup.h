#pragma once
// `outlierlens --compare IDS`: the start-up waits for the first training of every panel and its
// score field before it prints the panel titles and takes the screenshot / exits. Later trainings
// (Train all, Combine, data edits) must not run that again: the first version connected a new
// poll on every allFinished and deleted its clock twice (a crash on the second Train all).
#include <functional>

class QObject;

namespace olens {

class CompareView;

/// Calls `ready` once: after the first allFinished of `cv`, when every panel with a result has
/// drawn its field (or 20 s later). `context` owns the poll timer and bounds the callbacks' life.
void whenCompareFirstDrawn(CompareView* cv, QObject* context, std::function<void()> ready);

} // namespace olens
