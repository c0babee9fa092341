#include "jobs/FieldComputer.h"

#include "jobs/Worker.h"
#include "pipeline/FitPipeline.h"

namespace olens {

QString FieldComputer::describeGrid(const GridSpec& g)
{
    QString s = tr("grid %1").arg(g.dims == 2 ? QStringLiteral("%1×%1").arg(g.res[0])
                                              : QStringLiteral("%1×%1×%1").arg(g.res[0]));
    const char* axes[] = {"x", "y", "z"};
    for (int a = 0; a < g.dims; ++a)
        s += QStringLiteral("  %1∈[%2, %3]").arg(axes[a]).arg(g.lo[a], 0, 'g', 3).arg(g.hi[a], 0, 'g', 3);
    return s;
}

std::optional<FieldRequest> FieldComputer::requestFor(const FitResult* result, const Geometry* live, const Normalizer* liveNorm,
                                                      const Projection& projection, const GridSpec& grid, int component)
{
    FieldRequest req;
    if (live && liveNorm) {
        req.normalizer = *liveNorm;
        req.geometry = *live;
    } else if (result) {
        req.detector = result->detector;
        req.normalizer = result->normalizer;
        req.geometry = result->geometry;
        if (component >= 0 && result->detector && component < static_cast<int>(result->detector->scoreComponents().size()))
            req.component = component;
    }
    req.geometry.flats.clear(); // drawn directly, not sampled
    req.projection = projection;
    req.grid = grid;
    if (req.grid.dims == 3 && !req.detector && req.geometry.quadrics.empty() && req.geometry.frames.empty())
        return std::nullopt;
    return req;
}

FieldComputer::FieldComputer(QObject* parent) : QObject(parent), m_worker(new Worker(Worker::Policy::NewestWins, this))
{
    connect(m_worker, &Worker::failed, this, &FieldComputer::failed);
    connect(m_worker, &Worker::progress, this, [this](const ProgressInfo& info) { emit progress(info.fraction); });
    connect(m_worker, &Worker::busyChanged, this, &FieldComputer::busyChanged);
    connect(m_worker, &Worker::cancelled, this, &FieldComputer::cancelled);
}

FieldComputer::~FieldComputer() = default;

void FieldComputer::cancel()
{
    m_worker->cancel();
}

bool FieldComputer::isBusy() const
{
    return m_worker->isBusy();
}

void FieldComputer::request(FieldRequest request)
{
    // The job owns its request; the result is handed over once and not kept (no cycle).
    m_worker->run<std::shared_ptr<const FieldData>>(
        [request = std::move(request)](const ProgressCallback& progress) -> std::shared_ptr<const FieldData> {
            auto f = computeField(request, nullptr, progress);
            if (!f)
                throw Cancelled();
            return std::make_shared<const FieldData>(std::move(*f));
        },
        [this](std::shared_ptr<const FieldData> field) { emit ready(std::move(field)); });
}

} // namespace olens
