#pragma once
// What the view's tooltip says about a hovered point (split from CloudView): its row, features
// (the first six), label, σ, the custom scalar shown, score and the detector's explanation
// (computed on demand for a large cloud, pipeline/FitPipeline explainRow).
#include <Eigen/Core>
#include <QCoreApplication>
#include <QString>

namespace olens {

struct Dataset;
struct FitResult;

class PointDescription {
    Q_DECLARE_TR_FUNCTIONS(PointDescription)
public:
    /// `custom` / `customTitle`: the custom scalars shown (empty: none); `result` may be null.
    static QString describe(const Dataset& d, const FitResult* result, int index, const Eigen::VectorXd& custom,
                            const QString& customTitle);
};

} // namespace olens
