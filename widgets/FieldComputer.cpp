#include "FieldComputer.h"

#include "Worker.h"

namespace olens {

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
