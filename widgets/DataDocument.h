#pragma once
// The shared document: the loaded data set. Views and docks observe it, never each other.
#include "Dataset.h"

#include <QObject>
#include <QString>

namespace olens {

class DataDocument : public QObject {
    Q_OBJECT
public:
    explicit DataDocument(QObject* parent = nullptr) : QObject(parent) {}

    const Dataset& dataset() const { return m_data; }
    QString filePath() const { return m_path; }
    bool isEmpty() const { return m_data.rows() == 0; }

    /// Replaces the data (the previous data stays if loading failed before this call).
    void setDataset(Dataset data, const QString& path);

    int selectedPoint() const { return m_selected; }
    /// Selects a point (-1 clears); emits selectionChanged when it changes.
    void setSelectedPoint(int index);

signals:
    void datasetChanged();
    void selectionChanged(int index);

private:
    Dataset m_data;
    QString m_path;
    int m_selected = -1;
};

/// Reads CSV/TSV/TXT/XYZ through the core loader and PLY through VTK's reader.
/// Throws olens::DataError with a message naming the file on failure.
Dataset loadCloudFile(const QString& path);

} // namespace olens
