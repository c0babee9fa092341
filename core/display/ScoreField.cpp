#include "display/ScoreField.h"

#include "display/DisplayGeometry.h"

#include <algorithm>
#include <chrono>

namespace olens {

Eigen::Index nextFieldChunk(Eigen::Index rows, double seconds)
{
    // Aim at kFieldChunkSeconds from the last chunk's rate; at most 4× larger per step (one fast
    // chunk, e.g. of points far outside every kernel's reach, does not make the next one huge).
    const double wanted = seconds > 0.0 ? static_cast<double>(rows) * kFieldChunkSeconds / seconds
                                        : 4.0 * static_cast<double>(rows);
    const double capped = std::min(wanted, 4.0 * static_cast<double>(rows));
    return std::clamp<Eigen::Index>(static_cast<Eigen::Index>(capped), kMinFieldChunk, kMaxFieldChunk);
}

std::optional<FieldData> computeField(const FieldRequest& req, const std::atomic<bool>* stop,
                                      const ProgressCallback& progress)
{
    const auto t0 = std::chrono::steady_clock::now();
    FieldData out;
    out.grid = req.grid;
    const Eigen::Index total = req.grid.count();
    const bool wantScore = req.detector != nullptr;
    if (wantScore)
        out.score.resize(total);
    for (std::size_t k = 0; k < req.geometry.quadrics.size(); ++k)
        out.quadricValues.emplace_back(total);
    for (std::size_t f = 0; f < req.geometry.frames.size(); ++f)
        for (std::size_t h = 0; h < req.geometry.frames[f].planes.size(); ++h) {
            out.planeValues.emplace_back(total);
            out.planeFrame.push_back(static_cast<int>(f));
        }
    const int q = req.projection.displayDims();
    // Ellipsoids are drawn as their shadow on the shown coordinates (the marginal ellipse for p > 3),
    // a quadric in display coordinates; the others are sliced through the view (x = origin + B u).
    std::vector<Quadric> shadows;
    for (const Quadric& Q : req.geometry.quadrics)
        shadows.push_back(ellipsoidShadow(Q, req.normalizer, req.projection));
    // Chunks sized by their cost: ~50 ms each, so a superseded request is abandoned within about
    // that (a kernel method's point costs O(n) kernel values, a kNN query microseconds), and a
    // cheap detector's chunk is large enough for its own threads to share it (a kNN index splits
    // rows over the cores from 2 × 2048 rows; 1024-row chunks kept a 1M-point knn field on one core).
    Eigen::Index chunk = kFirstFieldChunk;
    for (Eigen::Index first = 0, m = 0; first < total; first += m) {
        if (stop && stop->load())
            return std::nullopt;
        if (progress && progress({static_cast<double>(first) / static_cast<double>(total), "score field", {}, nullptr}))
            return std::nullopt;
        m = std::min(chunk, total - first);
        const auto chunkStart = std::chrono::steady_clock::now();
        Eigen::MatrixXd U = req.grid.displayPoints(first, m);
        if (U.cols() < q) { // a 2D grid for a 3D projection cannot happen; a 1D projection uses x only
            U.conservativeResize(Eigen::NoChange, q);
        }
        const Eigen::MatrixXd X = req.projection.toFeature(U.leftCols(q));
        const Eigen::MatrixXd Xn = req.normalizer.transform(X);
        if (wantScore)
            out.score.segment(first, m) =
                req.component >= 0 ? req.detector->scoreComponent(Xn, req.component) : req.detector->score(Xn);
        for (std::size_t k = 0; k < req.geometry.quadrics.size(); ++k) {
            const bool shadow = shadows[k].A.rows() == q;
            const Quadric& Q = shadow ? shadows[k] : req.geometry.quadrics[k];
            const Eigen::MatrixXd Y = shadow ? Eigen::MatrixXd(U.leftCols(q)) : Xn;
            if (Q.A.rows() != Y.cols())
                continue;
            // f(x) = xᵀAx + bᵀx + c (quadrics paper eq. 3), row-wise.
            const Eigen::MatrixXd YA = Y * Q.A;
            out.quadricValues[k].segment(first, m) =
                (YA.cwiseProduct(Y)).rowwise().sum() + Y * Q.b + Eigen::VectorXd::Constant(m, Q.c);
        }
        std::size_t idx = 0;
        for (const auto& frame : req.geometry.frames)
            for (const auto& h : frame.planes) {
                if (h.w.size() == Xn.cols())
                    out.planeValues[idx].segment(first, m) = Xn * h.w + Eigen::VectorXd::Constant(m, h.bias);
                ++idx;
            }
        chunk = nextFieldChunk(m, std::chrono::duration<double>(std::chrono::steady_clock::now() - chunkStart).count());
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

} // namespace olens
