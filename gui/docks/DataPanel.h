#pragma once
// The Data dock: what is loaded (file, n, p, features, label column, uncertainty columns).
#include <QWidget>

class QLabel;
class QTableWidget;

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
    QTableWidget* m_features;
};

} // namespace olens
