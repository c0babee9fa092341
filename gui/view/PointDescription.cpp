#include "view/PointDescription.h"

#include "data/Dataset.h"
#include "pipeline/FitPipeline.h"

#include <QStringList>

#include <algorithm>

namespace olens {

QString PointDescription::describe(const Dataset& d, const FitResult* r, int index, const Eigen::VectorXd& custom,
                                   const QString& customTitle)
{
    QString s = tr("point %1").arg(index);
    const Eigen::Index shown = std::min<Eigen::Index>(d.cols(), 6);
    for (Eigen::Index j = 0; j < shown; ++j)
        s += QStringLiteral("\n%1 = %2").arg(QString::fromStdString(d.featureNames[static_cast<std::size_t>(j)]))
                 .arg(d.X(index, j), 0, 'g', 6);
    if (d.cols() > shown)
        s += tr("\n… %1 more features").arg(d.cols() - shown);
    if (d.hasLabels())
        s += QStringLiteral("\n%1 = %2").arg(QString::fromStdString(d.labelName)).arg(d.labels(index));
    if (d.hasSigma()) {
        QStringList sd;
        for (Eigen::Index j = 0; j < shown; ++j)
            sd << QString::number(d.sigma(index, j), 'g', 3);
        s += tr("\nσ = (%1%2)").arg(sd.join(", "), d.cols() > shown ? QStringLiteral(", …") : QString());
    }
    if (index < custom.size())
        s += QStringLiteral("\n%1 = %2").arg(customTitle).arg(custom(index), 0, 'g', 5);
    if (r && index < r->scores.size()) {
        s += tr("\nscore = %1").arg(r->scores(index), 0, 'g', 5);
        if (static_cast<std::size_t>(index) < r->explanations.size() && !r->explanations[static_cast<std::size_t>(index)].empty())
            s += "\n" + QString::fromStdString(r->explanations[static_cast<std::size_t>(index)]);
        else if (r->explanations.empty()) // a large cloud: explained on demand (kEagerExplanationRows)
            if (const std::string e = explainRow(*r, d.X, index); !e.empty())
                s += "\n" + QString::fromStdString(e);
    }
    return s;
}

} // namespace olens
