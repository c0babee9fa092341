#include "linalg/Pca.h"

namespace olens {

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
        Eigen::VectorXd v = es.eigenvectors().col(p - 1 - k);
        Eigen::Index arg = 0;
        v.cwiseAbs().maxCoeff(&arg);
        if (v(arg) < 0)
            v = -v;
        r.components.col(k) = v;
        r.variances(k) = std::max(0.0, es.eigenvalues()(p - 1 - k));
    }
    return r;
}

} // namespace olens
