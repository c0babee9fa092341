#pragma once
// The shared document: the loaded data set, the current fitted result, the selection and the
// decision threshold. Views and docks observe it, never each other.
#include "Dataset.h"
#include "Detector.h"
#include "Geometry.h"
#include "Normalizer.h"

#include <QObject>
#include <QString>
#include <memory>

namespace olens {

/// A trained detector and everything derived from it for the loaded data.
struct FitResult {
    std::shared_ptr<const Detector> detector; ///< fitted on normalizer.transform(data.X)
    Normalizer normalizer;                    ///< fitted on the training data
    Eigen::VectorXd scores;                   ///< one per sample of the dataset (training scores)
    Eigen::VectorXi outlier;                  ///< the detector's own decision on the samples
    double threshold = 0.0;                   ///< the detector's decision threshold on the score
    double fitSeconds = 0.0;
    std::string detectorId;
    std::vector<std::string> explanations;    ///< per sample, may be empty
    Geometry geometry;                        ///< in normalised coordinates
};

class DataDocument : public QObject {
    Q_OBJECT
public:
    explicit DataDocument(QObject* parent = nullptr) : QObject(parent) {}

    const Dataset& dataset() const { return m_data; }
    QString filePath() const { return m_path; }
    bool isEmpty() const { return m_data.rows() == 0; }

    /// Replaces the data; clears the result (it belonged to the previous data).
    void setDataset(Dataset data, const QString& path);

    int selectedPoint() const { return m_selected; }
    /// Selects a point (-1 clears); emits selectionChanged when it changes.
    void setSelectedPoint(int index);

    /// The current trained result, or null.
    std::shared_ptr<const FitResult> result() const { return m_result; }
    /// Installs a new result (threshold resets to the detector's own) or clears it (nullptr).
    void setResult(std::shared_ptr<const FitResult> result);

    /// The decision threshold used for emphasised contours and live metrics (user-adjustable).
    double threshold() const { return m_threshold; }
    void setThreshold(double t);

    /// Number of top-ranked points highlighted in the view (0 = none).
    int topK() const { return m_topK; }
    void setTopK(int k);

    /// Geometry streamed while training (normalised coordinates), or null when not training,
    /// with the normaliser of that training.
    std::shared_ptr<const Geometry> liveGeometry() const { return m_live; }
    std::shared_ptr<const Normalizer> liveNormalizer() const { return m_liveNorm; }
    void setLiveGeometry(std::shared_ptr<const Geometry> g, std::shared_ptr<const Normalizer> normalizer = nullptr);

    /// Sample indices sorted by decreasing score (empty without a result).
    const std::vector<int>& ranking() const { return m_ranking; }

signals:
    void datasetChanged();
    void selectionChanged(int index);
    void resultChanged();
    void thresholdChanged(double threshold);
    void topKChanged(int k);
    void liveGeometryChanged();

private:
    Dataset m_data;
    QString m_path;
    int m_selected = -1;
    std::shared_ptr<const FitResult> m_result;
    std::shared_ptr<const Geometry> m_live;
    std::shared_ptr<const Normalizer> m_liveNorm;
    std::vector<int> m_ranking;
    double m_threshold = 0.0;
    int m_topK = 0;
};

/// Reads CSV/TSV/TXT/XYZ through the core loader and PLY through VTK's reader.
/// Throws olens::DataError with a message naming the file on failure.
Dataset loadCloudFile(const QString& path);

} // namespace olens
