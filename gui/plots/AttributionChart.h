#pragma once
// A small horizontal bar chart of the features that drive one point's score (the detector's
// FeatureAttribution capability): the largest contributions by magnitude, feature names on the
// axis, each bar's value and share of the total; negative contributions (mcd) point left.
#include <Eigen/Core>
#include <QStringList>
#include <QWidget>
#include <string>
#include <vector>

namespace olens {

class AttributionChart : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxBars = 8;
    explicit AttributionChart(QWidget* parent = nullptr);

    /// Shows the contributions (one per feature name) under a title.
    void setContributions(const Eigen::VectorXd& contributions, const std::vector<std::string>& names,
                          const QString& title);
    /// Shows a message instead of bars (no point, no capability).
    void showMessage(const QString& message);

    QString title() const { return m_title; }
    /// The features drawn, top bar first (for tests).
    QStringList shownFeatures() const;
    const std::vector<double>& shownValues() const { return m_values; }

    QSize sizeHint() const override { return {420, 200}; }
    /// Tall enough for the title and kMaxBars readable rows.
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    QString m_title;
    QStringList m_names;
    std::vector<double> m_values;
    double m_total = 0.0;
};

} // namespace olens
