#pragma once
// The scatter-plot matrix's numbers, without a window: an m×m grid of cells for m chosen features
// (cell (r, c) plots feature c across, feature r up; the diagonal holds feature r's histogram),
// each feature's padded value range, the value ↔ pixel maps, which cell a pixel falls in, the
// rows a box drawn in a cell selects (by value, so points not drawn after decimation count too),
// and the decimation of large data sets.
#include <Eigen/Core>

#include <vector>

namespace olens {

struct SplomRect {
    double x = 0.0, y = 0.0, w = 0.0, h = 0.0; ///< pixels, y down (Qt's widget coordinates)
    bool contains(double px, double py) const { return px >= x && px <= x + w && py >= y && py <= y + h; }
};

class SplomLayout {
public:
    SplomLayout() = default;
    /// Cells fill `area` (m×m, `gap` pixels between them); ranges from the columns `features` of
    /// X, widened by 5 % per side (a constant column by ±0.5) so no point sits on a cell's edge.
    SplomLayout(const Eigen::MatrixXd& X, std::vector<int> features, const SplomRect& area, double gap);

    int count() const { return static_cast<int>(m_features.size()); }
    const std::vector<int>& features() const { return m_features; }
    /// Value range shown for the k-th chosen feature (k < count()).
    double low(int k) const { return m_lo[static_cast<std::size_t>(k)]; }
    double high(int k) const { return m_hi[static_cast<std::size_t>(k)]; }

    SplomRect cell(int row, int col) const;
    /// The cell under a pixel as (row, col), or (−1, −1) outside every cell (in a gap too).
    std::pair<int, int> cellAt(double px, double py) const;

    /// Pixel of value v of chosen feature `col` across cell column `col` (and back); same for rows.
    double toPixelX(int col, double v) const;
    double toPixelY(int row, double v) const;
    double valueAtX(int col, double px) const;
    double valueAtY(int row, double py) const;

    /// Rows of X inside the box spanned by two pixel corners in cell (row, col) (clipped to the
    /// cell; the border counts): feature col within the box's x values and, off the diagonal,
    /// feature row within its y values (on the diagonal, the histogram, only x counts). Sorted.
    std::vector<int> rowsInBox(const Eigen::MatrixXd& X, int row, int col, double x0, double y0, double x1,
                               double y1) const;

private:
    std::vector<int> m_features;
    std::vector<double> m_lo, m_hi;
    SplomRect m_area;
    double m_gap = 0.0;
    static constexpr double kMaxAspect = 1.6;
    double m_w = 0.0, m_h = 0.0; // cell width and height
};

/// The features a matrix starts with: the first min(p, maxCount).
std::vector<int> splomDefaultFeatures(int p, int maxCount = 6);

/// Rows drawn when there are more than `maxPoints`: every ⌈n / maxPoints⌉-th row, plus every row
/// in `always` (the selection: it stays visible). Sorted, distinct. All rows when n ≤ maxPoints.
std::vector<int> splomDecimation(int n, int maxPoints, const std::vector<int>& always = {});

} // namespace olens
