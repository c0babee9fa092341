#pragma once
// The scatter-plot matrix (issue #22 item 5): small multiples of the chosen feature pairs (cell
// (r, c): feature c across, feature r up; the diagonal: feature r's histogram, the selection's in
// orange), points coloured like the main view, the document's selection linked both ways — a box
// dragged in a cell selects the rows inside it by value (Shift adds, Ctrl subtracts), a click picks
// the nearest point (Shift-click adds it, Ctrl-click removes it). Painted with QPainter into a
// cached image; above kMaxPoints rows every k-th row is drawn (plus the selection) and it says so.
#include "display/SplomLayout.h"

#include <QImage>
#include <QRgb>
#include <QWidget>
#include <functional>
#include <vector>

namespace olens {

class DataDocument;

class SplomWidget : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxPoints = 10000;
    static constexpr int kMaxFeatures = 8;

    explicit SplomWidget(DataDocument* document, QWidget* parent = nullptr);

    /// The features shown (column indices; at most kMaxFeatures are kept, others ignored).
    void setFeatures(std::vector<int> features);
    const std::vector<int>& features() const { return m_features; }
    /// One colour per row (the main view's); other sizes fall back to label colours.
    /// Where the points' colours come from (the 3-D view's, row by row: a copy of every row's colour
    /// was 80 MB at 20 M rows for the ≤ kMaxPoints drawn, issue #54); `fallback` is returned for a
    /// row it has no colour for. Call colorsChanged() when they change.
    using ColourSource = std::function<QRgb(int row, QRgb fallback)>;
    void setColourSource(ColourSource source);
    void coloursChanged() { invalidate(); }
    /// The cells as last laid out for the current size (widget pixels).
    const SplomLayout& layout() const { return m_layout; }
    /// Rows drawn (all of them unless decimated).
    int drawnCount() const { return static_cast<int>(m_drawn.size()); }
    bool isDecimated() const;

    QSize sizeHint() const override { return {640, 640}; }
    QSize minimumSizeHint() const override { return {260, 260}; }

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

private:
    void invalidate();
    void relayout();
    void render();
    void drawPoints(QImage& img, const std::vector<QRgb>& colours);
    void drawHistogram(QPainter& p, int k);
    void drawLabels(QPainter& p);
    QRgb colourOf(int row) const;
    int nearestDrawn(int row, int col, QPointF pos) const;

    DataDocument* m_doc;
    std::vector<int> m_features;
    ColourSource m_colourSource;
    SplomLayout m_layout;
    std::vector<int> m_drawn; // rows drawn, in drawing order (low scores first: outliers on top)
    QImage m_cache;
    bool m_dirty = true;
    // Box being dragged: its cell and corners (widget pixels); m_boxCell.first < 0 when none.
    std::pair<int, int> m_boxCell{-1, -1};
    QPointF m_boxStart, m_boxEnd;
};

} // namespace olens
