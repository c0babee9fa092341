#include "linalg/Projection.h"

#include "base/Errors.h"
#include "linalg/Pca.h"

#include <algorithm>
#include <cstdio>

namespace olens {

Eigen::MatrixX3d Projection::toDisplay(const Eigen::MatrixXd& X) const
{
    Eigen::MatrixX3d out = Eigen::MatrixX3d::Zero(X.rows(), 3);
    out.leftCols(basis.cols()) = (X.rowwise() - origin.transpose()) * basis;
    return out;
}

Eigen::MatrixXd Projection::toFeature(const Eigen::MatrixXd& U) const
{
    return (U.leftCols(basis.cols()) * basis.transpose()).rowwise() + origin.transpose();
}

Projection Projection::automatic(const Eigen::MatrixXd& X, const std::vector<std::string>& names)
{
    const Eigen::Index p = X.cols();
    if (p > 3)
        return pca(X, 3);
    if (static_cast<Eigen::Index>(names.size()) < p)
        throw DataError("projection: " + std::to_string(names.size()) + " feature names for " + std::to_string(p)
                        + " features");
    Projection pr;
    pr.origin = Eigen::VectorXd::Zero(p);
    pr.basis = Eigen::MatrixXd::Identity(p, p);
    pr.axisNames.assign(names.begin(), names.begin() + p);
    pr.identity = true;
    if (p == 1)
        pr.note = "1 feature: points shown along the x axis";
    return pr;
}

Projection Projection::pca(const Eigen::MatrixXd& X, int q)
{
    // At most 3: the display has three coordinates (toDisplay writes n×3).
    q = static_cast<int>(std::min<Eigen::Index>(std::min(q, 3), X.cols()));
    const PcaResult r = pcaLeading(X, q);
    Projection pr;
    pr.origin = r.mean;
    pr.basis = r.components.leftCols(q);
    pr.identity = false;
    for (int k = 0; k < q; ++k)
        pr.axisNames.push_back("PC" + std::to_string(k + 1));
    const double total = r.totalVariance;
    const double shown = r.variances.head(q).sum();
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "PCA projection of %d features onto PC1-PC%d (%.1f%% of the variance); "
                  "fields on the slice through the mean",
                  static_cast<int>(X.cols()), q, total > 0 ? 100.0 * shown / total : 100.0);
    pr.note = buf;
    return pr;
}

Projection Projection::components(const Eigen::MatrixXd& X, const std::vector<int>& pcs)
{
    const Eigen::Index p = X.cols();
    if (pcs.empty() || pcs.size() > 3)
        throw ParamError("choose 1 to 3 principal components");
    for (int pc : pcs)
        if (pc < 0 || pc >= p)
            throw ParamError("PC" + std::to_string(pc + 1) + " does not exist (p=" + std::to_string(p) + ")");
    const PcaResult r = pcaLeading(X, *std::max_element(pcs.begin(), pcs.end()) + 1);
    Projection pr;
    pr.origin = r.mean;
    pr.basis.resize(p, static_cast<Eigen::Index>(pcs.size()));
    pr.identity = false;
    double shown = 0.0;
    std::string list;
    for (std::size_t k = 0; k < pcs.size(); ++k) {
        if (pcs[k] < 0 || pcs[k] >= p)
            throw ParamError("PC" + std::to_string(pcs[k] + 1) + " does not exist (p=" + std::to_string(p) + ")");
        if (std::find(pcs.begin(), pcs.begin() + static_cast<long>(k), pcs[k]) != pcs.begin() + static_cast<long>(k))
            throw ParamError("PC" + std::to_string(pcs[k] + 1) + " is chosen twice; choose distinct components");
        pr.basis.col(static_cast<Eigen::Index>(k)) = r.components.col(pcs[k]);
        pr.axisNames.push_back("PC" + std::to_string(pcs[k] + 1));
        list += (k ? ", " : "") + pr.axisNames.back();
        shown += r.variances(pcs[k]);
    }
    const double total = r.totalVariance;
    char buf[200];
    std::snprintf(buf, sizeof buf, "principal components %s of %d features (%.1f%% of the variance); "
                  "fields on the slice through the mean", list.c_str(), static_cast<int>(p),
                  total > 0 ? 100.0 * shown / total : 100.0);
    pr.note = buf;
    return pr;
}

Projection Projection::axes(const Eigen::MatrixXd& X, const std::vector<std::string>& names, const std::vector<int>& axes)
{
    const Eigen::Index p = X.cols();
    if (axes.empty() || axes.size() > 3)
        throw ParamError("choose 1 to 3 axes");
    if (static_cast<Eigen::Index>(names.size()) != p)
        throw DataError("projection: " + std::to_string(names.size()) + " feature names for " + std::to_string(p)
                        + " features");
    Projection pr;
    pr.origin = X.colwise().mean().transpose();
    pr.basis = Eigen::MatrixXd::Zero(p, static_cast<Eigen::Index>(axes.size()));
    std::string list;
    for (std::size_t k = 0; k < axes.size(); ++k) {
        if (axes[k] < 0 || axes[k] >= p)
            throw ParamError("axis " + std::to_string(axes[k] + 1) + " does not exist (p=" + std::to_string(p) + ")");
        if (std::find(axes.begin(), axes.begin() + static_cast<long>(k), axes[k]) != axes.begin() + static_cast<long>(k))
            throw ParamError("axis " + std::to_string(axes[k] + 1) + " is chosen twice; choose distinct features");
        pr.basis(axes[k], static_cast<Eigen::Index>(k)) = 1.0;
        pr.axisNames.push_back(names[static_cast<std::size_t>(axes[k])]);
        list += (k ? ", " : "") + names[static_cast<std::size_t>(axes[k])];
        // Display coordinates of a chosen axis are the feature itself, not its offset from the mean.
        pr.origin(axes[k]) = 0.0;
    }
    // The data as they are only for every feature in its own order: {1, 0} swaps the display axes,
    // and code that takes identity as "display axis a is feature a" (glyphMatrix) must not see it.
    pr.identity = p == static_cast<Eigen::Index>(axes.size());
    for (std::size_t k = 0; k < axes.size() && pr.identity; ++k)
        pr.identity = axes[k] == static_cast<int>(k);
    if (!pr.identity)
        pr.note = "axes " + list
                  + (static_cast<Eigen::Index>(axes.size()) < p ? "; other features fixed at their mean (fields on that slice)" : "");
    return pr;
}

} // namespace olens
