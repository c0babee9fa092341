#pragma once
// Text data writing: the data set as CSV (features, sigma_ columns, label, extra columns) and the
// CLI's scores contract, through the atomic writer. The reading side is DataLoader.h.
#include "base/AtomicWriter.h"
#include "data/Dataset.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace olens {

/// Writes features (then sigma_ columns, then the label column) as CSV with a header.
void writeCsv(std::ostream& out, const Dataset& data);
/// A numeric column appended after the label column (e.g. score, outlier), one value per row.
struct CsvColumn {
    std::string name;
    Eigen::VectorXd values;
};
/// writeCsv with `extra` columns after the label column.
void writeCsv(std::ostream& out, const Dataset& data, const std::vector<CsvColumn>& extra);
/// Writes the CSV to `path` through the atomic writer (the old file stays intact on failure).
void writeCsv(const std::string& path, const Dataset& data, const std::vector<std::string>& inputs = {});

/// Scores in the CLI's contract: index,score,outlier[,label][,training][,percentile] (index =
/// 0-based row; training = 1 for the rows a model fitted on a part was fitted on, when
/// trainingRows is given; percentile = the given values, e.g. the score's percentile among the
/// training scores, compare mode's colour).
void writeScores(std::ostream& out, const Eigen::VectorXd& scores, const Eigen::VectorXi& outlier,
                 const Eigen::VectorXd* labels = nullptr,
                 const std::vector<int>* trainingRows = nullptr,
                 const Eigen::VectorXd* percentiles = nullptr);

} // namespace olens
