#pragma once
// Exporting what a detector found: some rows of a data set (the inliers = the cleaned cloud, the
// flagged points, a selection) with every column they were loaded with (features, sigma_<feature>,
// label) followed by `score` and `outlier` (0/1), as CSV or binary PLY (little endian, doubles),
// chosen by the file's extension. Both re-open with loadDataset.
#include "data/CsvWriter.h"
#include "data/Dataset.h"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace olens {

enum class PointFormat { Csv, Ply };

/// Ply for a path ending in ".ply" (any case), Csv for everything else.
PointFormat pointFormatFor(const std::string& path);

/// Rows whose flag equals `flagged` (true: the outliers, false: the inliers), in row order.
std::vector<Eigen::Index> rowsWithFlag(const Eigen::VectorXi& outlier, bool flagged);

/// The rows `rows` of `data` (labels, sigma and names kept); DataError for a row out of range.
Dataset selectRows(const Dataset& data, const std::vector<Eigen::Index>& rows);

/// What is written: `data`'s rows `rows` with `scores` and `outlier` (one per row of `data`) and each
/// row's index in `data` (issue #52: a selection exported lost which rows it was).
struct PointExport {
    const Dataset& data;
    const Eigen::VectorXd& scores;
    const Eigen::VectorXi& outlier;
    std::vector<Eigen::Index> rows;
};

/// The names of the columns added after the data's own: "score", "outlier" and "index" (the row's
/// 0-based index in the data exported from, as the CLI's score output names it), with a suffix
/// _2, … when the data already have such a column.
struct AddedColumns {
    std::string score, outlier, index;
};
AddedColumns addedColumnNames(const Dataset& data);

/// CSV: the columns of writeCsv, then score, outlier and index (a name already taken gets a suffix _2, …).
void writePointsCsv(std::ostream& out, const PointExport& e);
/// Binary little-endian PLY with one vertex element: x, y, z, the other features, sigma_ columns,
/// label, score (double), outlier (uchar) and index (int). PLY needs x, y and z: features named so are used; other
/// data need p >= 3 and their first three features are written as x, y, z (a comment names them).
/// Spaces in names become '_'. DataError for p < 3 without x, y, z.
void writePointsPly(std::ostream& out, const PointExport& e);
/// Writes `path` atomically in the format of its extension (pointFormatFor).
void writePoints(const std::string& path, const PointExport& e, const std::vector<std::string>& inputs = {});

} // namespace olens
