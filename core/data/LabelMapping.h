#pragma once
// Turns the raw values of a label column into Dataset::labels (shared by the text and PLY readers).
// Never numbers text labels by first appearance: for outlier flags the outlier value is named
// (LoadOptions::outlierLabel) or recognised; otherwise the labels are refused (labelRequired) or
// dropped with a warning, so classes can never be swapped silently.
#include "data/DataLoader.h"

#include <string_view>
#include <vector>

namespace olens {

/// `numeric`: the column held numbers only (`values`); else `texts` holds every row's text.
/// Fills data.labels / data.labelNames / data.warnings, or clears data.labelName (labels dropped).
/// Throws DataError naming `source` when a required mapping is missing.
void mapLabels(Dataset& data, bool numeric, const std::vector<double>& values,
               const std::vector<std::string_view>& texts, const LoadOptions& options,
               const std::string& source);

/// True for values that read as "outlier" (outlier, anomaly, anomalous, abnormal, novelty, 1,
/// true, yes; case-insensitive) and as "inlier" (inlier, normal, nominal, 0, false, no).
bool isOutlierWord(std::string_view text);
bool isInlierWord(std::string_view text);

/// The names the default label column ("label", LoadOptions::labelColumn) answers to in every
/// reader, text tables and PLY alike: "label", else "class". Before, a CSV column "class" was
/// silently a feature while the PLY reader took it as the label.
bool isDefaultLabelName(const std::string& name);

} // namespace olens
