#include "display/DisplayGeometry.h"

#include <algorithm>
#include <exception>

namespace olens {

Eigen::MatrixXd flatCorners(const Flat& fl)
{
    const int d = static_cast<int>(fl.basis.cols());
    if (d < 1 || d > 2 || fl.lower.size() != d || fl.upper.size() != d || fl.origin.size() != fl.basis.rows())
        return Eigen::MatrixXd(0, fl.origin.size());
    // Tiny clusters (one point, or collinear members of a 2-flat) have no area to draw.
    if (((fl.upper - fl.lower).array() <= 1e-12 * (1.0 + fl.origin.norm())).any())
        return Eigen::MatrixXd(0, fl.origin.size());
    Eigen::MatrixXd C(d == 1 ? 2 : 3, fl.origin.size());
    if (d == 1) {
        C.row(0) = (fl.origin + fl.basis.col(0) * fl.lower(0)).transpose();
        C.row(1) = (fl.origin + fl.basis.col(0) * fl.upper(0)).transpose();
    } else {
        C.row(0) = (fl.origin + fl.basis * Eigen::Vector2d(fl.lower(0), fl.lower(1))).transpose();
        C.row(1) = (fl.origin + fl.basis * Eigen::Vector2d(fl.upper(0), fl.lower(1))).transpose();
        C.row(2) = (fl.origin + fl.basis * Eigen::Vector2d(fl.lower(0), fl.upper(1))).transpose();
    }
    return C;
}

Eigen::MatrixX3d flatDisplayCorners(const Flat& flat, const Normalizer& normalizer, const Eigen::VectorXd& fill,
                                    const Projection& projection)
{
    const Eigen::MatrixXd C = flatCorners(flat);
    if (C.rows() == 0)
        return Eigen::MatrixX3d(0, 3);
    try {
        return projection.toDisplay(normalizer.inverseTransform(C, fill));
    } catch (const std::exception&) {
        return Eigen::MatrixX3d(0, 3); // a normaliser that cannot invert: nothing to draw
    }
}

Eigen::MatrixXd projectedCovariance(const Eigen::VectorXd& sigma, const Eigen::MatrixXd& basis)
{
    return basis.transpose() * sigma.array().square().matrix().asDiagonal() * basis;
}

Eigen::Matrix3d glyphMatrix(const Eigen::VectorXd& sigma, const Projection& projection, double scale)
{
    Eigen::Matrix3d M = Eigen::Matrix3d::Zero();
    const Eigen::VectorXd s = sigma.cwiseAbs();
    const int q = projection.displayDims();
    if (projection.identity) {
        for (int a = 0; a < q && a < s.size(); ++a)
            M(a, a) = scale * s(a);
        return M;
    }
    Eigen::Matrix3d C = Eigen::Matrix3d::Zero();
    C.topLeftCorner(q, q) = projectedCovariance(s, projection.basis);
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(C);
    return scale * es.eigenvectors() * es.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal()
        * es.eigenvectors().transpose();
}

std::pair<double, double> scoreColourRange(const Eigen::VectorXd& scores)
{
    const Eigen::Index n = scores.size();
    std::vector<double> sorted(scores.data(), scores.data() + n);
    std::sort(sorted.begin(), sorted.end());
    const double lo = sorted.front();
    double hi = sorted[static_cast<std::size_t>(0.99 * double(n - 1))];
    if (!(hi > lo))
        hi = sorted.back() > lo ? sorted.back() : lo + 1.0;
    return {lo, hi};
}

std::vector<double> quantileLevels(const Eigen::VectorXd& scores, const std::vector<double>& quantiles)
{
    std::vector<double> levels;
    if (scores.size() == 0)
        return levels;
    std::vector<double> s(scores.data(), scores.data() + scores.size());
    std::sort(s.begin(), s.end());
    for (double q : quantiles)
        levels.push_back(s[static_cast<std::size_t>(q * double(s.size() - 1))]);
    return levels;
}

} // namespace olens
