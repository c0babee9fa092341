#pragma once
// Which rows a detector is fitted on ("fit on a part, score all", issue #22 item 6): all rows, given
// rows (the GUI's selection, the CLI's rows file), the rows with one label value (e.g. only the
// inliers, as in the GODS paper's one-class protocol), or a seeded random fraction. Every row is
// scored; the resolved rows are the training rows.
#include "data/Dataset.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace olens {

struct FitSubset {
    enum class Kind { All, Rows, Label, Fraction };
    Kind kind = Kind::All;
    std::vector<int> rows;   ///< Rows: the row indices (empty in the GUI = "the selection at training time")
    std::string label;       ///< Label: a label value ("0") or a text label's name ("normal")
    double fraction = 1.0;   ///< Fraction: in (0, 1]
    std::uint64_t seed = 0;  ///< Fraction: the shuffle's seed

    bool isAll() const { return kind == Kind::All; }
    bool operator==(const FitSubset& o) const
    {
        return kind == o.kind && rows == o.rows && label == o.label && fraction == o.fraction && seed == o.seed;
    }
};

/// The training rows of `data`: sorted, distinct, non-empty. Fraction takes round(f·n) rows (at
/// least 1) of a Fisher–Yates shuffle seeded by `seed` (the same rows on every run and platform).
/// Throws DataError when the subset is empty, names rows outside the data, or needs labels the
/// data lack.
std::vector<int> resolveFitSubset(const FitSubset& subset, const Dataset& data);

/// "all", "label:VALUE", "fraction:F[:SEED]" (CLI --fit-on); "rows:..." is the caller's (a file).
/// Throws ParamError on anything else.
FitSubset parseFitSubset(const std::string& text);

/// Short text for logs and the status bar: "all rows", "label 0", "fraction 0.5 (seed 7)", "12 rows".
std::string describe(const FitSubset& subset);

/// {"kind": "all"|"rows"|"label"|"fraction", "rows": [...], "label": "0", "fraction": 0.5, "seed": 7}.
nlohmann::json toJson(const FitSubset& subset);
/// Strict reader; throws DataError naming `path` ("session /fit_on/kind: ...").
FitSubset fitSubsetFromJson(const nlohmann::json& j, const std::string& path);

} // namespace olens
