#include "scripted/CompareStartup.h"

#include "compare/CompareView.h"
#include "document/DataDocument.h"
#include "view/CloudView.h"

#include <QElapsedTimer>
#include <QTimer>
#include <memory>

namespace olens {

void whenCompareFirstDrawn(CompareView* cv, QObject* context, std::function<void()> ready)
{
    auto* poll = new QTimer(context);
    auto clock = std::make_shared<QElapsedTimer>();
    auto first = std::make_shared<QMetaObject::Connection>();
    *first = QObject::connect(cv, &CompareView::allFinished, context, [cv, poll, clock, first, ready] {
        QObject::disconnect(*first); // only the first training
        clock->start();
        QObject::connect(poll, &QTimer::timeout, cv, [cv, poll, clock, ready] {
            bool drawn = true;
            for (int i = 0; i < cv->panelCount(); ++i)
                drawn = drawn && (!cv->panelDocument(i)->result() || cv->panelView(i)->field());
            if (drawn || clock->elapsed() > 20000) {
                poll->stop();
                poll->deleteLater();
                ready();
            }
        });
        poll->start(100);
    });
}

} // namespace olens
