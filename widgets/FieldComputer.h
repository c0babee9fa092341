#pragma once
// Evaluates a trained detector's score (and the implicit functions of its geometry: quadrics,
// hyperplanes) on a regular display-space grid in a worker thread (display/ScoreField.h). The
// newest request wins: a running computation is abandoned between chunks when a newer one arrives.
#include "display/ScoreField.h"

#include <QObject>
#include <memory>

namespace olens {

// GridSpec, FieldRequest, FieldData and computeField live in core (display/): Qt-free and
// tested without a window; this class only runs them on the shared Worker.
class Worker;

/// Score fields in the background through the shared Worker (newest request wins).
class FieldComputer : public QObject {
    Q_OBJECT
public:
    explicit FieldComputer(QObject* parent = nullptr);
    ~FieldComputer() override;

    void request(FieldRequest request);
    bool isBusy() const;
    /// Stops the running computation (between chunks, within milliseconds) and drops any queued
    /// request: nothing arrives, cancelled() and busyChanged(false) follow. No-op when idle.
    void cancel();

signals:
    void ready(std::shared_ptr<const FieldData> field);
    void failed(const QString& message);
    /// A computation was stopped by cancel() (a replaced one is not reported).
    void cancelled();
    /// Fraction of the grid done (throttled), for a progress indicator.
    void progress(double fraction);
    /// A computation started (true) or the last one ended, delivered, failed or was replaced (false).
    void busyChanged(bool busy);

private:
    Worker* m_worker;
};

} // namespace olens
