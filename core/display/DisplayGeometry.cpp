#include "display/DisplayGeometry.h"

#include <algorithm>
#include <exception>
#include <Eigen/Dense>

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

Quadric ellipsoidShadow(const Quadric& q, const Normalizer& normalizer, const Projection& projection)
{
    Quadric out;
    const Eigen::Index pz = q.A.rows();
    const int dims = projection.displayDims();
    if (!q.ellipsoid || pz == 0 || q.A.cols() != pz || q.b.size() != pz || dims < 1
        || normalizer.kind() == Normalization::L2)
        return out;
    const Eigen::LLT<Eigen::MatrixXd> llt(q.A);
    if (llt.info() != Eigen::Success)
        return out;
    // Centre, shape and radius² of f(z) = (z − c)ᵀA(z − c) − r².
    const Eigen::VectorXd c = -0.5 * llt.solve(q.b);
    const double r2 = c.dot(q.A * c) - q.c;
    const Eigen::MatrixXd S = llt.solve(Eigen::MatrixXd::Identity(pz, pz));
    // The inverse normalisation is affine (none, zscore, minmax): x = x_c + G (z − c). Its columns
    // from the images of c + e_j; dropped features take the view's origin (they do not move).
    Eigen::MatrixXd Z = c.transpose().replicate(pz + 1, 1);
    Z.bottomRows(pz) += Eigen::MatrixXd::Identity(pz, pz);
    Eigen::MatrixXd Xf;
    try {
        Xf = normalizer.inverseTransform(Z, projection.origin);
    } catch (const std::exception&) {
        return out;
    }
    if (Xf.cols() != projection.basis.rows())
        return out;
    const Eigen::MatrixXd G = (Xf.bottomRows(pz).rowwise() - Xf.row(0)).transpose(); // p × pz
    const Eigen::MatrixXd L = projection.basis.transpose() * G;                      // q × pz
    const Eigen::VectorXd uc = projection.basis.transpose() * (Xf.row(0).transpose() - projection.origin);
    const Eigen::MatrixXd Su = L * S * L.transpose();
    const Eigen::LLT<Eigen::MatrixXd> lu(Su);
    if (lu.info() != Eigen::Success || !(r2 > 0.0))
        return out;
    out.A = lu.solve(Eigen::MatrixXd::Identity(dims, dims));
    out.A = 0.5 * (out.A + out.A.transpose()).eval();
    out.b = -2.0 * out.A * uc;
    out.c = uc.dot(out.A * uc) - r2;
    out.name = q.name;
    out.ellipsoid = true;
    return out;
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
