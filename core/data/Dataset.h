#pragma once
// A loaded or generated data set: n samples as rows of an n×p matrix.
#include <Eigen/Core>
#include <string>
#include <vector>

namespace olens {

/// A column the user marked *ignore* (LoadOptions::excludeColumns): not a feature, kept as read
/// (text, one cell per row) so that exports write it back — a PLY's `intensity`, a CSV's id.
struct CarriedColumn {
    std::string name;
    std::vector<std::string> cells;
};

struct Dataset {
    std::string source;                    ///< file name or generator description
    std::vector<std::string> featureNames; ///< p names, one per column of X
    Eigen::MatrixXd X;                     ///< n×p features

    std::string labelName;                 ///< empty when there is no label column
    Eigen::VectorXd labels;                ///< n values (1/0 outlier flags or class ids); empty if none
    std::vector<std::string> labelNames;   ///< text labels mapped to ids 0..k-1, when the column was not numeric

    Eigen::MatrixXd sigma;                 ///< n×p per-feature standard deviations; empty if none

    std::vector<CarriedColumn> carried;    ///< ignored columns, n cells each (empty: none)

    std::vector<std::string> warnings;     ///< non-fatal remarks made while loading

    Eigen::Index rows() const { return X.rows(); }
    Eigen::Index cols() const { return X.cols(); }
    bool hasLabels() const { return labels.size() > 0; }
    bool hasSigma() const { return sigma.size() > 0; }
    /// Labels as 0/1 outlier flags (any non-zero value counts as outlier).
    Eigen::VectorXi outlierFlags() const;
};

} // namespace olens
