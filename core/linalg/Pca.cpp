#include "linalg/Pca.h"

#include <algorithm>
#include <random>
#include <Eigen/Dense>

namespace olens {

namespace {

Eigen::MatrixXd orthonormalColumns(const Eigen::MatrixXd& Y)
{
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(Y);
    return qr.householderQ() * Eigen::MatrixXd::Identity(Y.rows(), Y.cols());
}

} // namespace

void fixDirectionSign(Eigen::Ref<Eigen::VectorXd> v)
{
    Eigen::Index arg = 0;
    v.cwiseAbs().maxCoeff(&arg);
    if (v(arg) < 0)
        v = -v;
}

PcaResult pca(const Eigen::MatrixXd& X)
{
    PcaResult r;
    const Eigen::Index n = X.rows(), p = X.cols();
    r.mean = X.colwise().mean().transpose();
    const Eigen::MatrixXd C = X.rowwise() - r.mean.transpose();
    // Eigen-decomposition of the p×p covariance: cheap for the small p of point clouds and
    // exact enough; SelfAdjointEigenSolver returns increasing eigenvalues.
    const Eigen::MatrixXd cov = (C.transpose() * C) / static_cast<double>(std::max<Eigen::Index>(n, 1));
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
    r.components.resize(p, p);
    r.variances.resize(p);
    for (Eigen::Index k = 0; k < p; ++k) {
        r.components.col(k) = es.eigenvectors().col(p - 1 - k);
        fixDirectionSign(r.components.col(k));
        r.variances(k) = std::max(0.0, es.eigenvalues()(p - 1 - k));
    }
    r.totalVariance = r.variances.sum();
    return r;
}

PcaResult pcaLeading(const Eigen::MatrixXd& X, int kWanted)
{
    const Eigen::Index n = X.rows(), p = X.cols();
    const Eigen::Index k = std::clamp<Eigen::Index>(kWanted, 0, p);
    if (p <= kExactColumns) {
        PcaResult r = pca(X);
        r.components = r.components.leftCols(k).eval();
        r.variances = r.variances.head(k).eval();
        return r;
    }
    PcaResult r;
    const double nn = static_cast<double>(std::max<Eigen::Index>(n, 1));
    r.mean = X.colwise().mean().transpose();
    const Eigen::MatrixXd C = X.rowwise() - r.mean.transpose();
    r.totalVariance = C.squaredNorm() / nn;
    r.components = Eigen::MatrixXd::Zero(p, k);
    r.variances = Eigen::VectorXd::Zero(k);
    if (n == 0 || k == 0)
        return r;
    Eigen::MatrixXd V;     // p × (≥ k) right singular vectors of C
    Eigen::VectorXd sigma; // their singular values, decreasing
    if (n <= kExactColumns) {
        // C = U S Vᵀ: the Gram matrix C Cᵀ = U S² Uᵀ is n×n, and V = Cᵀ U S⁻¹.
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(C * C.transpose());
        // Directions of (numerically) zero variance are left to the completion below: Cᵀu of a
        // null eigenvector is rounding noise, not orthogonal to the others.
        const double top = std::max(0.0, es.eigenvalues()(n - 1));
        Eigen::Index m = 0;
        while (m < std::min(k, n) && es.eigenvalues()(n - 1 - m) > 1e-12 * top)
            ++m;
        V.resize(p, m);
        sigma.resize(m);
        for (Eigen::Index j = 0; j < m; ++j) {
            sigma(j) = std::sqrt(es.eigenvalues()(n - 1 - j));
            V.col(j) = (C.transpose() * es.eigenvectors().col(n - 1 - j)).normalized();
        }
    } else {
        // Randomised range finder with power iterations: l = k + 10 probe directions, each pass
        // re-orthonormalised (Halko et al. 2011, Alg. 4.4); then the exact SVD of the small l×p
        // matrix Qᵀ C. Seeded, so the projection of the same table never changes.
        const Eigen::Index l = std::min<Eigen::Index>({k + 10, n, p});
        std::mt19937_64 rng(20111);
        std::normal_distribution<double> normal;
        Eigen::MatrixXd omega(p, l);
        for (Eigen::Index j = 0; j < omega.size(); ++j)
            omega.data()[j] = normal(rng);
        Eigen::MatrixXd Q = orthonormalColumns(C * omega);
        for (int pass = 0; pass < 6; ++pass) {
            const Eigen::MatrixXd Z = orthonormalColumns(C.transpose() * Q);
            Q = orthonormalColumns(C * Z);
        }
        const Eigen::MatrixXd B = Q.transpose() * C; // l × p
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(B, Eigen::ComputeThinV);
        V = svd.matrixV().leftCols(std::min(k, l));
        sigma = svd.singularValues().head(V.cols());
    }
    for (Eigen::Index j = 0; j < V.cols(); ++j) {
        r.components.col(j) = V.col(j);
        fixDirectionSign(r.components.col(j));
        r.variances(j) = sigma(j) * sigma(j) / nn;
    }
    // Fewer rows than wanted directions (n < k): complete with unit vectors orthogonal to the rest,
    // which carry no variance.
    for (Eigen::Index j = V.cols(); j < k; ++j) {
        for (Eigen::Index e = 0; e < p; ++e) {
            Eigen::VectorXd v = Eigen::VectorXd::Unit(p, e);
            for (int twice = 0; twice < 2; ++twice) // Gram-Schmidt, repeated for orthogonality to rounding
                v -= r.components.leftCols(j) * (r.components.leftCols(j).transpose() * v);
            if (v.norm() > 0.5) {
                r.components.col(j) = v.normalized();
                break;
            }
        }
    }
    return r;
}

} // namespace olens
