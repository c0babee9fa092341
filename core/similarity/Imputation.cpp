#include "similarity/Imputation.h"

#include "base/Errors.h"

#include <cmath>
#include <string>
#include <vector>
#include <Eigen/Dense>

namespace olens {

MissingMask missingMask(const Eigen::MatrixXd& X)
{
    return X.array().isNaN().matrix();
}

const Eigen::VectorXd& GaussianImputer::mean() const
{
    if (!m_fitted)
        throw NotFittedError("GaussianImputer::mean: not fitted");
    return m_mu;
}

const Eigen::MatrixXd& GaussianImputer::covariance() const
{
    if (!m_fitted)
        throw NotFittedError("GaussianImputer::covariance: not fitted");
    return m_C;
}

void GaussianImputer::fit(const Eigen::MatrixXd& X)
{
    std::vector<Eigen::Index> complete;
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        if (X.row(i).array().isInf().any())
            throw DataError("imputation: row " + std::to_string(i) + " has an infinite value");
        if (!X.row(i).array().isNaN().any())
            complete.push_back(i);
    }
    if (complete.size() < 2)
        throw DataError("imputation needs at least 2 complete training rows (got "
                        + std::to_string(complete.size()) + ")");
    if (!(m_ridge >= 0.0))
        throw ParamError("imputation: ridge must be >= 0");
    Eigen::MatrixXd Y(static_cast<Eigen::Index>(complete.size()), X.cols());
    for (std::size_t k = 0; k < complete.size(); ++k)
        Y.row(static_cast<Eigen::Index>(k)) = X.row(complete[k]);
    Eigen::VectorXd mu = Y.colwise().mean().transpose();
    Y.rowwise() -= mu.transpose();
    m_C = (Y.transpose() * Y) / static_cast<double>(Y.rows() - 1);
    m_mu = std::move(mu);
    m_fitted = true;
}

ImputationResult GaussianImputer::impute(const Eigen::MatrixXd& X, const MissingMask& maskIn,
                                         const Eigen::MatrixXd& sigma) const
{
    if (!m_fitted)
        throw NotFittedError("GaussianImputer::impute: not fitted");
    const Eigen::Index n = X.rows(), p = X.cols();
    if (p != m_mu.size())
        throw DataError("imputation: " + std::to_string(p) + " features, the model has " + std::to_string(m_mu.size()));
    const MissingMask mask = maskIn.size() ? maskIn : missingMask(X);
    if (mask.rows() != n || mask.cols() != p)
        throw DataError("imputation: the mask is " + std::to_string(mask.rows()) + "x" + std::to_string(mask.cols())
                        + ", the data " + std::to_string(n) + "x" + std::to_string(p));
    if (sigma.size() && (sigma.rows() != n || sigma.cols() != p))
        throw DataError("imputation: sigma has the wrong size");
    ImputationResult r;
    r.X = X;
    r.sigma = sigma.size() ? sigma : Eigen::MatrixXd::Zero(n, p);
    const double ridge = m_ridge * (p > 0 ? m_C.diagonal().mean() : 0.0);
    std::vector<Eigen::Index> o, v;
    for (Eigen::Index i = 0; i < n; ++i) {
        o.clear();
        v.clear();
        for (Eigen::Index j = 0; j < p; ++j)
            (mask(i, j) ? o : v).push_back(j);
        for (Eigen::Index j : v)
            if (!std::isfinite(X(i, j)))
                throw DataError("imputation: visible cell (" + std::to_string(i) + ", " + std::to_string(j)
                                + ") is not finite; mark it as missing");
        if (o.empty())
            continue;
        const auto no = static_cast<Eigen::Index>(o.size()), nv = static_cast<Eigen::Index>(v.size());
        Eigen::VectorXd muO(no);
        Eigen::MatrixXd Coo(no, no);
        for (Eigen::Index a = 0; a < no; ++a) {
            muO(a) = m_mu(o[a]);
            for (Eigen::Index b = 0; b < no; ++b)
                Coo(a, b) = m_C(o[a], o[b]);
        }
        Eigen::VectorXd fill = muO;
        Eigen::MatrixXd S = Coo;
        if (nv > 0) {
            Eigen::MatrixXd Cvv(nv, nv), Cvo(nv, no);
            Eigen::VectorXd dv(nv); // a − μ_v
            for (Eigen::Index a = 0; a < nv; ++a) {
                dv(a) = X(i, v[a]) - m_mu(v[a]);
                for (Eigen::Index b = 0; b < nv; ++b)
                    Cvv(a, b) = m_C(v[a], v[b]);
                for (Eigen::Index b = 0; b < no; ++b)
                    Cvo(a, b) = m_C(v[a], o[b]);
            }
            Cvv.diagonal().array() += ridge;
            const Eigen::LDLT<Eigen::MatrixXd> ldlt(Cvv);
            const Eigen::MatrixXd CvvInvCvo = ldlt.solve(Cvo); // C_v,v⁻¹ C_v,o
            fill += CvvInvCvo.transpose() * dv;                 // eq. 28
            S -= Cvo.transpose() * CvvInvCvo;                   // eq. 29
        }
        for (Eigen::Index a = 0; a < no; ++a) {
            r.X(i, o[a]) = fill(a);
            r.sigma(i, o[a]) = std::sqrt(std::max(0.0, S(a, a)));
        }
        r.cells += no;
        ++r.rows;
    }
    return r;
}

} // namespace olens
