#pragma once
// A small 2D plot drawn with QPainter, used consistently for every chart in the app (loss curve,
// ROC, PR, score histograms): axes with ticks and numbers, axis titles, a legend, line and bar
// series, an optional draggable vertical marker (e.g. the decision threshold).
#include <QColor>
#include <QPair>
#include <QString>
#include <QVector>
#include <QWidget>
#include <memory>

class QPainter;

namespace olens {

class PlotWidget : public QWidget {
    Q_OBJECT
public:
    explicit PlotWidget(QWidget* parent = nullptr);
    /// View → Text size: the application font × scale for every text of the plot (titles, ticks).
    void setTextScale(double scale);

    void setTitle(const QString& title);
    QString title() const;
    void setAxisTitles(const QString& x, const QString& y);
    /// Fixed axis ranges; when not set the ranges follow the data (with a small margin).
    void setXRange(double lo, double hi);
    void setYRange(double lo, double hi);
    void setAutoRange();
    void setLogY(bool on);

    void clear();
    /// A polyline; returns its series id.
    int addLine(const QVector<double>& x, const QVector<double>& y, const QColor& colour, const QString& name,
                double width = 1.5, Qt::PenStyle style = Qt::SolidLine);
    /// Histogram bars: edges has bars+1 values; counts one value per bar; drawn semi-transparent.
    int addBars(const QVector<double>& edges, const QVector<double>& counts, const QColor& colour, const QString& name);
    /// Isolated dots (e.g. an operating point on a curve); returns its series id.
    int addPoints(const QVector<double>& x, const QVector<double>& y, const QColor& colour, const QString& name,
                  double radius = 4.0);
    /// Replaces the data of an existing line or point series (cheap; for live loss curves).
    void setLineData(int series, const QVector<double>& x, const QVector<double>& y);
    /// Renames a series (its legend entry; empty: not in the legend).
    void setSeriesName(int series, const QString& name);
    /// The data of a series (x, y), e.g. for tests.
    QPair<QVector<double>, QVector<double>> seriesData(int series) const;

    /// A vertical marker at x; draggable with the mouse when enabled (emits markerMoved).
    void setMarker(double x, bool visible = true);
    void setMarkerDraggable(bool on);
    double marker() const;
    /// Text printed before the marker's value at the top of the plot (e.g. "threshold").
    void setMarkerLabel(const QString& label);

    /// The axis titles as drawn (x, y): whole, or elided with "…" when even a smaller font is too long.
    QPair<QString, QString> shownAxisTitles() const;

    /// The data area in widget pixels (inside the axes).
    QRectF plotRect() const;

    /// The legend's box in widget pixels (empty without named series): inside the plot where it
    /// hides no data, else outside the plot area (which then shrinks).
    QRectF legendRect() const;

    /// Widget pixel position of a data point (for tests and tooltips).
    QPointF toPixel(double x, double y) const;
    /// Data x for a widget pixel column.
    double toDataX(double px) const;

    /// Paints the plot, laid out at the widget's size, onto any painter (figures: PlotExporter).
    void paintPlot(QPainter& p, bool background) const;
    /// A hidden copy of the plot laid out at `size` with text at `textScale` × the application
    /// font: a figure at the size asked, not the dock's (a 323 × 217 dock put "inlier… / outli…"
    /// over the threshold label at 2.4× text, issue #52). The copy shares nothing with this one.
    std::unique_ptr<PlotWidget> figureCopy(QSize size, double textScale) const;
    bool hasData() const;

    /// Tick values of a linear axis over [lo, hi]: multiples of 1, 2 or 5 × 10^k, about target of them.
    static QVector<double> niceTicks(double lo, double hi, int target);

signals:
    void markerMoved(double x);

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    QSize sizeHint() const override { return {320, 220}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

private:
    struct Impl;
    std::shared_ptr<Impl> d;
};

} // namespace olens
