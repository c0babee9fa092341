#pragma once
// Text data loading: CSV / TSV / semicolon / whitespace separated, with or without a header,
// '#' comments, quoted fields. Every malformed input raises DataError naming file:line:column.
#include "data/Dataset.h"

#include <cstdint>

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace olens {

/// Most columns a text table may have: a longer first line is refused before its cells are kept
/// (a 100 MB line of 50 million cells took 5.7 GB and 81 s to be refused for another reason).
constexpr std::size_t kMaxColumns = 1000000;

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

    /// What the label column means. OutlierFlags (score, evaluate, the GUI): 0 = inlier, non-zero
    /// = outlier; text labels need outlierLabel or a recognised value (see mapLabels). ClassIds
    /// (verify, perturb): any values, text labels numbered in sorted order.
    enum class LabelMeaning { OutlierFlags, ClassIds };
    LabelMeaning labelMeaning = LabelMeaning::OutlierFlags;
    /// The label value (text or number) that marks an outlier (CLI --outlier-label). Empty: text
    /// labels are mapped only when exactly one value reads as an outlier ("outlier", "anomaly",
    /// "1", "true", …) or, with two values, one reads as an inlier ("inlier", "normal", "0", …).
    std::string outlierLabel;
    /// Largest input read (bytes); larger files are refused before anything is allocated
    /// (CLI --max-input-mb). Also bounds reads from devices and pipes.
    std::uint64_t maxBytes = std::uint64_t(1) << 30;
};

/// Reads a data file: PLY (by its "ply" magic line, see PlyReader.h) or a text table. The read is
/// bounded by options.maxBytes; binary data in a text table is refused early. Throws DataError
/// with "file:line:column: reason 'text'".
Dataset loadDataset(const std::string& path, const LoadOptions& options = {});

/// Parses text already in memory; sourceName is used in error messages.
Dataset parseDataset(std::string_view text, const std::string& sourceName,
                     const LoadOptions& options = {});

} // namespace olens
