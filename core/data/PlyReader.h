#pragma once
// The one PLY reader of OutlierLens (CLI and GUI): ASCII, binary little and big endian.
// Validates the header before allocating anything: the vertex count is a positive integer
// consistent with the bytes that follow the header, x/y/z are scalar properties, list properties
// are skipped (or refused for x/y/z); a missing end_header, a short body or a bad value is a
// DataError naming the file, the line (ASCII) or vertex, and the count.
// Columns: x, y, z, then every other scalar vertex property in file order (nx, intensity, …);
// a property named like LoadOptions::labelColumn, or "label"/"class", is the label column;
// sigma_<feature> properties (LoadOptions::sigmaPrefix) are that feature's sigma, as in text tables.
#include "data/DataLoader.h"

#include <cstdint>
#include <string_view>

namespace olens {

/// True when `bytes` starts with the PLY magic line ("ply" + LF or CRLF).
bool looksLikePly(std::string_view bytes);

/// Parses a complete PLY file held in memory; `source` names it in messages.
Dataset parsePly(std::string_view bytes, const std::string& source, const LoadOptions& options = {});

/// The first rows of a PLY file for a preview (File → Import): every scalar vertex property as a
/// column, in the order a load gives them (x, y, z, then the others in file order; no label or
/// sigma split, nothing excluded). `bytes` may be the file's beginning only: it must hold the
/// header and the first min(maxRows, vertices) vertices (the elements before them, if any, too).
struct PlyPreview {
    Dataset data;                 ///< featureNames = the property names; X = the first rows
    std::uint64_t vertices = 0;   ///< the vertex count the header declares
};
PlyPreview previewPly(std::string_view bytes, const std::string& source, std::size_t maxRows);

} // namespace olens
