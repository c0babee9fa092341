#pragma once
// The Data dock: what is loaded (file, n, p, features, label column, uncertainty columns). The
// feature table is a model over per-column statistics, so 10 000 columns cost 3 vectors, not 40 000 items.
#include <QWidget>

class QLabel;
class QTableView;

namespace olens {

class DataDocument;

class DataPanel : public QWidget {
    Q_OBJECT
public:
    explicit DataPanel(DataDocument* document, QWidget* parent = nullptr);

private slots:
    void refresh();

private:
    DataDocument* m_doc;
    QLabel* m_summary;
    class FeatureTable;
    FeatureTable* m_model;
    QTableView* m_features;
};

} // namespace olens
