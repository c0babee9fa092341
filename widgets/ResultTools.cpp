#include "ResultTools.h"

#include "AcdtDetector.h"
#include "Errors.h"
#include "Registry.h"

namespace olens {

namespace {
const AcdtDetector* asAcdt(const FitResult& r)
{
    return dynamic_cast<const AcdtDetector*>(r.detector.get());
}
} // namespace

std::pair<int, int> clusterCountRange(const FitResult& result)
{
    const AcdtDetector* a = asAcdt(result);
    if (!a)
        return {0, 0};
    return {a->minClusterCount(), a->maxClusterCount()};
}

int clusterCount(const FitResult& result)
{
    const AcdtDetector* a = asAcdt(result);
    return a ? a->clusterCount() : 0;
}

std::shared_ptr<FitResult> recutClusters(const FitResult& result, const Dataset& data, int L)
{
    const AcdtDetector* a = asAcdt(result);
    if (!a)
        throw ParamError("only clustering results (acdt) can be cut at another number of clusters");
    L = std::clamp(L, a->minClusterCount(), a->maxClusterCount());
    // The saved model with L changed reloads the same merge history cut at L (acdt's loadState
    // rebuilds labels and flats from the history).
    nlohmann::json j = a->toJson();
    j["params"]["L"] = L;
    j["state"]["clusters"] = L;
    std::shared_ptr<const Detector> cut = Registry::instance().load(j);
    auto r = std::make_shared<FitResult>(result);
    const Eigen::MatrixXd Xn = result.normalizer.transform(data.X);
    r->detector = cut;
    r->scores = cut->score(Xn); // acdt scores training points by the same patch rule
    r->threshold = quantile(r->scores, 1.0 - cut->params().getReal("contamination"));
    r->outlier = (r->scores.array() > r->threshold).cast<int>().matrix();
    r->geometry = cut->geometry();
    r->explanations = cut->explain(Xn);
    return r;
}

Eigen::MatrixXd reconstructionOf(const FitResult& result, const Dataset& data)
{
    const AcdtDetector* a = asAcdt(result);
    if (!a || a->inputDimension() != static_cast<int>(result.normalizer.keptColumns().size()))
        return {};
    const Eigen::MatrixXd R = a->reconstruction(a->clusterCount());
    if (R.rows() != data.rows())
        return {};
    return result.normalizer.inverseTransform(R, data.X.colwise().mean().transpose());
}

} // namespace olens
