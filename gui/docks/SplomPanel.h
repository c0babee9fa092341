#pragma once
// The Scatter-plot matrix window (View → Scatter-plot matrix): the matrix of the chosen features
// (a checkable list picks up to SplomWidget::kMaxFeatures of them; the first 6 by default), coloured
// like the central view and sharing the document's selection, and under it the features that drive
// the current point's score when the detector can say (FeatureAttribution capability).
#include <QWidget>
#include <memory>
#include <vector>

class QLabel;
class QListView;

namespace olens {

class AttributionChart;
class CloudView;
class DataDocument;
class SplomWidget;
struct Dataset;
struct FitResult;

class SplomPanel : public QWidget {
    Q_OBJECT
public:
    SplomPanel(DataDocument* document, CloudView* view, QWidget* parent = nullptr);

    SplomWidget* matrix() const { return m_matrix; }
    AttributionChart* attribution() const { return m_chart; }
    /// The checkable feature list (a model over the names: 20 000 features are one string list,
    /// not 20 000 items); tick with setData(index, Qt::Checked, Qt::CheckStateRole).
    QListView* featureList() const { return m_list; }
    /// The line under the matrix (decimation, feature limit).
    QString noteText() const;
    /// Checks exactly these features in the list (at most SplomWidget::kMaxFeatures are kept).
    void setFeatures(const std::vector<int>& features);

private:
    void onDataset();
    void onFeaturesEdited();
    void updateAttribution();
    void updateNote();

    DataDocument* m_doc;
    CloudView* m_view;
    class FeatureChecklist;
    FeatureChecklist* m_checklist;
    QListView* m_list;
    SplomWidget* m_matrix;
    AttributionChart* m_chart;
    QLabel* m_note;
    bool m_limitHit = false;
    /// Whether the result's model was fitted on the data's rows (weak: a cached answer keeps
    /// neither a replaced result nor replaced data alive, and dies with them).
    struct FittedOn {
        std::weak_ptr<const FitResult> result;
        std::weak_ptr<const Dataset> data;
        bool answer = false;
    } m_fittedOn;
};

} // namespace olens
