#pragma once
// The one key of compare mode's figure (small multiples): a colour bar labelled "score
// percentile" shared by every panel (each panel colours by the percentile of its own training
// scores, so one bar reads for all detectors), the threshold quantile marked on it, and one legend
// of what every panel draws (threshold contour, percentile contours, points). In the decision
// display: the two region colours and the two point colours instead of the bar.
#include <QWidget>

#include <memory>

namespace olens {

class PointColouring;

class CompareKey : public QWidget {
    Q_OBJECT
public:
    explicit CompareKey(QWidget* parent = nullptr);
    ~CompareKey() override;

    void setQuantile(double q);
    void setDecisionOnly(bool on);
    /// 3-D panels draw the threshold as an iso-surface and no percentile contours.
    void setThreeD(bool on);
    /// Whether 3-D panels draw the threshold surface (not for a big cloud: at a 0.999 cut a
    /// neighbour field's surface is a froth around every sparse point and hid the cloud).
    void setSurfaceShown(bool on);
    bool surfaceShown() const { return m_surface; }
    bool decisionOnly() const { return m_decision; }
    /// The bar's title (for tests).
    static QString barTitle();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    std::unique_ptr<PointColouring> m_colours; // the colour map the panels use
    double m_quantile = 0.95;
    bool m_decision = false;
    bool m_threeD = false;
    bool m_surface = true;
};

} // namespace olens
