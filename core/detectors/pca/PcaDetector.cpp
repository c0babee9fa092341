#include "detectors/pca/PcaDetector.h"

#include "base/Errors.h"
#include "linalg/Pca.h"
#include "detectors/DetectorInfo.h"
#include "base/Json.h"
#include <nlohmann/json.hpp>

#include <algorithm>

namespace olens {

DetectorInfo PcaDetector::info()
{
    DetectorInfo d;
    d.compareSlot = 2;
    d.id = "pca";
    d.title = "PCA subspace distance";
    d.summary = "Score = distance to the affine k-dimensional principal subspace through the mean.";
    d.reference = "Quadrics paper eq. 2 (PCA as a manifold learner)";
    ParamSpec k;
    k.name = "k";
    k.type = ParamType::Int;
    k.defaultValue = "1";
    k.minValue = 0;
    k.maxValue = 1000;
    k.help = "Dimension of the principal subspace (must be smaller than the number of features); "
             "0 = distance to the mean.";
    k.reference = "Quadrics paper eq. 2";
    d.params = {k, contaminationParam()};
    d.make = [](ParamSet p) { return std::make_unique<PcaDetector>(std::move(p)); };
    return d;
}

Eigen::VectorXd PcaDetector::doFit(const Eigen::MatrixXd& X, const Progress& progress)
{
    const int k = params().getInt("k");
    if (k >= X.cols())
        throw ParamError("pca: k=" + std::to_string(k) + " must be smaller than the number of features ("
                         + std::to_string(X.cols()) + ")");
    // Wide data (p > kExactColumns) get the k leading directions only, never a p×p covariance;
    // the stored variances then hold the k leading ones exactly and share the rest of the total
    // equally among the other p − k slots, so the explained-variance figure stays exact.
    PcaResult r = X.cols() > kExactColumns ? pcaLeading(X, k) : pca(X);
    if (r.variances.size() < X.cols()) {
        const Eigen::Index rest = X.cols() - r.variances.size();
        const double restVariance = std::max(0.0, r.totalVariance - r.variances.sum());
        r.variances.conservativeResize(X.cols());
        r.variances.tail(rest).setConstant(restVariance / static_cast<double>(rest));
    }
    progress.report(0.8, "principal directions computed");
    const Eigen::MatrixXd V = r.components.leftCols(k);
    const Eigen::MatrixXd coords = (X.rowwise() - r.mean.transpose()) * V;
    m_lower = k > 0 ? Eigen::VectorXd(coords.colwise().minCoeff().transpose()) : Eigen::VectorXd();
    m_upper = k > 0 ? Eigen::VectorXd(coords.colwise().maxCoeff().transpose()) : Eigen::VectorXd();
    m_mean = r.mean;
    m_basis = V;
    m_variances = r.variances;
    return doScore(X);
}

Eigen::VectorXd PcaDetector::doScore(const Eigen::MatrixXd& X) const
{
    // eq. 2: d(p, V_k) = ‖p − Σ_{j≤k} ⟨p, v_j⟩ v_j‖ for the centred point p.
    const Eigen::MatrixXd C = X.rowwise() - m_mean.transpose();
    const Eigen::MatrixXd residual = C - (C * m_basis) * m_basis.transpose();
    return residual.rowwise().norm();
}

Eigen::VectorXd PcaDetector::attribute(const Eigen::VectorXd& x, int /*trainingRow*/) const
{
    requireFitted("attribute");
    if (x.size() != inputDimension())
        throw DataError("pca: attribution needs " + std::to_string(inputDimension()) + " features");
    // The residual vector of eq. 2, feature by feature: its squared norm is the squared score.
    const Eigen::VectorXd c = x - m_mean;
    const Eigen::VectorXd r = c - m_basis * (m_basis.transpose() * c);
    return r.array().square();
}

Geometry PcaDetector::geometry() const
{
    Geometry g;
    if (!isFitted() || m_basis.cols() == 0)
        return g;
    Flat f;
    f.origin = m_mean;
    f.basis = m_basis;
    f.lower = m_lower;
    f.upper = m_upper;
    f.cluster = 0;
    g.flats.push_back(f);
    return g;
}

std::map<std::string, double> PcaDetector::figures() const
{
    if (!isFitted())
        return {};
    const double total = m_variances.sum();
    const double kept = m_variances.head(m_basis.cols()).sum();
    return {{"explained_variance", total > 0 ? kept / total : 1.0}};
}

std::vector<std::string> PcaDetector::explain(const Eigen::MatrixXd& X) const
{
    requireFitted("explain");
    const Eigen::MatrixXd C = X.rowwise() - m_mean.transpose();
    const Eigen::MatrixXd coords = C * m_basis;
    const Eigen::VectorXd residual = (C - coords * m_basis.transpose()).rowwise().norm();
    std::vector<std::string> out(static_cast<std::size_t>(X.rows()));
    char buf[128];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        if (m_basis.cols() > 0) {
            const bool outside = coords(i, 0) < m_lower(0) || coords(i, 0) > m_upper(0);
            std::snprintf(buf, sizeof buf, "residual %.4g off the %d-dim subspace; PC1 coordinate %.3g%s", residual(i),
                          static_cast<int>(m_basis.cols()), coords(i, 0), outside ? " (beyond the data)" : "");
        } else {
            std::snprintf(buf, sizeof buf, "distance %.4g from the mean", residual(i));
        }
        out[static_cast<std::size_t>(i)] = buf;
    }
    return out;
}

static std::vector<double> flat(const Eigen::MatrixXd& M)
{
    return std::vector<double>(M.data(), M.data() + M.size());
}

nlohmann::json PcaDetector::saveState() const
{
    return {{"mean", flat(m_mean)}, {"basis", flat(m_basis)}, {"k", m_basis.cols()},
            {"lower", flat(m_lower)}, {"upper", flat(m_upper)}, {"variances", flat(m_variances)}};
}

void PcaDetector::loadState(const nlohmann::json& s)
{
    const int p = inputDimension();
    const auto k = static_cast<Eigen::Index>(jsonInt(s.at("k"), "pca model: k"));
    const auto mean = s.at("mean").get<std::vector<double>>();
    const auto basis = s.at("basis").get<std::vector<double>>();
    const auto lower = s.at("lower").get<std::vector<double>>();
    const auto upper = s.at("upper").get<std::vector<double>>();
    const auto var = s.at("variances").get<std::vector<double>>();
    if (k < 0 || k >= p || static_cast<Eigen::Index>(mean.size()) != p
        || static_cast<Eigen::Index>(basis.size()) != p * k || static_cast<Eigen::Index>(lower.size()) != k
        || static_cast<Eigen::Index>(upper.size()) != k || static_cast<Eigen::Index>(var.size()) != p)
        throw DataError("pca model: stored arrays do not match dimension " + std::to_string(p) + " and k="
                        + std::to_string(k));
    m_mean = Eigen::Map<const Eigen::VectorXd>(mean.data(), p);
    m_basis = Eigen::Map<const Eigen::MatrixXd>(basis.data(), p, k);
    m_lower = Eigen::Map<const Eigen::VectorXd>(lower.data(), k);
    m_upper = Eigen::Map<const Eigen::VectorXd>(upper.data(), k);
    m_variances = Eigen::Map<const Eigen::VectorXd>(var.data(), p);
}

} // namespace olens
