#pragma once
// Text data loading: CSV / TSV / semicolon / whitespace separated, with or without a header,
// '#' comments, quoted fields. Every malformed input raises DataError naming file:line:column.
#include "data/Dataset.h"

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace olens {

struct LoadOptions {
    /// Column holding ground truth: a header name, or a 1-based column number when all digits
    /// (a header name made of digits wins). Missing is fine unless labelRequired is set.
    std::string labelColumn = "label";
    bool labelRequired = false;
    /// Columns named sigmaPrefix + feature hold that feature's standard deviation.
    std::string sigmaPrefix = "sigma_";
    /// Columns (names, or 1-based numbers) that are ignored entirely.
    std::vector<std::string> excludeColumns;
    /// When true, empty cells and NaN become NaN (masks for imputation) instead of an error.
    bool allowMissing = false;
};

/// Reads a text data file. Throws DataError with "file:line:column: reason 'text'".
Dataset loadDataset(const std::string& path, const LoadOptions& options = {});

/// Parses text already in memory; sourceName is used in error messages.
Dataset parseDataset(std::string_view text, const std::string& sourceName,
                     const LoadOptions& options = {});

/// Writes features (then sigma_ columns, then the label column) as CSV with a header.
void writeCsv(std::ostream& out, const Dataset& data);
void writeCsv(const std::string& path, const Dataset& data);

/// Scores in the CLI's contract: index,score,outlier[,label] (index = 0-based row).
void writeScores(std::ostream& out, const Eigen::VectorXd& scores, const Eigen::VectorXi& outlier,
                 const Eigen::VectorXd* labels = nullptr);

/// Writes a file atomically: the content goes to a temporary file next to `path`, which replaces
/// `path` only when everything was written (no truncated file on failure). Throws DataError.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

} // namespace olens
