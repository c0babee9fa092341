#pragma once
// Evaluates a trained detector's score (and the implicit functions of its geometry: quadrics,
// hyperplanes) on a regular display-space grid in a worker thread (display/ScoreField.h). The
// newest request wins: a running computation is abandoned between chunks when a newer one arrives.
#include "display/ScoreField.h"

#include <QObject>
#include <memory>
#include <optional>

namespace olens {

// GridSpec, FieldRequest, FieldData and computeField live in core (display/): Qt-free and
// tested without a window; this class only runs them on the shared Worker.
class Worker;
struct FitResult;

/// Score fields in the background through the shared Worker (newest request wins).
class FieldComputer : public QObject {
    Q_OBJECT
public:
    explicit FieldComputer(QObject* parent = nullptr);
    ~FieldComputer() override;

    /// The field a view asks for: the live training snapshot's geometry while there is one
    /// (`live`, with `liveNorm`), else the result's detector (its score component `component` when
    /// it has that many) and geometry; flats are drawn, not sampled. nullopt when a 3-D grid would
    /// have nothing to sample (geometry only, without quadrics or hyperplanes).
    static std::optional<FieldRequest> requestFor(const FitResult* result, const Geometry* live, const Normalizer* liveNorm,
                                                  const Projection& projection, const GridSpec& grid, int component);

    /// The grid's resolution and extent as shown on screen ("grid 200×200  x∈[…]  y∈[…]").
    static QString describeGrid(const GridSpec& grid);

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
