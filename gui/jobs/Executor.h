#pragma once
// The one owner of the GUI's background threads: every job — training, score fields, compare
// panels, similarity, the autosave — runs on this pool (through a Worker, or the autosave's own
// QtConcurrent call), and each job holds a base/ParallelFor JobThreads while it runs, so the
// threads its parallel loops and the BLAS start are its share of the cores, not all of them.
class QThreadPool;

namespace olens {

class Executor {
public:
    /// Room for every concurrent job at once (nine compare panels, their score fields, a save):
    /// the jobs mostly block or share the cores through their budget, so the pool is not sized by
    /// the cores but by how many jobs may wait on each other.
    static constexpr int kMaxJobs = 24;
    static QThreadPool* pool();
};

} // namespace olens
