#include "jobs/Executor.h"

#include <QThreadPool>

namespace olens {

QThreadPool* Executor::pool()
{
    static QThreadPool* const instance = [] {
        auto* p = new QThreadPool; // lives until exit, like QThreadPool::globalInstance()
        p->setObjectName(QStringLiteral("OutlierLensExecutor"));
        p->setMaxThreadCount(kMaxJobs);
        return p;
    }();
    return instance;
}

} // namespace olens
