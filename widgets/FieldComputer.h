#pragma once
// Evaluates a trained detector's score (and the implicit functions of its geometry: quadrics,
// hyperplanes) on a regular display-space grid in a worker thread. The newest request wins:
// a running computation is abandoned between chunks when a newer one arrives.
#include "base/Progress.h"
#include "detectors/Detector.h"
#include "detectors/Geometry.h"
#include "data/Normalizer.h"
#include "linalg/Projection.h"

#include <QObject>
#include <atomic>
#include <memory>
#include <optional>

namespace olens {

/// A regular grid in display coordinates; 2D grids have res[2] == 1.
struct GridSpec {
    int dims = 2;
    Eigen::Vector3d lo = Eigen::Vector3d::Zero();
    Eigen::Vector3d hi = Eigen::Vector3d::Ones();
    Eigen::Vector3i res = Eigen::Vector3i(2, 2, 1);

    Eigen::Index count() const { return Eigen::Index(res[0]) * res[1] * res[2]; }
    double spacing(int axis) const { return res[axis] > 1 ? (hi[axis] - lo[axis]) / (res[axis] - 1) : 1.0; }
    /// count×dims display coordinates, x varying fastest (VTK image order).
    Eigen::MatrixXd displayPoints(Eigen::Index first, Eigen::Index count) const;
};

struct FieldRequest {
    std::shared_ptr<const Detector> detector; ///< null: geometry only (live training snapshots)
    Normalizer normalizer;                    ///< maps feature space to the detector's space
    Geometry geometry;                        ///< quadrics / hyperplanes to sample (normalised space)
    Projection projection;
    GridSpec grid;
    int component = -1;                       ///< ≥ 0: draw Detector::scoreComponent(k), not score
};

struct FieldData {
    GridSpec grid;
    Eigen::VectorXd score;                        ///< per grid point; empty without a detector
    std::vector<Eigen::VectorXd> quadricValues;   ///< f_k at each grid point
    std::vector<Eigen::VectorXd> planeValues;     ///< wᵀx + b at each grid point
    std::vector<int> planeFrame;                  ///< frame index of each entry of planeValues
    double seconds = 0.0;
};

/// Computes a field synchronously (used by the worker and by tests). Returns nullopt when
/// `stop` becomes true or `progress` asks to cancel between chunks.
std::optional<FieldData> computeField(const FieldRequest& request, const std::atomic<bool>* stop = nullptr,
                                      const ProgressCallback& progress = {});

class Worker;

/// Score fields in the background through the shared Worker (newest request wins).
class FieldComputer : public QObject {
    Q_OBJECT
public:
    explicit FieldComputer(QObject* parent = nullptr);
    ~FieldComputer() override;

    void request(FieldRequest request);
    bool isBusy() const;

signals:
    void ready(std::shared_ptr<const FieldData> field);
    void failed(const QString& message);
    /// Fraction of the grid done (throttled), for a progress indicator.
    void progress(double fraction);

private:
    Worker* m_worker;
};

} // namespace olens
